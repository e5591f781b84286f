"""The hall screen bounded like a public web server: anyone on the hall Wi-Fi can open it.

What one device on the hall LAN may hold (the fields of :class:`~hub.web.config.WebLimits`,
set in ``[screen]``), and how the web server keeps to its share of the
hub's file descriptors so that the station link and the control socket always have theirs:

* **connections** — at most ``per_address`` open at once from one address
  and ``max_connections`` in total (never more than a quarter of the process's
  descriptor limit, :func:`~hub.web.config.descriptor_share`). One over is closed the moment it is
  accepted, before a byte is read: it costs the hub one descriptor for a few microseconds.
* **the request head** — a connection must deliver a complete request head within
  ``header_timeout`` of being accepted (and of its last answer, when kept
  alive), however slowly it trickles bytes: what ends a slowloris.
* **live pages** (``/events``) — at most ``streams_per_address`` from one
  address, ``max_clients`` in total; a page that does not read what it is sent for
  ``write_timeout`` is dropped (its browser reconnects).
* **the projector** — addresses in ``projector`` (loopback by default: the
  hub's own machine usually drives the projector over HDMI; add the projector PC's address
  in ``[screen] projector``) have ``reserved`` places beyond every cap, so a
  full server still serves the projector. Whatever its address, the projector's page opened
  with its token (``/projector?k=TOKEN``, printed by ``hub serve``) has ``reserved`` live
  pages of its own (:class:`TokenReserve`) that no other device's streams count against:
  a flood from its own address (a NAT it shares, the hub's own machine) cannot take them.
* **the newest connection makes way for itself** — when an address (or the whole server)
  is at its connection cap, a new connection takes the place of that address's oldest one
  (at the total cap: of the address holding the most), as the station link's handshake
  slots do — first the oldest whose request has been read (it had its answer or its live
  page), then the oldest still sending its request line once it has had 0.25 s for it
  (a newcomer finding only younger ones is refused): what a flood holds is its own old
  connections, and the newest one may be the projector reconnecting. Only a connection
  whose request line carries the projector's token is never pushed out, so a device
  flooding from the projector's own address churns through its own places while the
  projector keeps its page and its live stream.

IPv6 addresses count per /64 (one device may use many addresses of its network). Refusals
are logged at most once a minute per address, with the number held back
(:class:`~shared.protocol.PeerLog`); "Too many open files" from the event loop's accept, if
the process ever runs out anyway, at most once a minute
(:func:`hub.web.descriptors.throttle_descriptor_errors`).

The gate sits in front of aiohttp (:class:`GatedSite`): aiohttp offers a header/idle timeout
(its ``keepalive_timeout`` runs from accept until a complete request head, and again after
each answer) and head-size limits, but no connection count per address or in total.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from samoobsluha.shared.protocol import PeerLog

log = logging.getLogger("hub.web")

MAX_LINE = 4096  # a request line longer than this is refused by aiohttp anyway
FRESH_GRACE = 0.25  # s: a connection not pushed out before it could send its request line


def address_key(host: str) -> str:
    """What a per-address cap counts: the IPv4 address, an IPv4-mapped IPv6 address as
    IPv4, any other IPv6 address by its /64."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if ip.is_loopback:
            return str(ip)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class TokenReserve:
    """The projector's live pages, recognised by its token: at most ``size`` at once; a new
    one takes the place of the oldest (a projector that reconnects, or a second screen,
    always gets in; the token printed for the operator is the only way in)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self.held: dict[asyncio.Queue[bytes | None], None] = {}  # oldest first
        self.replaced = 0

    def admit(self, queue: asyncio.Queue[bytes | None]) -> None:
        while len(self.held) >= self.size:
            oldest = next(iter(self.held))
            del self.held[oldest]
            self.replaced += 1
            while not oldest.empty():  # drop what it has not sent: it ends at once
                oldest.get_nowait()
            oldest.put_nowait(None)
        self.held[queue] = None

    def release(self, queue: asyncio.Queue[bytes | None]) -> None:
        self.held.pop(queue, None)


class Counted:
    """Holders per address and in total, with a reserve for the projector's addresses."""

    def __init__(
        self,
        what: str,
        per_address: int,
        total: int,
        projector: Iterable[str],
        reserved: int,
        peer_log: PeerLog,
    ) -> None:
        self.what = what
        self.per_address = per_address
        self.total_cap = total
        self.reserved = reserved
        self.networks = [ipaddress.ip_network(p, strict=False) for p in projector]
        self.held: Counter[str] = Counter()
        self.total = 0
        self.refused = 0
        self.replaced = 0  # connections closed to make way for a newer one
        self.peer_log = peer_log
        self.token = b""  # the projector's token: a request line with k=TOKEN stays
        # per address, the holders that may be pushed out, oldest first: each with the
        # callable that closes it (hub.web.limits._Gate); those whose request line has
        # been read go first (they had their answer or their live page), then those still
        # sending it (the newest of which may be the projector's)
        self.movable: dict[str, dict[Any, Callable[[], None]]] = {}
        self.answered: dict[str, dict[Any, Callable[[], None]]] = {}
        self.since: dict[Any, float] = {}  # when each movable holder was accepted
        self.grace = FRESH_GRACE
        self.now: Callable[[], float] = time.monotonic

    def is_projector(self, host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self.networks)

    def acquire(self, host: str, make_way: bool = False) -> str | None:
        """The key to :meth:`release` later, or None (refused, and logged). ``make_way``:
        at a cap, close the oldest movable holder (of this address, or at the total cap of
        the address holding the most) and take its place."""
        key = address_key(host)
        extra = self.reserved if self.is_projector(host) else 0
        for _attempt in range(2):
            if self.held[key] >= self.per_address + extra:
                reason = f"{self.per_address} from one address"
                victim = key
            elif self.total >= self.total_cap + extra:
                reason = f"{self.total_cap} in total"
                victim = max(
                    {*self.movable, *self.answered}, key=lambda k: self.held[k], default=key
                )
            else:
                self.held[key] += 1
                self.total += 1
                return key
            if not make_way or not self._close_oldest(victim, reason):
                break
        self.refused += 1
        self.peer_log.warning(
            f"{self.what}:{key}", "hall screen: %s from %s refused (%s)", self.what, key, reason
        )
        return None

    def release(self, key: str) -> None:
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]
        self.total -= 1

    def movable_holder(self, key: str, holder: Any, close: Callable[[], None]) -> None:
        """``holder`` (of ``key``) may be pushed out for a newer connection."""
        self.movable.setdefault(key, {})[holder] = close
        self.since[holder] = self.now()

    def line_read(self, key: str, holder: Any) -> None:
        """``holder``'s request line was read (not the projector's): it goes first."""
        close = self.movable.get(key, {}).get(holder)
        if close is not None:
            since = self.since.get(holder, 0.0)
            self.settled(key, holder)
            self.answered.setdefault(key, {})[holder] = close
            self.since[holder] = since

    def settled(self, key: str, holder: Any) -> None:
        """``holder`` is the projector's (or is gone): it is not pushed out."""
        self.since.pop(holder, None)
        for table in (self.movable, self.answered):
            mine = table.get(key)
            if mine is not None:
                mine.pop(holder, None)
                if not mine:
                    del table[key]

    def _close_oldest(self, key: str, reason: str) -> bool:
        mine = self.answered.get(key) or self.movable.get(key)
        if not mine:
            return False
        holder = next(iter(mine))
        if key not in self.answered and self.now() - self.since.get(holder, 0.0) < self.grace:
            # every one left is still within its first moments, sending its request
            # line (the projector's among them, maybe): the newcomer waits instead
            return False
        close = mine[holder]
        self.settled(key, holder)
        close()  # releases its place (connection_lost may come later: it is counted now)
        self.replaced += 1
        self.peer_log.warning(
            f"{self.what}:{key}",
            "hall screen: oldest %s from %s closed for a newer one (%s)",
            self.what,
            key,
            reason,
        )
        return True


class _Gate(asyncio.Protocol):
    """One accepted connection: admitted (then everything goes to aiohttp's handler) or
    closed at once."""

    __slots__ = ("_gates", "_handler", "_head", "_key", "_make", "_transport")

    def __init__(self, gates: Counted, make: Callable[[], Any]) -> None:
        self._gates = gates
        self._make = make
        self._handler: Any = None
        self._key: str | None = None
        self._head: bytes | None = b""  # the request line so far (None: it has been read)
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else ""
        self._key = self._gates.acquire(host, make_way=True)
        if self._key is None:
            transport.abort()
            return
        self._transport = transport
        self._gates.movable_holder(self._key, self, self._push_out)
        self._handler = self._make()
        self._handler.connection_made(transport)

    def _push_out(self) -> None:
        """Closed to make way for a newer connection: its place is free at once."""
        if self._key is not None:
            self._gates.release(self._key)
            self._key = None
        if self._transport is not None:
            self._transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._key is not None:
            self._gates.settled(self._key, self)
            self._gates.release(self._key)
            self._key = None
        if self._handler is not None:
            self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head is not None and self._key is not None:
            # the first request line: the projector's (k=TOKEN) is never pushed out
            head = self._head + data
            end = head.find(b"\n")
            if end >= 0 or len(head) > MAX_LINE:
                line = head[: end if end >= 0 else MAX_LINE]
                self._head = None
                token = self._gates.token
                if token and b"k=" + token in line:
                    self._gates.settled(self._key, self)
                else:
                    self._gates.line_read(self._key, self)
            else:
                self._head = head
        if self._handler is not None:
            self._handler.data_received(data)

    def eof_received(self) -> bool | None:
        if self._handler is not None:
            return bool(self._handler.eof_received())
        return None

    def pause_writing(self) -> None:
        if self._handler is not None:
            self._handler.pause_writing()

    def resume_writing(self) -> None:
        if self._handler is not None:
            self._handler.resume_writing()


class GatedSite(web.BaseSite):
    """aiohttp's TCP site with :class:`Counted` in front of every accepted connection."""

    __slots__ = ("_gates", "_host", "_port")

    def __init__(
        self, runner: web.BaseRunner, host: str, port: int, gates: Counted, backlog: int = 128
    ) -> None:
        super().__init__(runner, backlog=backlog)
        self._host = host
        self._port = port
        self._gates = gates

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    @property
    def sockets(self) -> list[Any]:
        return list(getattr(self._server, "sockets", None) or [])

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        gates = self._gates
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Gate(gates, server),
            self._host,
            self._port,
            backlog=self._backlog,
            reuse_address=True,
        )

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
  full server still serves the projector.

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
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import web

from samoobsluha.shared.protocol import PeerLog

log = logging.getLogger("hub.web")


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
        self.peer_log = peer_log

    def is_projector(self, host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self.networks)

    def acquire(self, host: str) -> str | None:
        """The key to :meth:`release` later, or None (refused, and logged)."""
        key = address_key(host)
        extra = self.reserved if self.is_projector(host) else 0
        if self.held[key] >= self.per_address + extra:
            reason = f"{self.per_address} from one address"
        elif self.total >= self.total_cap + extra:
            reason = f"{self.total_cap} in total"
        else:
            self.held[key] += 1
            self.total += 1
            return key
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


class _Gate(asyncio.Protocol):
    """One accepted connection: admitted (then everything goes to aiohttp's handler) or
    closed at once."""

    __slots__ = ("_gates", "_handler", "_key", "_make")

    def __init__(self, gates: Counted, make: Callable[[], Any]) -> None:
        self._gates = gates
        self._make = make
        self._handler: Any = None
        self._key: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if peer else ""
        self._key = self._gates.acquire(host)
        if self._key is None:
            assert isinstance(transport, asyncio.Transport)
            transport.abort()
            return
        self._handler = self._make()
        self._handler.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._key is not None:
            self._gates.release(self._key)
            self._key = None
        if self._handler is not None:
            self._handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
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

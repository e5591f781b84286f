"""Another hub of this tournament on the hall network: never two hubs at once, unnoticed.

A copy of the hub's data started elsewhere (a restored backup, a copied card, the spare
hub switched on too early) announces the same tournament over zeroconf. The hub browses
for the service it announces itself and keeps, in :class:`RivalWatch`, every *other*
service that announces this tournament: its address, port, hub id, and whether it
announces this hall's public key (a copy of the data with the hall secret does; a device
merely repeating the tournament id does not). The dashboard's station screen and
``hub stations`` show each one loudly (``warn.two_hubs``), on both hubs, until it is gone.

mDNS is only a hint on a hostile network: a rival is a warning for the referee to go and
look at the address, never something the hub acts on. Bounded like every peer: at most
:data:`MAX_NAMES` services looked at, :data:`MAX_RIVALS` kept, each resolved within
:data:`RESOLVE_TIMEOUT`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from dataclasses import dataclass
from typing import Any

from samoobsluha.shared import protocol

log = logging.getLogger("hub.rivals")

RESOLVE_TIMEOUT = 1.5
MAX_NAMES = 256
MAX_RIVALS = 16
OWN_NAME_EVERY = 3.0  # seconds between looks for a copy announcing this hub's own name


@dataclass
class Rival:
    name: str  # the mDNS service name
    hub_id: str
    addresses: list[str]
    port: int
    same_key: bool  # announces this hall's public key: a copy of the hub's data
    seen_at: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hub": self.hub_id,
            "addresses": list(self.addresses),
            "port": self.port,
            "same_key": self.same_key,
            "seen_at": self.seen_at,
        }


class RivalWatch:
    """Browse for this tournament's hubs on ``zeroconf`` (the hub's own AsyncZeroconf's
    instance) and keep the ones that are not ``own_name``."""

    def __init__(
        self,
        zeroconf: Any,
        own_name: str,
        tournament: str,
        key_hex: str,
        own_port: int = 0,
        own_addresses: list[str] | None = None,
    ) -> None:
        self.zc = zeroconf
        self.own_name = own_name
        self.own_port = own_port
        self.own_addresses = set(own_addresses or [])
        self.tournament = tournament
        self.key_hex = key_hex
        self.rivals: dict[str, Rival] = {}
        self._names: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._browser: Any = None

    def start(self) -> None:
        from zeroconf.asyncio import AsyncServiceBrowser

        self._browser = AsyncServiceBrowser(
            self.zc, [protocol.SERVICE_TYPE], handlers=[self._on_change]
        )
        task = asyncio.ensure_future(self._watch_own_name())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _watch_own_name(self) -> None:
        """A copy of this hub's data has this hub's id, so it announces this very service
        name (zeroconf does not always rename it): the name then has a second SRV record
        (another port) or its host a second address. Looked up in the cache the browser
        keeps fresh, every :data:`OWN_NAME_EVERY` s; a record said goodbye to leaves it."""
        while True:
            try:
                self._ask_own_name()
                await asyncio.sleep(RESOLVE_TIMEOUT)
                self._check_own_name()
                for name in list(self._names):  # a record expired: that hub is gone
                    self._collect(name)
            except Exception:  # the cache's API is zeroconf's; never let the watch die
                log.exception("looking for a copy of this hub")
            await asyncio.sleep(OWN_NAME_EVERY)

    def _ask_own_name(self) -> None:
        """Ask the hall who has this hub's service name (SRV) and its host's address (A),
        with no known answers: a copy that started first is suppressed by known-answer
        suppression in the browser's questions (its PTR record is this hub's own), so it
        would never be heard otherwise. One small multicast question per look."""
        from zeroconf import DNSOutgoing, DNSQuestion, const

        out = DNSOutgoing(const._FLAGS_QR_QUERY)
        out.add_question(DNSQuestion(self.own_name, const._TYPE_SRV, const._CLASS_IN))
        out.add_question(DNSQuestion(self.own_name, const._TYPE_A, const._CLASS_IN))
        self.zc.async_send(out)

    def _check_own_name(self) -> None:
        self._collect(self.own_name)

    def _collect(self, name: str) -> None:
        """The hubs announcing service ``name`` right now, from the cache: one entry per
        (address, port) of its live SRV and A records that is not this hub. Two hubs may
        announce one name (a copy has this hub's id, and zeroconf does not always rename
        it), so a name is never taken for one hub."""
        from zeroconf import const, current_time_millis

        cache = self.zc.cache
        now = current_time_millis()  # zeroconf's own time base for its records

        def live(owner: str, kind: int) -> list[Any]:  # a goodbye leaves a record expiring
            records = cache.async_all_by_details(owner, kind, const._CLASS_IN)
            return [r for r in records if not r.is_expired(now)]

        txts = [_txt(r.text) for r in live(name, const._TYPE_TXT)]
        ours = [t for t in txts if t.get("tournament") == self.tournament]
        found: dict[tuple[str, int], None] = {}
        if ours:
            for srv in live(name, const._TYPE_SRV):
                addresses = [
                    str(ipaddress.ip_address(a.address)) for a in live(srv.server, const._TYPE_A)
                ]
                for address in addresses[:4] or ["?"]:
                    mine = (
                        name == self.own_name
                        and srv.port == self.own_port
                        and (address == "?" or address in self.own_addresses)
                    )
                    if not mine:
                        found[(address, srv.port)] = None
        prefix = f"{name} "
        current = {f"{prefix}{address}:{port}": (address, port) for address, port in found}
        for gone in [k for k in self.rivals if k.startswith(prefix) and k not in current]:
            del self.rivals[gone]
            log.warning("the other hub at %s is gone", gone[len(prefix) :])
        same_key = all(t.get("key") == self.key_hex for t in txts)
        hub_id = next((t.get("hub", "") for t in ours if t.get("hub")), name.split(".", 1)[0])
        for key, (address, port) in current.items():
            if key not in self.rivals and len(self.rivals) >= MAX_RIVALS:
                continue
            if key not in self.rivals:
                log.warning(
                    "ANOTHER HUB of tournament %s: %s at %s:%d (%s)",
                    self.tournament,
                    hub_id,
                    address,
                    port,
                    "the same hall key: a copy of this hub's data" if same_key else "another key",
                )
            self.rivals[key] = Rival(
                name=name,
                hub_id=hub_id[:64],
                addresses=[address],
                port=port,
                same_key=same_key,
                seen_at=time.time(),
            )

    async def close(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await self._browser.async_cancel()
            self._browser = None
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    def list(self) -> list[dict[str, Any]]:
        return [r.to_dict() for r in sorted(self.rivals.values(), key=lambda r: r.name)]

    def _on_change(self, zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        from zeroconf import ServiceStateChange

        if name == self.own_name:
            return  # a copy with this very name: _check_own_name
        if state_change is ServiceStateChange.Removed:
            self._names.discard(name)
            for key in [k for k in self.rivals if k.startswith(f"{name} ")]:
                del self.rivals[key]
                log.warning("the other hub %s is gone", key)
            return
        if len(self._names) >= MAX_NAMES and name not in self._names:
            return
        self._names.add(name)
        task = asyncio.ensure_future(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        """Ask for ``name``'s records (unless cached), then look at who announces it."""
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(protocol.SERVICE_TYPE, name)
        if not info.load_from_cache(self.zc):
            await info.async_request(self.zc, RESOLVE_TIMEOUT * 1000)
        self._collect(name)


def _txt(data: bytes) -> dict[str, str]:
    """A DNS-SD TXT record's ``key=value`` strings (each prefixed by its length)."""
    out: dict[str, str] = {}
    i = 0
    while i < len(data):
        n = data[i]
        item = data[i + 1 : i + 1 + n].decode(errors="replace")
        i += 1 + n
        k, _, v = item.partition("=")
        out.setdefault(k, v)
    return out

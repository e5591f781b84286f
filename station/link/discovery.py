"""Where the hub is: a configured ``host:port`` or the mDNS search for this tournament's hub.

mDNS is only a hint — anyone on the hall network can announce anything; the TCP
handshake and the pinned hub signature are the proof (station/sync.py tries candidates).
So a fake answer must not be able to *slow* the search either: every announced service is
resolved at the same time, each within :data:`RESOLVE_TIMEOUT`, the whole search within
its budget; a service whose answer carries no address is no candidate; and a hub that
announces the public key this station pinned (TXT ``key``) ends the search at once and
comes first. Thirty or a hundred fake services cost one resolve timeout, not one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from samoobsluha.shared import address, protocol
from samoobsluha.shared.address import format_hostport as format_hostport  # re-exported
from samoobsluha.station.config import ConfigError

log = logging.getLogger("station.link")

RESOLVE_TIMEOUT = 1.5  # one service's SRV/TXT/A answers must arrive within this
MAX_RESOLVING = 64  # services resolved at the same time (each a few multicast queries)
MAX_NAMES = 512  # services looked at in one search; a flood beyond is ignored


# -- addresses ----------------------------------------------------------------------------


def parse_hostport(text: str, where: str = "hub") -> tuple[str, int]:
    """:func:`shared.address.parse_hostport`, refusing with the station's ConfigError."""
    try:
        return address.parse_hostport(text, where)
    except address.AddressError as exc:
        raise ConfigError(*exc.args) from None  # its phrase: said in the operator's language


# -- mDNS ---------------------------------------------------------------------------------


class Candidate(NamedTuple):
    host: str
    port: int
    hub_id: str
    pinned: bool  # announces the hub public key this station pinned


async def discover(
    tournament: str,
    *,
    interfaces: list[str] | None = None,
    pinned_key: bytes | None = None,
    timeout: float = 3.0,
    settle: float = 1.0,
    resolve_timeout: float = RESOLVE_TIMEOUT,
    clock: Callable[[], float] = time.monotonic,
) -> list[Candidate]:
    """Every hub of ``tournament`` answering on mDNS, the pinned one(s) first.

    Returns at once when a service announcing ``pinned_key`` has resolved; otherwise
    ``settle`` seconds after the first candidate (a slower hub must not hide behind a fast
    rogue), at the latest after ``timeout``. Every announced service is resolved in its
    own task (from the cache when its announcement carried everything, else asking within
    ``resolve_timeout``), so fakes do not queue up in front of the hub."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
    if interfaces:
        kwargs["interfaces"] = interfaces
    azc = AsyncZeroconf(**kwargs)
    zc = azc.zeroconf
    pinned_hex = pinned_key.hex() if pinned_key else None
    names: set[str] = set()
    found: list[Candidate] = []
    tasks: set[asyncio.Task[None]] = set()
    any_found, pinned_found = asyncio.Event(), asyncio.Event()
    resolving = asyncio.Semaphore(MAX_RESOLVING)
    counts = {"no_address": 0, "other": 0}

    def txt(info: Any) -> dict[str, str]:
        return {
            k.decode(errors="replace"): (v or b"").decode(errors="replace")
            for k, v in (info.properties or {}).items()
        }

    async def resolve(name: str) -> None:
        info = AsyncServiceInfo(protocol.SERVICE_TYPE, name)
        # an announcement that carried SRV, TXT and A in one packet needs no question
        if not info.load_from_cache(zc):
            props = txt(info)
            if props and props.get("tournament") != tournament:
                counts["other"] += 1
                return  # another tournament's service: no need to wait for its address
            async with resolving:
                if not await info.async_request(zc, resolve_timeout * 1000):
                    counts["no_address"] += 1
                    return  # no address within the time: not a candidate
        props = txt(info)
        if props.get("tournament") != tournament:
            counts["other"] += 1
            return
        if props.get("v") != str(protocol.PROTOCOL_VERSION):
            log.warning("hub %s speaks protocol %s", name, props.get("v"))
            return
        addresses = info.parsed_addresses()
        if not addresses or not info.port:
            counts["no_address"] += 1
            return
        pinned = pinned_hex is not None and props.get("key") == pinned_hex
        for addr in addresses:
            found.append(Candidate(addr, int(info.port), props.get("hub", ""), pinned))
        any_found.set()
        if pinned:
            pinned_found.set()

    def on_change(
        zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed or name in names:
            return
        if len(names) >= MAX_NAMES:
            counts["other"] += 1
            return
        names.add(name)
        task = asyncio.ensure_future(resolve(name))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    browser = AsyncServiceBrowser(zc, [protocol.SERVICE_TYPE], handlers=[on_change])
    started = clock()
    try:
        deadline = started + timeout
        while not pinned_found.is_set():
            left = deadline - clock()
            if left <= 0:
                break
            waiters = [asyncio.ensure_future(e.wait()) for e in (any_found, pinned_found)]
            if any_found.is_set():
                waiters = waiters[1:]
            try:
                await asyncio.wait(waiters, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waiters:
                    w.cancel()
            if any_found.is_set():
                deadline = min(deadline, clock() + settle)
    finally:
        await browser.async_cancel()
        for task in list(tasks):
            task.cancel()
        for task in list(tasks):
            with contextlib.suppress(BaseException):
                await task
        await azc.async_close()
    if counts["no_address"]:
        log.info(
            "mDNS: %d service(s) of our type gave no address within %.1f s: ignored",
            counts["no_address"],
            resolve_timeout,
        )
    # the pinned hub first, then in the order they resolved
    return sorted(dict.fromkeys(found), key=lambda c: not c.pinned)


async def discover_hub(
    tournament: str,
    *,
    interfaces: list[str] | None = None,
    timeout: float = 3.0,
    settle: float = 1.0,
    pinned_key: bytes | None = None,
    resolve_timeout: float = RESOLVE_TIMEOUT,
) -> list[tuple[str, int, str]]:
    """:func:`discover` as [(host, port, hub_id)], the pinned hub first."""
    found = await discover(
        tournament,
        interfaces=interfaces,
        pinned_key=pinned_key,
        timeout=timeout,
        settle=settle,
        resolve_timeout=resolve_timeout,
    )
    return [(c.host, c.port, c.hub_id) for c in found]


def hub_address_arg(text: str) -> str:
    """argparse ``type=`` for ``--hub``: a bad address is a usage error at once, not a
    link that keeps failing."""
    import argparse

    from samoobsluha.shared.i18n import cli_language, error_text

    try:
        parse_hostport(text, where="--hub")
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(error_text(exc, cli_language())) from None
    return text.strip()

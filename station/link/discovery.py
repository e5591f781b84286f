"""Where the hub is: a configured ``host:port`` or the mDNS search for this tournament's hub.

mDNS is only a hint — anyone on the hall network can announce anything; the TCP
handshake and the pinned hub signature are the proof (station/sync.py tries candidates).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from samoobsluha.shared import protocol
from samoobsluha.station.config import ConfigError

log = logging.getLogger("station.link")


def parse_hostport(text: str, where: str = "hub") -> tuple[str, int]:
    host, _, port = str(text).rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f'{where} must be "host:port", not {text!r}')
    return host, int(port)


async def discover_hub(
    tournament: str,
    *,
    interfaces: list[str] | None = None,
    timeout: float = 3.0,
    settle: float = 1.0,
) -> list[tuple[str, int, str]]:
    """Every hub of ``tournament`` answering on mDNS: [(host, port, hub_id)]. Anyone on
    the hall network can announce anything, so this does not stop at the first answer:
    it keeps collecting for ``settle`` seconds after it (the caller tries them all and
    believes only the pinned hub signature)."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
    if interfaces:
        kwargs["interfaces"] = interfaces
    azc = AsyncZeroconf(**kwargs)
    names: list[str] = []
    found: list[tuple[str, int, str]] = []
    seen = asyncio.Event()

    def on_change(
        zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is not ServiceStateChange.Removed and name not in names:
            names.append(name)
            seen.set()

    browser = AsyncServiceBrowser(azc.zeroconf, [protocol.SERVICE_TYPE], handlers=[on_change])
    try:
        deadline = time.monotonic() + timeout
        checked = 0
        while time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.wait(), max(0.0, deadline - time.monotonic()))
            seen.clear()
            for name in names[checked:]:
                info = AsyncServiceInfo(protocol.SERVICE_TYPE, name)
                if not await info.async_request(azc.zeroconf, 1500):
                    continue
                props = {
                    k.decode(): (v or b"").decode(errors="replace")
                    for k, v in info.properties.items()
                }
                if props.get("tournament") != tournament:
                    continue
                if props.get("v") != str(protocol.PROTOCOL_VERSION):
                    log.warning("hub %s speaks protocol %s", name, props.get("v"))
                    continue
                for addr in info.parsed_addresses():
                    found.append((addr, int(info.port or 0), props.get("hub", "")))
                if found:
                    deadline = min(deadline, time.monotonic() + settle)
            checked = len(names)
    finally:
        await browser.async_cancel()
        await azc.async_close()
    return found

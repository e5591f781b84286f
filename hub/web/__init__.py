"""The hall screen: a read-only web page (projector and phone views). Phones reach it on
the players' own network, never the stations' (``[screen] interface``; docs/screen.md).

``hub serve`` (and ``hub run`` when it runs the server itself) starts it beside the
station link with :func:`start_for_hub`; ``[screen]`` in ``<data>/hub.toml`` switches it
off or binds it to one interface (:mod:`hub.web.config`). See ``docs/screen.md``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from samoobsluha.hub.web.server import ScreenServer

log = logging.getLogger("hub.web")


async def start_for_hub(
    hub: Any,
    data: Path,
    *,
    host: str | None = None,
    port: int | None = None,
    enabled: bool | None = None,
) -> ScreenServer | None:
    """Start the hall screen for a started :class:`hub.server.HubServer` (same clock, same
    database). ``host``/``port``/``enabled`` override ``hub.toml``; the default address is
    the hub's own. Returns None when it is switched off or cannot start: the stations'
    link matters more than the page, so a taken port is logged, not fatal."""
    from samoobsluha.hub.service import HubService
    from samoobsluha.hub.web.config import ScreenConfigError, load
    from samoobsluha.hub.web.descriptors import throttle_descriptor_errors

    throttle_descriptor_errors()  # for the whole hub, with or without the screen
    try:
        settings = load(data)
        if enabled is not None:
            settings.enabled = enabled
        if not settings.enabled:
            return None
        if host is not None:
            settings.host, settings.interface = host, None
        if port is not None:
            settings.port = port
        address = settings.bind_address(hub.host)
    except ScreenConfigError as exc:
        log.error("hall screen not started: %s", exc)
        return None
    from samoobsluha.hub.web.server import ScreenServer

    screen = ScreenServer(
        HubService(data, clock=hub.clock),
        host=address,
        port=settings.port,
        lang=settings.lang,
        limits=settings.limits,
        projector_token=settings.projector_token,
    )
    try:
        await screen.start()
    except OSError as exc:
        log.error("hall screen not started on %s:%s: %s", address, settings.port, exc)
        await screen.close()
        return None
    hub.screen_urls = screen.urls()
    hub.projector_urls = screen.projector_urls()
    return screen

"""QR codes of the hall screen's address: for the terminal (the dashboard) and for paper
(the printed pairings). segno makes the code; here it is only drawn."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import segno
from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from samoobsluha.hub.tournament.exports import ScreenLink

DARK = Style(color="black", bgcolor="white")


def matrix(url: str, border: int = 2) -> list[list[bool]]:
    """The modules (True = dark) with a quiet zone of ``border`` modules."""
    code = segno.make(url, micro=False, error="m")
    return [[bool(v) for v in row] for row in code.matrix_iter(scale=1, border=border)]


def terminal(url: str) -> Text:
    """The code in half blocks, two module rows per text row, dark on light whatever the
    terminal's colours (a phone's camera needs the light quiet zone)."""
    rows = matrix(url)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    text = Text()
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        for up, down in zip(top, bottom, strict=True):
            # "▀" paints the upper half in the foreground colour, the lower in the background
            text.append(
                "▀",
                Style(color="black" if up else "white", bgcolor="black" if down else "white"),
            )
        text.append("\n")
    text.rstrip()
    return text


def svg(url: str, scale: int = 4) -> str:
    """An inline SVG for an HTML page (no image files, prints sharp)."""
    return str(segno.make(url, micro=False, error="m").svg_inline(scale=scale, border=2))


def wifi_svg(ssid: str, password: str = "", scale: int = 4) -> str:
    """An inline SVG a phone's camera reads as "join this Wi-Fi" (the ``WIFI:`` format
    Android and iOS understand; an empty password: an open network)."""
    from segno import helpers

    code = helpers.make_wifi(
        ssid=ssid, password=password or None, security="WPA" if password else None
    )
    return str(code.svg_inline(scale=scale, border=2))


def print_link(service: object) -> ScreenLink | None:
    """What the printed pairings carry of the hall screen, as data for the exports: the
    running hub's screen address and its QR code, and the players' network when
    ``[screen] wifi`` names it; None when no hub with the screen runs. ``service``: a
    :class:`hub.service.HubService`."""
    from samoobsluha.hub.tournament.exports import ScreenLink
    from samoobsluha.hub.web.config import ScreenConfigError, load

    urls = screen_urls(service)
    if not urls:
        return None
    link = ScreenLink(urls[0], svg(urls[0]))
    try:
        settings = load(service.data)  # type: ignore[attr-defined]
    except ScreenConfigError:
        return link
    if not settings.wifi:
        return link
    code = wifi_svg(settings.wifi, settings.wifi_password)
    return replace(link, wifi=settings.wifi, wifi_password=settings.wifi_password, wifi_qr_svg=code)


def screen_urls(service: object) -> list[str] | None:
    """The running hub's hall screen addresses; ``[]`` when it runs without the screen,
    ``None`` when no hub server answers. ``service``: a :class:`hub.service.HubService`."""
    both = screen_and_projector_urls(service)
    return None if both is None else both[0]


def screen_and_projector_urls(service: object) -> tuple[list[str], list[str]] | None:
    """The running hub's hall screen addresses and the projector's (with its token);
    None when no hub server answers. ``service``: a :class:`hub.service.HubService`."""
    from samoobsluha.hub.service import HubService, ServiceError

    assert isinstance(service, HubService)
    try:
        info = service.control("info", timeout=2.0)
    except ServiceError:
        return None
    return [str(u) for u in info.get("screen", [])], [str(u) for u in info.get("projector", [])]

"""QR codes of the hall screen's address: for the terminal (the dashboard) and for paper
(the printed pairings). segno makes the code; here it is only drawn."""

from __future__ import annotations

import segno
from rich.style import Style
from rich.text import Text

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


def screen_urls(service: object) -> list[str] | None:
    """The running hub's hall screen addresses; ``[]`` when it runs without the screen,
    ``None`` when no hub server answers. ``service``: a :class:`hub.service.HubService`."""
    from samoobsluha.hub.service import HubService, ServiceError

    assert isinstance(service, HubService)
    try:
        info = service.control("info", timeout=2.0)
    except ServiceError:
        return None
    return [str(u) for u in info.get("screen", [])]

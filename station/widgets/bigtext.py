"""Block letters for the words that must be read from across the table: PLATNÉ,
NEPLATNÉ, DOHRÁVKA. Five rows of full blocks plus one row for the accent, so they render
on a Linux console font (which has █ but few other block characters). Text that does
not fit the widget's width, or holds a character without a glyph, falls back to plain
bold text: the meaning never depends on the glyphs. The letters scale with the terminal
(each dot a square of cells) up to the width and a share of the height."""

from __future__ import annotations

import functools
import textwrap
import unicodedata
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

_GLYPHS = {
    "A": (" ███ ", "█   █", "█████", "█   █", "█   █"),
    "B": ("████ ", "█   █", "████ ", "█   █", "████ "),
    "C": (" ████", "█    ", "█    ", "█    ", " ████"),
    "D": ("████ ", "█   █", "█   █", "█   █", "████ "),
    "E": ("█████", "█    ", "████ ", "█    ", "█████"),
    "F": ("█████", "█    ", "████ ", "█    ", "█    "),
    "G": (" ████", "█    ", "█  ██", "█   █", " ████"),
    "H": ("█   █", "█   █", "█████", "█   █", "█   █"),
    "I": (" ███ ", "  █  ", "  █  ", "  █  ", " ███ "),
    "J": ("  ███", "    █", "    █", "█   █", " ███ "),
    "K": ("█   █", "█  █ ", "███  ", "█  █ ", "█   █"),
    "L": ("█    ", "█    ", "█    ", "█    ", "█████"),
    "M": ("█   █", "██ ██", "█ █ █", "█   █", "█   █"),
    "N": ("█   █", "██  █", "█ █ █", "█  ██", "█   █"),
    "O": (" ███ ", "█   █", "█   █", "█   █", " ███ "),
    "P": ("████ ", "█   █", "████ ", "█    ", "█    "),
    "Q": (" ███ ", "█   █", "█ █ █", "█  █ ", " ██ █"),
    "R": ("████ ", "█   █", "████ ", "█  █ ", "█   █"),
    "S": (" ████", "█    ", " ███ ", "    █", "████ "),
    "T": ("█████", "  █  ", "  █  ", "  █  ", "  █  "),
    "U": ("█   █", "█   █", "█   █", "█   █", " ███ "),
    "V": ("█   █", "█   █", "█   █", " █ █ ", "  █  "),
    "W": ("█   █", "█   █", "█ █ █", "██ ██", "█   █"),
    "X": ("█   █", " █ █ ", "  █  ", " █ █ ", "█   █"),
    "Y": ("█   █", " █ █ ", "  █  ", "  █  ", "  █  "),
    "Z": ("█████", "   █ ", "  █  ", " █   ", "█████"),
    "0": (" ███ ", "█   █", "█   █", "█   █", " ███ "),
    "1": ("  █  ", " ██  ", "  █  ", "  █  ", " ███ "),
    "2": (" ███ ", "█   █", "  ██ ", " █   ", "█████"),
    "3": ("████ ", "    █", " ███ ", "    █", "████ "),
    "4": ("█   █", "█   █", "█████", "    █", "    █"),
    "5": ("█████", "█    ", "████ ", "    █", "████ "),
    "6": (" ███ ", "█    ", "████ ", "█   █", " ███ "),
    "7": ("█████", "    █", "   █ ", "  █  ", "  █  "),
    "8": (" ███ ", "█   █", " ███ ", "█   █", " ███ "),
    "9": (" ███ ", "█   █", " ████", "    █", " ███ "),
    ":": ("   ", " █ ", "   ", " █ ", "   "),
    " ": ("   ", "   ", "   ", "   ", "   "),
    "!": ("  █  ", "  █  ", "  █  ", "     ", "  █  "),
}
_ACCENTS = {
    "\u0301": "  ▄▀ ",  # acute: Á É Í Ó Ú Ý Ĺ Ŕ
    "\u030c": " ▀▄▀ ",  # caron: Č Ď Ě Ň Ř Š Ť Ž Ľ
    "\u030a": "  ▄  ",  # ring: Ů
    "\u0308": " ▀ ▀ ",  # diaeresis: Ä Ö Ü
    "\u0302": " ▄▀▄ ",  # circumflex: Ô
}
ROWS = 6


def _glyph(ch: str) -> tuple[str, tuple[str, ...]] | None:
    decomposed = unicodedata.normalize("NFD", ch.upper())
    base, marks = decomposed[0], decomposed[1:]
    rows = _GLYPHS.get(base)
    if rows is None or len(marks) > 1:
        return None
    if marks:
        accent = _ACCENTS.get(marks[0])
        if accent is None:
            return None
        return accent, rows
    return " " * len(rows[0]), rows


def render_block(text: str) -> list[str] | None:
    """Six rows of block letters for ``text``, or None when a character has no glyph."""
    rows = [""] * ROWS
    for i, ch in enumerate(text):
        glyph = _glyph(ch)
        if glyph is None:
            return None
        accent, body = glyph
        sep = " " if i else ""
        rows[0] += sep + accent
        for r, line in enumerate(body, start=1):
            rows[r] += sep + line
    return rows


def block_width(text: str) -> int:
    rendered = render_block(text)
    return len(rendered[0]) if rendered else len(text)


def scale_block(rows: list[str], scale: int) -> list[str]:
    """Block letters ``scale`` times wider and taller. Half blocks (the accents) are
    scaled in half-row steps, so an accent keeps its shape rather than stretching into
    a staircase."""
    if scale == 1:
        return rows
    out: list[str] = []
    for row in rows:
        cells = [(ch in "▀█", ch in "▄█") for ch in row]  # (top half on, bottom half on)
        for r in range(scale):
            upper, lower = (2 * r) // scale, (2 * r + 1) // scale  # source half-rows
            line = []
            for top, bottom in cells:
                on1 = top if upper == 0 else bottom
                on2 = top if lower == 0 else bottom
                line.append("█" if on1 and on2 else "▀" if on1 else "▄" if on2 else " ")
            out.append("".join(ch * scale for ch in line))
    return out


@functools.lru_cache(maxsize=256)
def layout_block(text: str, width: int, max_rows: int) -> tuple[str, ...] | None:
    """``text`` in block letters as large as fits ``width`` columns and ``max_rows``
    rows (never smaller than one cell per dot), wrapped at spaces; None when a
    character has no glyph or a word does not fit even at the smallest size. Cached:
    the verdict words and the clock's digits are laid out once per terminal size."""
    words = text.split()
    if not words:
        return ()
    widths = [block_width(word) for word in words]
    if any(render_block(word) is None for word in words):
        return None
    scale = max(1, min(width // max(widths), max_rows // ROWS))
    while True:
        lines = _wrapped(words, width, scale)
        if lines is not None and (len(lines) <= max_rows or scale == 1):
            return tuple(lines)
        if scale == 1:
            return None
        scale -= 1


def _wrapped(words: list[str], width: int, scale: int) -> list[str] | None:
    groups: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if current and block_width(candidate) * scale > width:
            groups.append(current)
            current = word
        else:
            current = candidate
    groups.append(current)
    out: list[str] = []
    for group in groups:
        rows = render_block(group)
        if rows is None or len(rows[0]) * scale > width:
            return None
        if out:
            out.extend([""] * scale)
        out.extend(scale_block(rows, scale))
    return out


class BigText(Widget):
    """``text`` in block letters, wrapped at spaces to fit; plain bold text otherwise.

    The letters grow with the terminal: as large as the width allows and at most
    ``height_share`` of the screen's height (the verdict word fills most of a wide
    screen; on 80×24 it is one dot a cell, as before). Drawn line by line from the
    cached layout (Textual's line API): no text wrapping or markup work when painted.
    """

    DEFAULT_CSS = """
    BigText { height: auto; width: 1fr; }
    """

    def __init__(
        self,
        text: str = "",
        *,
        height_share: float = 0.5,
        id: str | None = None,
        classes: str | None = None,
    ):
        super().__init__(id=id, classes=classes)
        self._text = text
        self.height_share = height_share

    @property
    def text(self) -> str:
        return self._text

    def update(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.refresh(layout=True)

    def _max_rows(self, screen_height: int) -> int:
        return max(ROWS, int(screen_height * self.height_share))

    def prepare(self, texts: list[str], width: int | None = None) -> None:
        """Lay out ``texts`` now for the current terminal (e.g. the verdict words while
        the kiosk is idle), so showing one later costs no glyph work."""
        size = self.app.size
        width = width or self.size.width or size.width
        for text in texts:
            _rows(text, width, self._max_rows(size.height))

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, len(_rows(self._text, width, self._max_rows(viewport.height))[0]))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        rows, plain = _rows(self._text, width, self._max_rows(self.app.size.height))
        style = self.rich_style
        if plain:
            style += Style(bold=True)
        if y >= len(rows):
            return Strip.blank(width, style)
        return Strip([Segment(rows[y], style)], width)


@functools.lru_cache(maxsize=256)
def _rows(text: str, width: int, max_rows: int) -> tuple[tuple[str, ...], bool]:
    """The lines BigText draws, each padded to ``width`` (centred), and whether they are
    plain text (no glyph for a character, or too narrow for block letters)."""
    if width <= 0:
        return (), False
    lines = layout_block(text, width, max_rows)
    plain = lines is None
    if lines is None:
        lines = tuple(textwrap.wrap(text, width)) or ("",)
    out = []
    for line in lines:
        line = line[:width]  # a plain word longer than the width: cropped, as before
        left = max(0, (width - cell_len(line)) // 2)
        right = max(0, width - left - cell_len(line))
        out.append(" " * left + line + " " * right)
    return tuple(out), plain

"""Block letters for the words that must be read from across the table: PLATNÉ,
NEPLATNÉ, DOHRÁVKA. Five rows of full blocks plus one row for the accent, so they render
on a Linux console font (which has █ but few other block characters). Text that does
not fit the widget's width, or holds a character without a glyph, falls back to plain
bold text: the meaning never depends on the glyphs."""

from __future__ import annotations

import unicodedata

from rich.text import Text
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


class BigText(Widget):
    """``text`` in block letters, wrapped at spaces to fit; plain bold text otherwise."""

    DEFAULT_CSS = """
    BigText { height: auto; width: 1fr; text-align: left; }
    """

    def __init__(self, text: str = "", *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes)
        self._text = text

    @property
    def text(self) -> str:
        return self._text

    def update(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.refresh(layout=True)

    def _lines(self, width: int) -> list[str] | None:
        words = self._text.split()
        if not words:
            return []
        groups: list[str] = []
        current = ""
        for word in words:
            candidate = f"{current} {word}" if current else word
            if current and block_width(candidate) > width:
                groups.append(current)
                current = word
            else:
                current = candidate
        groups.append(current)
        out: list[str] = []
        for group in groups:
            rows = render_block(group)
            if rows is None or len(rows[0]) > width:
                return None
            if out:
                out.append("")
            out.extend(rows)
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        lines = self._lines(width)
        return 1 if lines is None else max(1, len(lines))

    def render(self) -> Text:
        width = self.size.width or 80
        lines = self._lines(width)
        if lines is None:
            return Text(self._text, style="bold", justify="center")
        # Centre by padding, with no-break spaces: the renderer strips leading spaces,
        # and those place an accent over its letter.
        padded = [(" " * max(0, (width - len(line)) // 2) + line) for line in lines]
        return Text("\n".join(padded).replace(" ", "\u00a0"), no_wrap=True, overflow="crop")

"""Fast result entry from paper scoresheets, modelled on tsh's ``a`` (add scores) mode.

The operator types one line per scoresheet: the table, then the two scores in the order
of the pairing sheet (the starting player first), optionally who really started::

    12 412 389        table 12: the pairing's ZH 412, DH 389
    12 412-389 2      the same scores, but the second player started
    12: 412 : 389     any separators between the numbers

The line is checked against the round's pairing before anything is stored, and after the
store the dashboard echoes both names, the scores and the players' new totals. ``undo``
(or the correct-last key) puts the last entry back on the line to be corrected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from samoobsluha.shared.i18n import t

_NUMBER = re.compile(r"\d+")
# a minus sign: a dash at the start or after a space, right before a digit ("4 -20 300");
# between two numbers without a space it separates them ("412-389")
_MINUS = re.compile(r"(?:^|(?<=\s))[-–]\d")
_ALLOWED = re.compile(r"^[\d\s:;,./\-–]*$")


class EntryError(ValueError):
    """The line cannot be a result. ``key`` and ``values`` are its catalogue message
    (:meth:`message` in the operator's language); ``str()`` is the English one."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(t(key, "en", **values))

    def message(self, lang: str) -> str:
        return t(self.key, lang, **self.values)


@dataclass(frozen=True)
class Entry:
    table: int
    score_first: int  # the score of the player listed first (ZH) on the pairing sheet
    score_second: int
    second_started: bool = False

    def as_line(self) -> str:
        return f"{self.table} {self.score_first} {self.score_second}" + (
            " 2" if self.second_started else ""
        )


def parse_entry(line: str) -> Entry:
    """Parse one line of fast entry (see the module docstring)."""
    text = line.strip()
    if not text:
        raise EntryError("entry.empty")
    if not _ALLOWED.match(text):
        raise EntryError("entry.not_numbers", text=text)
    if _MINUS.search(text):
        raise EntryError("entry.negative", text=text)
    numbers = [int(n) for n in _NUMBER.findall(text)]
    if len(numbers) < 3:
        raise EntryError("entry.too_few", text=text, n=len(numbers))
    if len(numbers) > 4:
        raise EntryError("entry.too_many", text=text)
    table, s1, s2 = numbers[:3]
    if table < 1:
        raise EntryError("entry.table_zero")
    starter = numbers[3] if len(numbers) == 4 else 1
    if starter not in (1, 2):
        raise EntryError("entry.starter", n=starter)
    return Entry(table, s1, s2, second_started=starter == 2)

"""The one way a word enters the system.

Every word typed at a kiosk, read from a word list, imported from a scoresheet or sent
over the network goes through :func:`normalize_word`:

* Unicode NFC (dead keys and pasted text may arrive decomposed), then lowercase — the
  canonical case everywhere inside the system; the screen shows tile faces in upper case;
* the SIT ASCII notation for diacritics (``C+`` → č, ``A-`` → á, …) for keyboards whose
  dead keys fail, plus ``E+`` → ě, ``R+`` → ř, ``U+`` → ů, which SIT does not list; on a
  Polish station the same two marks in the Polish way (:data:`POLISH_ASCII`: ``+`` for the
  ogonek, the dot and the stroke, ``A+`` → ą, ``Z+`` → ż, ``L+`` → ł; ``-`` for the kreska,
  ``S-`` → ś, ``Z-`` → ź);
* blank brackets as written on scoresheets, ``REC(I)E``: the brackets are removed and the
  positions of the blank letters remembered;
* refusal, with a reason, of anything that cannot be a word on the board: empty input,
  one letter, more than 15 letters, a character outside the language's alphabet,
  unbalanced brackets. Nothing is silently dropped. (A Polish station refuses only what is
  no letter at all: a foreign letter such as Q or Ů reaches the lexicon and is judged not
  valid, see ``Alphabet.judges_foreign``.)
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum

from samoobsluha.shared.alphabet import Alphabet
from samoobsluha.shared.record import Record

MIN_LETTERS = 2
MAX_LETTERS = 15  # the board is 15 squares wide

# SIT notation (RULES.md, "Notation"): a letter followed by + (háček/přehláska/vokáň)
# or - (čárka). Czech Ě, Ř, Ů are not in SIT; we add them with + as Czech players expect.
SIT_ASCII: dict[str, str] = {
    "a+": "ä", "c+": "č", "d+": "ď", "l+": "ľ", "n+": "ň", "o+": "ô", "s+": "š",
    "t+": "ť", "z+": "ž", "e+": "ě", "r+": "ř", "u+": "ů",
    "a-": "á", "e-": "é", "i-": "í", "l-": "ĺ", "o-": "ó", "r-": "ŕ", "u-": "ú", "y-": "ý",
}  # fmt: skip
# The Polish letters in the same notation, read instead of SIT at a Polish station (a+ is
# ą there, not the Slovak ä): + for the ogonek (ą ę), the dot (ż) and the stroke (ł), - for
# the kreska (ć ń ó ś ź), as the Polish names of the marks go.
POLISH_ASCII: dict[str, str] = {
    "a+": "ą", "e+": "ę", "l+": "ł", "z+": "ż",
    "c-": "ć", "n-": "ń", "o-": "ó", "s-": "ś", "z-": "ź",
}  # fmt: skip
ASCII_NOTATION: dict[str, dict[str, str]] = {"pl": POLISH_ASCII}
_SIT_RE = re.compile(r"([a-z])([+\-])")


class Reason(StrEnum):
    """Why an input was refused; the kiosk turns these into messages in its language."""

    EMPTY = "empty"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    BAD_CHAR = "bad_char"
    BRACKETS = "brackets"


class WordRefused(ValueError):
    """The input cannot be a word on the board. ``reason`` says why, ``detail`` names the
    offending character (for ``BAD_CHAR``) or the letter count."""

    def __init__(self, reason: Reason, raw: str, detail: str = "") -> None:
        self.reason = reason
        self.raw = raw
        self.detail = detail
        super().__init__(_english(reason, raw, detail))


def _english(reason: Reason, raw: str, detail: str) -> str:
    match reason:
        case Reason.EMPTY:
            return "no word was entered"
        case Reason.TOO_SHORT:
            return f"{raw!r} has only {detail} letter; a word has at least {MIN_LETTERS}"
        case Reason.TOO_LONG:
            return f"{raw!r} has {detail} letters; at most {MAX_LETTERS} fit on the board"
        case Reason.BAD_CHAR:
            return f"{raw!r} contains {detail!r}, which is not a letter of this alphabet"
        case Reason.BRACKETS:
            return f"{raw!r} has unbalanced or empty blank brackets"
    raise AssertionError(reason)  # pragma: no cover


class Word(Record):
    """A normalised word: lowercase NFC ``text`` and the positions played with a blank."""

    __slots__ = ("blanks", "text")
    _fields = ("text", "blanks")
    text: str
    blanks: tuple[int, ...]

    def __init__(self, text: str, blanks: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "blanks", blanks)

    def __str__(self) -> str:
        return self.text

    @property
    def face(self) -> str:
        """Upper case, blanks in brackets, as written on a scoresheet: ``REC(I)E``."""
        out = []
        for i, ch in enumerate(self.text.upper()):
            out.append(f"({ch})" if i in self.blanks else ch)
        return "".join(out).replace(")(", "")


def _fold(raw: str, alphabet: Alphabet) -> str:
    text = unicodedata.normalize("NFC", raw).strip().lower()
    table = ASCII_NOTATION.get(alphabet.code, SIT_ASCII)
    return _SIT_RE.sub(lambda m: table.get(m.group(0), m.group(0)), text)


def normalize_word(raw: str, alphabet: Alphabet) -> Word:
    """Normalise one typed word for ``alphabet`` or raise :class:`WordRefused`."""
    text = _fold(raw, alphabet)
    if not text:
        raise WordRefused(Reason.EMPTY, raw)
    letters: list[str] = []
    blanks: list[int] = []
    in_blank = False
    blank_open_at = 0
    for ch in text:
        if ch == "(":
            if in_blank:
                raise WordRefused(Reason.BRACKETS, raw)
            in_blank, blank_open_at = True, len(letters)
        elif ch == ")":
            if not in_blank or len(letters) == blank_open_at:
                raise WordRefused(Reason.BRACKETS, raw)
            in_blank = False
        elif ch in alphabet.letters or (alphabet.judges_foreign and ch.isalpha()):
            if in_blank:
                blanks.append(len(letters))
            letters.append(ch)
        else:
            raise WordRefused(Reason.BAD_CHAR, raw, ch)
    if in_blank:
        raise WordRefused(Reason.BRACKETS, raw)
    if len(letters) < MIN_LETTERS:
        raise WordRefused(Reason.TOO_SHORT, raw, str(len(letters)))
    if len(letters) > MAX_LETTERS:
        raise WordRefused(Reason.TOO_LONG, raw, str(len(letters)))
    return Word("".join(letters), tuple(blanks))


def split_words(raw: str) -> list[str]:
    """Split a line holding several words of one play (spaces or commas between them)."""
    return [part for part in re.split(r"[\s,;]+", raw.strip()) if part]


def normalize_words(raw_words: list[str] | str, alphabet: Alphabet) -> list[Word]:
    """Normalise every word of one play; the first refusal is raised."""
    items = split_words(raw_words) if isinstance(raw_words, str) else raw_words
    if not items:
        raise WordRefused(Reason.EMPTY, "")
    return [normalize_word(item, alphabet) for item in items]


def is_clean(word: str, alphabet: Alphabet) -> bool:
    """True when ``word`` is already canonical (used when building a lexicon)."""
    return (
        MIN_LETTERS <= len(word) <= MAX_LETTERS
        and word == unicodedata.normalize("NFC", word).lower()
        and all(ch in alphabet.letters for ch in word)
    )

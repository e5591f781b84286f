"""Alphabets, tile sets and letter values of the Czech, Slovak and Polish Scrabble editions.

Sources (both are the 100-tile Mattel editions, as listed in Wikipedia's
"Scrabble letter distributions", cross-checked against the Xanado editions):

* Czech: 98 letter tiles + 2 blanks. There is no CH tile (CH is always two tiles,
  ČAS rule 16.41) and no Q or W tile; a blank may stand for any letter of the Czech
  alphabet except CH, so Q and W can still appear in a word through a blank.
* Slovak: 98 letter tiles + 2 blanks with Ä, Ô, Ľ, Ĺ, Ŕ; no CH, DZ, DŽ tiles. The
  Slovak rules let a blank also stand for W, Q, Ö, Ü, Ě and Ř.
* Polish: 98 letter tiles + 2 blanks, the 32 letters of the Polish alphabet with
  Ą Ć Ę Ł Ń Ó Ś Ź Ż and without Q, V, X (the Mattel edition the PFS plays, counts and
  values as published by the Polish Scrabble community, e.g. scrabble123.pl). A blank
  stands for a letter of the Polish alphabet only, so a word with Q, V or X is not Polish.

Letters are kept in their canonical lowercase form (see :mod:`shared.normalize`);
``face()`` gives the upper-case face printed on a tile.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property

from samoobsluha.shared.record import Record

BLANK = "?"


class Alphabet(Record):
    """One language edition: which tiles exist, what they score, what a word may contain.

    ``tiles`` maps each lowercase letter to ``(count, value)``. ``blank_only`` are the
    letters with no tile of their own that a blank may still stand for. ``judges_foreign``:
    a letter of another alphabet (the Q of ``qxzw``, the ů of a Czech word) is not refused
    as a typing error but judged, so the play is simply not valid — what the PFS expects
    when a foreign word is challenged at a Polish table.
    """

    _fields = ("code", "name", "tiles", "blanks", "blank_only", "judges_foreign")
    code: str
    name: str
    tiles: Mapping[str, tuple[int, int]]
    blanks: int
    blank_only: frozenset[str]
    judges_foreign: bool

    def __init__(
        self,
        code: str,
        name: str,
        tiles: Mapping[str, tuple[int, int]],
        blanks: int = 2,
        blank_only: frozenset[str] = frozenset(),
        judges_foreign: bool = False,
    ) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "blanks", blanks)
        object.__setattr__(self, "blank_only", blank_only)
        object.__setattr__(self, "judges_foreign", judges_foreign)

    @cached_property
    def letters(self) -> frozenset[str]:
        """Every letter a word on the board may contain (tile letters and blank-only ones)."""
        return frozenset(self.tiles) | self.blank_only

    @property
    def tile_count(self) -> int:
        return sum(count for count, _ in self.tiles.values()) + self.blanks

    def value(self, letter: str) -> int:
        """Face value of ``letter``'s tile; 0 for a letter only a blank can make."""
        entry = self.tiles.get(letter.lower())
        return entry[1] if entry else 0

    def score(self, word: str, blanks: Iterable[int] = ()) -> int:
        """Sum of face values of ``word`` (no premium squares); ``blanks`` are positions
        played with a blank and score 0."""
        blank_positions = set(blanks)
        return sum(
            0 if i in blank_positions else self.value(letter) for i, letter in enumerate(word)
        )

    def sort_key(self, word: str) -> tuple[int, ...]:
        """Key that sorts words in this language's alphabetical order (Č after C, …)."""
        order = self._order
        return tuple(order.get(ch, 1000 + ord(ch)) for ch in word)

    @cached_property
    def _order(self) -> dict[str, int]:
        return {letter: i for i, letter in enumerate(sorted(self.letters, key=_collation))}

    @staticmethod
    def face(letter: str) -> str:
        return letter.upper()


# Czech and Slovak collation: a base letter first, then its accented forms in the
# order the dictionaries use. Only needs to be sensible for display ordering.
# Polish letters follow the same rule (ą after a, ł after l, ź before ż as in Polish
# dictionaries).
_BASE_ORDER = "aąäábcćčdďeęéěfghiíjklłĺľmnńňoóôöpqrřŕsśštťuúůüvwxyýzźž"


def _collation(letter: str) -> int:
    pos = _BASE_ORDER.find(letter)
    return pos if pos >= 0 else 1000 + ord(letter)


def _tiles(spec: str) -> dict[str, tuple[int, int]]:
    """Parse ``"a:5:1 á:2:2 …"`` (letter:count:value) into a tile map."""
    tiles: dict[str, tuple[int, int]] = {}
    for item in spec.split():
        letter, count, value = item.split(":")
        tiles[letter] = (int(count), int(value))
    return tiles


CZECH = Alphabet(
    code="cs",
    name="čeština",
    tiles=_tiles(
        "a:5:1 á:2:2 b:2:3 c:3:2 č:1:4 d:3:1 ď:1:8 e:5:1 é:2:3 ě:2:3 f:1:5 g:1:5 "
        "h:3:2 i:4:1 í:3:2 j:2:2 k:3:1 l:3:1 m:3:2 n:5:1 ň:1:6 o:6:1 ó:1:7 p:3:1 "
        "r:3:1 ř:2:4 s:4:1 š:2:4 t:4:1 ť:1:7 u:3:2 ú:1:5 ů:1:4 v:4:1 x:1:10 y:2:2 "
        "ý:2:4 z:2:2 ž:1:4"
    ),
    blank_only=frozenset("qw"),
)

SLOVAK = Alphabet(
    code="sk",
    name="slovenčina",
    tiles=_tiles(
        "a:9:1 á:1:4 ä:1:10 b:2:4 c:1:4 č:1:5 d:3:2 ď:1:8 e:8:1 é:1:7 f:1:8 g:1:8 "
        "h:1:4 i:5:1 í:1:5 j:2:3 k:3:2 l:3:2 ĺ:1:10 ľ:1:7 m:4:2 n:5:1 ň:1:8 o:9:1 "
        "ó:1:10 ô:1:8 p:3:2 r:4:1 ŕ:1:10 s:4:1 š:1:5 t:4:1 ť:1:7 u:2:3 ú:1:7 v:4:1 "
        "x:1:10 y:1:4 ý:1:5 z:1:4 ž:1:5"
    ),
    blank_only=frozenset("wqöüěř"),
)

POLISH = Alphabet(
    code="pl",
    name="polski",
    tiles=_tiles(
        "a:9:1 ą:1:5 b:2:3 c:3:2 ć:1:6 d:3:2 e:7:1 ę:1:5 f:1:5 g:2:3 h:2:3 i:8:1 "
        "j:2:3 k:3:2 l:3:2 ł:2:3 m:3:2 n:5:1 ń:1:7 o:6:1 ó:1:5 p:3:2 r:4:1 s:4:1 "
        "ś:1:5 t:3:2 u:2:3 w:4:1 y:4:2 z:5:1 ź:1:9 ż:1:5"
    ),
    judges_foreign=True,
)

ALPHABETS: dict[str, Alphabet] = {a.code: a for a in (CZECH, SLOVAK, POLISH)}


def get_alphabet(code: str) -> Alphabet:
    """The alphabet for a language code (``cs``, ``sk`` or ``pl``); ``KeyError`` names the
    choices."""
    try:
        return ALPHABETS[code]
    except KeyError:
        choices = ", ".join(sorted(ALPHABETS))
        raise KeyError(f"unknown language {code!r} (choose one of: {choices})") from None

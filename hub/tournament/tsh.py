"""tsh ``.t`` files (John Chew's tsh, the format most Scrabble directors exchange).

One line per player, players numbered from 1 in file order. The grammar is tsh's own
(``TFile.pm``)::

    ^(.+?\\S)\\s+(\\d+(?:[.+]\\d+)*)\\s*([\\d\\s]*);\\s*([-\\d\\s]*)((?:;[^;]*)*)$
     NAME        RATING                OPPONENTS     SCORES       ; key values …

* NAME may contain digits and ends, optionally, with a cross-tables id (``:XT017175``); the
  id is kept and written back, the name shown without it.
* RATING is ``1500``, ``1500.5`` or ``0+0+0`` (team ratings) — kept as written.
* ``#`` lines are comments, blank lines are kept, a leading BOM is dropped (and written back),
  tabs are kept, ``\\;`` inside a value is an escaped ``;``, not a separator.
* Lines end at LF, CRLF or a lone CR, as tsh splits them (each kept and written back) — and
  nowhere else: stored text is never cut on U+0085, U+2028 … (:func:`split_lines`).
* ``00`` in an opponent or a score is tsh's *undefined* (None here): the round is skipped
  (not paired, or no score), never read as 0; it is written back as ``00``.
* Opponent 0 is "no opponent" (a bye, a forfeit loss or an unplayed round: the score is the
  spread, e.g. 50, −50 or 0). A forfeit between two players (ČAS 14.2, 14.3) has no tsh
  notation: it is written as the ruled scores (200:0, or the kept score) with the key
  ``forfeit`` giving per round 1 (won by forfeit), 2 (lost by forfeit), 3 (forfeited by
  both), 0 (a game as played) — tsh keeps the key, this reader turns it back into the
  forfeit, and every other reader sees the ruled win and scores. ``p12`` gives per round
  1 (started), 2 (replied), 0 (neither), 3 (unknown); ``off`` marks a withdrawn player;
  ``team`` is the player's club (tsh's team, as its team standings read it: ``Player.club``,
  ``\\;`` unescaped) and is written from the hub's club.
  Every key — known or not — is kept verbatim, values such as tsh's ``00`` (undefined)
  included.
* Encoding: per file, UTF-8 when every line is valid UTF-8, else a guess
  (:func:`guess_encoding`, said in :attr:`TshFile.encoding_note`): Windows-1250 or ISO-8859-2
  when the bytes read as Czech or Slovak, else ISO-8859-1 (tsh's default). A file whose lines
  are partly UTF-8 with accents and partly not is refused (it would be garbled either way);
  the encoding is written back as read.
* Reading streams line by line with a limit on the length of a line (:data:`MAX_LINE`), so a
  corrupt or hostile file is refused before it costs memory.

Reading is two steps: :func:`read`/:func:`parse` give the file as written (:class:`TshFile`;
:func:`format_file` gives it back byte for byte); :func:`to_tournament` interprets it as games.

**Live files.** tsh counts a round for a player only when his score is there: a round whose
pairings are in the file but whose scores are not is *pending* — not a game, not in standings
(:func:`pending` lists it). How scored opponent-0 rounds are read:

* positive score → BYE;
* negative score → ABSENT (a forfeit without an opponent — tsh's way of scoring a missed round);
* zero score → LATE before the player's first game, ABSENT between games (temporary
  withdrawal, ČAS 14.4), nothing after his last game (withdrawn or not played yet).

Every refusal (:class:`TshError`) and warning names the line (and the player and round) in
the user's language (``shared.i18n``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.rules import CAS, RuleSet
from samoobsluha.hub.tournament.standings import game_lines
from samoobsluha.shared.i18n import cli_language, t

MAX_LINE = 64 * 1024  # bytes; tsh lines are a few hundred bytes (long events: a few KB)
MAX_LINES = 100_000  # players and comments; the biggest events have a few hundred players
BOM = "\ufeff"
UNDEFINED = "00"  # tsh's token for "undefined" in pairings, scores and key values
_BLOCK = 64 * 1024
_EOL = re.compile(rb"\r\n|\r|\n")
_TEXT_EOL = re.compile(r"\r\n|\r|\n")

_HEAD = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*)$", re.DOTALL)
_SCORE = re.compile(r"-?\d+$")
_SPLIT = re.compile(r"(?<!\\);")
_XTID = re.compile(r":X[A-Z]\d+$")


def ui_lang() -> str:
    """The language of command-line messages: :func:`shared.i18n.cli_language`
    (``SAMOOBSLUHA_LANG``, else the locale, else cs) — one rule for every ``hub`` command."""
    return cli_language()


@dataclass(frozen=True)
class Notice:
    """A message with its catalogue key, rendered in the user's language when shown."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str | None = None) -> str:
        return t(self.key, lang or ui_lang(), **self.values)

    def __str__(self) -> str:
        return self.text()


class TshError(ValueError):
    """A .t file that cannot be read; the message names the line (player, round)."""

    def __init__(self, message_key: str, /, **values: Any) -> None:
        self.notice = Notice(message_key, values)
        super().__init__(message_key)

    def text(self, lang: str | None = None) -> str:
        return self.notice.text(lang)

    def __str__(self) -> str:
        return self.notice.text()


@dataclass
class TshPlayer:
    name: str  # as written, with its ``:XT…`` id if any
    rating: str  # as written: 1500, 1500.5, 0+0+0
    opponents: list[int | None]  # None: tsh's ``00``, undefined (not paired that round)
    scores: list[int | None]  # None: ``00``, undefined (no score that round)
    fields: list[tuple[str, str]] = field(default_factory=list)  # (key, raw values) in order
    line: int = 0  # line number in the file (0: not read from a file)
    raw: str | None = None  # the line as read (without its end); None once changed
    eol: str = "\n"

    @property
    def display_name(self) -> str:
        """The name without its cross-tables id."""
        return _XTID.sub("", self.name)

    @property
    def xtid(self) -> str:
        m = _XTID.search(self.name)
        return m.group(0)[1:] if m else ""

    @property
    def rating_value(self) -> int:
        """A number for pairing by rating: a team's ``a+b+c`` is their mean."""
        parts = [float(x) for x in self.rating.split("+")]
        return round(sum(parts) / len(parts))

    def get(self, key: str) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return None

    def ints(self, key: str) -> list[int | None]:
        """A key's values as numbers; tsh's ``00`` is None (undefined), as tsh reads it."""
        raw = self.get(key)
        if not raw:
            return []
        out: list[int | None] = []
        for token in raw.split():
            if token == UNDEFINED:
                out.append(None)
                continue
            if not _SCORE.match(token):
                raise TshError(
                    "tsh.bad_key_number", line=self.line, name=self.name, key=key, value=token
                )
            out.append(int(token))
        return out

    def scored(self, r: int) -> bool:
        """Round ``r`` has a score (``00`` is no score: tsh reads it as undefined)."""
        return len(self.scores) >= r and self.scores[r - 1] is not None

    def paired(self, r: int) -> bool:
        """Round ``r`` has an opponent entry (0 = none) that is not ``00`` (undefined)."""
        return len(self.opponents) >= r and self.opponents[r - 1] is not None

    def score(self, r: int) -> int:
        """The score of a scored round (see :meth:`scored`)."""
        value = self.scores[r - 1]
        assert value is not None
        return value


@dataclass
class TshLine:
    """A line that is not a player: a comment or a blank line, kept as written."""

    text: str
    eol: str = "\n"


@dataclass
class TshFile:
    players: list[TshPlayer]
    encoding: str = "utf-8"
    lines: list[TshPlayer | TshLine] = field(default_factory=list)  # players and comments
    bom: bool = False
    warnings: list[Notice] = field(default_factory=list)
    # which 8-bit encoding was assumed and why, when it is a guess (not UTF-8, not ASCII)
    encoding_note: Notice | None = None

    def __post_init__(self) -> None:
        if not self.lines:
            self.lines = list(self.players)

    def __eq__(self, other: object) -> bool:  # what tsh reads, not the warnings
        if not isinstance(other, TshFile):
            return NotImplemented
        return (self.players, self.encoding) == (other.players, other.encoding)

    @property
    def rounds(self) -> int:
        """Rounds in the file, paired or scored."""
        return max((max(len(p.opponents), len(p.scores)) for p in self.players), default=0)

    @property
    def scored_rounds(self) -> int:
        """The last round with a score (what tsh's standings cover)."""
        return max(
            (r for p in self.players for r in range(len(p.scores), 0, -1) if p.scored(r)),
            default=0,
        )


# --- reading ------------------------------------------------------------------------------


def _byte_lines(stream: IO[bytes], limit: int) -> Iterator[tuple[int, bytes]]:
    """The lines of ``stream`` with their endings: LF, CRLF or a lone CR (classic Mac) —
    tsh splits on any of them — each at most ``limit`` bytes, read in blocks so a corrupt
    or hostile file is refused before it costs memory."""
    number = 0
    buf = b""
    while True:
        # never more than one line's limit ahead of what was used: a hostile file costs
        # at most ``limit`` bytes of memory and reading stops right at the refusal
        block = stream.read(max(1, min(_BLOCK, limit + 1 - len(buf))))
        buf += block
        start = 0
        for end in _EOL.finditer(buf):
            if end.group() == b"\r" and end.end() == len(buf) and block:
                break  # a CR at the end of a block may be the first half of CRLF
            number += 1
            if number > MAX_LINES:
                raise TshError("tsh.too_many_lines", limit=MAX_LINES)
            if end.start() - start > limit:
                raise TshError("tsh.line_too_long", line=number, limit=limit)
            yield number, buf[start : end.end()]
            start = end.end()
        buf = buf[start:]
        if len(buf) > limit:
            raise TshError("tsh.line_too_long", line=number + 1, limit=limit)
        if not block:
            if buf:
                number += 1
                if number > MAX_LINES:
                    raise TshError("tsh.too_many_lines", limit=MAX_LINES)
                yield number, buf
            return


def read_stream(stream: IO[bytes], *, limit: int = MAX_LINE) -> TshFile:
    """Read a .t file from a binary stream, one line at a time (each at most ``limit``).

    The encoding: UTF-8 when every line is valid UTF-8; else a guess between Windows-1250
    / ISO-8859-2 (Czech and Slovak) and ISO-8859-1 (tsh's default) by
    :func:`guess_encoding`, said in :attr:`TshFile.encoding_note`."""
    raw: list[tuple[int, bytes]] = []
    first_utf8 = first_latin = 0
    bom = False
    for number, chunk in _byte_lines(stream, limit):
        if number == 1 and chunk.startswith(b"\xef\xbb\xbf"):
            chunk, bom = chunk[3:], True
        if not chunk.isascii():
            try:
                chunk.decode("utf-8")
                first_utf8 = first_utf8 or number
            except UnicodeDecodeError:
                first_latin = first_latin or number
        raw.append((number, chunk))
    if first_utf8 and first_latin:
        raise TshError("tsh.mixed_encoding", utf8=first_utf8, latin=first_latin)
    encoding, note = "utf-8", None
    if first_latin:
        encoding, note = guess_encoding(raw)
    tsh = _parse_lines(((n, b.decode(encoding)) for n, b in raw), encoding, bom)
    tsh.encoding_note = note
    if encoding == "iso-8859-1":
        for n, b in raw:
            if any(0x80 <= c <= 0x9F for c in b):
                # C1 controls are never text in ISO-8859-1: most likely Windows-1252.
                tsh.warnings.append(Notice("tsh.warn_c1", {"line": n}))
                break
    return tsh


# --- which 8-bit encoding ------------------------------------------------------------------

_VOWELS = frozenset("aeiouyáéíóúůýěäô")
_CS_SK = frozenset("áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ")
_PUNCT_1250 = frozenset("€‚„…†‡‰‹‘’“”•–—™›")
_CANDIDATES = ("cp1250", "iso-8859-2")
ENCODING_NAMES = {
    "utf-8": "UTF-8",
    "cp1250": "Windows-1250",
    "iso-8859-2": "ISO-8859-2",
    "iso-8859-1": "ISO-8859-1",
}


def _char(data: bytes, i: int, encoding: str) -> str:
    if i < 0 or i >= len(data):
        return " "
    return data[i : i + 1].decode(encoding, "replace").lower()


def _czech_votes(data: bytes, encoding: str) -> tuple[int, int, set[str]]:
    """(votes for reading ``data`` as Czech/Slovak in ``encoding``, votes for ISO-8859-1,
    the Czech/Slovak letters that decided). Only bytes the two readings disagree on vote,
    each by the letter it makes and its neighbours — Czech spelling is the tell: ě only
    after b p v f m d t n; ů never first, always after a consonant; ř before a vowel or at
    the end of a word (Norwegian ø, the same byte, sits before r, n, l: Bjørn, Møller);
    ľ, š, ž, ť are letters where ISO-8859-1 has symbols or control codes."""
    ours = theirs = 0
    tells: set[str] = set()
    for i, b in enumerate(data):
        if b < 0x80:
            continue
        mine, latin = data[i : i + 1].decode(encoding, "replace"), chr(b)
        if mine == latin:
            continue
        c, prev, nxt = mine.lower(), _char(data, i - 1, encoding), _char(data, i + 1, encoding)
        in_word = prev.isalpha() or nxt.isalpha()
        if 0x80 <= b <= 0x9F:  # never text in ISO-8859-1
            if mine.isalpha():  # š ž ť Š Ž Ť (Polish ś ź too)
                ours += 3
                if mine in _CS_SK:
                    tells.add(c)
            elif mine not in _PUNCT_1250:  # quotes and dashes: Windows-1252's too, no vote
                ours -= 3
            continue
        if mine.isalpha() and not latin.isalpha():
            ours += 2 if in_word else 0
            if mine in _CS_SK and in_word:
                tells.add(c)
            continue
        if latin.isalpha() and not mine.isalpha():
            theirs += 2 if in_word else 0
            continue
        after = _char(data, i + 2, encoding)
        vote = 0
        if c == "ě":
            vote = 2 if prev in "bpvfmdtn" and prev.isalpha() else -1
        elif c == "ů":
            vote = 2 if prev.isalpha() and prev not in _VOWELS else -1
        elif c == "ř":
            vote = 2 if nxt in _VOWELS or not nxt.isalpha() else -1
        elif c == "č":
            if nxt in _VOWELS or not nxt.isalpha() or nxt in "kt":
                vote = 1
            elif after == "e":  # Hélène, Thérèse, Michèle: French è
                vote = -1
        elif c == "ň":
            vote = 1 if nxt.isalpha() else 0
        elif c == "ď":
            vote = 1 if nxt in _VOWELS or not nxt.isalpha() else -1
        elif c == "ŕ":
            consonants = prev.isalpha() and prev not in _VOWELS and nxt not in _VOWELS
            vote = 1 if consonants and nxt.isalpha() else -1
        elif c == "ĺ":
            vote = -1  # Scandinavian å is far more common in a name than Slovak ĺ
        elif c in "ľš":
            vote = 2 if in_word else 0
        if vote > 0:
            ours += vote
            tells.add(c)
        elif vote < 0:
            theirs -= vote
    return ours, theirs, tells


def guess_encoding(lines: Iterable[tuple[int, bytes]]) -> tuple[str, Notice]:
    """The 8-bit encoding of a file that is not UTF-8, and a notice saying which was
    assumed and why (shown on stderr: it is a guess). Windows-1250 (or ISO-8859-2) when
    the letters it makes read as Czech or Slovak better than ISO-8859-1's read as Western
    (see :func:`_czech_votes`) — even when no byte is in 0x80–0x9F; else ISO-8859-1, tsh's
    own default."""
    lines = list(lines)
    data = b"\n".join(b for _, b in lines)
    best, best_margin, best_tells = "", 0, set()
    for encoding in _CANDIDATES:
        try:
            data.decode(encoding)
        except UnicodeDecodeError:
            continue
        ours, theirs, tells = _czech_votes(data, encoding)
        if ours - theirs > best_margin:
            best, best_margin, best_tells = encoding, ours - theirs, tells
    encoding = best or "iso-8859-1"
    line, sample = next(
        ((n, b.decode(encoding).strip()) for n, b in lines if not b.isascii()), (0, "")
    )
    head = _HEAD.match(sample.split(";")[0].strip())
    sample = (head.group(1) if head else sample)[:40]  # the name, not the numbers
    if best:
        letters = ", ".join(sorted(best_tells)[:6])
        return encoding, Notice(
            "tsh.encoding_czech",
            {
                "encoding": ENCODING_NAMES[encoding],
                "letters": letters,
                "line": line,
                "sample": sample,
            },
        )
    return encoding, Notice(
        "tsh.encoding_default",
        {"encoding": ENCODING_NAMES[encoding], "line": line, "sample": sample},
    )


def read(path: Path | str, *, limit: int = MAX_LINE) -> TshFile:
    with open(path, "rb") as stream:
        return read_stream(stream, limit=limit)


def read_text(path: Path | str) -> tuple[str, str]:
    """The file as text and its encoding (UTF-8, else ISO-8859-1)."""
    tsh = read(path)
    return format_file(tsh), tsh.encoding


def split_lines(text: str) -> list[str]:
    """``text`` cut after each LF, CRLF or lone CR, endings kept — as tsh reads a file,
    and never on the other characters :meth:`str.splitlines` takes for line ends (U+0085,
    U+2028, form feed …), which are text inside a name."""
    out = []
    start = 0
    for end in _TEXT_EOL.finditer(text):
        out.append(text[start : end.end()])
        start = end.end()
    if start < len(text):
        out.append(text[start:])
    return out


def parse(text: str, encoding: str = "utf-8") -> TshFile:
    """Parse a file already decoded (as stored in the hub database)."""
    bom = text.startswith(BOM)
    if bom:
        text = text[1:]
    return _parse_lines(enumerate(split_lines(text), start=1), encoding, bom)


def _split_eol(text: str) -> tuple[str, str]:
    for eol in ("\r\n", "\n", "\r"):
        if text.endswith(eol):
            return text[: -len(eol)], eol
    return text, ""


def _parse_lines(lines: Iterable[tuple[int, str]], encoding: str, bom: bool) -> TshFile:
    tsh = TshFile([], encoding, bom=bom)
    entries: list[TshPlayer | TshLine] = []
    for number, full in lines:
        text, eol = _split_eol(full)
        if not text.strip() or text.lstrip().startswith("#"):
            entries.append(TshLine(text, eol))
            continue
        player = _parse_player(number, text, tsh.warnings)
        player.eol = eol
        tsh.players.append(player)
        entries.append(player)
    tsh.lines = entries
    _check(tsh)
    return tsh


def _parse_player(number: int, text: str, warnings: list[Notice]) -> TshPlayer:
    parts = _SPLIT.split(text)
    head = _HEAD.match(parts[0].rstrip())
    if head is None:
        raise TshError("tsh.bad_head", line=number, text=text[:60])
    name = head.group(1)
    # tsh's 00 is "undefined" (TFile.pm reads it as undef): in an opponent, not paired
    # that round; in a score, no score — the round is skipped, never a 0 or a 0:0 draw
    opponents = [None if x == UNDEFINED else int(x) for x in head.group(3).split()]
    scores: list[int | None] = []
    for token in parts[1].split() if len(parts) > 1 else []:
        if token == UNDEFINED:
            scores.append(None)
            continue
        if not _SCORE.match(token):
            raise TshError("tsh.bad_score", line=number, name=name, value=token)
        scores.append(int(token))
    undefined = sorted(
        {r for r, o in enumerate(opponents, start=1) if o is None}
        | {r for r, x in enumerate(scores, start=1) if x is None}
    )
    if undefined:
        warnings.append(
            Notice(
                "tsh.warn_undefined",
                {"line": number, "name": name, "rounds": ", ".join(map(str, undefined))},
            )
        )
    fields: list[tuple[str, str]] = []
    for fragment in parts[2:]:
        key, _, values = fragment.strip().partition(" ")
        fields.append((key, values.strip()))
    player = TshPlayer(name, head.group(2), opponents, scores, fields, number, text)
    if len(scores) > len(opponents):
        warnings.append(
            Notice(
                "tsh.warn_extra_scores",
                {"line": number, "name": name, "scores": len(scores), "pairings": len(opponents)},
            )
        )
    keys = [k for k, _ in fields if k]
    for key in sorted({k for k in keys if keys.count(k) > 1}):
        warnings.append(
            Notice("tsh.warn_duplicate_key", {"line": number, "name": name, "key": key})
        )
    if "p12" in keys:
        codes = player.ints("p12")  # refuses a non-number with its line
        if any(c not in (0, 1, 2, 3, None) for c in codes):
            warnings.append(Notice("tsh.warn_p12", {"line": number, "name": name}))
    return player


def _check(tsh: TshFile) -> None:
    n = len(tsh.players)
    for index, player in enumerate(tsh.players, start=1):
        for r, opp in enumerate(player.opponents, start=1):
            if opp is None:
                continue  # 00: not paired that round
            if opp > n:
                raise TshError(
                    "tsh.bad_opponent", line=player.line, name=player.name, round=r, opp=opp
                )
            if opp == index:
                raise TshError("tsh.self_paired", line=player.line, name=player.name, round=r)
            if opp:
                back = tsh.players[opp - 1].opponents
                if len(back) < r or back[r - 1] != index:
                    raise TshError(
                        "tsh.not_mutual",
                        line=player.line,
                        name=player.name,
                        round=r,
                        opp=tsh.players[opp - 1].name,
                    )
            if opp and player.scored(r) != tsh.players[opp - 1].scored(r) and opp > index:
                tsh.warnings.append(
                    Notice(
                        "tsh.warn_half_scored",
                        {
                            "line": player.line,
                            "name": player.name,
                            "round": r,
                            "opp": tsh.players[opp - 1].name,
                        },
                    )
                )


# --- writing ------------------------------------------------------------------------------


def format_player(p: TshPlayer) -> str:
    """A player line in tsh's own layout (``%-22s %5s``, ``; key values`` per field)."""
    head = f"{p.name:<22} {p.rating:>5}"
    if p.opponents:
        head += " " + " ".join(_token(o) for o in p.opponents)
    out = [head, " " + " ".join(_token(s) for s in p.scores)]
    for key, values in p.fields:
        out.append(f" {key} {values}" if values else f" {key}")
    return ";".join(out)


def _token(value: int | None) -> str:
    return UNDEFINED if value is None else str(value)


def format_file(tsh: TshFile, *, bom: bool = True) -> str:
    out = [BOM] if tsh.bom and bom else []
    for entry in tsh.lines:
        if isinstance(entry, TshLine):
            out.append(entry.text + entry.eol)
        else:
            out.append((entry.raw if entry.raw is not None else format_player(entry)) + entry.eol)
    return "".join(out)


def encode(tsh: TshFile) -> bytes:
    """The file's bytes in its own encoding (a BOM read is written back)."""
    for p in tsh.players:
        if p.raw is None:
            again = _HEAD.match(format_player(p).split(";")[0].rstrip())
            if again is None or again.group(1) != p.name:
                # tsh would read "Team 7 1500 …" as the name "Team" rated 7.
                raise TshError("tsh.ambiguous_name", name=p.name)
    text = format_file(tsh, bom=False)
    try:
        return (b"\xef\xbb\xbf" if tsh.bom else b"") + text.encode(tsh.encoding)
    except UnicodeEncodeError as exc:
        bad = text[exc.start : exc.end]
        line = text.count("\n", 0, exc.start) + 1
        raise TshError("tsh.unencodable", line=line, char=bad, encoding=tsh.encoding) from None


def write(tsh: TshFile, path: Path | str) -> None:
    Path(path).write_bytes(encode(tsh))


# --- interpretation -----------------------------------------------------------------------


CLUB_KEY = "team"  # tsh's key for a player's team, the hub's club


def club_value(club: str) -> str:
    """The hub's club as a tsh ``team`` value: one line, ``;`` escaped (``\\;``), no
    trailing backslash that would escape the next separator."""
    return " ".join(club.split()).replace(";", "\\;").rstrip("\\")


def club_of(value: str | None) -> str:
    """A tsh ``team`` value as the hub's club (``\\;`` is a ``;``)."""
    return (value or "").replace("\\;", ";").strip()


def _player(pid: int, tp: TshPlayer) -> Player:
    extra = {k: v for k, v in tp.fields if k}
    try:
        rating = tp.rating_value
    except ValueError:  # cannot happen after the grammar, kept for hand-built files
        rating = 0
    return Player(
        id=pid,
        name=tp.display_name,
        club=club_of(tp.get(CLUB_KEY)),
        rating=rating,
        withdrawn="off" in extra,
        extra=extra,
    )


def to_tournament(tsh: TshFile, name: str = "") -> TournamentData:
    """Players and the games of scored rounds (see the module docstring for opponent 0).
    Pairings without scores (a live file) are not games: see :func:`pending`."""
    data = TournamentData(name=name)
    for pid, tp in enumerate(tsh.players, start=1):
        data.players[pid] = _player(pid, tp)
    for pid, tp in enumerate(tsh.players, start=1):
        p12 = tp.ints("p12")
        real = [
            r
            for r, o in enumerate(tp.opponents, start=1)
            if o is not None and tp.scored(r) and (o or tp.score(r) != 0)
        ]
        first_real = min(real, default=0)
        last_real = max(real, default=0)
        for r, opp in enumerate(tp.opponents, start=1):
            if opp is None or not tp.scored(r):
                continue  # 00 (undefined) or not scored yet: no game, as in tsh
            own = tp.score(r)
            if opp == 0:
                if own > 0:
                    data.games.append(Game(r, pid, None, own, None, kind=Kind.BYE))
                elif own < 0:
                    data.games.append(Game(r, pid, None, own, None, kind=Kind.ABSENT))
                elif r < first_real or not real:
                    data.games.append(Game(r, pid, None, 0, None, kind=Kind.LATE))
                elif r < last_real:
                    data.games.append(Game(r, pid, None, 0, None, kind=Kind.ABSENT))
                continue
            other = tsh.players[opp - 1]
            if opp < pid or not other.scored(r):
                continue  # added from the opponent's line, or pending (half-scored)
            first = _starter(pid, opp, _code(p12, r), _code(other.ints("p12"), r))
            game = Game(r, pid, opp, own, other.score(r), first=first)
            verdict = _forfeit_code(tp, r) or _FORFEIT_MIRROR.get(_forfeit_code(other, r), 0)
            if verdict == FORFEIT_WON:
                game.kind, game.forfeited = Kind.FORFEIT, opp
            elif verdict == FORFEIT_LOST:
                game.kind, game.forfeited = Kind.FORFEIT, pid
            elif verdict == FORFEIT_BOTH:
                game.kind = Kind.DOUBLE_FORFEIT
            data.games.append(game)
    data.games.sort(key=lambda g: (g.round, g.p1))
    return data


def pending(tsh: TshFile) -> list[Game]:
    """Pairings whose scores are not in yet (a live file): ``Game`` without scores, ``p2``
    None for a bye; ``first`` from p12 when known. Sorted by round and player."""
    out = []
    last_scored = tsh.scored_rounds
    for pid, tp in enumerate(tsh.players, start=1):
        p12 = tp.ints("p12")
        for r, opp in enumerate(tp.opponents, start=1):
            if opp is None:
                continue  # 00: not paired that round
            if tp.scored(r) and (not opp or tsh.players[opp - 1].scored(r)):
                continue
            if opp == 0:
                if r > last_scored:
                    out.append(Game(r, pid, None, kind=Kind.BYE))
                continue
            if opp < pid and tsh.players[opp - 1].opponents[r - 1] == pid:
                continue
            first = _starter(pid, opp, _code(p12, r), _code(tsh.players[opp - 1].ints("p12"), r))
            out.append(Game(r, pid, opp, first=first))
    out.sort(key=lambda g: (g.round, g.p1))
    return out


FORFEIT_KEY = "forfeit"
# A player expelled from the event: the round of the expulsion (``expelled 3``). tsh keeps
# the key as it keeps every unknown one; this reader gives it back, so a rule set that voids
# an expelled player's tally (PFS 1.3, ``expelled_results = "void"``) reads the same
# standings from the file as the hall's.
EXPELLED_KEY = "expelled"


def expelled_rounds(tsh: TshFile) -> dict[int, int]:
    """Player number → the round he was expelled from the event in (the ``expelled`` key)."""
    out = {}
    for pid, tp in enumerate(tsh.players, start=1):
        rounds = tp.ints(EXPELLED_KEY)
        if rounds and rounds[0] is not None:
            out[pid] = rounds[0]
    return out
FORFEIT_WON, FORFEIT_LOST, FORFEIT_BOTH = 1, 2, 3
_FORFEIT_MIRROR = {FORFEIT_WON: FORFEIT_LOST, FORFEIT_LOST: FORFEIT_WON, FORFEIT_BOTH: FORFEIT_BOTH}


def _forfeit_code(tp: TshPlayer, r: int) -> int:
    """The ``forfeit`` code of round ``r`` on a player's line: 0 when none."""
    codes = tp.ints(FORFEIT_KEY)
    code = codes[r - 1] if len(codes) >= r else None
    return code if code in _FORFEIT_MIRROR else 0


def _code(codes: list[int | None], r: int) -> int:
    """The p12 code of round ``r``: 3 (unknown) when missing or ``00``."""
    code = codes[r - 1] if len(codes) >= r else None
    return 3 if code is None else code


def incomplete(tsh: TshFile, round_no: int) -> list[Game]:
    """The games of ``round_no`` paired but without a result (a round partly scored, or
    not at all): what the database path calls missing results."""
    return [g for g in pending(tsh) if g.round == round_no and g.p2 is not None]


def _starter(pid: int, opp: int, mine: int, theirs: int) -> int | None:
    """Who started, from both players' p12 codes; contradictory codes mean unknown."""
    says_me = mine == 1 or theirs == 2
    says_opp = mine == 2 or theirs == 1
    if says_me and not says_opp:
        return pid
    if says_opp and not says_me:
        return opp
    return None


# --- export -------------------------------------------------------------------------------


def _with_forfeits(
    fields: list[tuple[str, str]], codes: dict[int, int], length: int, same: bool
) -> tuple[list[tuple[str, str]], bool]:
    """``fields`` with the ``forfeit`` key for ``codes`` (round → code), and whether the
    line is still the source's: a key that says the same is kept as written, none is
    written while no round is a forfeit."""
    had = next((v for k, v in fields if k == FORFEIT_KEY), None)
    values = [codes.get(r, 0) for r in range(1, length + 1)]
    while values and not values[-1]:
        values.pop()
    if had is not None:
        old = [0 if x is None else x for x in TshPlayer("", "0", [], [], fields).ints(FORFEIT_KEY)]
        while old and not old[-1]:
            old.pop()
        if old == values:
            return fields, same
    text = " ".join(str(v) for v in values)
    if not values:
        return [(k, v) for k, v in fields if k != FORFEIT_KEY], same and had is None
    if had is None:
        return [*fields, (FORFEIT_KEY, text)], False
    return [(k, text if k == FORFEIT_KEY else v) for k, v in fields], False


_Sig = tuple[Any, ...] | None


def _signatures(games: Iterable[Game], pend: Iterable[Game]) -> dict[tuple[int, int], _Sig]:
    """What each (player, round) is, as tsh and the engine read it."""
    sig: dict[tuple[int, int], _Sig] = {}
    for g in games:
        if g.p2 is None:
            sig[(g.p1, g.round)] = (g.kind.value,)
            continue
        for me, other in ((g.p1, g.p2), (g.p2, g.p1)):
            own, theirs = g.score_of(me)
            sig[(me, g.round)] = (g.kind.value, other, own, theirs, g.first, g.forfeited)
    for g in pend:
        for me in g.players():
            sig[(me, g.round)] = ("pending", g.opponent(me))
    return sig


def from_tournament(
    data: TournamentData,
    rounds: int | None = None,
    *,
    pending_games: Iterable[Game] = (),
    source: TshFile | None = None,
    scored_rounds: int = 0,
    rules: RuleSet | None = None,
    expelled: Mapping[int, int] | None = None,
) -> TshFile:
    """A .t file for ``data`` (scored games) and ``pending_games`` (pairings without scores).

    With ``source`` (the file the tournament was imported from), every round that still
    means what it meant there is written with the source's own tokens (bye and absence
    scores, unplayed rounds, p12 codes), every key is kept verbatim and unchanged lines are
    written byte for byte; only what changed in the hub is written anew. Without a source,
    keys in ``Player.extra`` other than p12/off are kept and lines use tsh's layout.
    ``scored_rounds``: rounds that are over even if nobody played in the last ones.
    ``rules`` (default ČAS's values): what a forfeit is worth — it is written as its ruled
    scores with the ``forfeit`` key, so the file says what the hall ruled. ``expelled``:
    player → the round of his expulsion from the event, written as the ``expelled`` key."""
    expelled = expelled or {}
    pend = [g for g in pending_games if rounds is None or g.round <= rounds]
    games = [g for g in data.games if rounds is None or g.round <= rounds]
    scored = max([scored_rounds, *(g.round for g in games)])
    last = max([scored, *(g.round for g in pend)])
    ids = sorted(data.players)
    number = {pid: i for i, pid in enumerate(ids, start=1)}
    cells: dict[int, dict[int, tuple[int, int | None, int]]] = {pid: {} for pid in ids}
    derived: tuple[int, int | None, int]
    code: int | None
    score: int | None
    tables = {(pid, g.round): g.table for g in (*games, *pend) for pid in g.players()}
    forfeit_codes: dict[int, dict[int, int]] = {pid: {} for pid in ids}
    for g in games:
        if g.p2 is None:
            if g.kind is Kind.BYE:
                score = g.s1 if g.s1 is not None else 50
            elif g.kind is Kind.ABSENT:
                score = g.s1 if g.s1 is not None else -50
            else:
                score = 0
            cells[g.p1][g.round] = (0, score, 0)
            continue
        s1, s2 = g.s1, g.s2
        if g.kind in (Kind.FORFEIT, Kind.DOUBLE_FORFEIT):
            # the ruled result, not the score at the moment (ČAS 14.2, 14.3)
            ruled = game_lines(g, rules or CAS)
            s1, s2 = ruled[g.p1].own, ruled[g.p2].own
            for me in (g.p1, g.p2):
                verdict = (
                    FORFEIT_BOTH
                    if g.kind is Kind.DOUBLE_FORFEIT
                    else FORFEIT_LOST
                    if g.forfeited == me
                    else FORFEIT_WON
                )
                forfeit_codes[me][g.round] = verdict
        for me, other, own in ((g.p1, g.p2, s1), (g.p2, g.p1, s2)):
            code = 3 if g.first is None else 1 if g.first == me else 2
            cells[me][g.round] = (number[other], own or 0, code)
    for g in pend:
        for me in g.players():
            rival = g.opponent(me)
            code = 0 if rival is None else 3 if g.first is None else 1 if g.first == me else 2
            cells[me][g.round] = (0 if rival is None else number[rival], None, code)
    src_sig: dict[tuple[int, int], _Sig] = {}
    if source is not None:
        src_sig = _signatures(to_tournament(source).games, pending(source))
    db_sig = _signatures(games, pend)

    players = []
    for pid in ids:
        p = data.players[pid]
        src = source.players[pid - 1] if source is not None and pid <= len(source.players) else None
        mine = cells[pid]
        length = max([scored, *mine]) if src is None else last
        opps: list[int | None] = []
        scores: list[int | None] = []  # None: 00 (a round without a score before one with)
        p12: list[int | None] = []
        same = src is not None
        src_p12 = src.ints("p12") if src is not None else []
        rewritten: list[int] = []  # rounds written from the database, not the source
        opp: int | None
        for r in range(1, length + 1):
            derived = mine.get(r, (0, 0 if r <= scored else None, 0))
            if src is not None and src_sig.get((pid, r)) == db_sig.get((pid, r)):
                in_src = r <= max(len(src.opponents), len(src.scores))
                opp = src.opponents[r - 1] if r <= len(src.opponents) else 0
                score = src.scores[r - 1] if src.scored(r) else None
                code = src_p12[r - 1] if r <= len(src_p12) else derived[2]
                if not in_src:
                    opp, score, code = derived
                    same = False
                    rewritten.append(r)
            else:
                opp, score, code = derived
                same = False
                rewritten.append(r)
            opps.append(opp)
            p12.append(code)
            scores.append(score)
        while scores and scores[-1] is None:
            scores.pop()
        if src is not None:
            # Anything the source had beyond what the hub knows of (never scored, no game).
            same = same and len(src.opponents) <= length and len(src.scores) <= length
            while len(opps) > len(src.opponents) and opps[-1] == 0 and len(opps) > len(scores):
                opps.pop()
                p12.pop()
                same = False
            fields = list(src.fields)
            if p.club != club_of(src.get(CLUB_KEY)):
                same = False
                fields = _with_club(fields, p.club)
            gone = str(expelled[pid]) if pid in expelled else None
            if gone != src.get(EXPELLED_KEY):
                same = False
                fields = [(k, v) for k, v in fields if k != EXPELLED_KEY]
                if gone is not None:
                    fields.append((EXPELLED_KEY, gone))
            was_off = src.get("off") is not None
            if p.withdrawn != was_off:
                same = False
                fields = [(k, v) for k, v in fields if k != "off"]
                if p.withdrawn:
                    fields.append(("off", "0"))
            board = src.get("board")
            if not same and board is not None:
                # tsh's table numbers: a round the hub re-paired gets the hub's table.
                tokens = board.split()
                for r in rewritten:
                    table = tables.get((pid, r))
                    if table is None:
                        continue
                    if r <= len(tokens):
                        tokens[r - 1] = str(table)
                    elif r == len(tokens) + 1:
                        tokens.append(str(table))
                fields = [(k, " ".join(tokens) if k == "board" else v) for k, v in fields]
            fields, same = _with_forfeits(fields, forfeit_codes[pid], length, same)
            if not same:
                codes = " ".join(_token(c) for c in p12)
                if any(k == "p12" for k, _ in fields):
                    if src.get("p12") is None or src.ints("p12") != p12:
                        fields = [(k, codes if k == "p12" else v) for k, v in fields]
                elif any(c for c in p12):
                    fields.append(("p12", codes))
            line = TshPlayer(
                src.name,
                src.rating,
                opps,
                scores,
                fields,
                src.line,
                src.raw if same else None,
                src.eol,
            )
        else:
            dropped = ("p12", "off", FORFEIT_KEY, EXPELLED_KEY)
            fields = [(k, v) for k, v in p.extra.items() if k not in dropped]
            fields = _with_club(fields, p.club)
            if p.withdrawn:
                fields.append(("off", p.extra.get("off") or "0"))
            if pid in expelled:
                fields.append((EXPELLED_KEY, str(expelled[pid])))
            fields, _ = _with_forfeits(fields, forfeit_codes[pid], length, False)
            fields.append(("p12", " ".join(_token(x) for x in p12)))
            fields.sort(key=lambda kv: kv[0])
            line = TshPlayer(p.name, str(p.rating), opps, scores, fields)
        players.append(line)
    if source is None:
        return TshFile(players)
    entries: list[TshPlayer | TshLine] = []
    index = 0
    for entry in source.lines:
        if isinstance(entry, TshLine):
            entries.append(entry)
        elif index < len(players):
            entries.append(players[index])
            index += 1
    entries += players[index:]
    return TshFile(players, source.encoding, entries, bom=source.bom)


def _with_club(fields: list[tuple[str, str]], club: str) -> list[tuple[str, str]]:
    """``fields`` with the ``team`` key saying ``club``: in its place when there is one,
    else last; none for a player without a club."""
    value = club_value(club)
    if not any(k == CLUB_KEY for k, _ in fields):
        return [*fields, (CLUB_KEY, value)] if value else fields
    if not value:
        return [(k, v) for k, v in fields if k != CLUB_KEY]
    return [(k, value if k == CLUB_KEY else v) for k, v in fields]


# --- events of several divisions (config.tsh) ----------------------------------------------

#: tsh's configuration line naming a division and its file: ``division a a.t``.
_DIVISION_LINE = re.compile(r"^(\s*)division(\s+)(\S+)(\s+)(\S+)(\s*)$", re.IGNORECASE)
_BEGIN_FILE = re.compile(r"^#begin_file\s+name=(\S+)\s*$")
_END_FILE = re.compile(r"^#end_file\b")
MAX_CONFIG = 1024 * 1024  # bytes; a tsh configuration is a few KB


@dataclass
class TshConfig:
    """A tsh event configuration: its text (without embedded files) and its divisions.

    ``divisions`` are (name, file) in the order the ``division`` lines give them; tsh reads
    each division's players from that ``.t`` file, relative to the configuration. A tsh
    *archive* (one file holding the configuration and every ``.t`` between ``#begin_file
    name=F`` and ``#end_file`` lines, as tsh and Woogles write it) gives the files' texts in
    ``embedded``."""

    text: str
    encoding: str
    divisions: list[tuple[str, str]] = field(default_factory=list)
    embedded: dict[str, str] = field(default_factory=dict)


def is_config(path: Path | str) -> bool:
    """A tsh configuration (``config.tsh``, an archive ``*.tsh``), not a ``.t`` file."""
    return Path(path).suffix.lower() == ".tsh"


def read_config(path: Path | str) -> TshConfig:
    """Read a tsh configuration or archive (UTF-8, else ISO-8859-1 as tsh reads it)."""
    raw = Path(path).read_bytes()[: MAX_CONFIG + 1]
    if len(raw) > MAX_CONFIG:
        raise TshError("tsh.config_too_long", file=str(path), limit=MAX_CONFIG)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text, encoding = raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        text, encoding = raw.decode("iso-8859-1"), "iso-8859-1"
    return parse_config(text, encoding)


def parse_config(text: str, encoding: str = "utf-8") -> TshConfig:
    config = TshConfig("", encoding)
    kept: list[str] = []
    inside: str | None = None
    body: list[str] = []
    for line in split_lines(text):
        bare, _eol = _split_eol(line)
        if inside is not None:
            if _END_FILE.match(bare):
                config.embedded[inside] = "".join(body)
                inside, body = None, []
            else:
                body.append(line)
            continue
        begin = _BEGIN_FILE.match(bare)
        if begin:
            inside = begin.group(1)
            continue
        kept.append(line)
        div = _DIVISION_LINE.match(bare)
        if div:
            config.divisions.append((div.group(3), div.group(5)))
    if inside is not None:
        config.embedded[inside] = "".join(body)
    config.text = "".join(kept)
    return config


def config_with_divisions(text: str, divisions: list[tuple[str, str]]) -> str:
    """``text`` (a configuration, or "" for a new one) with exactly ``divisions``' lines:
    a division line that still names a division and its file is kept as it is, one whose
    division is gone is dropped, a changed one is written anew in its place, new ones
    follow the last division line (or end a new configuration)."""
    if not text:
        head = "# tsh configuration written by Samoobsluha\n"
        return head + "".join(f"division {name} {file}\n" for name, file in divisions)
    wanted = {name.casefold(): (name, file) for name, file in divisions}
    out: list[str] = []
    seen: set[str] = set()
    last = -1
    eol = "\n"
    for line in split_lines(text):
        bare, line_eol = _split_eol(line)
        eol = line_eol or eol
        div = _DIVISION_LINE.match(bare)
        if not div:
            out.append(line)
            continue
        key = div.group(3).casefold()
        if key not in wanted or key in seen:
            continue
        seen.add(key)
        name, file = wanted[key]
        if (div.group(3), div.group(5)) == (name, file):
            out.append(line)
        else:
            g = div.groups()
            out.append(f"{g[0]}division{g[1]}{name}{g[3]}{file}{g[5]}{line_eol or eol}")
        last = len(out) - 1
    new = [f"division {n} {f}{eol}" for n, f in divisions if n.casefold() not in seen]
    if new:
        if out and not out[-1].endswith(("\n", "\r")):
            out[-1] += eol
        at = last + 1 if last >= 0 else len(out)
        out[at:at] = new
    return "".join(out)

"""tsh ``.t`` files (John Chew's tsh, the format most Scrabble directors exchange).

One line per player, players numbered from 1 in file order::

    NAME RATING opp1 opp2 …; score1 score2 …; key values; key values; …

Opponent 0 is "no opponent" (a bye, a forfeit loss or an unplayed round: the score is the
spread, e.g. 50, −50 or 0). ``p12`` gives per round 1 (started), 2 (replied), 0 (neither),
3 (unknown). ``off`` marks a withdrawn player. Every other key (``board``, ``newr``,
``rtime`` …) is kept verbatim so that a file read and written back is unchanged.

Reading is two steps: :func:`parse` gives the file as written (:class:`TshFile`, exact
round-trip through :func:`format_file`); :func:`to_tournament` interprets it as games. How
opponent-0 rounds are read:

* positive score → BYE;
* negative score → ABSENT (a forfeit without an opponent — tsh's way of scoring a missed round);
* zero score → LATE before the player's first game, ABSENT between games (temporary
  withdrawal, ČAS 14.4), nothing after his last game (withdrawn or not played yet).

Files are UTF-8; tsh's older ISO-8859-1 files are read when they are not valid UTF-8.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData

_HEAD = re.compile(r"^(\D+?)\s+(-?\d+)((?:\s+-?\d+)*)\s*$")


class TshError(ValueError):
    """A line of a .t file that cannot be read; the message names the line."""


@dataclass
class TshPlayer:
    name: str
    rating: int
    opponents: list[int]
    scores: list[int]
    fields: list[tuple[str, str]] = field(default_factory=list)  # (key, raw values) in order

    def get(self, key: str) -> str | None:
        for k, v in self.fields:
            if k == key:
                return v
        return None

    def ints(self, key: str) -> list[int]:
        raw = self.get(key)
        return [int(x) for x in raw.split()] if raw else []


@dataclass
class TshFile:
    players: list[TshPlayer]
    encoding: str = "utf-8"

    @property
    def rounds(self) -> int:
        return max((max(len(p.opponents), len(p.scores)) for p in self.players), default=0)


def read_text(path: Path | str) -> tuple[str, str]:
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "iso-8859-1"


def parse(text: str, encoding: str = "utf-8") -> TshFile:
    players: list[TshPlayer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(";")
        head = _HEAD.match(parts[0].rstrip())
        if head is None:
            raise TshError(f"line {number}: expected 'NAME RATING opponents…', got {line[:60]!r}")
        name = head.group(1).strip()
        opponents = [int(x) for x in head.group(3).split()]
        try:
            scores = [int(x) for x in parts[1].split()] if len(parts) > 1 else []
        except ValueError:
            raise TshError(f"line {number} ({name}): scores are not numbers") from None
        fields: list[tuple[str, str]] = []
        for raw in parts[2:]:
            raw = raw.strip()
            key, _, values = raw.partition(" ")
            fields.append((key, values.strip()))
        players.append(TshPlayer(name, int(head.group(2)), opponents, scores, fields))
    tsh = TshFile(players, encoding)
    _check_opponents(tsh)
    return tsh


def _check_opponents(tsh: TshFile) -> None:
    n = len(tsh.players)
    for index, player in enumerate(tsh.players, start=1):
        for r, opp in enumerate(player.opponents, start=1):
            if opp < 0 or opp > n:
                raise TshError(f"{player.name}: round {r} opponent {opp} is not a player number")
            if opp == index:
                raise TshError(f"{player.name}: round {r} paired with himself")


def read(path: Path | str) -> TshFile:
    text, encoding = read_text(path)
    return parse(text, encoding)


def format_player(p: TshPlayer) -> str:
    head = f"{p.name:<26} {p.rating}"
    if p.opponents:
        head += " " + " ".join(str(o) for o in p.opponents)
    out = [head, " " + " ".join(str(s) for s in p.scores)]
    for key, values in p.fields:
        out.append(f" {key} {values}" if values else (f" {key}" if key else " "))
    return ";".join(out)


def format_file(tsh: TshFile) -> str:
    return "".join(format_player(p) + "\n" for p in tsh.players)


def write(tsh: TshFile, path: Path | str) -> None:
    Path(path).write_bytes(format_file(tsh).encode(tsh.encoding))


# --- interpretation -----------------------------------------------------------------------


def to_tournament(tsh: TshFile, name: str = "") -> TournamentData:
    """Players and games from a parsed file (see the module docstring for opponent 0)."""
    data = TournamentData(name=name)
    for pid, tp in enumerate(tsh.players, start=1):
        extra = {k: v for k, v in tsh.players[pid - 1].fields}
        data.players[pid] = Player(
            id=pid, name=tp.name, rating=tp.rating, withdrawn="off" in extra, extra=extra
        )
    for pid, tp in enumerate(tsh.players, start=1):
        p12 = tp.ints("p12")
        real = [r for r, o in enumerate(tp.opponents, start=1) if o or _score(tp, r) != 0]
        first_real = min(real, default=0)
        last_real = max(real, default=0)
        for r, opp in enumerate(tp.opponents, start=1):
            own = _score(tp, r)
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
            back = tsh.players[opp - 1].opponents
            if len(back) < r or back[r - 1] != pid:
                raise TshError(
                    f"{tp.name}: round {r} opponent {tsh.players[opp - 1].name} "
                    "does not list him back"
                )
            if opp < pid:
                continue  # already added from the opponent's line
            opp_score = _score(tsh.players[opp - 1], r)
            theirs = tsh.players[opp - 1].ints("p12")
            first = _starter(
                pid,
                opp,
                p12[r - 1] if len(p12) >= r else 3,
                theirs[r - 1] if len(theirs) >= r else 3,
            )
            data.games.append(Game(r, pid, opp, own, opp_score, first=first))
    data.games.sort(key=lambda g: (g.round, g.p1))
    return data


def _starter(pid: int, opp: int, mine: int, theirs: int) -> int | None:
    """Who started, from both players' p12 codes; contradictory codes mean unknown."""
    says_me = mine == 1 or theirs == 2
    says_opp = mine == 2 or theirs == 1
    if says_me and not says_opp:
        return pid
    if says_opp and not says_me:
        return opp
    return None


def _score(tp: TshPlayer, r: int) -> int:
    return tp.scores[r - 1] if len(tp.scores) >= r else 0


def from_tournament(data: TournamentData, rounds: int | None = None) -> TshFile:
    """A .t file for ``data``; keys in ``Player.extra`` other than p12/off are kept."""
    rounds = data.rounds if rounds is None else rounds
    ids = sorted(data.players)
    number = {pid: i for i, pid in enumerate(ids, start=1)}
    opps = {pid: [0] * rounds for pid in ids}
    scores = {pid: [0] * rounds for pid in ids}
    p12 = {pid: [0] * rounds for pid in ids}
    for g in data.games:
        if g.round > rounds:
            continue
        i = g.round - 1
        if g.p2 is None:
            if g.kind is Kind.BYE:
                scores[g.p1][i] = g.s1 if g.s1 is not None else 50
            elif g.kind is Kind.ABSENT:
                scores[g.p1][i] = g.s1 if g.s1 is not None else -50
            continue
        s1, s2 = g.s1, g.s2
        if g.kind is Kind.FORFEIT and (s1 is None or s2 is None):
            s1, s2 = (0, 200) if g.forfeited == g.p1 else (200, 0)
        elif g.kind is Kind.DOUBLE_FORFEIT:
            s1, s2 = 0, 0
        for me, other, own in ((g.p1, g.p2, s1), (g.p2, g.p1, s2)):
            opps[me][i] = number[other]
            scores[me][i] = own or 0
            p12[me][i] = 3 if g.first is None else 1 if g.first == me else 2
    players = []
    for pid in ids:
        p = data.players[pid]
        fields = [(k, v) for k, v in p.extra.items() if k not in ("p12", "off")]
        if p.withdrawn:
            fields.append(("off", p.extra.get("off") or "0"))
        fields.append(("p12", " ".join(str(x) for x in p12[pid])))
        fields.sort(key=lambda kv: kv[0])
        players.append(TshPlayer(p.name, p.rating, opps[pid], scores[pid], fields))
    return TshFile(players)

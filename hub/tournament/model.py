"""Players and games: the plain data every other tournament module works on.

A :class:`Game` is one player's round seen from the pairing sheet: two players (or one and
nobody for a bye/absence), both scores, who started (ZH) and what kind of game it was. The
scores stored are what happened at the table; what a forfeit, bye or absence is *worth* is
decided by a :class:`~hub.tournament.rules.RuleSet` in :mod:`hub.tournament.standings`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    """What a game was; the rule set turns each kind into wins and points."""

    PLAYED = "played"  # a normal game with both scores
    FORFEIT = "forfeit"  # one player forfeited (ČAS 14.2); ``forfeited`` names him
    DOUBLE_FORFEIT = "double_forfeit"  # both forfeited (ČAS 14.3): 0:0, no win
    BYE = "bye"  # volný los (ČAS 14.5): ½ win and 300:300 by default
    LATE = "late"  # late entrant, round missed before entry (ČAS 14.4): 0 and 0:0
    ABSENT = "absent"  # temporary withdrawal, round missed (ČAS 14.4): 0 and 0:200


SINGLE_KINDS = frozenset({Kind.BYE, Kind.LATE, Kind.ABSENT})


@dataclass
class Player:
    """A tournament entrant. ``id`` is 1-based and stable (tsh player number)."""

    id: int
    name: str
    club: str = ""
    rating: int = 0
    withdrawn: bool = False  # permanently out (tsh ``off``): never paired again
    paused: bool = False  # temporarily out: each missed round is scored as ABSENT
    checked_in: bool = False
    extra: dict[str, str] = field(default_factory=dict)  # tsh keys we keep verbatim
    division: str = "A"  # the division (group) he plays in; "A" when the hall has one


@dataclass
class Game:
    """One game (or bye/absence) of a round.

    ``p2`` is ``None`` for single-player kinds (bye, late, absent). ``first`` is the id of
    the player who started (ZH) or ``None`` when unknown / not applicable. ``s1``/``s2`` are
    the table scores; for a FORFEIT they are the score at the moment of forfeit (may be
    ``None`` when the game never started).
    """

    round: int
    p1: int
    p2: int | None
    s1: int | None = None
    s2: int | None = None
    first: int | None = None
    kind: Kind = Kind.PLAYED
    forfeited: int | None = None  # for Kind.FORFEIT: the player the game was forfeited against
    table: int | None = None

    def players(self) -> tuple[int, ...]:
        return (self.p1,) if self.p2 is None else (self.p1, self.p2)

    def opponent(self, pid: int) -> int | None:
        if pid == self.p1:
            return self.p2
        if pid == self.p2:
            return self.p1
        raise ValueError(f"player {pid} is not in this game")

    def score_of(self, pid: int) -> tuple[int | None, int | None]:
        """(own, opponent's) table score from ``pid``'s side."""
        if pid == self.p1:
            return self.s1, self.s2
        return self.s2, self.s1


@dataclass
class TournamentData:
    """Players and games in memory (from a tsh file or the hub database)."""

    players: dict[int, Player] = field(default_factory=dict)
    games: list[Game] = field(default_factory=list)
    name: str = ""

    @property
    def rounds(self) -> int:
        return max((g.round for g in self.games), default=0)

    def games_until(self, last_round: int) -> list[Game]:
        return [g for g in self.games if g.round <= last_round]

    def by_name(self, name: str) -> Player:
        for player in self.players.values():
            if player.name == name:
                return player
        raise KeyError(name)

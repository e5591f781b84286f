"""Standings under a rule set: ČAS (wins, TurČAS), SSS (wins, opponents' wins, spread),
PFS (wins − losses, points).

Every game is first turned into a :class:`Line` per player — the wins, points and starts it
is worth under the rule set (forfeits, byes and absences included) — and the totals are sums
of lines. Scorecards and exports show the same lines, so what a player sees on his scorecard
is exactly what was added up.

TurČAS (ČAS 16.29)::

    TurČAS = A / Kol × Buchholz + B × AbsScore + C × RelScore + D × Zacinani

Kol is the number of rounds the standings cover (the last round with any game), Buchholz the
sum of the current wins of the opponents actually met (a bye or an absence has no opponent),
AbsScore the points scored, RelScore the spread, Zacinani (games not started) − (games
started), counted over games whose starter is known.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from samoobsluha.hub.tournament.model import Game, Kind, Player
from samoobsluha.hub.tournament.rules import RuleSet


@dataclass
class Line:
    """One round from one player's side, as the rule set values it."""

    round: int
    kind: Kind
    opponent: int | None
    own: int
    opp: int
    wins: float  # 1, ½ or 0
    counts_as_game: bool  # for wins − losses (PFS): a late entrant's missed round does not
    started: bool | None  # True ZH, False DH, None unknown / not applicable
    table: int | None = None

    @property
    def losses(self) -> float:
        return (1.0 - self.wins) if self.counts_as_game else 0.0


@dataclass
class Standing:
    player: Player
    lines: list[Line] = field(default_factory=list)
    wins: float = 0.0
    losses: float = 0.0
    points: int = 0
    opp_points: int = 0
    starts: int = 0
    seconds: int = 0
    opp_wins: float = 0.0  # Buchholz: sum of the opponents' wins
    turcas: float = 0.0
    rank: int = 0
    # an expelled player whose tally the rule set voids (``expelled_results = "void"``,
    # PFS 1.3): every figure 0, ranked below everybody; his games stay on his scorecard
    voided: bool = False
    # expelled from the event in or before the standings' round, under every rule set (ČAS
    # and SSS keep his games, PFS voids them): the exports and screens say so beside his
    # name; it changes no figure and no rank
    expelled: bool = False

    @property
    def spread(self) -> int:
        return self.points - self.opp_points

    @property
    def balance(self) -> float:
        return self.wins - self.losses

    @property
    def zacinani(self) -> int:
        return self.seconds - self.starts

    @property
    def games(self) -> int:
        return sum(1 for line in self.lines if line.opponent is not None)

    @property
    def had_bye(self) -> bool:
        return any(line.kind is Kind.BYE for line in self.lines)

    def opponents(self) -> set[int]:
        return {line.opponent for line in self.lines if line.opponent is not None}


def game_lines(game: Game, rules: RuleSet) -> dict[int, Line]:
    """What ``game`` is worth for each of its players under ``rules``."""
    r, t = game.round, game.table
    if game.kind is Kind.BYE:
        return {
            game.p1: Line(
                r,
                game.kind,
                None,
                rules.bye_score,
                rules.bye_opp_score,
                rules.bye_wins,
                True,
                None,
                t,
            )
        }
    if game.kind is Kind.LATE:
        own, opp = rules.late_score
        return {game.p1: Line(r, game.kind, None, own, opp, 0.0, False, None, t)}
    if game.kind is Kind.ABSENT:
        own, opp = rules.absent_score
        return {game.p1: Line(r, game.kind, None, own, opp, 0.0, True, None, t)}
    if game.p2 is None:
        raise ValueError(f"round {r}: a {game.kind} needs two players")
    p1, p2 = game.p1, game.p2
    started: dict[int, bool | None] = {p1: None, p2: None}
    if game.first in (p1, p2):
        started = {p1: game.first == p1, p2: game.first == p2}
    if game.kind is Kind.DOUBLE_FORFEIT:
        s = rules.double_forfeit_score
        return {
            p1: Line(r, game.kind, p2, s, s, 0.0, True, started[p1], t),
            p2: Line(r, game.kind, p1, s, s, 0.0, True, started[p2], t),
        }
    if game.kind is Kind.FORFEIT:
        loser = game.forfeited
        if loser not in (p1, p2):
            raise ValueError(f"round {r}: forfeit against a player who is not in the game")
        winner = p2 if loser == p1 else p1
        own, opp = rules.forfeit_score, 0
        cur_w, cur_l = game.score_of(winner)
        if (
            rules.forfeit_keep_current_if_better
            and cur_w is not None
            and cur_l is not None
            and rules.score_value(cur_w, cur_l) > rules.score_value(own, opp)
        ):
            own, opp = cur_w, cur_l
        return {
            winner: Line(r, game.kind, loser, own, opp, 1.0, True, started[winner], t),
            loser: Line(r, game.kind, winner, opp, own, 0.0, True, started[loser], t),
        }
    if game.s1 is None or game.s2 is None:
        raise ValueError(f"round {r}: a played game needs both scores")
    w1 = 1.0 if game.s1 > game.s2 else 0.5 if game.s1 == game.s2 else 0.0
    return {
        p1: Line(r, game.kind, p2, game.s1, game.s2, w1, True, started[p1], t),
        p2: Line(r, game.kind, p1, game.s2, game.s1, 1.0 - w1, True, started[p2], t),
    }


def compute(
    players: Iterable[Player],
    games: Iterable[Game],
    rules: RuleSet,
    *,
    rounds: int | None = None,
    expelled: Collection[int] = (),
) -> list[Standing]:
    """Standings, best first, with ``rank`` set (equal criteria share a rank).

    ``rounds`` is Kol for TurČAS; by default the last round that has a game.
    ``expelled``: the players expelled from the event by then, marked ``expelled``. Under
    a rule set with ``expelled_results = "void"`` (PFS 1.3) their tally is zeroed: their
    games stay in their lines and count for their opponents, their own figures are 0 and
    they rank last; under ``keep`` (ČAS, SSS) they are counted as any other.
    """
    table = {p.id: Standing(player=p) for p in players}
    last = 0
    for game in games:
        last = max(last, game.round)
        for pid, line in game_lines(game, rules).items():
            if pid in table:
                table[pid].lines.append(line)
    kol = rounds if rounds is not None else last
    for st in table.values():
        st.lines.sort(key=lambda line: line.round)
        st.wins = sum(line.wins for line in st.lines)
        st.losses = sum(line.losses for line in st.lines)
        st.points = sum(line.own for line in st.lines)
        st.opp_points = sum(line.opp for line in st.lines)
        st.starts = sum(1 for line in st.lines if line.started is True)
        st.seconds = sum(1 for line in st.lines if line.started is False)
        st.expelled = st.player.id in expelled
        if st.expelled and rules.expelled_results == "void":
            st.voided = True
            st.wins = st.losses = 0.0
            st.points = st.opp_points = st.starts = st.seconds = 0
    for st in table.values():
        st.opp_wins = sum(table[o].wins for o in _opponent_list(st) if o in table)
        st.turcas = (
            (rules.turcas_a / kol * st.opp_wins if kol else 0.0)
            + rules.turcas_b * st.points
            + rules.turcas_c * st.spread
            + rules.turcas_d * st.zacinani
        )
        if st.voided:
            st.opp_wins = st.turcas = 0.0
    ordered = sorted(table.values(), key=lambda s: (_key(s, rules), s.player.name, s.player.id))
    previous: tuple[float, ...] | None = None
    for index, st in enumerate(ordered, start=1):
        key = _key(st, rules)
        st.rank = ordered[index - 2].rank if key == previous else index
        previous = key
    return ordered


def _opponent_list(st: Standing) -> list[int]:
    # Buchholz counts an opponent once per game played against him.
    return [line.opponent for line in st.lines if line.opponent is not None]


def _key(st: Standing, rules: RuleSet) -> tuple[float, ...]:
    # a voided tally ranks below every other, a zero one included
    return (float(st.voided), *(-round(float(getattr(st, c)), 6) for c in rules.criteria))


def format_wins(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"

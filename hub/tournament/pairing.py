"""Pairings: round 1 by lot or by rating, later rounds Swiss as a weighted matching.

Swiss rounds (:func:`swiss`):

1. Rank the field by the rule set's standings after the previous round.
2. Odd field: the bye is part of the matching — a phantom node ranked below everybody in the
   bottom score group (:func:`_bye_cost`): the lowest-ranked player with the fewest byes gets
   it unless that costs the rest a rematch or clearly worse pairings.
3. Build a candidate graph: each player is joined to the K nearest players *he has not met*
   above and below him in the ranking (K = 8 to start). Each edge costs::

       GROUP · (score-group distance in half wins)²   — equal results meet
     + STARTS · (start-balance clash)²                — ZH balance (TurČAS Zacinani)
     + (rank distance)²                               — 1 plays 2, 3 plays 4 within a group

   with GROUP ≫ STARTS ≫ any rank term, so the terms act almost lexicographically.
4. Solve a maximum-cardinality, minimum-cost matching (networkx's blossom algorithm, as
   maximum weight of BIG − cost). If it is not perfect, solve the complete graph once, rematch
   edges included at a cost that outweighs everything else — so a rematch happens only when
   unavoidable, then as few as possible, then with the smallest score gaps. The rule set's
   ``rematches`` ("forbid" for SSS/PFS) refuses such a round unless the director allows it.
5. Who starts: the player who started less (starts − seconds); then the one who did not start
   last round; then a coin toss from the seed.

The restricted graph keeps 400 players under a second and a rematch-forced round of 61
players under 0.1 s (see ``bench/pairing.py``); the
result is deterministic for a given seed (the seed only decides the lot and coin tosses).
Every board carries the reasons for its pair (``--explain``, the dashboard's "why this
pair") and the pairing its notes, as catalogue phrases — a key and its values, never text
in one language — so each screen and printout shows them in its own language.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from samoobsluha.hub.tournament.model import Game, Kind, TournamentData
from samoobsluha.hub.tournament.rules import RuleSet
from samoobsluha.hub.tournament.standings import Standing, compute
from samoobsluha.shared.i18n import Phrase, localize


def explain(clauses: Sequence[str], lang: str) -> str:
    """Reasons (a board's ``why``, or one note) as one line in ``lang``. Each clause is a
    :class:`Phrase`, or English text read from a pairing stored before reasons were
    phrases (shown as it was stored)."""
    return "; ".join(localize(c, lang) for c in clauses)


START_K = 8
# Start-balance clash → cost in units of n²: pushing somebody to |starts − seconds| = 2 is
# cheap; to 3 costs more than floating a whole win (64), to 4 more than 1½ wins (144).
CLASH_COST = (0, 1, 100, 400)


@dataclass
class Board:
    table: int
    first: int  # player id who starts (ZH); for a bye, the player with the bye
    second: int | None  # None for a bye
    #: Why this pair and who starts: clauses, each a Phrase (or old English text).
    why: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        """The reasons in English (logs, tests); screens use :meth:`explain`."""
        return explain(self.why, "en")

    def explain(self, lang: str) -> str:
        return explain(self.why, lang)


@dataclass
class Pairing:
    round: int
    seed: int
    method: str  # "lot", "rating" or "swiss"
    boards: list[Board] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # Phrases (old pairings: English text)
    rematches: int = 0
    k: int = 0  # final neighbourhood size of the candidate graph (swiss)

    @property
    def bye(self) -> int | None:
        for board in self.boards:
            if board.second is None:
                return board.first
        return None

    def pairs(self) -> list[tuple[int, int]]:
        return [(b.first, b.second) for b in self.boards if b.second is not None]


class PairingError(ValueError):
    pass


def pair_round(
    data: TournamentData,
    rules: RuleSet,
    round_no: int,
    *,
    seed: int = 0,
    active: Iterable[int] | None = None,
    method: str | None = None,
    allow_rematch: bool | None = None,
) -> Pairing:
    """Pair ``round_no`` from the games of the earlier rounds.

    ``allow_rematch`` overrides the rule set's rematch policy (the director's decision):
    True lets a Swiss round under SSS/PFS rules pair with the fewest rematches when no
    pairing without one exists; False refuses such a round under any rules.

    ``active`` are the ids to pair (default: everybody not withdrawn or paused).
    ``method`` forces "lot", "rating", "swiss", "koth" (King of the Hill: 1–2, 3–4 … by
    standings, rematches allowed — for a last round) or "roundrobin" (Berger tables by
    player id, for small fields); by default round 1 uses the rule set's ``first_round``
    and later rounds are Swiss.
    """
    if round_no < 1:
        raise PairingError(Phrase("pair.err.round_from_1"))
    ids = (
        sorted(active)
        if active is not None
        else sorted(p.id for p in data.players.values() if not p.withdrawn and not p.paused)
    )
    unknown = [i for i in ids if i not in data.players]
    if unknown:
        raise PairingError(Phrase("pair.err.unknown_players", ids=unknown))
    if not ids:
        raise PairingError(Phrase("pair.err.nobody"))
    games = [g for g in data.games if g.round < round_no]
    if method is None:
        method = rules.first_round if round_no == 1 or not games else "swiss"
    if method == "lot":
        return _by_lot(data, ids, round_no, seed)
    if method == "rating":
        return _by_rating(data, ids, round_no, seed)
    if method == "swiss":
        return swiss(data, rules, round_no, ids, games, seed, allow_rematch=allow_rematch)
    if method == "koth":
        return king_of_the_hill(data, rules, round_no, ids, games, seed)
    if method == "roundrobin":
        return round_robin(data, rules, round_no, ids, games, seed)
    raise PairingError(Phrase("pair.err.method", method=method))


def _coin(seed: int, round_no: int, a: int, b: int) -> bool:
    return random.Random(f"{seed}/{round_no}/{min(a, b)}/{max(a, b)}").random() < 0.5


def _boards_from_pairs(
    pairs: list[tuple[int, int]], bye: int | None, seed: int, round_no: int, reason: Phrase
) -> list[Board]:
    boards = []
    for table, (a, b) in enumerate(pairs, start=1):
        first, second = (a, b) if _coin(seed, round_no, a, b) else (b, a)
        boards.append(Board(table, first, second, [reason, Phrase("pair.why.zh_lot_only")]))
    if bye is not None:
        boards.append(Board(len(pairs) + 1, bye, None, [Phrase("pair.why.bye_odd")]))
    return boards


def _by_lot(data: TournamentData, ids: list[int], round_no: int, seed: int) -> Pairing:
    order = list(ids)
    random.Random(seed).shuffle(order)
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    result = Pairing(round_no, seed, "lot")
    result.boards = _boards_from_pairs(
        pairs, bye, seed, round_no, Phrase("pair.why.lot", seed=seed)
    )
    result.notes.append(Phrase("pair.note.lot", round=round_no, seed=seed))
    return result


def _by_rating(data: TournamentData, ids: list[int], round_no: int, seed: int) -> Pairing:
    """The PFS first round: sort by rating; unrated players draw opponents among the top
    seeds; the remaining rated players pair k with k + half (11–21, 12–22 … of 20)."""
    rnd = random.Random(seed)
    rated = [i for i in ids if data.players[i].rating > 0]
    unrated = [i for i in ids if data.players[i].rating <= 0]
    rnd.shuffle(rated)  # equal ratings in lot order
    rated.sort(key=lambda i: -data.players[i].rating)
    rnd.shuffle(unrated)
    bye = None
    if (len(rated) + len(unrated)) % 2:
        bye = rated.pop() if rated else unrated.pop()
    pairs: list[tuple[int, int]] = []
    m = min(len(rated), len(unrated))
    pairs += [(rated[i], unrated[i]) for i in range(m)]
    rest_rated, rest_unrated = rated[m:], unrated[m:]
    half = len(rest_rated) // 2
    pairs += [(rest_rated[i], rest_rated[i + half]) for i in range(half)]
    pairs += [(rest_unrated[i], rest_unrated[i + 1]) for i in range(0, len(rest_unrated), 2)]
    result = Pairing(round_no, seed, "rating")
    result.boards = _boards_from_pairs(pairs, bye, seed, round_no, Phrase("pair.why.rating"))
    result.notes.append(
        Phrase(
            "pair.note.rating",
            round=round_no,
            rated=len(rated),
            unrated=len(unrated),
            seed=seed,
        )
    )
    return result


# --- Swiss ---------------------------------------------------------------------------------


@dataclass
class _Field:
    order: list[int]  # ids, best first
    rank: dict[int, int]  # id -> 1-based rank within the field
    score: dict[int, float]  # the score groups are built on
    met: dict[int, set[int]]
    balance: dict[int, int]  # starts - seconds
    last_started: dict[int, bool | None]
    byes: dict[int, int]
    st: dict[int, Standing]


def _field(data: TournamentData, rules: RuleSet, ids: list[int], games: list[Game]) -> _Field:
    table = compute(data.players.values(), games, rules)
    st = {s.player.id: s for s in table}
    wanted = set(ids)
    order = [s.player.id for s in table if s.player.id in wanted]
    group_attr = "balance" if rules.criteria[0] == "balance" else "wins"
    met: dict[int, set[int]] = {i: set() for i in order}
    for g in games:
        if g.p2 is not None:
            met.setdefault(g.p1, set()).add(g.p2)
            met.setdefault(g.p2, set()).add(g.p1)
    last_started: dict[int, bool | None] = {}
    for i in order:
        known = [line.started for line in st[i].lines if line.started is not None]
        last_started[i] = known[-1] if known else None
    return _Field(
        order=order,
        rank={pid: n for n, pid in enumerate(order, start=1)},
        score={i: float(getattr(st[i], group_attr)) for i in order},
        met=met,
        balance={i: st[i].starts - st[i].seconds for i in order},
        last_started=last_started,
        byes={i: sum(1 for line in st[i].lines if line.kind is Kind.BYE) for i in order},
        st=st,
    )


def _halves(a: float, b: float) -> int:
    return round(abs(a - b) * 2)


def _clash(ba: int, bb: int) -> int:
    """How far past balance the pair forces one of them: both started more (or both
    replied more) than the other way round → one of them gets further out of balance."""
    if ba > 0 and bb > 0:
        return min(ba, bb)
    if ba < 0 and bb < 0:
        return min(-ba, -bb)
    return 0


class _Costs:
    def __init__(self, f: _Field) -> None:
        n = max(len(f.order), 2)
        self.f = f
        self.start_w = n * n
        self.group_w = 16 * n * n
        self.rematch_w = self.group_w * 400 * n
        self.bye_w = self.rematch_w // 4  # a second bye only to avoid a rematch
        self.bye_rank_w = self.start_w * CLASH_COST[2] + 1

    def cost(self, a: int, b: int) -> int:
        f = self.f
        c = self.group_w * _halves(f.score[a], f.score[b]) ** 2
        c += self.start_w * CLASH_COST[min(_clash(f.balance[a], f.balance[b]), 3)]
        c += (f.rank[a] - f.rank[b]) ** 2
        if b in f.met.get(a, ()):
            c += self.rematch_w
        return c


BYE = 0  # the phantom opponent of the bye in the matching (player ids start at 1)


def _bye_cost(f: _Field, costs: _Costs, pid: int, fewest: int, bottom: float) -> int:
    """The bye as a game against a phantom ranked below everybody in the bottom score
    group. Passing over a lower-ranked player costs more than a ZH clash of 2 and about a
    float of one win (so the lowest-ranked player gets it unless that costs the rest more);
    a second bye costs more than anything but a rematch."""
    below = sum(1 for i in f.order if f.rank[i] > f.rank[pid] and f.byes[i] <= f.byes[pid])
    c = costs.group_w * _halves(f.score[pid], bottom) ** 2
    c += costs.bye_rank_w * below
    c += costs.bye_w * (f.byes[pid] - fewest)
    return c


def _match(
    f: _Field, costs: _Costs, ids: list[int], k: int | None, bye: bool
) -> list[tuple[int, int]] | None:
    """Minimum-cost perfect matching, or None. ``k``: each player is joined to the K nearest
    players he has not met each way (no rematch edge); None: the complete graph, rematch
    edges included at their cost. ``bye``: a phantom node joined to everybody (odd field)."""
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    n = len(ids)
    edges: dict[tuple[int, int], int] = {}
    for i, a in enumerate(ids):
        met = f.met.get(a, ())
        if k is None:
            for b in ids[i + 1 :]:
                edges[(a, b) if a < b else (b, a)] = costs.cost(a, b)
            continue
        for step in (1, -1):
            found = 0
            j = i + step
            while 0 <= j < n and found < k:
                b = ids[j]
                if b not in met:
                    key = (a, b) if a < b else (b, a)
                    if key not in edges:
                        edges[key] = costs.cost(a, b)
                    found += 1
                j += step
    if bye:
        fewest = min(f.byes[i] for i in ids)
        bottom = min(f.score[i] for i in ids)
        candidates = ids
        if k is not None:
            # Like every other edge of the K graph: the 4K lowest-ranked players with the
            # fewest byes are the bye's nearest neighbours; the complete graph has all.
            candidates = [i for i in reversed(ids) if f.byes[i] == fewest][: 4 * k]
        for a in candidates:
            edges[(BYE, a)] = _bye_cost(f, costs, a, fewest, bottom)
    if not edges:
        return None
    big = max(edges.values()) + 1
    graph.add_weighted_edges_from((a, b, big - c) for (a, b), c in edges.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n + (1 if bye else 0):
        return None
    out = []
    for a, b in matching:
        if BYE in (a, b):
            out.append((a or b, BYE))
        else:
            out.append((a, b) if f.rank[a] < f.rank[b] else (b, a))
    return out


def _solve(
    f: _Field, costs: _Costs, ids: list[int]
) -> tuple[list[tuple[int, int]], int | None, int]:
    """(pairs — a bye as (player, BYE) —, K used or None for the complete graph, rematches).

    First the K-nearest graph without previous opponents; if it has no perfect matching,
    the complete graph with rematch edges at a cost above everything else: its optimum has
    the fewest rematches possible (none if none is needed), then the smallest score gaps."""
    if not ids:
        return [], 0, 0
    bye = len(ids) % 2 == 1
    if len(ids) > 2 * START_K + 1:
        pairs = _match(f, costs, ids, START_K, bye)
        if pairs is not None:
            return pairs, START_K, 0
    pairs = _match(f, costs, ids, None, bye)
    assert pairs is not None  # the complete graph (+ phantom when odd) has one
    rematches = sum(1 for a, b in pairs if b != BYE and b in f.met.get(a, ()))
    return pairs, None, rematches


def swiss(
    data: TournamentData,
    rules: RuleSet,
    round_no: int,
    ids: list[int],
    games: list[Game],
    seed: int = 0,
    *,
    allow_rematch: bool | None = None,
) -> Pairing:
    f = _field(data, rules, ids, games)
    costs = _Costs(f)
    result = Pairing(round_no, seed, "swiss")
    result.notes.append(
        Phrase(
            "pair.note.swiss",
            round=round_no,
            rules=rules.name.upper(),
            previous=round_no - 1,
            players=len(f.order),
            seed=seed,
        )
    )
    order = list(f.order)
    pairs, k, rematches = _solve(f, costs, order)
    allowed = rules.rematches != "forbid" if allow_rematch is None else allow_rematch
    if rematches and not allowed:
        raise PairingError(
            Phrase("pair.rematch_forbidden", round=round_no, rules=rules.name.upper())
        )
    bye = next((a for a, b in pairs if b == BYE), None)
    pairs = [(a, b) for a, b in pairs if b != BYE]
    why: list[str] = []
    if bye is not None:
        fewest = min(f.byes[i] for i in order)
        skipped = [i for i in reversed(order[f.rank[bye] :]) if f.byes[i] <= f.byes[bye]]
        if skipped:
            why.append(
                Phrase(
                    "pair.why.bye_skipped",
                    who=_who(f, bye),
                    byes=f.byes[bye],
                    skipped=[_name(f, i) for i in skipped],
                )
            )
        else:
            why.append(Phrase("pair.why.bye_lowest", who=_who(f, bye), byes=f.byes[bye]))
        if f.byes[bye] > fewest:
            why.append(Phrase("pair.why.bye_fewer"))
        result.notes += why
    result.k = k if k is not None else len(order)
    if rematches:
        who = (
            Phrase("pair.note.allowed_director")
            if allow_rematch
            else Phrase("pair.note.allowed_rules", rules=rules.name.upper())
        )
        result.notes.append(Phrase("pair.note.rematches", rematches=rematches, who=who))
    result.notes.append(
        Phrase("pair.note.graph_k", k=k) if k is not None else Phrase("pair.note.graph_all")
    )
    pairs.sort(key=lambda p: (f.rank[p[0]], f.rank[p[1]]))
    for table, (a, b) in enumerate(pairs, start=1):
        first, second, zh_reason = _who_starts(f, a, b, seed, round_no)
        if b in f.met.get(a, ()):
            result.rematches += 1
        result.boards.append(Board(table, first, second, _explain(f, a, b, zh_reason)))
    if bye is not None:
        result.boards.append(Board(len(pairs) + 1, bye, None, why))
    return result


def _who_starts(f: _Field, a: int, b: int, seed: int, round_no: int) -> tuple[int, int, Phrase]:
    ba, bb = f.balance[a], f.balance[b]
    if ba != bb:
        first, second = (a, b) if ba < bb else (b, a)
        return (
            first,
            second,
            Phrase(
                "pair.why.zh_balance",
                first=_name(f, first),
                second=_name(f, second),
                first_starts=_starts(f, first),
                second_starts=_starts(f, second),
            ),
        )
    la, lb = f.last_started[a], f.last_started[b]
    if la is not None and lb is not None and la != lb:
        first, second = (a, b) if not la else (b, a)
        return (
            first,
            second,
            Phrase("pair.why.zh_last", first=_name(f, first), second=_name(f, second)),
        )
    first, second = (a, b) if _coin(seed, round_no, a, b) else (b, a)
    return first, second, Phrase("pair.why.zh_lot", first=_name(f, first))


def _starts(f: _Field, pid: int) -> Phrase:
    st = f.st[pid]
    return Phrase("pair.why.starts_of", started=st.starts, games=st.starts + st.seconds)


def _name(f: _Field, pid: int) -> str:
    return f.st[pid].player.name


def _who(f: _Field, pid: int) -> Phrase:
    """A player as the reasons name him: name, rank and score (wins, or the PFS balance)."""
    return Phrase("pair.who", name=_name(f, pid), rank=f.rank[pid], score=f.score[pid])


def _explain(f: _Field, a: int, b: int, zh: Phrase) -> list[str]:
    if f.score[a] == f.score[b]:
        group = Phrase("pair.why.same_group", a=_who(f, a), b=_who(f, b), score=f.score[a])
    else:
        group = Phrase(
            "pair.why.floated", a=_who(f, a), b=_who(f, b), score_a=f.score[a], score_b=f.score[b]
        )
    parts: list[str] = [group]
    for x, y in ((a, b), (b, a)):
        dist = abs(f.rank[x] - f.rank[y])
        nearer = sorted(
            (o for o in f.met.get(x, ()) if o in f.rank and abs(f.rank[o] - f.rank[x]) < dist),
            key=lambda o: f.rank[o],
        )
        if nearer:
            parts.append(
                Phrase("pair.why.avoided", name=_name(f, x), met=[_who(f, o) for o in nearer])
            )
    if b in f.met.get(a, ()):
        parts.append(Phrase("pair.why.rematch"))
    parts.append(zh)
    return parts


def king_of_the_hill(
    data: TournamentData,
    rules: RuleSet,
    round_no: int,
    ids: list[int],
    games: list[Game],
    seed: int = 0,
) -> Pairing:
    """1 plays 2, 3 plays 4 … by the standings, rematches allowed (a final round)."""
    f = _field(data, rules, ids, games)
    result = Pairing(round_no, seed, "koth")
    result.notes.append(Phrase("pair.note.koth", round=round_no, rules=rules.name.upper()))
    order = list(f.order)
    bye = None
    if len(order) % 2:
        fewest = min(f.byes[i] for i in order)
        bye = next(i for i in reversed(order) if f.byes[i] == fewest)
        order.remove(bye)
    for table, index in enumerate(range(0, len(order), 2), start=1):
        a, b = order[index], order[index + 1]
        first, second, zh = _who_starts(f, a, b, seed, round_no)
        if b in f.met.get(a, ()):
            result.rematches += 1
        koth = Phrase("pair.why.koth", a=_who(f, a), b=_who(f, b))
        result.boards.append(Board(table, first, second, [koth, zh]))
    if bye is not None:
        why = Phrase("pair.why.bye_fewest", who=_who(f, bye))
        result.boards.append(Board(len(result.boards) + 1, bye, None, [why]))
        result.notes.append(why)
    return result


def round_robin(
    data: TournamentData,
    rules: RuleSet,
    round_no: int,
    ids: list[int],
    games: list[Game],
    seed: int = 0,
) -> Pairing:
    """Round ``round_no`` of a round robin (circle method, players in id order); with an
    odd field one player sits out each round (the bye). Rounds past a full cycle repeat it."""
    f = _field(data, rules, ids, games)
    players: list[int | None] = list(sorted(ids))
    if len(players) % 2:
        players.append(None)
    n = len(players)
    r = (round_no - 1) % (n - 1)
    rotating = players[1:]
    rotating = rotating[-r:] + rotating[:-r] if r else rotating
    circle = [players[0], *rotating]
    result = Pairing(round_no, seed, "roundrobin")
    result.notes.append(
        Phrase("pair.note.roundrobin", round=round_no, cycle=r + 1, rounds=n - 1)
    )
    bye = None
    pairs = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
            continue
        pairs.append((a, b))
    for table, (a, b) in enumerate(pairs, start=1):
        first, second, zh = _who_starts(f, a, b, seed, round_no)
        result.boards.append(Board(table, first, second, [Phrase("pair.why.roundrobin"), zh]))
    if bye is not None:
        result.boards.append(Board(len(pairs) + 1, bye, None, [Phrase("pair.why.bye_sits_out")]))
    return result

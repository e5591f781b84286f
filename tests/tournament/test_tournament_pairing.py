"""Swiss pairings: whole simulated tournaments, byes, forfeits, withdrawals, rematches."""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field

import pytest

from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.pairing import Pairing, pair_round
from samoobsluha.hub.tournament.rules import CAS, PFS, SSS, RuleSet
from samoobsluha.hub.tournament.standings import compute


@dataclass
class Sim:
    data: TournamentData
    pairings: list[Pairing] = field(default_factory=list)
    byes: dict[int, int] = field(default_factory=dict)


def field_of(n: int) -> TournamentData:
    data = TournamentData()
    for i in range(1, n + 1):
        data.players[i] = Player(i, f"Hráč {i:03d}", rating=1000 + 7 * i % 900)
    return data


def play(
    data: TournamentData,
    rules: RuleSet,
    rounds: int,
    seed: int,
    *,
    forfeits: float = 0.0,
    events: dict[int, list[tuple[str, int]]] | None = None,
) -> Sim:
    """Pair and play ``rounds`` rounds with random scores, checking every round."""
    rnd = random.Random(seed)
    sim = Sim(data)
    for r in range(1, rounds + 1):
        for action, pid in (events or {}).get(r, []):
            p = data.players.get(pid, Player(pid, ""))
            if action == "withdraw":
                p.withdrawn = True
            elif action == "pause":
                p.paused = True
            elif action == "return":
                p.paused = False
            elif action == "enter":  # late entrant: LATE for every round missed
                data.players[pid] = Player(pid, f"Pozdní {pid}")
                data.games += [Game(x, pid, None, kind=Kind.LATE) for x in range(1, r)]
        active = sorted(p.id for p in data.players.values() if not p.withdrawn and not p.paused)
        before = compute(data.players.values(), data.games, rules)
        pairing = pair_round(data, rules, r, seed=seed)
        check_round(data, pairing, active, before, r)
        sim.pairings.append(pairing)
        for p in data.players.values():
            if p.paused:
                data.games.append(Game(r, p.id, None, kind=Kind.ABSENT))
        for b in pairing.boards:
            if b.second is None:
                data.games.append(Game(r, b.first, None, kind=Kind.BYE, table=b.table))
                sim.byes[b.first] = sim.byes.get(b.first, 0) + 1
                continue
            s1, s2 = rnd.randint(250, 560), rnd.randint(250, 560)
            roll = rnd.random()
            if roll < forfeits / 4:
                data.games.append(Game(r, b.first, b.second, kind=Kind.DOUBLE_FORFEIT))
            elif roll < forfeits:
                loser = rnd.choice((b.first, b.second))
                data.games.append(
                    Game(
                        r,
                        b.first,
                        b.second,
                        s1 // 3,
                        s2 // 3,
                        first=b.first,
                        kind=Kind.FORFEIT,
                        forfeited=loser,
                    )
                )
            else:
                data.games.append(Game(r, b.first, b.second, s1, s2, first=b.first, table=b.table))
    return sim


def check_round(data, pairing, active, before, r) -> None:  # type: ignore[no-untyped-def]
    seen = [b.first for b in pairing.boards] + [
        b.second for b in pairing.boards if b.second is not None
    ]
    assert sorted(seen) == active, f"round {r}: everybody exactly once"
    met = {frozenset((g.p1, g.p2)) for g in data.games if g.p2 is not None and g.round < r}
    for a, b in pairing.pairs():
        assert frozenset((a, b)) not in met, f"round {r}: rematch {a}-{b}"
    assert pairing.rematches == 0
    assert [b.table for b in pairing.boards] == list(range(1, len(pairing.boards) + 1))
    if r > 1 and pairing.bye is not None:
        byes = {
            pid: sum(1 for g in data.games if g.p1 == pid and g.kind is Kind.BYE) for pid in active
        }
        fewest = min(byes.values())
        assert byes[pairing.bye] == fewest, f"round {r}: bye to somebody with more byes"
        order = [s.player.id for s in before if s.player.id in set(active)]
        below = order[order.index(pairing.bye) + 1 :]
        # The matching chooses the bye: the lowest-ranked player with the fewest byes,
        # unless his bye costs the rest more — then the reason names who was skipped.
        if not all(byes[p] > fewest for p in below):
            (note,) = [n for n in pairing.notes if n.startswith("bye:")]
            assert "skipped" in note, f"round {r}: bye not to the lowest, and no reason"


def balance_report(data: TournamentData, rules: RuleSet) -> list[int]:
    return [s.starts - s.seconds for s in compute(data.players.values(), data.games, rules)]


def group_gaps(sim: Sim, rules: RuleSet) -> list[float]:
    gaps = []
    for pairing in sim.pairings[1:]:
        games = [g for g in sim.data.games if g.round < pairing.round]
        wins = {s.player.id: s.wins for s in compute(sim.data.players.values(), games, rules)}
        gaps += [abs(wins[a] - wins[b]) for a, b in pairing.pairs()]
    return gaps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nine_rounds_thirty_two_players(seed: int) -> None:
    data = field_of(32)
    sim = play(data, CAS, 9, seed)
    assert not sim.byes
    balance = balance_report(data, CAS)
    # 9 games each: starts − seconds is odd; within ±1 is perfect balance.
    assert sum(abs(b) <= 1 for b in balance) >= 30
    assert max(abs(b) for b in balance) <= 3
    gaps = group_gaps(sim, CAS)
    assert statistics.mean(gaps) < 0.5
    assert max(gaps) <= 2


@pytest.mark.parametrize("seed", [1, 2])
def test_fifteen_rounds_thirty_seven_players(seed: int) -> None:
    data = field_of(37)
    sim = play(data, CAS, 15, seed)
    # 15 byes over 37 players: nobody gets a second one.
    assert sum(sim.byes.values()) == 15
    assert max(sim.byes.values()) == 1
    stand = compute(data.players.values(), data.games, CAS)
    for s in stand:
        games = s.starts + s.seconds
        # Within one of half the games: |starts − games/2| ≤ 1.
        assert abs(s.starts - games / 2) <= 1, (s.player.name, s.starts, s.seconds)
    assert statistics.mean(group_gaps(sim, CAS)) < 0.6


@pytest.mark.parametrize("rules", [CAS, SSS, PFS], ids=lambda r: r.name)
def test_odd_field_byes_rotate(rules: RuleSet) -> None:
    # A Swiss cannot see ahead: in 7 players / 6 rounds some lots corner the field so that
    # a second bye is the only way to avoid a rematch (seed 5 under PFS, 2 and 8 under
    # ČAS; the old bye-first search had the same corners at other seeds) — that is what a
    # round robin is for. Seed 6 is an ordinary lot.
    data = field_of(7)
    sim = play(data, rules, 6, seed=6)
    assert sorted(sim.byes.values()) == [1] * 6  # six different players had the bye


def test_byes_rotate_beyond_the_field() -> None:
    # 5 players, 4 rounds is a full round robin: every round one bye, never the same twice.
    data = field_of(5)
    sim = play(data, SSS, 4, seed=2)
    assert max(sim.byes.values()) == 1


def test_forfeits_withdrawals_pauses_and_late_entries() -> None:
    data = field_of(30)
    events = {
        3: [("enter", 31), ("enter", 32), ("enter", 33)],
        4: [("withdraw", 5), ("withdraw", 17)],
        5: [("pause", 9)],
        7: [("return", 9)],
    }
    sim = play(data, CAS, 9, seed=11, forfeits=0.08, events=events)
    kinds = {g.kind for g in data.games}
    assert {Kind.FORFEIT, Kind.DOUBLE_FORFEIT, Kind.ABSENT, Kind.LATE, Kind.BYE} <= kinds
    stand = {s.player.id: s for s in compute(data.players.values(), data.games, CAS)}
    # The paused player got 0:200 for rounds 5 and 6 and was paired again from round 7.
    absent = [line for line in stand[9].lines if line.kind is Kind.ABSENT]
    assert [(x.round, x.own, x.opp) for x in absent] == [(5, 0, 200), (6, 0, 200)]
    assert any(9 in b for p in sim.pairings[6:] for b in p.pairs())
    # Withdrawn players are never paired after withdrawing.
    for p in sim.pairings[3:]:
        assert all(5 not in pair and 17 not in pair for pair in p.pairs())
    # Late entrants: 0 and 0:0 for rounds 1–2.
    assert [(x.round, x.own, x.opp, x.wins) for x in stand[31].lines[:2]] == [
        (1, 0, 0, 0.0),
        (2, 0, 0, 0.0),
    ]


def test_deterministic_for_a_seed() -> None:
    a = play(field_of(24), CAS, 5, seed=7).pairings
    b = play(field_of(24), CAS, 5, seed=7).pairings
    assert [p.boards for p in a] == [p.boards for p in b]
    c = pair_round(field_of(24), CAS, 1, seed=8)
    assert c.boards != a[0].boards


def test_rematch_avoided_when_possible() -> None:
    data = field_of(4)
    data.games = [
        Game(1, 1, 2, 400, 300, first=1),
        Game(1, 3, 4, 400, 300, first=3),
        Game(2, 1, 3, 400, 300, first=3),
        Game(2, 2, 4, 400, 300, first=4),
    ]
    pairing = pair_round(data, CAS, 3)
    assert {frozenset(p) for p in pairing.pairs()} == {frozenset((1, 4)), frozenset((2, 3))}
    assert pairing.rematches == 0
    # The leader (2 wins) would naturally meet a 1-win player he has already played.
    assert "rematch avoided" in pairing.boards[0].reason


def test_unavoidable_rematch_is_kept_to_the_minimum() -> None:
    data = field_of(4)
    data.games = [
        Game(1, 1, 2, 400, 300),
        Game(1, 3, 4, 400, 300),
        Game(2, 1, 3, 400, 300),
        Game(2, 2, 4, 400, 300),
        Game(3, 1, 4, 400, 300),
        Game(3, 2, 3, 400, 300),
    ]
    pairing = pair_round(data, CAS, 4)
    assert pairing.rematches == 2  # a round robin is complete: every pair is a rematch
    assert any("rematch" in n for n in pairing.notes)
    # 1 met everybody and 2 met 3: 1–2 with 3–4 (or 1–3 with 2–4) has one rematch.
    data.games = [
        Game(1, 1, 2, 400, 300),
        Game(2, 1, 3, 400, 300),
        Game(3, 1, 4, 400, 300),
        Game(3, 2, 3, 400, 300),
    ]
    pairing = pair_round(data, CAS, 4)
    assert pairing.rematches == 1


def test_bye_skips_a_player_whose_bye_would_force_a_rematch() -> None:
    data = field_of(4)
    data.games = [
        Game(1, 1, 2, 400, 300, first=1),
        Game(1, 3, 4, 400, 300, first=3),
        Game(2, 1, 3, 400, 300, first=1),
        Game(2, 2, 4, 400, 300, first=2),
    ]
    data.players[4].withdrawn = True
    pairing = pair_round(data, CAS, 3)
    assert pairing.bye == 1  # the leader: any other bye would pair him again
    assert pairing.pairs() in ([(2, 3)], [(3, 2)])
    assert any("skipped" in n for n in pairing.notes)


def test_first_round_by_lot_and_by_rating() -> None:
    data = field_of(40)
    lot = pair_round(data, CAS, 1, seed=3)
    assert lot.method == "lot" and len(lot.pairs()) == 20
    assert pair_round(data, CAS, 1, seed=3).boards == lot.boards
    # PFS: 30 rated, 10 unrated: unrated meet the top 10 seeds; then 11–21, 12–22 …
    for i in range(31, 41):
        data.players[i].rating = 0
    by_rating = pair_round(data, PFS, 1, seed=3)
    assert by_rating.method == "rating"
    seeds = sorted(range(1, 31), key=lambda i: -data.players[i].rating)
    pairs = {frozenset(p) for p in by_rating.pairs()}
    unrated_opponents = {next(iter(p - {u})) for p in pairs for u in range(31, 41) if u in p}
    assert unrated_opponents == set(seeds[:10])
    for k in range(10, 20):
        assert frozenset((seeds[k], seeds[k + 10])) in pairs


def test_starts_go_to_who_started_less() -> None:
    data = field_of(4)
    data.games = [
        Game(1, 1, 2, 400, 300, first=1),
        Game(1, 3, 4, 300, 400, first=3),
    ]
    pairing = pair_round(data, CAS, 2)  # winners 1 (started) and 4 (replied) meet
    for b in pairing.boards:
        assert b.first in (2, 4), "the players who replied in round 1 start in round 2"
        assert "starts" in b.reason


def test_explain_names_groups_and_starts() -> None:
    sim = play(field_of(9), CAS, 3, seed=4)
    last = sim.pairings[-1]
    assert last.notes and "Swiss" in last.notes[0]
    for b in last.boards:
        if b.second is None:
            assert "bye" in b.reason
        else:
            assert "score group" in b.reason and "starts" in b.reason


def test_king_of_the_hill_pairs_neighbours_even_as_rematch() -> None:
    data = field_of(6)
    data.games = [
        Game(1, 1, 2, 500, 300, first=1),
        Game(1, 3, 4, 500, 300, first=3),
        Game(1, 5, 6, 500, 300, first=5),
    ]
    pairing = pair_round(data, CAS, 2, method="koth")
    order = [s.player.id for s in compute(data.players.values(), data.games, CAS)]
    assert [frozenset(p) for p in pairing.pairs()] == [
        frozenset(order[i : i + 2]) for i in range(0, 6, 2)
    ]
    assert pairing.method == "koth"


@pytest.mark.parametrize("n", [4, 5, 8, 9])
def test_round_robin_meets_everybody_once(n: int) -> None:
    data = field_of(n)
    rounds = n - 1 if n % 2 == 0 else n
    met: list[frozenset[int]] = []
    byes = []
    for r in range(1, rounds + 1):
        pairing = pair_round(data, CAS, r, method="roundrobin")
        met += [frozenset(p) for p in pairing.pairs()]
        if pairing.bye is not None:
            byes.append(pairing.bye)
        for a, b in pairing.pairs():
            data.games.append(Game(r, a, b, 400, 300, first=a))
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert sorted(byes) == (list(range(1, n + 1)) if n % 2 else [])


def test_no_rematch_outranks_bye_order() -> None:
    # Adam (1) has met 2, 3 and 4; only Eva (5) has had no bye. Giving Eva the bye would
    # leave Adam with nobody new, so the bye goes to somebody who already had one.
    data = field_of(5)
    data.games = [
        Game(1, 1, 2, 400, 300),
        Game(2, 1, 3, 400, 300),
        Game(3, 1, 4, 400, 300),
        *(Game(r, p, None, kind=Kind.BYE) for r, p in ((4, 1), (4, 2), (4, 3), (4, 4))),
    ]
    pairing = pair_round(data, CAS, 5)
    assert pairing.bye != 5
    assert pairing.rematches == 0
    assert any("fewer byes would force a rematch" in n for n in pairing.notes)
    assert len({g.p1 for g in data.games if g.kind is Kind.BYE}) == 4

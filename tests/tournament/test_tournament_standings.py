"""Standings under ČAS, SSS and PFS, with TurČAS and forfeits computed by hand."""

from __future__ import annotations

import dataclasses

import pytest

from samoobsluha.hub.tournament.model import Game, Kind, Player
from samoobsluha.hub.tournament.rules import CAS, PFS, SSS, get_rules
from samoobsluha.hub.tournament.standings import compute, game_lines

A, B, C, D = 1, 2, 3, 4


def players() -> list[Player]:
    return [Player(A, "Adam"), Player(B, "Bára"), Player(C, "Čeněk"), Player(D, "Dana")]


def small() -> list[Game]:
    # Round 1: Adam–Bára 400:300 (Adam starts), Čeněk–Dana 350:350 draw (Čeněk starts).
    # Round 2: Adam–Čeněk 380:420 (Čeněk starts), Bára–Dana 500:200 (Dana starts).
    return [
        Game(1, A, B, 400, 300, first=A),
        Game(1, C, D, 350, 350, first=C),
        Game(2, A, C, 380, 420, first=C),
        Game(2, B, D, 500, 200, first=D),
    ]


def test_turcas_by_hand() -> None:
    # Wins: Adam 1, Bára 1, Čeněk 1.5, Dana 0.5.
    # Points (AbsScore) / spread (RelScore):
    #   Adam 400+380=780 / 780-720=60, Bára 300+500=800 / 800-600=200,
    #   Čeněk 350+420=770 / 770-730=40, Dana 350+200=550 / 550-850=-300.
    # Buchholz: Adam B+C = 1+1.5 = 2.5, Bára A+D = 1+0.5 = 1.5, Čeněk D+A = 1.5, Dana C+B = 2.5.
    # Zacinani (not started − started): Adam 1-1=0, Bára 2-0=2, Čeněk 0-2=-2, Dana 1-1=0.
    # Kol = 2, so A/Kol = 649.6/2 = 324.8:
    #   Adam  324.8*2.5 + 780 + 2.715*60   + 27.3*0  =  812 + 780 + 162.9  + 0     = 1754.9
    #   Bára  324.8*1.5 + 800 + 2.715*200  + 27.3*2  = 487.2 + 800 + 543   + 54.6  = 1884.8
    #   Čeněk 324.8*1.5 + 770 + 2.715*40   - 27.3*2  = 487.2 + 770 + 108.6 - 54.6  = 1311.2
    #   Dana  324.8*2.5 + 550 - 2.715*300  + 27.3*0  =  812 + 550 - 814.5  + 0     = 547.5
    table = compute(players(), small(), CAS)
    got = {s.player.name: s for s in table}
    assert got["Adam"].turcas == pytest.approx(1754.9)
    assert got["Bára"].turcas == pytest.approx(1884.8)
    assert got["Čeněk"].turcas == pytest.approx(1311.2)
    assert got["Dana"].turcas == pytest.approx(547.5)
    assert [s.player.name for s in table] == ["Čeněk", "Bára", "Adam", "Dana"]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert (got["Bára"].starts, got["Bára"].seconds, got["Bára"].zacinani) == (0, 2, 2)


def test_turcas_constants_are_configurable() -> None:
    rules = get_rules("cas", {"turcas_a": "0", "turcas_b": "0", "turcas_c": "1", "turcas_d": "0"})
    got = {s.player.name: s.turcas for s in compute(players(), small(), rules)}
    assert got == {"Adam": 60, "Bára": 200, "Čeněk": 40, "Dana": -300}
    with pytest.raises(ValueError, match="unknown rule setting"):
        get_rules("cas", {"turcas_x": "1"})


def test_sss_and_pfs_orders() -> None:
    # SSS: Čeněk 1.5; Adam and Bára 1 win, opponents' wins 2.5 vs 1.5 → Adam first.
    assert [s.player.name for s in compute(players(), small(), SSS)] == [
        "Čeněk",
        "Adam",
        "Bára",
        "Dana",
    ]
    # PFS: balance Čeněk +1, Adam 0, Bára 0, Dana -1; Bára scored 800 > Adam 780.
    table = compute(players(), small(), PFS)
    assert [s.player.name for s in table] == ["Čeněk", "Bára", "Adam", "Dana"]
    assert [s.balance for s in table] == [1, 0, 0, -1]


def test_equal_criteria_share_a_rank() -> None:
    games = [Game(1, A, B, 300, 300, first=A), Game(1, C, D, 300, 300, first=D)]
    table = compute(players(), games, SSS)
    assert [s.rank for s in table] == [1, 1, 1, 1]


def test_forfeit_takes_200_or_the_current_score_whichever_is_better() -> None:
    # Current 150:90 for Bára: by TurČAS 150 + 2.715*60 = 312.9 < 200 + 2.715*200 = 743.
    early = Game(1, B, D, 150, 90, first=B, kind=Kind.FORFEIT, forfeited=D)
    lines = game_lines(early, CAS)
    assert (lines[B].own, lines[B].opp, lines[B].wins) == (200, 0, 1.0)
    assert (lines[D].own, lines[D].opp, lines[D].wins) == (0, 200, 0.0)
    # Current 450:100: 450 + 2.715*350 = 1400.25 > 743 → the current score stands.
    late = dataclasses.replace(early, s1=450, s2=100)
    lines = game_lines(late, CAS)
    assert (lines[B].own, lines[B].opp, lines[B].wins) == (450, 100, 1.0)
    assert (lines[D].own, lines[D].opp, lines[D].wins) == (100, 450, 0.0)
    # Forfeited before it started: 200:0; innocent player behind at the moment: 200:0 too.
    none = dataclasses.replace(early, s1=None, s2=None)
    assert game_lines(none, CAS)[B].own == 200
    behind = dataclasses.replace(early, s1=100, s2=300)
    assert (game_lines(behind, CAS)[B].own, game_lines(behind, CAS)[B].wins) == (200, 1.0)
    # The rule set may switch the "current score" option off.
    fixed = dataclasses.replace(CAS, forfeit_keep_current_if_better=False)
    assert game_lines(late, fixed)[B].own == 200


def test_double_forfeit_bye_late_and_absence() -> None:
    games = [
        Game(1, A, B, 120, 80, kind=Kind.DOUBLE_FORFEIT),
        Game(1, C, None, kind=Kind.BYE),
        Game(1, D, None, kind=Kind.LATE),
        Game(2, A, C, 400, 350, first=A),
        Game(2, B, None, kind=Kind.ABSENT),
        Game(2, D, None, kind=Kind.BYE),
    ]
    got = {s.player.name: s for s in compute(players(), games, CAS)}
    assert (got["Adam"].wins, got["Adam"].points, got["Adam"].opp_points) == (1.0, 400, 350)
    assert (got["Bára"].wins, got["Bára"].points, got["Bára"].opp_points) == (0.0, 0, 200)
    assert (got["Čeněk"].wins, got["Čeněk"].points, got["Čeněk"].opp_points) == (0.5, 650, 700)
    assert (got["Dana"].wins, got["Dana"].points, got["Dana"].opp_points) == (0.5, 300, 300)
    # Buchholz counts opponents met (the double forfeit too), never a bye.
    assert got["Adam"].opp_wins == 0.0 + 0.5
    assert got["Čeněk"].opp_wins == 1.0
    assert got["Dana"].opp_wins == 0.0
    # PFS balance: the late entrant's missed round counts neither way.
    pfs = {s.player.name: s for s in compute(players(), games, PFS)}
    assert pfs["Dana"].balance == 0.0  # ½ − ½ for the bye, nothing for the late round
    assert pfs["Bára"].balance == -2.0  # double forfeit and absence are losses


def test_bye_value_is_configurable() -> None:
    rules = get_rules("pfs", {"bye_wins": "1", "bye_score": "350", "bye_opp_score": "0"})
    (line,) = game_lines(Game(1, A, None, kind=Kind.BYE), rules).values()
    assert (line.wins, line.own, line.opp) == (1.0, 350, 0)


@pytest.mark.parametrize("name", ["cas", "CAS", "sss", "pfs"])
def test_rule_sets_by_name(name: str) -> None:
    assert get_rules(name).name == name.lower()


def test_unknown_rule_set() -> None:
    with pytest.raises(ValueError, match="unknown rule set"):
        get_rules("fide")

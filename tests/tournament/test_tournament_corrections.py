"""The director's corrections on a real hub database: undo of a mistaken result or pairing
with an audit line, a hand-made pairing change that says which rule it breaks and still
publishes, a player who leaves for good in one command."""

from __future__ import annotations

from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text, localize

NAMES = ["Adam", "Běla", "Cyril", "Dana", "Emil", "Fany"]


@pytest.fixture
def tour(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as t:
        t.configure(name="Oprava", rules="cas", rounds=4)
        for name in NAMES:
            t.add_player(name)
        t.pair(1, seed=5)
        yield t


def play(t: Tournament, r: int) -> None:
    for b in t.pairing(r).boards:
        if b.second is not None and not t.book.result_row(r, b.table):
            t.record_result(r, b.table, b.first, b.second, 400 + b.table, 300, b.first)


def test_undo_a_mistaken_result_before_publication(tour: Tournament) -> None:
    b = tour.pairing(1).boards[0]
    assert b.second is not None
    tour.record_result(1, 1, b.first, b.second, 400, 300, b.first, source="station", who="st-1")
    tour.record_result(1, 1, b.first, b.second, 300, 400, b.first, who="Jana")  # typo
    assert tour.book.result_row(1, 1)["status"] == "conflict"
    tour.undo_result(1, 1, who="HR", note="překlep")
    assert tour.book.result_row(1, 1) is None
    assert 1 in {m["table"] for m in tour.missing_results(1)}
    [line] = [a for a in tour.audit(1) if a["action"] == "undo"]
    assert line["who"] == "HR" and line["before"]["status"] == "conflict"
    assert line["after"]["note"] == "překlep"
    # the entries taken back no longer count: a fresh entry is just entered
    out = tour.record_result(1, 1, b.first, b.second, 400, 300, b.first, who="Jana")
    assert out.status == "entered"
    play(tour, 1)
    tour.publish(1)
    with pytest.raises(TournamentError) as refused:
        tour.undo_result(1, 1)
    assert "hub result add … --correct" in error_text(refused.value, "cs")


def test_undo_a_pairing(tour: Tournament) -> None:
    tour.unpair(1, who="HR")
    assert tour.last_round() == 0
    assert any(a["action"] == "unpair" and a["before"] for a in tour.audit(1))
    tour.pair(1, seed=5)
    play(tour, 1)
    with pytest.raises(TournamentError, match="has results"):
        tour.unpair(1)


def test_force_a_pair_says_which_rule_it_breaks_and_still_publishes(tour: Tournament) -> None:
    play(tour, 1)
    tour.publish(1)
    tour.pair(2, seed=6)
    met = tour.pairing(1).boards[0]
    a, b = met.first, met.second
    assert b is not None
    before = {x.table: (x.first, x.second) for x in tour.pairing(2).boards}
    pairing, broken = tour.change_pairing(2, "force", a, b, who="HR")
    pairs = {frozenset((x.first, x.second)) for x in pairing.boards}
    assert frozenset((a, b)) in pairs
    # everybody is still paired exactly once
    seated = [p for x in pairing.boards for p in (x.first, x.second) if p is not None]
    assert sorted(seated) == sorted(p.id for p in tour.players())
    rules = [localize(r, "cs") for rs in broken.values() for r in rs]
    assert any(
        "už spolu hráli (1. kolo); pravidla připouštějí co nejméně opakovaných zápasů" in r
        for r in rules
    )
    table = next(x for x in pairing.boards if {x.first, x.second} == {a, b})
    assert "změněno ručně (HR)" in table.explain("cs")
    [line] = [x for x in tour.audit(2) if x["action"] == "pairing_force"]
    assert {(d["first"], d["second"]) for d in line["before"]} == set(before.values())
    html = exports.render(tour, "pairings", "html", round_no=2, lang="cs")
    assert tour.player(a).name in html
    # under SSS the same change says the rule set forbids it
    tour.configure(rules="sss")
    _, broken = tour.change_pairing(2, "swap", a, b)
    assert broken  # swapping two who sit together: who starts; still the rematch
    assert "zakazují" in localize(next(iter(broken.values()))[0], "cs")


def test_swap_tables_and_refusals(tour: Tournament) -> None:
    one, two = tour.pairing(1).boards[:2]
    pairing, broken = tour.change_pairing(1, "tables", 1, 2)
    assert (pairing.boards[0].first, pairing.boards[1].first) == (two.first, one.first)
    assert broken == {1: [], 2: []}
    tour.record_result(1, 1, two.first, two.second or 0, 400, 300, two.first)
    with pytest.raises(TournamentError) as refused:
        tour.change_pairing(1, "swap", two.first, one.first)
    assert "hub result undo 1 1" in error_text(refused.value, "cs")
    with pytest.raises(TournamentError) as refused:
        tour.change_pairing(1, "swap", 99, one.first)
    assert "hub export pairings" in error_text(refused.value, "cs")


def test_a_player_who_leaves_in_one_command(tour: Tournament, capsys) -> None:  # type: ignore[no-untyped-def]
    play(tour, 1)
    tour.publish(1)
    tour.pair(2, seed=6)
    leaver = tour.pairing(2).boards[1].first
    other = tour.pairing(2).boards[1].second
    db = str(tour.db.conn.execute("PRAGMA database_list").fetchone()[2])
    assert main(["players", "withdraw", str(leaver), "--rest", "--db", db]) == 0
    out = capsys.readouterr().out
    name = tour.player(leaver).name
    assert f"{name}: partie 2. kola kontumována v jeho neprospěch" in out
    assert "ve zbývajících kolech se nelosuje" in out
    game = next(g for g in tour.data().games if g.round == 2 and leaver in g.players())
    assert (game.kind, game.forfeited) == (Kind.FORFEIT, leaver)
    play(tour, 2)
    tour.publish(2)
    table = {s.player.id: s for s in tour.standings()}
    assert table[other].lines[-1].own == 200 and table[other].lines[-1].wins == 1
    assert all(leaver not in (x.first, x.second) for x in tour.pair(3, seed=7).boards)


def test_cli_change_prints_broken_rules(tour: Tournament, capsys) -> None:  # type: ignore[no-untyped-def]
    play(tour, 1)
    tour.publish(1)
    tour.pair(2, seed=6)
    met = tour.pairing(1).boards[0]
    db = str(tour.db.conn.execute("PRAGMA database_list").fetchone()[2])
    code = main(["round", "force", "2", str(met.first), str(met.second), "--db", db])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("table,first,second")
    assert "už spolu hráli" in err and "hub publish-pairings 2" in err
    code = main(["result", "undo", "2", "1", "--db", db])
    assert code == 2 and "není co vzít zpět" in capsys.readouterr().err

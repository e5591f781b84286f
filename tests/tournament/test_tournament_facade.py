"""The Tournament facade on a real SQLite file: players, results, conflicts, audit,
protest window, late entry, withdrawals, exports."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from samoobsluha.hub.tournament import exports, tsh
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.shared.clock import FakeClock

PLAYERS_CSV = """jméno;klub;rating
Dvořák Čeněk;ŠK Žďár;1650
Šťastná Růžena;Brno;1720
Novák Jiří;;1500
Kováčová Ľudmila;Bratislava;
Černý Ondřej;Praha;1580
Malá Žofie;Praha;1400
"""


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tour(tmp_path: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=clock) as t:
        t.configure(name="Mistrovství ČR", rules="cas", rounds=5)
        t.import_players_csv(PLAYERS_CSV)
        yield t


def enter_all(t: Tournament, round_no: int, rnd: random.Random, source: str = "operator") -> None:
    for b in t.pairing(round_no).boards:
        if b.second is not None:
            s1, s2 = rnd.randint(300, 500), rnd.randint(300, 500)
            t.record_result(round_no, b.table, b.first, b.second, s1, s2, b.first, source=source)


def test_import_players_utf8_and_idempotent(tour: Tournament) -> None:
    names = [p.name for p in tour.players()]
    assert names[0] == "Dvořák Čeněk" and names[3] == "Kováčová Ľudmila"
    assert tour.players()[1].club == "Brno" and tour.players()[1].rating == 1720
    assert tour.players()[3].rating == 0
    assert tour.import_players_csv(PLAYERS_CSV) == []  # nothing twice
    added = tour.import_players_csv("Nový Hráč,Olomouc,1200\n")
    assert [(p.name, p.club, p.rating) for p in added] == [("Nový Hráč", "Olomouc", 1200)]
    with pytest.raises(TournamentError, match="not a number"):
        tour.import_players_csv("name,club,rating\nX,Y,abc\n")


def test_results_confirm_conflict_correct_and_audit(tour: Tournament, clock: FakeClock) -> None:
    pairing = tour.pair(1, seed=1)
    assert len(pairing.pairs()) == 3
    b = pairing.boards[0]
    out = tour.record_result(
        1, b.table, b.first, b.second, 420, 380, b.first, source="station", who="stanice-2"
    )
    assert out.status == "entered"
    # Same from the paper scoresheet, players given the other way round: confirmed.
    out = tour.record_result(1, b.table, b.second, b.first, 380, 420, b.first, who="Jana")
    assert out.status == "confirmed"
    # The station re-sends (network retry): nothing changes.
    again = tour.record_result(
        1, b.table, b.first, b.second, 420, 380, b.first, source="station", who="stanice-2"
    )
    assert again.status == "duplicate"

    c = pairing.boards[1]
    tour.record_result(1, c.table, c.first, c.second, 400, 390, c.first, source="station")
    out = tour.record_result(1, c.table, c.first, c.second, 400, 309, c.first, who="Jana")
    assert out.status == "conflict"
    assert [m["table"] for m in tour.missing_results(1)] == [c.table, pairing.boards[2].table]
    # Re-typing in a conflict is allowed: a third score keeps the conflict …
    out = tour.record_result(1, c.table, c.first, c.second, 400, 300, c.first, who="Jana")
    assert out.status == "conflict"
    # … and the entries agreeing again (the scoresheet was misread) clear it, no F8 needed.
    clock.advance(60)
    out = tour.record_result(1, c.table, c.first, c.second, 400, 390, c.first, who="HR")
    assert out.status == "confirmed"
    assert tour.results(1)[1]["status"] == "confirmed"
    trail = [a for a in tour.audit(1) if a["table_no"] == c.table]
    assert [a["action"] for a in trail] == ["entered", "conflict", "conflict", "agreed"]
    assert trail[1]["after"]["disputed_entry"]["s_second"] == 309
    assert (trail[3]["before"]["status"], trail[3]["after"]["s_second"]) == ("conflict", 390)
    assert trail[3]["who"] == "HR" and trail[3]["at"] == clock.now()
    assert len(tour.entries(1, c.table)) == 4  # every entry kept as received
    # Outside a conflict the operator cannot overwrite his own entry without --correct.
    with pytest.raises(TournamentError, match="correct it"):
        tour.record_result(1, c.table, c.first, c.second, 401, 390, c.first, who="Jana")
    out = tour.record_result(1, c.table, c.first, c.second, 401, 390, c.first, correct=True)
    assert out.status == "corrected" and tour.results(1)[1]["s_first"] == 401


def test_entry_checks(tour: Tournament) -> None:
    pairing = tour.pair(1, seed=1)
    b, other = pairing.boards[0], pairing.boards[1]
    with pytest.raises(TournamentError, match=r"is .* not"):
        tour.record_result(1, b.table, b.first, other.first, 400, 300)
    with pytest.raises(TournamentError, match="no table"):
        tour.record_result(1, 99, b.first, b.second, 400, 300)
    with pytest.raises(TournamentError, match="outside"):
        tour.record_result(1, b.table, b.first, b.second, 4000, 300)
    with pytest.raises(TournamentError, match="starting player"):
        tour.record_result(1, b.table, b.first, b.second, 400, 300, started=other.first)
    out = tour.record_result(1, b.table, b.first, b.second, 850, 90, started=b.second)
    assert len(out.warnings) == 3  # 850 high, 90 low, starter differs from the pairing
    assert tour.results(1)[0]["starter"] == b.second


def test_protest_window_and_finalisation(tour: Tournament, clock: FakeClock) -> None:
    tour.pair(1, seed=2)
    with pytest.raises(TournamentError, match="without an agreed result"):
        tour.publish(1)
    enter_all(tour, 1, random.Random(1))
    tour.publish(1)
    with pytest.raises(TournamentError, match="protest window open"):
        tour.finalise(1)
    clock.advance(10 * 60)
    tour.lodge_protest(1, 2, who="Šťastná Růžena", note="špatně sečteno")
    clock.advance(21 * 60)
    with pytest.raises(TournamentError, match="window has closed"):
        tour.lodge_protest(1, 1, who="late")
    assert tour.finalise(1) == 2  # table 2 is held by the protest
    assert tour.round_state(1)["final_at"] is None
    assert {r["table_no"]: r["status"] for r in tour.results(1)}[2] == "entered"
    tour.close_protest(1, 2, who="HR", note="zamítnuto")
    assert tour.finalise(1) == 1
    assert tour.round_state(1)["final_at"] == clock.now()
    # A final result changes only by an operator action: a differing station entry is a
    # dispute; the operator's plain entry is refused (he corrects explicitly).
    b = tour.pairing(1).boards[0]
    before = tour.results(1)[0]
    out = tour.record_result(1, b.table, b.first, b.second, 1, 2, b.first, source="station")
    assert out.status == "dispute" and tour.results(1)[0] == before
    assert [d["table_no"] for d in tour.disputes(1)] == [b.table]
    with pytest.raises(TournamentError, match="final"):
        tour.record_result(1, b.table, b.first, b.second, 1, 2, b.first)


def test_early_approval(tour: Tournament) -> None:
    tour.pair(1, seed=2)
    enter_all(tour, 1, random.Random(2))
    tour.publish(1)
    assert tour.finalise(1, early=True) == 3


def test_rounds_late_entry_withdrawals_and_standings(tour: Tournament) -> None:
    rnd = random.Random(3)
    for pid in (1, 2, 3, 4, 5):
        tour.check_in(pid)
    p1 = tour.pair(1, seed=5)
    assert 6 not in {x for b in p1.boards for x in (b.first, b.second)}  # not checked in
    assert any("Malá Žofie" in note for note in p1.notes)
    assert p1.bye is not None  # five present
    with pytest.raises(TournamentError, match="next round to pair is 2"):
        tour.pair(3)
    with pytest.raises(TournamentError, match="not complete"):
        tour.pair(2)
    enter_all(tour, 1, rnd)
    late = tour.add_player("Pozdní Petr", club="Ostrava")
    tour.withdraw(2, temporary=True)
    tour.pair(2, seed=5)
    enter_all(tour, 2, rnd)
    tour.reinstate(2)
    tour.withdraw(3)
    p3 = tour.pair(3, seed=5)
    paired3 = {x for b in p3.boards for x in (b.first, b.second)}
    assert 2 in paired3 and 3 not in paired3
    enter_all(tour, 3, rnd)
    table = {s.player.id: s for s in tour.standings()}
    kinds = {pid: [(line.round, line.kind) for line in s.lines] for pid, s in table.items()}
    assert (1, Kind.LATE) in kinds[6]  # not present at round 1: ČAS 14.4 late entry
    assert (1, Kind.LATE) in kinds[late.id] and (2, Kind.PLAYED) not in kinds[2]
    absent = [line for line in table[2].lines if line.kind is Kind.ABSENT]
    assert [(x.round, x.own, x.opp) for x in absent] == [(2, 0, 200)]
    assert [line.round for line in table[3].lines] == [1, 2]
    # Same numbers as the domain function on the same data; exports agree too.
    csv_text = exports.standings_csv(tour.standings(), tour.rules)
    assert csv_text.splitlines()[0].startswith("rank,name,wins,spread,points,turcas")
    assert len(csv_text.splitlines()) == 1 + len(tour.players())
    actions = [a["action"] for a in tour.audit()]
    for expected in ("late_entry", "withdraw_paused", "reinstate", "withdraw_withdrawn", "pair"):
        assert expected in actions


def test_forfeit_entries(tour: Tournament) -> None:
    pairing = tour.pair(1, seed=4)
    a, b = pairing.boards[0], pairing.boards[1]
    tour.record_result(
        1, a.table, a.first, a.second, 120, 80, a.first, kind="forfeit", forfeited=a.second
    )
    tour.record_result(1, b.table, b.first, b.second, None, None, b.first, kind="double_forfeit")
    with pytest.raises(TournamentError, match="names the player"):
        tour.record_result(
            1, 3, pairing.boards[2].first, pairing.boards[2].second, 1, 2, kind="forfeit"
        )
    table = {s.player.id: s for s in tour.standings()}
    assert (table[a.first].wins, table[a.first].points, table[a.first].opp_points) == (1, 200, 0)
    assert (table[b.first].wins, table[b.first].points) == (0, 0)


def test_repairing_the_latest_round_until_results_arrive(tour: Tournament) -> None:
    first = tour.pair(1, seed=1)
    second = tour.pair(1, seed=2)
    assert tour.pairing(1).boards == second.boards != first.boards
    b = second.boards[0]
    tour.record_result(1, b.table, b.first, b.second, 400, 300)
    with pytest.raises(TournamentError, match="already has results"):
        tour.pair(1, seed=3)


def test_exports_html_json_scorecard(tour: Tournament) -> None:
    tour.pair(1, seed=1)
    enter_all(tour, 1, random.Random(4))
    tour.pair(2, seed=1)
    players = {p.id: p for p in tour.players()}
    page = exports.standings_html(tour.standings(), tour.rules, after_round=1, title="MČR")
    assert "@page { size: A4" in page and "Pořadí po 1. kole" in page and "Jméno" in page
    assert "Dvořák Čeněk" in page
    pairing_page = exports.pairings_html(tour.pairing(2), players)
    assert "Rozlosování 2. kola" in pairing_page and "Stůl" in pairing_page
    st = tour.standings(after_round=1)[0]
    card = exports.scorecard_html(st, players)
    assert "Karta hráče" in card and st.player.name in card
    assert exports.scorecard_csv(st, players).startswith("round,table,opponent,started,own,opp")
    doc = exports.station_json(tour.pairing(2), players, tour.standings(after_round=1))
    json.dumps(doc)
    assert doc["round"] == 2 and len(doc["tables"]) == 3
    assert {t["first"]["name"] for t in doc["tables"]} <= {p.name for p in players.values()}


def test_import_tsh_then_continue(tmp_path: Path, clock: FakeClock) -> None:
    sample = Path(__file__).parent / "data" / "anon1.t"
    with Tournament.open(tmp_path / "hub.db", clock=clock) as t:
        assert t.import_tsh(sample) == 42
        data = tsh.to_tournament(tsh.read(sample))
        from samoobsluha.hub.tournament.standings import compute

        direct = [
            (s.player.name, s.wins, s.spread)
            for s in compute(data.players.values(), data.games, t.rules)
        ]
        stored = [(s.player.name, s.wins, s.spread) for s in t.standings()]
        assert stored == direct
        pairing = t.pair(7, seed=1)
        assert pairing.rematches == 0 and len(pairing.pairs()) == 21
        # And out again: same games as read.
        back = tsh.from_tournament(t.data(until_round=6))
        assert tsh.to_tournament(back).games == data.games


def test_database_survives_reopen(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "hub.db"
    with Tournament.open(path, clock=clock) as t:
        t.import_players_csv(PLAYERS_CSV)
        t.pair(1, seed=9)
        b = t.pairing(1).boards[0]
        t.record_result(1, b.table, b.first, b.second, 400, 350, b.first, source="station")
    with Tournament.open(path, clock=clock) as t:
        assert len(t.players()) == 6
        assert t.results(1)[0]["s_first"] == 400
        assert t.pairing(1).seed == 9


def test_two_connections_entering_at_once(tmp_path: Path, clock: FakeClock) -> None:
    import threading

    path = tmp_path / "hub.db"
    with Tournament.open(path, clock=clock) as t:
        t.import_players_csv("\n".join(f"Hráč {i}" for i in range(40)))
        boards = t.pair(1, seed=1).boards
    errors: list[BaseException] = []

    def enter(source: str) -> None:
        try:
            with Tournament.open(path, clock=clock) as mine:
                for b in boards:
                    mine.record_result(
                        1, b.table, b.first, b.second, 400, 300 + b.table, b.first, source=source
                    )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=enter, args=(s,)) for s in ("station", "operator")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    with Tournament.open(path, clock=clock) as t:
        assert {r["status"] for r in t.results(1)} == {"confirmed"}
        assert len(t.results(1)) == 20


def test_pairings_page_lists_everybody_by_name_in_czech_order(tour: Tournament) -> None:
    from samoobsluha.hub.tournament.exports import _collate

    tour.add_player("Chalupa Jan")
    tour.add_player("Cibulka Petr")
    tour.add_player("Nová Eva")
    pairing = tour.pair(1, seed=3)
    players = {p.id: p for p in tour.players()}
    page = exports.pairings_html(pairing, players, lang="cs")
    assert "Podle jmen" in page
    section = page.split("Podle jmen")[1]
    order = [name for name in sorted((p.name for p in players.values()), key=_collate)]
    import re

    assert re.findall(r'<tr><td class="name">(.*?)</td>', section) == order
    assert order.index("Cibulka Petr") < order.index("Černý Ondřej") < order.index("Chalupa Jan")
    assert order.index("Nová Eva") < order.index("Novák Jiří")
    assert "(volný los)" in page  # 9 players: one bye


def test_every_tournament_command_is_documented() -> None:
    import argparse

    from samoobsluha.hub.cli import build_parser

    # A group such as "hub round" is shared with the network's start/change verbs, which
    # docs/network.md describes: look across all the docs.
    docs = "\n".join(
        p.read_text() for p in (Path(__file__).resolve().parents[2] / "docs").glob("*.md")
    )
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("standings", "pair", "tournament", "players", "round", "result", "export"):
        assert f"hub {name}" in docs, name
        child = sub.choices[name]
        for action in child._actions:
            if isinstance(action, argparse._SubParsersAction):
                for verb in action.choices:
                    assert verb in docs, f"hub {name} {verb}"

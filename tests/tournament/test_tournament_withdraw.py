"""ResultBook's duplicate rule and a station's withdrawal on a real SQLite file: the latest
entry of an author counts (A, B, A from one station leaves A); a withdrawal sets the
station's entries aside before publication (the operator's own entry stays) and is stored
refused after it, changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.hub.tournament.intake import StationResult
from samoobsluha.shared.clock import FakeClock

PLAYERS = "jméno;klub\nDvořák Čeněk;Žďár\nŠťastná Růžena;Brno\nNovák Jiří;\nMalá Žofie;\n"


@pytest.fixture
def tour(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as t:
        t.configure(name="Stažení", rules="cas", protest_minutes=30)
        t.import_players_csv(PLAYERS)
        t.pair(1, seed=3)
        yield t


def _station(t: Tournament, table: int, a: int, b: int, who: str = "st-1") -> str:
    board = next(x for x in t.pairing(1).boards if x.table == table)
    out = t.record_result(1, table, board.first, board.second, a, b, source="station", who=who)
    return out.status


def _row(t: Tournament, table: int) -> tuple[int, int, str] | None:
    row = t.book.result_row(1, table)
    return None if row is None else (row["s_first"], row["s_second"], row["status"])


def test_the_latest_entry_of_a_station_counts_not_any_earlier(tour: Tournament) -> None:
    assert _station(tour, 1, 400, 300) == "entered"
    assert _station(tour, 1, 410, 300) == "entered"
    # back to the first value: a change, not a repeat of what is held
    assert _station(tour, 1, 400, 300) == "entered"
    assert _row(tour, 1) == (400, 300, "entered")
    assert _station(tour, 1, 400, 300) == "duplicate"


def test_a_withdrawal_leaves_the_operators_entry_or_nothing(tour: Tournament) -> None:
    board = next(x for x in tour.pairing(1).boards if x.table == 1)
    _station(tour, 1, 400, 300)
    tour.record_result(1, 1, board.first, board.second, 400, 300, board.first)
    assert _row(tour, 1) == (400, 300, "confirmed")
    assert tour.book.withdraw(1, 1, station="st-1") == "withdrawn"
    assert _row(tour, 1) == (400, 300, "entered")  # the operator's scoresheet stays
    assert tour.book.withdraw(1, 1, station="st-1") == "duplicate"
    _station(tour, 2, 350, 360)
    assert tour.book.withdraw(1, 2, station="st-2") == "duplicate"  # not st-2's entry
    assert tour.book.withdraw(1, 2, station="st-1") == "withdrawn"
    assert _row(tour, 2) is None  # missing again
    assert [
        a["action"]
        for a in tour.book.db.query("SELECT action FROM tour_audit WHERE table_no = 2 ORDER BY id")
    ] == ["entered", "withdrawn"]


def test_a_one_sided_entry_withdrawn_is_no_longer_shown(tour: Tournament) -> None:
    board = next(x for x in tour.pairing(1).boards if x.table == 1)
    names = {p.id: p.name for p in tour.players()}
    res = StationResult(
        "st-1/e/1",
        "st-1",
        1,
        1,
        names[board.first],
        names[board.second],
        401,
        399,
        "first",
        one_sided=True,
    )
    assert [o.outcome for o in tour.book.enter_station_results([res])] == ["one_sided"]
    assert 1 in tour.book.one_sided(1)
    tomb = StationResult(
        "st-1/e/2",
        "st-1",
        1,
        1,
        names[board.first],
        names[board.second],
        401,
        399,
        "first",
        one_sided=True,
        withdrawn=True,
    )
    assert [o.outcome for o in tour.book.enter_station_results([tomb])] == ["withdrawn"]
    assert tour.book.one_sided(1) == {}


def test_after_publication_a_withdrawal_is_stored_refused(tour: Tournament) -> None:
    for b in tour.pairing(1).boards:
        if b.second is not None:
            _station(tour, b.table, 400, 300)
    tour.publish(1)
    before = _row(tour, 1)
    names = {p.id: p.name for p in tour.players()}
    board = next(x for x in tour.pairing(1).boards if x.table == 1)
    tomb = StationResult(
        "st-1/e/9",
        "st-1",
        1,
        1,
        names[board.first],
        names[board.second],
        400,
        300,
        "first",
        withdrawn=True,
    )
    (out,) = tour.book.enter_station_results([tomb])
    assert out.outcome == "withdraw_refused" and out.error is not None
    assert out.error.key == "err.withdraw.published"
    assert _row(tour, 1) == before
    rows = list(tour.book.db.query("SELECT station, key, refused FROM tour_withdrawals"))
    assert rows == [{"station": "st-1", "key": "st-1/e/9", "refused": 1}]

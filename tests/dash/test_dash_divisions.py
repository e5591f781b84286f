"""The dashboard's service and the hall screen in a hall of two divisions: pairing the next
round pairs every division (none while another's previous round is open), the standings
table has each division's ranks under its name, and the stations and the hall screen get
every table's and every row's division."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import cells, label_text, settle
from textual.widgets import DataTable

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.sample import sample_players
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.hub.web import snapshot
from samoobsluha.shared.clock import FakeClock


@pytest.fixture
def hall(tmp_path: Path) -> HubService:
    svc = HubService(tmp_path / "data", clock=FakeClock(1_767_225_600.0))
    with svc._tour() as tour:
        tour.configure(name="Dvě skupiny", rules="cas", rounds=5)
        tour.add_division("OPEN")
        tour.add_division("JUNIOR")
        for i, (name, club, rating) in enumerate(sample_players(9, 5)):
            tour.add_player(name, club=club, rating=rating, division="OPEN" if i < 5 else "JUNIOR")
    return svc


def test_the_dashboard_pairs_the_whole_hall(hall: HubService) -> None:
    assert hall.pair(1, seed=4) == 3 + 2  # OPEN 5 players: 2 games and a bye; JUNIOR 2
    with hall._tour() as tour:
        divisions = tour.board_divisions(1)
    assert divisions == {1: "OPEN", 2: "OPEN", 3: "OPEN", 4: "JUNIOR", 5: "JUNIOR"}
    # JUNIOR's tables done, OPEN's not: round 2 is paired for nobody
    for table in (4, 5):
        hall.enter_result(1, Entry(table, 400, 300))
    with pytest.raises(ServiceError):
        hall.pair(2, seed=4)
    with hall._tour() as tour:
        assert tour.last_round("JUNIOR") == 1
    for table in (1, 2):
        hall.enter_result(1, Entry(table, 350, 410))

    columns, rows = hall.standings_table(after_round=1)
    assert columns[:2] == ["division", "rank"]
    assert [r["division"] for r in rows] == ["OPEN"] * 5 + ["JUNIOR"] * 4
    assert next(r["rank"] for r in rows if r["division"] == "JUNIOR") == "1"

    pairings, standings = hall.station_payloads(1)
    assert {t["table"]: t["division"] for t in pairings["tables"]} == divisions
    assert {r["division"] for r in standings["rows"]} <= {"OPEN", "JUNIOR"}

    hall.publish_round(1)
    snap = snapshot.build(hall)
    assert snap["standings"]["divisions"] == ["OPEN"] * 5 + ["JUNIOR"] * 4
    assert set(snap["division"].values()) == {"OPEN", "JUNIOR"}
    assert hall.pair(2, seed=5) == 5


def test_a_hall_of_one_division_looks_as_before(tmp_path: Path) -> None:
    svc = HubService(tmp_path / "data", clock=FakeClock(1_767_225_600.0))
    with svc._tour() as tour:
        tour.configure(name="Jedna skupina", rules="cas", rounds=3)
        for name, club, rating in sample_players(4, 5):
            tour.add_player(name, club=club, rating=rating)
    assert svc.pair(1, seed=1) == 2
    columns, rows = svc.standings_table(after_round=0)
    assert "division" not in columns and all("division" not in r for r in rows)
    pairings, _ = svc.station_payloads(1)
    assert all("division" not in t for t in pairings["tables"])
    snap = snapshot.build(svc)
    assert snap["division"] == {} and "divisions" not in snap["standings"]


async def test_f5_in_a_hall_of_two_divisions(hall: HubService) -> None:
    """The referee's F5: `n` pairs both divisions, the pairings show whose each table is,
    the standings have a division column, `h` prints each division's standings."""
    app = HubApp(hall, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f5")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        screen = app.screen
        assert "Kolo 1 rozlosováno (5 stolů)" in label_text(screen, "#message")
        pairings = cells(screen.query_one("#pairings", DataTable))
        assert [row[1] for row in pairings] == ["OPEN"] * 3 + ["JUNIOR"] * 2
        standings = cells(screen.query_one("#standings", DataTable))
        assert [row[0] for row in standings] == ["OPEN"] * 5 + ["JUNIOR"] * 4
        await pilot.press("h")
        await settle(pilot)
    exported = sorted(p.name for p in (hall.data / "exports").iterdir())
    assert exported == ["pairings-1.html", "standings-JUNIOR-0.html", "standings-OPEN-0.html"]


def test_the_hall_screens_prize_list_says_whose_division(hall: HubService) -> None:
    """After the last round each division is given the prize table on its own; the hall
    screen lists both, every row with its division (two „1. místo“ lines otherwise)."""
    with hall._tour() as tour:
        tour.configure(rounds=1)
        tour.prize_book.add_prize("place", 1, "1000 Kč")
    hall.pair(1, seed=4)
    for table in (1, 2, 4, 5):  # table 3 is OPEN's bye
        hall.enter_result(1, Entry(table, 400 + table, 300))
    hall.publish_round(1)
    with hall._tour() as tour:
        winners = {d: tour.standings(division=d)[0].player.name for d in ("OPEN", "JUNIOR")}
    snap = snapshot.build(hall)
    columns = snap["prizes"]["columns"]
    assert columns[0] == "division"
    for lang in ("cs", "pl"):
        rows = [dict(zip(columns, row, strict=True)) for row in snap["prizes"]["rows"][lang]]
        assert [(r["division"], r["name"]) for r in rows] == [
            ("OPEN", winners["OPEN"]),
            ("JUNIOR", winners["JUNIOR"]),
        ]

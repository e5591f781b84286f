"""F12, categories and prizes, driven by Textual's Pilot on a real hub database: the prize
list (ties shared, an expelled winner listed without a prize and why) and every category's
standings, read-only, per division in a hall of several (``d``), at 80×24 and at the demo's
size (the dashboard's tmux pane: 200×50 split in two, one line of status)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import cells, label_text, settle
from language_guard import english_on_screen
from textual.widgets import DataTable

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.sample import sample_players
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

DEMO = (100, 49)


def play(svc: HubService, rounds: int) -> None:
    """Every round paired, each table's first player winning, results published."""
    for r in range(1, rounds + 1):
        svc.pair(r, seed=r)
        for row in svc.pairing_table(r)[0]:
            if row["second"] != "—":
                table = int(row["table"])
                svc.enter_result(r, Entry(table, 380 + 7 * table, 350))
        svc.publish_round(r)


@pytest.fixture
def event(tmp_path: Path) -> HubService:
    svc = HubService(tmp_path / "data", clock=FakeClock(1_767_225_600.0))
    with svc._tour() as tour:
        tour.configure(name="Ceny", rules="cas", rounds=2)
        for name, club, rating in sample_players(8, 3):
            tour.add_player(name, club=club, rating=rating)
        tour.prize_book.define("ženy")
        tour.prize_book.assign("ženy", [2, 4, 6])
        for rank, value in ((1, "1000 Kč"), (2, "500 Kč")):
            tour.prize_book.add_prize("place", rank, value)
        tour.prize_book.add_prize("category", 1, "kytice", category="ženy")
    play(svc, 2)
    return svc


def app_for(svc: HubService) -> HubApp:
    return HubApp(svc, refresh_every=None, tick_every=None)


def fits(app: HubApp, selector: str, size: tuple[int, int], rows: int = 3) -> None:
    """The widget is on the screen, at least ``rows`` of it, inside the terminal."""
    region = app.screen.query_one(selector).region
    assert region.height >= rows and region.bottom <= size[1] and region.right <= size[0], region


@pytest.mark.parametrize("size", [(80, 24), DEMO], ids=["80x24", "demo"])
async def test_f12_shows_the_prize_list_and_the_category_standings(
    event: HubService, size: tuple[int, int]
) -> None:
    with event._tour() as tour:
        table = tour.standings()
        winner, second = table[0].player, table[1].player
        women = [s.player.name for s in table if s.player.id in {2, 4, 6}]
        tour.sanction(winner.id, "expulsion", scope="event", reason="manipulace s výsledky")
    app = app_for(event)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("f12")
        await settle(pilot)
        assert app.current_mode == "prizes"
        screen = app.screen
        assert "Kategorie a ceny" in label_text(screen, "#screen-title")
        assert "toto jsou ceny" in label_text(screen, "#prizes-state")
        assert "Ceny po 2. kole" in label_text(screen, "#prizes-title")
        prizes = cells(screen.query_one("#prize-list", DataTable))
        # the expelled winner: no prize; the 1st prize goes to the second, and so on
        assert prizes[0][:3] == ["1. místo", "1000 Kč", second.name]
        assert prizes[-1][0] == "bez ceny" and prizes[-1][2] == winner.name
        assert prizes[-1][1] == "1. místo: 1000 Kč — připadá dalšímu v pořadí"
        assert prizes[-1][-1] == "vyloučení z turnaje: manipulace s výsledky"
        # the reason, whole, under the table (which an 80-column screen cuts)
        assert label_text(screen, "#prizes-barred") == (
            f"{winner.name}: bez ceny — vyloučení z turnaje: manipulace s výsledky"
        )
        headers = [
            str(c.label) for c in screen.query_one("#prize-list", DataTable).columns.values()
        ]
        assert headers == ["Za", "Cena", "Jméno", "Poznámka"]  # nobody shares: no "Každý"
        standings = cells(screen.query_one("#category-standings", DataTable))
        assert [row[0] for row in standings] == ["ženy"] * 3
        assert [row[3] for row in standings] == women  # in the overall order
        assert [row[1] for row in standings] == ["1", "2", "3"]
        assert not screen.check_action("next_division", ())  # one division: no d
        fits(app, "#prize-list", size)
        fits(app, "#prizes-barred", size, rows=1)
        fits(app, "#category-standings", size)
        shown = " ".join(
            [label_text(screen, s) for s in ("#screen-title", "#prizes-state", "#prizes-title")]
            + [c for row in prizes + standings for c in row]
        )
        names = {w for p in table for w in p.player.name.replace(",", " ").split()}
        assert english_on_screen(shown, allowed=names) == []
        await pilot.press("ctrl+q")


async def test_f12_before_the_end_and_in_a_hall_of_two_divisions(tmp_path: Path) -> None:
    svc = HubService(tmp_path / "data", clock=FakeClock(1_767_225_600.0))
    with svc._tour() as tour:
        tour.configure(name="Dvě skupiny", rules="cas", rounds=3)
        tour.add_division("OPEN")
        tour.add_division("JUNIOR")
        for i, (name, club, rating) in enumerate(sample_players(8, 5)):
            tour.add_player(name, club=club, rating=rating, division="OPEN" if i < 4 else "JUNIOR")
        tour.prize_book.add_prize("place", 1, "pohár")
    play(svc, 1)
    with svc._tour() as tour:
        leaders = {d: tour.standings(division=d)[0].player.name for d in ("OPEN", "JUNIOR")}
    app = app_for(svc)
    async with app.run_test(size=DEMO) as pilot:
        await settle(pilot)
        await pilot.press("f12")
        await settle(pilot)
        screen = app.screen
        state = label_text(screen, "#prizes-state")
        assert state.startswith("Skupina OPEN (z OPEN, JUNIOR; d: další)")
        assert "turnaj ještě neskončil" in state  # round 1 of 3: the list so far
        assert cells(screen.query_one("#prize-list", DataTable))[0][1:3] == [
            "pohár",
            leaders["OPEN"],
        ]
        assert "Žádné kategorie nejsou zadány" in label_text(screen, "#categories-title")
        assert screen.check_action("next_division", ())  # d is in the footer here
        await pilot.press("d")
        await settle(pilot)
        assert label_text(screen, "#prizes-state").startswith("Skupina JUNIOR")
        assert cells(screen.query_one("#prize-list", DataTable))[0][2] == leaders["JUNIOR"]
        await pilot.press("d")
        await settle(pilot)
        assert label_text(screen, "#prizes-state").startswith("Skupina OPEN")
        await pilot.press("ctrl+q")

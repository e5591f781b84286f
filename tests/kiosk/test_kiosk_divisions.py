"""A hall of several divisions at the kiosk: the result entry says whose table it is, from
the pairings exactly as the hub publishes them (``exports.station_json``)."""

from __future__ import annotations

from kiosk_pilot import settle, type_text
from textual.widgets import Label

from samoobsluha.hub.tournament.exports import station_json
from samoobsluha.hub.tournament.model import Player
from samoobsluha.hub.tournament.pairing import Board, Pairing
from samoobsluha.station.log import pairings_divisions, pairings_rows
from samoobsluha.station.screens.result import ResultScreen

SIZE = (80, 24)


def published(many: bool) -> dict[str, object]:
    players = {
        1: Player(1, "Novák Jan", division="OPEN"),
        2: Player(2, "Dvořáková Eva", division="OPEN"),
        3: Player(3, "Malý Petr", division="JUNIOR"),
        4: Player(4, "Šťastná Ema", division="JUNIOR"),
    }
    pairing = Pairing(2, 7, "swiss", boards=[Board(1, 1, 2), Board(12, 3, 4)])
    return station_json(pairing, players, divisions=many)


async def names_at(make_app, store, clock, table: str, data: dict[str, object]) -> str:
    round_no, rows = pairings_rows(data)
    store.replace_pairings(round_no, rows, at=clock.now(), divisions=pairings_divisions(data))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        assert isinstance(app.screen, ResultScreen)
        for text in ("2", table):
            await type_text(pilot, text)
            await pilot.press("enter")
        await settle(pilot)
        return str(app.screen.query_one("#result-names", Label).content)


async def test_result_entry_names_the_tables_division(make_app, store, clock):
    names = await names_at(make_app, store, clock, "12", published(True))
    assert names.startswith("Skupina JUNIOR") and "Malý Petr" in names and "Šťastná Ema" in names


async def test_a_hall_of_one_division_shows_no_division(make_app, store, clock):
    data = published(False)
    assert pairings_divisions(data) == {}
    names = await names_at(make_app, store, clock, "1", data)
    assert "Skupina" not in names and names.startswith("A: Novák Jan")

"""Every dashboard screen (F1–F5, F12) in Czech, Slovak and Polish, with data on it
(stations, checks and a station-wide refusal, an entered result and a parse error,
standings and pairings with the why-this-pair text, categories and prizes), and nothing
English on it (nothing Czech, Slovak or English on the Polish one)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import check, deliver, settle, station_store
from language_guard import english_on_screen
from textual.widgets import DataTable, Footer, Input, Label

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.storage import open_db

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}


def visible_text(app) -> str:
    screen = app.screen
    parts = [str(label.content) for label in screen.query(Label) if label.display]
    for table in screen.query(DataTable):
        parts += [str(c.label) for c in table.columns.values()]
        for row in range(table.row_count):
            parts += [str(cell) for cell in table.get_row_at(row)]
    if screen.query(Footer):
        parts += [b.description for (_, b, _, _) in screen.active_bindings.values() if b.show]
    parts += [str(n.message) for n in app._notifications]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
async def test_every_dashboard_screen_speaks_the_language(
    served: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path, lang: str
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    check(st, lexicon, ["kůň"], 1, clock.now() - 30)
    st.record_refusal(table_no=3, round_no=1, reason="station_interval", at=clock.now() - 10)
    deliver(served, st, clock.now())
    db = open_db(served.db_path, sync_store.migrations)
    status = {"version": "0.1.0", "lexicon_sha256": "b" * 64, "clock_synced": True}
    sync_store.save_status(db, "st-1", "e1", "127.0.0.1:1", status, clock.now() - 3)
    db.close()
    with served._tour() as tour:
        players = {p.name for p in tour.players()}
    allowed = {w for name in players for w in name.split()} | {"TEST"}  # lexicon variant
    allowed |= {"Testovací", "turnaj"}  # the tournament's name (data, not language)
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK, lang=lang)

    async with app.run_test(size=(160, 45)) as pilot:

        async def look(name: str) -> None:
            await settle(pilot)
            text = visible_text(app)
            leaks = english_on_screen(text, allowed=allowed, lang=lang)
            assert not leaks, f"{lang} {name}: English {leaks} in:\n{text}"

        await look("stations")
        await pilot.press("f2")
        await look("rounds")
        await pilot.press("f3")
        await look("challenges")
        await pilot.press("f4")
        await settle(pilot)
        entry = app.screen.query_one("#entry", Input)
        entry.focus()
        entry.value = "12 abc"
        await pilot.press("enter")
        await look("results: parse error")
        entry.value = "1 412 388 2"
        await pilot.press("enter")
        await look("results: echo")
        await pilot.press("f5")
        await look("standings and pairings")
        await pilot.press("e")  # why this pair: the board under the cursor explained
        await look("standings: why this pair")
        assert str(app.screen.query_one("#explain", Label).content).strip()
        await pilot.press("f12")
        await look("categories and prizes")
        assert app.current_mode == "prizes"


async def test_why_this_pair_speaks_czech(served: HubService) -> None:
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK, lang="cs")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        text = str(app.screen.query_one("#explain", Label).content)
        assert text and not english_on_screen(text), text

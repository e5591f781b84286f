"""The referee PIN from the dashboard: typed twice, confirmed, sent (as a salted hash) to
every station through the embedded hub server."""

from __future__ import annotations

from dash_testkit import label_text, settle
from textual.widgets import Input

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.screens.stations import PinDialog
from samoobsluha.hub.service import HubService
from samoobsluha.shared.storage import open_db
from samoobsluha.station.checks import verify_pin

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}


def published_pin(service: HubService) -> str | None:
    db = open_db(service.db_path, sync_store.migrations)
    try:
        item = sync_store.load_published(db).get("referee_pin")
    finally:
        db.close()
    return None if item is None else item[1]["hash"]


async def type_in(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


async def test_dashboard_sends_a_new_referee_pin_after_confirmation(served: HubService) -> None:
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PinDialog)
        await type_in(pilot, "12")  # too short
        assert "alespoň 4" in label_text(app.screen, "#pin-error")
        await type_in(pilot, "86429753")
        await type_in(pilot, "86429999")  # differs: start again
        assert "neshodují" in label_text(app.screen, "#pin-error")
        await type_in(pilot, "86429753")
        await type_in(pilot, "86429753")
        assert app.screen.query_one("#pin-input", Input).disabled
        await pilot.press("escape")  # "really?" — no
        await settle(pilot)
        assert not isinstance(app.screen, PinDialog)
        assert published_pin(served) is None
        await pilot.press("p")
        await settle(pilot)
        await type_in(pilot, "86429753")
        await type_in(pilot, "86429753")
        await pilot.press("a")
        await settle(pilot)
        await settle(pilot)
        assert "odeslán" in label_text(app.screen, "#message")
    stored = published_pin(served)
    assert stored is not None and "86429753" not in stored
    assert verify_pin("86429753", stored)

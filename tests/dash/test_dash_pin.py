"""The referee PIN from the dashboard: typed twice, confirmed, and sent — one salted hash
per station, each its own salt — to every station the hub knows through the embedded hub
server: now to those linked, later to one that was away. Real stations' sync links on
127.0.0.1 against the dashboard's own server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dash_testkit import label_text, settle
from net.net_procs import stop_sync
from testkit import until
from textual.widgets import Input

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.screens.stations import PinDialog
from samoobsluha.hub.service import HubService
from samoobsluha.shared.pin import verify_pin
from samoobsluha.shared.protocol import parse_psk
from samoobsluha.shared.storage import open_db
from samoobsluha.station.sync import NetworkConfig, StationSync, load_item

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}
PIN = "86429753"


def published_pins(service: HubService) -> dict[str, str] | None:
    db = open_db(service.db_path, sync_store.migrations)
    try:
        item = sync_store.load_published(db).get("referee_pin")
    finally:
        db.close()
    return None if item is None else item[1]["hashes"]


async def start_sync(server, psk: bytes, db: Path, sid: str):
    """A station's sync in this process, linked to the dashboard's embedded server."""
    net = NetworkConfig(
        tournament_id=server.tournament, hub=f"127.0.0.1:{server.port}", station_id=sid
    )
    sync = StationSync(db, net, psk=psk)
    return sync, asyncio.create_task(sync.run())


async def type_in(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")
    await settle(pilot)


async def send_pin(pilot, pin: str) -> None:
    await pilot.press("p")
    await settle(pilot)
    await type_in(pilot, pin)
    await type_in(pilot, pin)
    await pilot.press("a")
    await settle(pilot)
    await settle(pilot)


async def test_dashboard_sends_a_new_referee_pin_after_confirmation(
    served: HubService, tmp_path: Path
) -> None:
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        # no station has ever linked up: nobody to send a PIN to, and the screen says so
        await send_pin(pilot, PIN)
        assert "nezná žádnou stanici" in label_text(app.screen, "#message")
        assert published_pins(served) is None

        server = app._server
        assert server is not None
        psk = parse_psk((served.data / "tournament.key").read_text())
        links = {
            sid: await start_sync(server, psk, tmp_path / f"{sid}.db", sid)
            for sid in ("st-1", "st-2")
        }
        await until(lambda: {"st-1", "st-2"} <= set(server.conns))
        await stop_sync(*links.pop("st-2"))  # st-2 goes away: the hub still knows it
        await until(lambda: "st-2" not in server.conns)

        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PinDialog)
        await type_in(pilot, "4711")  # the old policy's length: too short now
        assert "alespoň 6 znaků" in label_text(app.screen, "#pin-error")
        await type_in(pilot, PIN)
        await type_in(pilot, "86429999")  # differs: start again
        assert "neshodují" in label_text(app.screen, "#pin-error")
        await type_in(pilot, PIN)
        await type_in(pilot, PIN)
        assert app.screen.query_one("#pin-input", Input).disabled
        await pilot.press("escape")  # "really?" — no
        await settle(pilot)
        assert not isinstance(app.screen, PinDialog)
        assert published_pins(served) is None

        await send_pin(pilot, PIN)
        message = label_text(app.screen, "#message")
        assert "odeslán stanicím: st-1" in message, message
        assert "až se připojí: st-2" in message, message

        hashes = published_pins(served)
        assert hashes is not None and sorted(hashes) == ["st-1", "st-2"]
        assert hashes["st-1"] != hashes["st-2"] and PIN not in str(hashes)
        assert {h.split("$")[4] for h in hashes.values()} != {hashes["st-1"].split("$")[4]}
        assert all(verify_pin(PIN, h) for h in hashes.values())

        st1, _ = links["st-1"]
        await until(lambda: st1.dbw.call(load_item, "referee_pin") is not None)
        assert st1.dbw.call(load_item, "referee_pin") == {"hash": hashes["st-1"]}
        # st-2 comes back and gets its own hash, not st-1's
        links["st-2"] = await start_sync(server, psk, tmp_path / "st-2.db", "st-2")
        st2, _ = links["st-2"]
        await until(lambda: st2.dbw.call(load_item, "referee_pin") is not None)
        assert st2.dbw.call(load_item, "referee_pin") == {"hash": hashes["st-2"]}
        for link in links.values():
            await stop_sync(*link)


def test_the_pin_goes_to_every_known_station_but_a_revoked_one() -> None:
    """After a card goes missing: its station is revoked, and the new PIN is hashed for
    every other station the hub knows (linked or not), never for the lost card."""
    import pytest

    from samoobsluha.hub.auth import referee_pin_payload
    from samoobsluha.shared.pin import PinError

    rows = [
        {"station_id": "st-1", "connected": True},
        {"station_id": "st-2", "connected": False},
        {"station_id": "st-3", "connected": False, "revoked": True},
    ]
    hashes = referee_pin_payload(PIN, rows)["hashes"]
    assert sorted(hashes) == ["st-1", "st-2"]
    assert all(verify_pin(PIN, h) for h in hashes.values())
    with pytest.raises(PinError) as caught:
        referee_pin_payload(PIN, rows[2:])
    assert caught.value.args[0].key == "pin.no_stations"
    with pytest.raises(PinError):
        referee_pin_payload("4711", rows)

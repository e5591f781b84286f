"""``hub rehearse`` against the station runtime in kiosk mode (``station run``), in one
event loop: a real hub server on 127.0.0.1, the kiosk headless, gpiozero's mock pins. The
kiosk shows the keyboard prompt, the referee button is pressed when asked (and that press
does not ring the hall), the test stroke switches the bell once at the hub's instant."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from testkit import hub_for_a_station, hub_signed, until
from textual.widgets import Input

from samoobsluha.hub import rehearse as hub_rehearse
from samoobsluha.hub import store
from samoobsluha.station import config as station_config
from samoobsluha.station.link.clock import SkewedClock
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime
from samoobsluha.station.screens.rehearse import KeyboardTestScreen


async def test_kiosk_station_answers_a_rehearsal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    hub = await hub_for_a_station(tmp_path, monkeypatch)
    port = hub.port
    conf = tmp_path / "station.toml"
    conf.write_text(
        f'[station]\nname = "st-1"\n\n[kiosk]\ntables = "1-16"\n\n'
        f'[network]\ntournament_id = "{hub.tournament}"\nhub = "127.0.0.1:{port}"\n'
        f'psk_file = "{tmp_path / "tournament.key"}"\n\n[gong]\naudio = "off"\n',
        encoding="utf-8",
    )
    # signed by the test's hub, as the hub signs a card's lexicon: the station pins it
    lexicon = hub_signed(small_lexicon_path, tmp_path / "lexicons", tmp_path / "tournament.key")
    options = RuntimeOptions(kiosk=True, headless=True, lexicon=lexicon)
    runtime = StationRuntime(
        station_config.load(conf), options, local_clock=SkewedClock(-2.0), pin_factory=MockFactory()
    )
    main = asyncio.create_task(runtime.main())
    try:
        await until(lambda: runtime.ready.is_set() and runtime.synced and "st-1" in hub.conns)
        assert runtime.outputs is not None and runtime.outputs.bell is not None
        assert runtime.outputs.button is not None
        bell, button = runtime.outputs.bell.pin, runtime.outputs.button.pin
        bell.clear_states()
        asked = await hub_rehearse.broadcast(hub, lead=1.0, wait=20)
        assert asked["sent_to"] == ["st-1"]
        app = runtime.app
        assert app is not None
        await until(lambda: isinstance(app.screen, KeyboardTestScreen))
        await until(lambda: bool(app.screen.query("#rehearse-button")))  # "press the button"
        # the referee presses the button when asked (pull-up: pressed is low)
        await asyncio.sleep(0.3)
        button.drive_low()
        await asyncio.sleep(0.2)
        button.drive_high()
        typed = app.screen.query_one("#rehearse-typed", Input)
        typed.value = "ěščřžýáíéúůďť"  # ň lost
        await typed.action_submit()

        def answer() -> dict[str, Any] | None:
            rows = [r for r in hub.dbw.call(store.inbox_rows, "rehearse")]
            return rows[0]["payload"] if rows else None

        await until(lambda: answer() is not None)
        got = answer()
        assert got is not None and got["id"] == asked["id"] and got["station"] == "st-1"
        assert got["keyboard"] == {
            "answered": True,
            "letters": hub_rehearse.TEST_LETTERS,
            "typed": "ěščřžýáíéúůďť",
            "missing": "ň",
        }
        assert got["button"] == {"pressed": True}
        assert got["tables"] == "1-16" and got["pin_set"] is False
        # one stroke: the test itself; the press answered the check and rang nothing
        active = runtime.gong_config.bell_active_high
        assert sum(1 for s in bell.states[1:] if bool(s.state) == active) == 1
        assert got["gong"]["output"] == "bell" and got["gong"]["at"] == asked["at"]
        # measured on the hub's clock although the station's own runs 2 s slow
        assert abs(got["gong"]["switched_at"] - asked["at"]) < 1.0
        assert not isinstance(app.screen, KeyboardTestScreen)
        # no round was started or rung by the press
        assert runtime.schedule is not None and runtime.schedule.signals(1) == []
        assert time.time() > 0
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 15)
        await hub.close()

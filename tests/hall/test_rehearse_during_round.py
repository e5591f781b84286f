"""``hub rehearse`` while a round is being played. On real processes (``hub serve`` and a
``station daemon`` on 127.0.0.1): refused without ``--during-round``; with it, answered
quietly. In one event loop with the kiosk (``station run``, headless, mock pins): the quiet
rehearsal switches no bell and puts nothing over the player's screen, and a station whose
own clock shows the round stays quiet even when a request does not say so."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from net_procs import BIN, Hub, Station, running, wait_for
from testkit import hub_for_a_station, hub_signed, until

from samoobsluha.hub import rehearse as hub_rehearse
from samoobsluha.hub import store
from samoobsluha.shared.rounds import Phase
from samoobsluha.station import config as station_config
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime
from samoobsluha.station.screens.rehearse import KeyboardTestScreen


def _hub(hub: Hub, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "hub"), *args],
        env={**hub.env, "SAMOOBSLUHA_LANG": "cs"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_hub_rehearse_during_a_round_refuses_and_with_the_flag_rings_nothing(
    tmp_path: Path,
) -> None:
    hub = Hub(tmp_path / "hub").start()
    st = Station(tmp_path / "st-1", hub, "st-1")
    with running(hub, st):
        st.start()
        wait_for(
            lambda: any(
                r["connected"] and r["status"].get("clock_synced")
                for r in json.loads(hub.ctl("stations", "--json"))
            ),
            60,
            "a synced station",
        )
        hub.ctl("round", "start", "1", "--in", "1", "--basic", "900", "--warning", "60")
        wait_for(lambda: [r["signal"] for r in st.rings()] == ["start"], 30, "the start")

        refused = _hub(hub, "rehearse", "--wait", "5", "--no-button")
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert "kolo 1 právě běží" in refused.stderr and "--during-round" in refused.stderr
        assert hub.rows("rehearse") == []  # nothing was sent to the stations

        quiet = _hub(hub, "rehearse", "--during-round", "--wait", "5")
        assert "Tichá zkouška odeslána" in quiet.stderr, quiet.stderr
        line = next(x for x in quiet.stdout.splitlines() if x.startswith("st-1:"))
        assert "nezkoušen: běží kolo 1" in quiet.stdout, quiet.stdout
        assert "nedošla" not in line and "nikdo nenapsal" not in line
        (answer,) = [r["payload"] for r in hub.rows("rehearse")]
        skipped = {"skipped": True, "round": 1}
        assert answer["gong"] == skipped  # no test stroke on the bell
        assert answer["keyboard"] == skipped and answer["button"] == skipped
        assert [r["signal"] for r in st.rings()] == ["start"]  # the round's start, only
        assert "answered without bell or prompt" in st.log()


async def test_the_kiosk_stays_quiet_during_a_round(
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
    runtime = StationRuntime(station_config.load(conf), options, pin_factory=MockFactory())
    main = asyncio.create_task(runtime.main())
    try:
        await until(lambda: runtime.ready.is_set() and runtime.synced and "st-1" in hub.conns)
        assert runtime.outputs is not None and runtime.outputs.bell is not None
        bell = runtime.outputs.bell.pin
        schedule = runtime.schedule
        assert schedule is not None
        await hub.start_round(1, lead=0.5, basic_seconds=900, warning_seconds=60)
        await until(lambda: len(schedule.signals(1)) == 1, timeout=30)
        status = schedule.status(runtime.clock.now())
        assert status is not None and status.phase is Phase.RUNNING
        await asyncio.sleep(1.8)  # the start pattern (1.5 s) is over
        bell.clear_states()

        with pytest.raises(hub_rehearse.RoundInPlay):
            await hub_rehearse.broadcast(hub, lead=0.5, wait=5)

        def answers() -> list[dict[str, Any]]:
            return [r["payload"] for r in hub.dbw.call(store.inbox_rows, "rehearse")]

        asked = await hub_rehearse.broadcast(hub, lead=0.5, wait=5, during_round=True)
        assert asked["quiet"] == 1 and asked["sent_to"] == ["st-1"]
        # a request that does not say "quiet" (a hub that did not look at the clock): the
        # station's own round clock keeps it quiet
        await hub._broadcast(
            {
                "t": "show",
                "id": "rehearse:old:1",
                "ver": int(hub.clock.now() * 1000) + 1,
                "kind": hub_rehearse.KIND,
                "data": {"id": "rehearse:old:1", "at": hub.clock.now() + 0.5, "wait": 5},
            }
        )
        await until(lambda: len(answers()) == 2, timeout=30)
        await asyncio.sleep(1.0)  # past both test instants: a stroke would have switched
        app = runtime.app
        assert app is not None and not isinstance(app.screen, KeyboardTestScreen)
        for got in answers():
            assert got["gong"] == {"skipped": True, "round": 1}, got
            assert got["keyboard"] == {"skipped": True, "round": 1}
        assert len(bell.states) == 1  # only the clear: the bell never switched
        assert [r.signal.value for r in schedule.signals(1)] == ["start"]
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 15)
        await hub.close()


def test_round_in_play_covers_running_playout_and_soon() -> None:
    from samoobsluha.shared.rounds import RoundPlan

    plan = RoundPlan(3, 1000.0, basic_seconds=600, warning_seconds=60)
    assert hub_rehearse.round_in_play([plan], 900.0, 900.0 + 63) is None  # after the check
    assert hub_rehearse.round_in_play([plan], 950.0, 950.0 + 63) == (plan, "soon")
    assert hub_rehearse.round_in_play([plan], 1100.0, 1163.0) == (plan, "running")
    assert hub_rehearse.round_in_play([plan.paused(1100.0)], 1300.0, 1363.0)[1] == "running"
    assert hub_rehearse.round_in_play([plan], 1700.0, 1763.0) == (plan, "playout")
    assert hub_rehearse.round_in_play([plan], 1600.0 + 20 * 60, 9e9) is None
    assert hub_rehearse.round_in_play([plan.cancelled_plan()], 1100.0, 1163.0) is None

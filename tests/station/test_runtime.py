"""The station runtime (station/runtime.py): the guarantees every mode shares — the kiosk
(`station run`) and the headless station (`station daemon`, `station gong run`) — checked
with a real hub on 127.0.0.1, real SQLite files and gpiozero's mock pins."""

from __future__ import annotations

import asyncio
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from testkit import free_port, until

from samoobsluha.hub.server import HubServer
from samoobsluha.shared.protocol import new_psk
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import config as station_config
from samoobsluha.station.link.clock import SkewedClock
from samoobsluha.station.rounds import GIVEN, RoundSchedule
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime

SKEW = 3.0  # the station's own clock runs 3 s fast: unsynced, it would ring too early



async def _make_hub(folder: Path, psk: bytes, port: int) -> HubServer:
    return HubServer(folder / "hub.db", psk, host="127.0.0.1", port=port, advertise=False)


def _station_config(folder: Path, tournament: str, port: int, psk_file: Path) -> Path:
    path = folder / "station.toml"
    path.write_text(
        f"""[station]
name = "st-1"

[network]
tournament_id = "{tournament}"
hub = "127.0.0.1:{port}"
psk_file = "{psk_file}"

[gong]
audio = "off"
""",
        encoding="utf-8",
    )
    return path


def _bell_pin(runtime: StationRuntime) -> Any:
    assert runtime.outputs is not None and runtime.outputs.bell is not None
    return runtime.outputs.bell.pin


def _bell_on_edges(pin: Any, active_high: bool) -> int:
    """How many times the bell's relay input went to its active level (mock pin record)."""
    return sum(1 for state in pin.states[1:] if bool(state.state) == active_high)


@pytest.mark.parametrize("kiosk", [True, False], ids=["station-run", "station-daemon"])
async def test_a_linked_station_rings_nothing_until_its_clock_is_synced(
    kiosk: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "station"))
    psk = new_psk()
    psk_file = tmp_path / "tournament.key"
    psk_file.write_text(psk.hex())
    port = free_port()
    hub = await _make_hub(tmp_path, psk, port)
    await hub.start()  # creates the tournament, then goes away: the station boots alone
    tournament = hub.tournament
    await hub.close()

    cfg = station_config.load(_station_config(tmp_path, tournament, port, psk_file))
    db = station_config.station_db_path()
    start_at = time.time() + 2.0  # on the station's fast clock already 1 s late
    schedule = RoundSchedule.open(db, tournament=tournament)
    schedule.apply(RoundPlan(1, start_at, basic_seconds=4, warning_seconds=2))
    schedule.close()

    options = RuntimeOptions(kiosk=kiosk, headless=True, lexicon=small_lexicon_path)
    runtime = StationRuntime(
        cfg, options, local_clock=SkewedClock(SKEW), pin_factory=MockFactory()
    )
    main = asyncio.create_task(runtime.main())
    hub = await _make_hub(tmp_path, psk, port)
    try:
        await until(runtime.ready.is_set)
        pin, active = _bell_pin(runtime), runtime.gong_config.bell_active_high
        # The start passes on the station's own clock (and then on the true one) with no hub.
        await until(lambda: time.time() + SKEW > start_at + 1.0)
        await asyncio.sleep(0.3)
        assert _bell_on_edges(pin, active) == 0
        assert runtime.schedule is not None and runtime.schedule.signals(1) == []
        assert not runtime.synced and not runtime.runner_started

        await hub.start()  # the hub comes up: the link syncs the clock, then the round rings
        await until(lambda: runtime.synced)
        await until(lambda: len(runtime.schedule.signals(1)) == 3 if runtime.schedule else False)
        records = runtime.schedule.signals(1)
        assert [r.outcome for r in records] == [GIVEN] * 3
        # each rung on the hub's clock: never at the station's clock 3 s early
        for rec in records:
            assert rec.actual_at >= rec.scheduled_at - 0.5 * SKEW, rec
        assert _bell_on_edges(pin, active) >= 3
        # rung by the bell thread, not by the loop that runs the kiosk and the link
        assert runtime.bell is not None and runtime.bell.running
        assert runtime.bell.ident != threading.get_ident()
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 30)
        await hub.close()
    # the bell thread was stopped before the outputs closed; every way out leaves the bell
    # off: its last level was the inactive one
    assert runtime.bell is not None and not runtime.bell.running
    assert bool(pin.states[-1].state) != active


@pytest.mark.parametrize("kiosk", [True, False], ids=["station-run", "station-daemon"])
async def test_a_signal_rings_while_the_kiosks_loop_is_busy(
    kiosk: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    """The kiosk's loop held up (a verdict composed and painted, a slow query) while a
    signal comes due: the bell thread rings it on time, not when the loop is free."""
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "station"))
    path = tmp_path / "station.toml"
    path.write_text('[station]\nname = "st-1"\n\n[gong]\naudio = "off"\n', encoding="utf-8")
    cfg = station_config.load(path)
    runtime = StationRuntime(
        cfg,
        RuntimeOptions(kiosk=kiosk, link=False, headless=True, lexicon=small_lexicon_path),
        pin_factory=MockFactory(),
    )
    main = asyncio.create_task(runtime.main())
    try:
        await until(lambda: runtime.ready.is_set() and runtime.runner_started)
        assert runtime.schedule is not None
        start_at = time.time() + 0.5
        runtime.schedule.apply(RoundPlan(1, start_at, basic_seconds=60, warning_seconds=30))
        # the loop stays blocked from before the start until the bell thread has rung it
        deadline = time.monotonic() + 60
        while not runtime.schedule.signals(1) and time.monotonic() < deadline:
            time.sleep(0.05)
        blocked_until = time.time()
        records = runtime.schedule.signals(1)
        assert [r.signal.value for r in records] == ["start"]
        assert records[0].outcome == GIVEN
        assert records[0].actual_at < blocked_until  # not when the loop came back
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 30)


@pytest.mark.parametrize("kiosk", [True, False], ids=["station-run", "station-daemon"])
async def test_a_late_gong_from_the_hub_is_dropped_and_a_timely_one_rings(
    kiosk: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    """One rule for manual gongs in every mode: rung at the hub's instant, dropped when it
    could only be rung more than the grace period late."""
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "station"))
    psk = new_psk()
    psk_file = tmp_path / "tournament.key"
    psk_file.write_text(psk.hex())
    port = free_port()
    hub = await _make_hub(tmp_path, psk, port)
    await hub.start()
    cfg = station_config.load(_station_config(tmp_path, hub.tournament, port, psk_file))
    runtime = StationRuntime(
        cfg,
        RuntimeOptions(kiosk=kiosk, headless=True, lexicon=small_lexicon_path),
        pin_factory=MockFactory(),
    )
    main = asyncio.create_task(runtime.main())
    try:
        await until(lambda: runtime.ready.is_set() and runtime.synced)
        pin, active = _bell_pin(runtime), runtime.gong_config.bell_active_high
        runtime._gong_now("end", runtime.clock.now() - 60.0)  # the link delivered it late
        runtime._gong_now("warning", runtime.clock.now() + 0.2)
        await until(lambda: _bell_on_edges(pin, active) >= 2)  # the warning: two strokes
        await asyncio.sleep(1.0)
        assert _bell_on_edges(pin, active) == 2  # and never the end's three
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 30)
        await hub.close()


def test_a_lost_terminal_ends_the_kiosk_with_the_bell_off(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    """SIGHUP (the terminal went away) ends `station run` in order, not into a busy loop."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "station.toml").write_text('[gong]\naudio = "off"\n', encoding="utf-8")
    env = dict(os.environ, SAMOOBSLUHA_DATA=str(data), GPIOZERO_PIN_FACTORY="mock", TERM="xterm")
    log_file = tmp_path / "station.log"
    pid, fd = pty.fork()
    if pid == 0:  # the child: the kiosk on the pty's terminal
        os.execve(
            sys.executable,
            [
                sys.executable, "-m", "samoobsluha.station.cli", "run", "--standalone",
                "--lexicon", str(small_lexicon_path), "--log", str(log_file),
            ],
            env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        seen = b""
        while b"\x1b[" not in seen and time.monotonic() < deadline:  # painted something
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
        os.kill(pid, signal.SIGHUP)
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            try:
                os.read(fd, 65536)  # keep draining: a full pty must not hold it up
            except OSError:
                time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError("the kiosk kept running after SIGHUP")
    finally:
        os.close(fd)
    assert status is not None and os.WIFEXITED(status), status
    text = log_file.read_text(encoding="utf-8")
    assert "SIGHUP: stopping" in text
    # the bell's last word: switched off as the outputs closed
    assert "signal runner stopped" in text


def test_station_daemon_and_gong_run_are_the_runtime(tmp_path: Path) -> None:
    """The commands only parse arguments: a daemon without a tournament is refused by the
    runtime's own check, with the same words in both commands."""
    env = dict(os.environ, SAMOOBSLUHA_DATA=str(tmp_path), GPIOZERO_PIN_FACTORY="mock")
    env["SAMOOBSLUHA_LANG"] = "sk"
    (tmp_path / "station.toml").write_text('[gong]\naudio = "off"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "samoobsluha.station.cli", "daemon"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "chýba identifikátor turnaja ([network] tournament_id)" in done.stderr

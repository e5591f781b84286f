"""`station run` paints its idle screen before it imports gpiozero, opens the gong's
outputs or hashes its lexicon (station/runtime.py), unless a stored signal is due right
after the start: then the outputs exist before the kiosk, as before. Each start in a fresh
interpreter (the question is what sys.modules holds at the first paint), on an injected
clock, with mock pins."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from testkit import until

from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import config as station_config
from samoobsluha.station import runtime as runtime_module
from samoobsluha.station.app import KioskApp
from samoobsluha.station.rounds import GIVEN, RoundSchedule
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime

PROBE = """
import asyncio, json, os, sys
from pathlib import Path
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import config as station_config
from samoobsluha.station.app import KioskApp
from samoobsluha.station.rounds import RoundSchedule
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime

folder, lexicon, due_in = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
restart = len(sys.argv) > 4  # the database and its plan are there from a start before
clock = FakeClock(float(sys.argv[4])) if restart else FakeClock()
cfg_path = folder / "station.toml"
cfg_path.write_text('[station]\\nname = "st-1"\\n\\n[gong]\\naudio = "off"\\n', encoding="utf-8")
cfg = station_config.load(cfg_path)
db = folder / "station.db"
if not restart:
    schedule = RoundSchedule.open(db, clock=clock, tournament="")
    schedule.apply(RoundPlan(1, clock.now() + due_in, basic_seconds=60, warning_seconds=30))
    schedule.close()
seen = {"now": clock.now()}

class Probe(KioskApp):
    def _started(self):
        seen["gpiozero_at_paint"] = "gpiozero" in sys.modules
        seen["outputs_at_paint"] = runtime.outputs is not None
        verifier = self.lexicons.current._verifier  # the lexicon's hash check
        seen["hash_started_at_paint"] = verifier is not None and verifier.ident is not None
        seen["sqlite_utils_at_paint"] = "sqlite_utils" in sys.modules
        seen["payloads_at_paint"] = "samoobsluha.shared.payloads" in sys.modules
        status = self.round_status()
        seen["round_at_paint"] = status.phase.value if status else None
        super()._started()

async def main():
    task = asyncio.create_task(runtime.main())
    for _ in range(3000):
        if runtime.ready.is_set() and "outputs_at_paint" in seen:
            break
        await asyncio.sleep(0.01)
    seen["bell_pin"] = runtime.outputs.bell is not None and runtime.outputs.simulated
    seen["button_attached"] = runtime.outputs.button is not None
    for _ in range(3000):  # sqlite-utils for both databases, on its thread after the paint
        if runtime.app.store.db._full is not None and runtime.schedule.db._full is not None:
            break
        await asyncio.sleep(0.01)
    warmed = runtime.schedule.db._full is not None and runtime.app.store.db._full is not None
    seen["sqlite_utils_later"] = "sqlite_utils" in sys.modules and warmed
    runtime.stop()
    await asyncio.wait_for(task, 60)

runtime = StationRuntime(
    cfg, RuntimeOptions(kiosk=True, link=False, headless=True, lexicon=lexicon),
    local_clock=clock, app_class=Probe, db_path=db,
)
asyncio.run(main())
print(json.dumps(seen))
"""


def _start(tmp_path: Path, lexicon: Path, due_in: float, restart_at: float | None = None) -> dict:
    again = [] if restart_at is None else [repr(restart_at)]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), str(lexicon), str(due_in), *again],
        capture_output=True,
        text=True,
        timeout=200,
        env={
            **os.environ,
            "SAMOOBSLUHA_DATA": str(tmp_path / "data"),
            "GPIOZERO_PIN_FACTORY": "mock",  # gpiozero's mock pins, chosen as on a Pi
        },
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("due_in", [3600.0, 600.0])
def test_the_idle_screen_is_painted_before_gpiozero_is_imported(
    tmp_path: Path, small_lexicon_path: Path, due_in: float
) -> None:
    seen = _start(tmp_path, small_lexicon_path, due_in)
    assert seen["gpiozero_at_paint"] is False
    assert seen["outputs_at_paint"] is False
    assert seen["hash_started_at_paint"] is False  # started just after it
    assert seen["bell_pin"] and seen["button_attached"]  # built and wired after the paint


def test_a_restarted_kiosk_paints_its_idle_screen_before_importing_sqlite_utils(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    """A station back after a power blip: its database and the round stored before are
    there, so the idle screen — the stored round on its clock — is painted with neither
    sqlite-utils nor the payloads' msgspec imported (shared/storage.py); both are loaded
    on a thread a second after the paint. Its first start, on a new database, needs
    sqlite-utils for the migrations before the paint, as before."""
    first = _start(tmp_path, small_lexicon_path, 3600.0)
    assert first["sqlite_utils_at_paint"] is True  # the migrations ran
    again = _start(tmp_path, small_lexicon_path, 3600.0, restart_at=first["now"] + 60)
    assert again["sqlite_utils_at_paint"] is False
    assert again["payloads_at_paint"] is False
    assert again["round_at_paint"] == "scheduled"  # the stored round, read before the paint
    assert again["sqlite_utils_later"] is True
    assert again["bell_pin"] and again["button_attached"]


def test_a_signal_due_right_after_the_start_has_its_outputs_before_the_kiosk(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    seen = _start(tmp_path, small_lexicon_path, 1.0)
    assert seen["outputs_at_paint"] is True
    assert seen["bell_pin"] and seen["button_attached"]


class _NeverPaintedHook(KioskApp):
    """A kiosk whose first paint never reaches the runtime (as if it took for ever)."""

    @property  # type: ignore[override]
    def after_first_paint(self) -> Callable[[], None] | None:
        return None

    @after_first_paint.setter
    def after_first_paint(self, _hook: Callable[[], None] | None) -> None:
        pass


def _write_config(tmp_path: Path) -> station_config.StationConfig:
    path = tmp_path / "station.toml"
    path.write_text('[station]\nname = "st-1"\n\n[gong]\naudio = "off"\n', encoding="utf-8")
    return station_config.load(path)


@pytest.mark.parametrize(
    ("due_in", "app_class"),
    [(1.0, KioskApp), (600.0, _NeverPaintedHook)],
    ids=["due-right-after-start", "due-before-the-outputs-exist"],
)
async def test_a_signal_rings_at_its_instant_whenever_the_outputs_are_built(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    small_lexicon_path: Path,
    due_in: float,
    app_class: type,
) -> None:
    """On an injected clock: a round stored before the start, its start signal due 1 s
    after it (the outputs are built before the kiosk) or due when the outputs still do not
    exist (the kiosk never reported its paint, the fallback far away): the bell rings at
    the signal's instant, to the clock's tick, on gpiozero's mock pins."""
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(runtime_module, "OUTPUTS_AT_LATEST", 3600.0)
    clock = FakeClock()
    db = tmp_path / "station.db"
    schedule = RoundSchedule.open(db, clock=clock, tournament="")
    start_at = clock.now() + due_in
    schedule.apply(RoundPlan(1, start_at, basic_seconds=60, warning_seconds=30))
    schedule.close()
    factory = MockFactory()
    runtime = StationRuntime(
        _write_config(tmp_path),
        RuntimeOptions(kiosk=True, link=False, headless=True, lexicon=small_lexicon_path),
        local_clock=clock,
        pin_factory=factory,
        app_class=app_class,
        db_path=db,
    )
    main = asyncio.create_task(runtime.main())
    try:
        await until(lambda: runtime.runner_started and runtime.app is not None)
        await until(lambda: runtime.app is not None and runtime.app.is_running)
        await asyncio.sleep(0.3)  # the kiosk is up and idle
        assert (runtime.outputs is not None) == (due_in < runtime_module.EAGER_OUTPUTS)
        clock.advance(start_at - clock.now())  # the signal's instant
        assert runtime.bell is not None
        runtime.bell.wake()
        assert runtime.schedule is not None
        await until(lambda: bool(runtime.schedule and runtime.schedule.signals(1)))
        records = runtime.schedule.signals(1)
        assert [(r.signal.value, r.outcome) for r in records] == [("start", GIVEN)]
        assert records[0].actual_at == start_at  # not a tick after
        assert runtime.outputs is not None and runtime.outputs.bell is not None
        pin, active = runtime.outputs.bell.pin, runtime.gong_config.bell_active_high
        assert any(bool(s.state) == active for s in pin.states[1:])  # it rang
    finally:
        runtime.stop()
        await asyncio.wait_for(main, 60)


async def test_a_pin_that_cannot_be_used_still_ends_station_run_with_its_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    """The outputs are built after the first paint, and a bad pin found then ends the
    kiosk with the same error as before (`station run` prints it, exit code 2)."""
    from samoobsluha.station.hardware import HardwareError

    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "data"))
    path = tmp_path / "station.toml"
    path.write_text('[gong]\naudio = "off"\nbell_pin = "GPIO99"\n', encoding="utf-8")
    runtime = StationRuntime(
        station_config.load(path),
        RuntimeOptions(kiosk=True, link=False, headless=True, lexicon=small_lexicon_path),
        local_clock=FakeClock(),
        pin_factory=MockFactory(),
        db_path=tmp_path / "station.db",
    )
    with pytest.raises(HardwareError, match="bell_pin = 'GPIO99'"):
        await asyncio.wait_for(runtime.main(), 60)
    assert runtime.app is not None and runtime.app.return_code is not None  # it ran
    assert runtime.outputs is None

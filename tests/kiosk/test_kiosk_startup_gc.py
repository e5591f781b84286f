"""`station run` holds the garbage collector off during start-up; the kiosk switches it
on again once its idle screen is painted and its verdict prepared, with start-up's
objects frozen. Run in a child process: a hold or a freeze would change the collector
of the whole test run. And the kiosk's live objects stay flat from check to check
(Textual #6665 would keep every closed screen's line caches)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CHILD = """
import asyncio, gc, json, sys
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.shared.checks import KioskSettings
from samoobsluha.station.log import KioskStore
from samoobsluha.station.startup import hold_collector

async def main(lexicon, db, hold):
    if hold:
        hold_collector()
    seen = {"held": not gc.isenabled()}
    app = KioskApp(
        lexicon=Lexicon.open(lexicon),
        store=KioskStore.open(db, "gc-station"),
        settings=KioskSettings(min_interval=0, station_min_interval=0),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        while app._verdict_screen is None:
            await pilot.pause(0.01)
        seen["enabled"] = gc.isenabled()
        seen["frozen"] = gc.get_freeze_count()
        live = []
        for n in range(12):
            app.verdict_painted_at = None
            await pilot.press(*f"{n + 1}", "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("1", "enter", "p", "e", "s", "enter", "f10")
            while app.verdict_painted_at is None:
                await pilot.pause(0.01)
            app.reset_to_idle()
            await pilot.pause()
            gc.collect()
            live.append(len(gc.get_objects()))
        seen["live"] = live
    print(json.dumps(seen))

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] == "hold"))
"""


def _child(lexicon: Path, db: Path, hold: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(lexicon), str(db), hold],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("hold", ["hold", "no-hold"])
def test_the_collector_runs_again_once_the_kiosk_has_started(
    small_lexicon_path: Path, tmp_path: Path, hold: str
):
    seen = _child(small_lexicon_path, tmp_path / "station.db", hold)
    assert seen["held"] is (hold == "hold")
    assert seen["enabled"] is True
    if hold == "hold":
        assert seen["frozen"] > 10_000  # Textual, sqlite-utils and the kiosk itself
    else:
        assert seen["frozen"] == 0  # a kiosk in a test run freezes nothing
    # Closed screens are let go: the live set after the 12th check is that after the
    # 4th (give or take a screen's worth), not 8 checks' worth of line caches more.
    live = seen["live"]
    assert live[-1] - live[3] < 1500, live

"""``station run`` on a station without a hub: the kiosk, the round clock and the bell
in one process. A round started from the command line (as the referee would) rings all
three signals while the kiosk runs, and SIGTERM leaves cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from samoobsluha.station.rounds import GIVEN, RoundSchedule

FAST = """
[gong]
audio = "off"
[gong.patterns]
start = [0.05]
warning = [0.03, 0.03]
end = [0.05, 0.05, 0.05]
gap = 0.03
"""


def test_standalone_kiosk_rings_a_local_round(tmp_path: Path, small_lexicon_path: Path):
    conf = tmp_path / "station.toml"
    conf.write_text(FAST)
    data = tmp_path / "data"
    env = {
        **os.environ,
        "SAMOOBSLUHA_DATA": str(data),
        "SAMOOBSLUHA_CONFIG": str(conf),
        "GPIOZERO_PIN_FACTORY": "mock",
    }
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "samoobsluha.station.cli", "run", "--headless",
         "--lexicon", str(small_lexicon_path)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not (data / "station.db").exists() and time.monotonic() < deadline:
            assert kiosk.poll() is None, kiosk.communicate()[1]
            time.sleep(0.1)
        started = subprocess.run(
            [sys.executable, "-m", "samoobsluha.station.cli", "round", "start",
             "--in", "1.5", "--basic", "0.04", "--warning", "0.02"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert started.returncode == 0, started.stderr
        schedule = RoundSchedule.open(data / "station.db")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(schedule.signals()) < 3:
            assert kiosk.poll() is None, kiosk.communicate()[1]
            time.sleep(0.1)
        records = schedule.signals()
        schedule.close()
    finally:
        kiosk.send_signal(signal.SIGTERM)
        _, err = kiosk.communicate(timeout=30)
    assert [(r.signal.value, r.outcome) for r in records] == [
        ("start", GIVEN),
        ("warning", GIVEN),
        ("end", GIVEN),
    ], err
    # GIVEN means within the grace; how punctual is bench/gong.py's figure
    for record in records:
        assert 0 <= record.late < 5.0, record

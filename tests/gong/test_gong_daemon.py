"""``station gong run`` in a real process: it rings a round planned by ``station round
start`` (another process), records the signals, and stops cleanly on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from samoobsluha.station.rounds import GIVEN, RoundSchedule

FAST = """
[gong]
audio = "off"
grace_seconds = 5
[gong.patterns]
start = [0.05]
warning = [0.03, 0.03]
end = [0.05, 0.05, 0.05]
gap = 0.03
"""


def station(*args: str, env: dict[str, str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "samoobsluha.station.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        **kw,
    )


def test_daemon_rings_a_round_started_from_the_cli(tmp_path):
    conf = tmp_path / "station.toml"
    conf.write_text(FAST)
    env = {
        **os.environ,
        "SAMOOBSLUHA_DATA": str(tmp_path / "data"),
        "SAMOOBSLUHA_CONFIG": str(conf),
        "GPIOZERO_PIN_FACTORY": "mock",
    }
    daemon = subprocess.Popen(
        [sys.executable, "-m", "samoobsluha.station.cli", "gong", "run"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        started = station(
            "round", "start", "--in", "1.5", "--basic", "0.04", "--warning", "0.02", env=env
        )
        assert started.returncode == 0, started.stderr
        deadline = time.monotonic() + 30
        schedule = RoundSchedule.open(tmp_path / "data" / "station.db")
        while time.monotonic() < deadline and len(schedule.signals()) < 3:
            time.sleep(0.1)
        records = schedule.signals()
        schedule.close()
    finally:
        daemon.send_signal(signal.SIGTERM)
        _, err = daemon.communicate(timeout=30)
    assert daemon.returncode == 0, err
    assert [(r.signal.value, r.outcome) for r in records] == [
        ("start", GIVEN),
        ("warning", GIVEN),
        ("end", GIVEN),
    ]
    # A plan written by another process is picked up within the runner's 1 s nap, well
    # before its start instant: every signal was given, none found late (beyond a nap)
    assert all(0 <= r.late < 1.0 for r in records), [r.late for r in records]
    assert "bell on GPIO5 (active-low) simulated (MockFactory)" in err
    assert "signal runner stopped" in err
    status = station("round", "status", "--ui", "en", env=env)
    assert status.stdout.splitlines()[0] == "Round 1: PLAY-OUT"

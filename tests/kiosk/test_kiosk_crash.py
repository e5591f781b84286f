"""A kiosk killed (SIGKILL) the moment its verdict is painted has the check in its log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from samoobsluha.station import outbox
from samoobsluha.station.log import KioskStore

CHILD = Path(__file__).with_name("kiosk_crash_child.py")


def test_killed_after_confirm_leaves_the_row(small_lexicon_path, tmp_path):
    db = tmp_path / "station.db"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(small_lexicon_path), str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        line = child.stdout.readline()
        assert line.strip() == "PAINTED"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    store = KioskStore.open(db, "crash-station")
    try:
        rows = store.recent()
        assert [(r["table_no"], r["status"], r["words"]) for r in rows] == [(4, "valid", ["PES"])]
        assert [p["kind"] for p in outbox.pending(store.db)] == ["challenge"]
    finally:
        store.close()

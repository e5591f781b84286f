"""Several processes opening a new station DB at once (kiosk, daemon and a CLI command
at boot) all get a migrated database; none fails with "database is locked"."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from samoobsluha.station.rounds import RoundSchedule
RoundSchedule.open(sys.argv[1]).close()
print("ok")
"""


def test_concurrent_first_open(tmp_path):
    db = tmp_path / "station.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [err for _, err in results]
    assert all(out.strip() == "ok" for out, _ in results)

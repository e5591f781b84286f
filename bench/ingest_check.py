"""What checking every station row at the hub's boundary costs (shared/payloads.py).

    .venv/bin/python bench/ingest_check.py [--rows 100000] [--repeats 3]

In one process, against one fresh hub database per run: ``hub.store.ingest`` of kiosk
check rows in the station's batch size, once with the row check switched off (the
baseline, measured in the same run) and once as the hub runs it. Prints rows/s of both,
the ratio, and the check's CPU per row.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import check_payload

from samoobsluha.hub import store
from samoobsluha.shared.storage import open_db
from samoobsluha.station.sync import BATCH


def ingest_rate(rows: list[list[object]], check: bool) -> float:
    folder = Path(tempfile.mkdtemp(prefix="bench-ingest"))
    db = open_db(folder / "hub.db", store.migrations)
    real = store.row_error
    if not check:
        store.row_error = lambda kind, payload: ""
    try:
        started = time.perf_counter()
        for start in range(0, len(rows), BATCH):
            store.ingest(db, [("st", "e", rows[start : start + BATCH])], 2.0)
        return len(rows) / (time.perf_counter() - started)
    finally:
        store.row_error = real
        db.close()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = [
        [i + 1, "challenge", json.dumps(check_payload(i, "st"), ensure_ascii=False), 1.0]
        for i in range(args.rows)
    ]
    plain, checked = [], []
    for _ in range(args.repeats):
        plain.append(ingest_rate(rows, check=False))
        checked.append(ingest_rate(rows, check=True))
    p, c = statistics.median(plain), statistics.median(checked)
    payload = rows[0][2]
    n = 20_000
    started = time.perf_counter()
    for _ in range(n):
        store.row_error("challenge", payload)  # type: ignore[arg-type]
    per_row = (time.perf_counter() - started) / n * 1e6
    print(f"ingest without the row check: {p:,.0f} rows/s (median of {args.repeats})")
    print(f"ingest with the row check:    {c:,.0f} rows/s (median of {args.repeats})")
    print(f"ratio: {c / p:.0%}; the check alone: {per_row:.1f} µs per row")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

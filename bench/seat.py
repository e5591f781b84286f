"""A copy of the hub's data started on "another machine" (its own seat file): how soon
do both hubs warn TWO HUBS, how soon has every station told the copy that it follows the
primary, and after the primary dies and `hub takeover` runs on the copy, how soon are the
stations connected to it? Real processes on 127.0.0.1, stations finding the hub by mDNS
(tests/net/net_procs.py; the test is tests/net/test_net_seat.py).

    .venv/bin/python bench/seat.py                 # 2 stations, 2 runs
    .venv/bin/python bench/seat.py --stations 4 --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.hub import backup


def _stations(hub: Hub) -> list[dict[str, Any]]:
    return list(json.loads(hub.ctl("stations", "--json")))


def _connected(hub: Hub) -> set[str]:
    return {str(r["station_id"]) for r in _stations(hub) if r["connected"]}


def _told(hub: Hub, names: set[str]) -> bool:
    errors = {
        str(r["station_id"]): str(r["status"].get("last_error") or "") for r in _stations(hub)
    }
    return all(errors.get(n, "").startswith("follows the hub at") for n in names)


def one_run(folder: Path, n: int) -> dict[str, float]:
    primary = Hub(folder / "primary", mdns=True).start()
    stations = [Station(folder / f"st{i}", primary, f"st{i}", use_mdns=True) for i in range(n)]
    names = {st.station_id for st in stations}
    copy = Hub(folder / "copy", mdns=True)
    out: dict[str, float] = {}
    with running(primary, *stations, copy):
        for st in stations:
            st.start()
        wait_for(lambda: _connected(primary) == names, 90, "stations at the primary")
        made = backup.take(primary.db_path, folder / "usb", reason="manual", now=time.time())
        backup.restore(made, copy.db_path, now=time.time())
        shutil.copyfile(primary.key_file, copy.key_file)
        t0 = time.monotonic()
        copy.start()
        wait_for(lambda: "TWO HUBS" in primary.ctl("stations"), 60, "primary warned")
        wait_for(lambda: "TWO HUBS" in copy.ctl("stations"), 60, "copy warned")
        out["both warned"] = time.monotonic() - t0
        wait_for(lambda: _told(copy, names), 90, "copy told")
        out["copy told by every station"] = time.monotonic() - t0
        assert _connected(copy) == set()
        primary.kill()
        copy.stop()
        t1 = time.monotonic()
        took = subprocess.run(
            [str(BIN / "hub"), "takeover"], env=copy.env, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert took.returncode == 0, took.stderr
        copy.start()
        wait_for(lambda: _connected(copy) == names, 120, "stations at the new hub")
        out["stations at the copy after hub takeover"] = time.monotonic() - t1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stations", type=int, default=2)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    os.environ["SAMOOBSLUHA_LANG"] = "en"  # hub stations in English: "TWO HUBS"
    results: list[dict[str, float]] = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="seat-bench-") as tmp:
            results.append(one_run(Path(tmp), args.stations))
        print(f"run {run + 1}: " + ", ".join(f"{k} {v:.1f} s" for k, v in results[-1].items()))
    for key in results[0]:
        values = [r[key] for r in results]
        print(f"{key}: median {statistics.median(values):.1f} s, max {max(values):.1f} s")


if __name__ == "__main__":
    main()

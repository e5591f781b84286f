"""After the hub dies: how soon are the stations connected to the standby that took over?
(target: within 60 s of the referee's `hub takeover`)

Real processes on 127.0.0.1 (tests/net/net_procs.py): a primary `hub serve
--standby-port`, N station daemons with rows, `hub standby` following it; the primary is
SIGKILLed; then the clock starts: Ctrl+C of `hub standby` (SIGTERM), `hub takeover`,
`hub serve` on the standby at the primary's address, until every station is connected
and every row is at the new hub. The stations' reconnect backoff (0.5 → 10 s) while no
hub answers is part of the figure.

    .venv/bin/python bench/takeover.py                   # 3 stations, 3 runs
    .venv/bin/python bench/takeover.py --stations 10 --runs 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import BIN, Hub, Station, free_port, running, wait_for


def one(folder: Path, stations_n: int, down_for: float) -> dict[str, float]:
    primary = Hub(folder / "primary", standby_port=free_port()).start()
    stations = [Station(folder / f"st{i}", primary, f"st{i}") for i in range(stations_n)]
    data = folder / "standby"
    data.mkdir()
    shutil.copyfile(primary.key_file, data / "tournament.key")
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data), "SAMOOBSLUHA_LANG": "en"}
    with running(primary, *stations):
        for i, st in enumerate(stations):
            st.enqueue(50, start=1000 * i)
            st.start()
        total = 50 * stations_n
        wait_for(lambda: primary.count() == total, 120, "rows at the primary")
        out = folder / "standby.out"
        with open(out, "wb") as fh:
            follower = subprocess.Popen(
                [str(BIN / "hub"), "standby", "--primary", f"127.0.0.1:{primary.standby_port}",
                 "--tournament", primary.tournament],
                env=env, stdout=fh, stderr=subprocess.STDOUT,
            )  # fmt: skip
            wait_for(lambda: f"station records: {total}".encode() in out.read_bytes(), 60, "copy")
            primary.kill()
            time.sleep(down_for)  # the referee notices and decides
            started = time.monotonic()
            follower.send_signal(signal.SIGTERM)
            follower.wait(10)
        subprocess.run([str(BIN / "hub"), "takeover"], env=env, check=True, capture_output=True)
        took_over = time.monotonic() - started
        successor = Hub(data, port=primary.port)
        with running(successor):
            successor.start()
            served = time.monotonic() - started

            def connected() -> bool:
                rows = json.loads(successor.ctl("stations", "--json"))
                return sum(1 for r in rows if r["connected"]) == stations_n

            wait_for(connected, 120, "every station connected to the successor")
            all_connected = time.monotonic() - started
            wait_for(lambda: successor.count() == total, 60, "every row")
            return {
                "takeover": took_over,
                "serving": served,
                "connected": all_connected,
                "rows": time.monotonic() - started,
            }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stations", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--down-for", type=float, default=2.0, help="s between kill and takeover")
    args = ap.parse_args()
    runs = []
    for n in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="takeover-") as tmp:
            r = one(Path(tmp), args.stations, args.down_for)
        runs.append(r)
        print(
            f"run {n + 1}: takeover done {r['takeover']:.2f} s, hub serving {r['serving']:.2f} s, "
            f"all {args.stations} stations connected {r['connected']:.2f} s, all rows "
            f"{r['rows']:.2f} s (from Ctrl+C of hub standby)",
            flush=True,
        )
    for key in ("takeover", "serving", "connected", "rows"):
        values = [r[key] for r in runs]
        print(f"{key}: max {max(values):.2f} s, median {statistics.median(values):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A station restarted mid-round while the hub is down: does it ring the rest of the round
with the others? (target: within the usual spread, <= 20 ms on a quiet machine)

Real processes on 127.0.0.1 (tests/net/net_procs.py ``restart_with_the_hub_down``): a hub
and N station daemons with clocks skewed by seconds; a round starts; after the start the
hub is SIGKILLed, then station 0 too, which is started again a second later with no hub. It
rings the warning and the end on the hub clock estimate it kept (station/sync.py). For each
signal: the spread of the instants the bells sounded (each station's own clock minus its
injected skew), with and without the restarted station, and the restarted station's error
against the plan.

    .venv/bin/python bench/restart_gong.py                    # 3 stations, 3 runs
    .venv/bin/python bench/restart_gong.py --stations 5 --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import restart_with_the_hub_down


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stations", type=int, default=3)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--basic", type=float, default=24.0, help="the round's basic time, s")
    ap.add_argument("--warning", type=float, default=12.0)
    args = ap.parse_args()
    skews = [4.0 * (-1) ** i * (i + 1) / args.stations for i in range(args.stations)]
    spreads: dict[str, list[float]] = {"warning": [], "end": []}
    others: dict[str, list[float]] = {"warning": [], "end": []}
    errors: list[float] = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="restart-gong-") as tmp:
            plan, rings, _ = restart_with_the_hub_down(
                Path(tmp), skews, basic=args.basic, warning=args.warning
            )
        due = {
            "warning": plan["start_at"] + args.basic - args.warning,
            "end": plan["start_at"] + args.basic,
        }
        for signal in ("warning", "end"):
            at = [
                next(r["local_time"] for r in own if r["signal"] == signal) - skews[i]
                for i, own in enumerate(rings)
            ]
            spreads[signal].append(max(at) - min(at))
            others[signal].append(max(at[1:]) - min(at[1:]))
            errors.append(at[0] - due[signal])
        print(
            f"run {run + 1}: spread warning {1000 * spreads['warning'][-1]:.1f} ms, "
            f"end {1000 * spreads['end'][-1]:.1f} ms (without the restarted station: "
            f"{1000 * others['warning'][-1]:.1f} / {1000 * others['end'][-1]:.1f} ms)",
            flush=True,
        )
    for signal in ("warning", "end"):
        print(
            f"{signal}: spread max {1000 * max(spreads[signal]):.1f} ms, median "
            f"{1000 * statistics.median(spreads[signal]):.1f} ms; the others alone max "
            f"{1000 * max(others[signal]):.1f} ms"
        )
    print(
        f"restarted station against the plan: worst {1000 * max(map(abs, errors)):.1f} ms, "
        f"median {1000 * statistics.median(errors):+.1f} ms ({args.stations} stations, "
        f"{args.runs} runs)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

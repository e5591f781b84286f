"""Kiosk speed: confirming key → verdict painted, and process start → idle screen ready.

    .venv/bin/python bench/kiosk.py [--lexicon FILE] [--runs 30]

Targets (issue 3): median confirm→verdict <= 50 ms; start→idle <= 1.5 s. Baselines
measured in the same run: the bare judge + SQLite commit (no UI) for the first, a bare
``python -c pass`` for the second; ratios are printed beside them. Without --lexicon the
default Czech lexicon is used (built once from hunspell-cs).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from shared.lexicon import Lexicon, ensure_default_lexicon  # noqa: E402
from shared.normalize import normalize_word  # noqa: E402
from station.app import KioskApp  # noqa: E402
from station.checks import KioskSettings  # noqa: E402
from station.log import KioskStore  # noqa: E402

PLAYS = [["kočka", "pes"], ["xyzq"], ["dům", "les", "máma"], ["nejkrásnější"]]


def baseline_commit(lexicon: Lexicon, db: Path, runs: int) -> float:
    store = KioskStore.open(db, "bench")
    times = []
    for i in range(runs):
        words = [normalize_word(w, lexicon.alphabet) for w in PLAYS[i % len(PLAYS)]]
        t0 = time.perf_counter()
        verdict = lexicon.judge(words)
        store.record_check(verdict, lexicon.info, table_no=1, round_no=1, at=time.time())
        times.append(time.perf_counter() - t0)
    store.close()
    return statistics.median(times)


async def confirm_to_verdict(lexicon: Lexicon, db: Path, runs: int) -> list[float]:
    store = KioskStore.open(db, "bench")
    app = KioskApp(lexicon=lexicon, store=store, settings=KioskSettings(min_interval=0))
    times = []
    async with app.run_test(size=(80, 24)) as pilot:
        for i in range(runs):
            play = PLAYS[i % len(PLAYS)]
            await pilot.press(*str(1 + i % 30), "enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press(str(len(play)), "enter")
            for word in play:
                await pilot.press(*word, "enter")
            app.verdict_painted_at = None
            t0 = time.monotonic()
            await pilot.press("f10")
            while app.verdict_painted_at is None:
                await asyncio.sleep(0.0005)
            times.append(app.verdict_painted_at - t0)
            await asyncio.sleep(0.55)  # past the 0.5 s lock
            await pilot.press("x")
            await pilot.pause()
    store.close()
    return times


STARTUP_CHILD = """
import sys, time
t0 = float(sys.argv[1])
from station.app import KioskApp
from station.commands.run import build_app
import argparse
class Bench(KioskApp):
    def on_ready(self):
        print(time.time() - t0, flush=True)
        self.exit()
args = argparse.Namespace(config=None, lexicon=sys.argv[2], lang="cs", headless=True)
app = build_app(args, app_class=Bench)
app.run(headless=True)
"""


def startup(lexicon_path: Path, data: Path, runs: int) -> tuple[list[float], list[float]]:
    env = dict(os.environ, SAMOOBSLUHA_DATA=str(data), PYTHONPATH=str(REPO))
    ready, bare = [], []
    for _ in range(runs):
        t0 = time.time()
        out = subprocess.run(
            [sys.executable, "-c", STARTUP_CHILD, str(t0), str(lexicon_path)],
            capture_output=True,
            text=True,
            env=env,
        )
        if out.returncode != 0:
            raise SystemExit(f"kiosk start failed:\n{out.stderr[-2000:]}")
        ready.append(float(out.stdout.strip().splitlines()[-1]))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - t0)
    return ready, bare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--start-runs", type=int, default=5)
    args = parser.parse_args()
    lexicon_path = (args.lexicon or ensure_default_lexicon("cs")).resolve()
    lexicon = Lexicon.open(lexicon_path)
    print(f"lexicon: {lexicon}")
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        base = baseline_commit(lexicon, tmpdir / "baseline.db", args.runs)
        times = asyncio.run(confirm_to_verdict(lexicon, tmpdir / "kiosk.db", args.runs))
        med = statistics.median(times)
        print(
            f"confirm -> verdict painted: median {med * 1000:.1f} ms, "
            f"max {max(times) * 1000:.1f} ms over {len(times)} checks (target <= 50 ms)"
        )
        print(
            f"  baseline judge + SQLite commit: median {base * 1000:.2f} ms "
            f"(UI path = {med / base:.1f}x baseline)"
        )
        ready, bare = startup(lexicon_path, tmpdir / "data", args.start_runs)
        med_ready, med_bare = statistics.median(ready), statistics.median(bare)
        print(
            f"process start -> idle screen ready: median {med_ready:.2f} s, "
            f"max {max(ready):.2f} s over {len(ready)} starts (target <= 1.5 s)"
        )
        print(
            f"  baseline python -c pass: median {med_bare:.3f} s "
            f"(kiosk = {med_ready / med_bare:.1f}x baseline)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

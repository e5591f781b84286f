"""How accurately does the station ring its signals? (target: p99 <= 5 ms)

Runs the real :class:`station.rounds.SignalRunner` on the real asyncio loop, the
machine's clock and a real SQLite file (WAL, synchronous=FULL, one transaction with an
outbox row per signal), over many short rounds, and measures *fired minus scheduled*
for every signal: the instant the gong is told to sound against the plan's instant.

Baseline, measured in the same run: a bare ``asyncio`` timer (``loop.call_at``) aimed
at the same kind of instants: the loop's own wake-up lateness, which the runner cannot
beat. The ``busy`` variants add a thread that burns CPU in Python (the kiosk rendering,
a lexicon lookup) and so competes for the GIL.

The ``kiosk busy`` variants run the real kiosk (:class:`station.app.KioskApp`, headless,
80×24) painting verdict screens back to back — a new verdict every frame, as if players
queued at the station while the round ends — and ring the signals either from the
kiosk's own asyncio loop (how ``station run`` used to) or from the
:class:`station.bell.BellThread` (own thread, own loop, SCHED_FIFO where permitted).

    .venv/bin/python bench/gong.py                 # 300 signals per variant
    .venv/bin/python bench/gong.py --signals 900
    .venv/bin/python bench/gong.py --only-kiosk    # just the kiosk-busy comparison
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from samoobsluha.shared.clock import SystemClock
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station.rounds import RoundSchedule, SignalRunner

SPACING = 0.1  # seconds between signals: each stands alone, as in a real hall


class Recorder:
    """A gong that notes when it was asked to sound (its first stroke)."""

    def __init__(self, clock: SystemClock) -> None:
        self.clock = clock
        self.fired: list[float] = []

    async def ring(self, name: str) -> None:
        self.fired.append(self.clock.now())


def percentiles(late_ms: list[float]) -> tuple[float, float, float]:
    q = statistics.quantiles(late_ms, n=100, method="inclusive")
    return statistics.median(late_ms), q[98], max(late_ms)


async def baseline(n: int, spacing: float) -> list[float]:
    """Lateness of plain loop timers aimed at wall-clock instants, in ms."""
    loop = asyncio.get_running_loop()
    late: list[float] = []
    done = asyncio.Event()
    t0 = time.time() + 0.2

    def fire(target: float) -> None:
        late.append((time.time() - target) * 1000)
        if len(late) == n:
            done.set()

    for i in range(n):
        target = t0 + i * spacing
        loop.call_at(loop.time() + (target - time.time()), fire, target)
    await done.wait()
    return late


RECORD_MS: list[float] = []


async def runner_run(n: int, spacing: float, db_path: Path) -> tuple[list[float], int]:
    clock = SystemClock()
    schedule = RoundSchedule.open(db_path, clock=clock)
    record = schedule.record

    def timed_record(*args: object) -> bool:
        t = time.perf_counter()
        try:
            return record(*args)  # type: ignore[arg-type]
        finally:
            RECORD_MS.append((time.perf_counter() - t) * 1000)

    schedule.record = timed_record  # type: ignore[method-assign]
    gong = Recorder(clock)
    runner = SignalRunner(schedule, clock, gong)
    task = asyncio.create_task(runner.run())
    rounds = n // 3
    # Far enough ahead that every plan is stored before the first signal (storing
    # costs an fsync each, and much more when a busy thread holds the GIL).
    t0 = clock.now() + 0.5 + 0.06 * rounds
    plans = []
    for i in range(rounds):
        # start, warning, end: spacing apart; rounds follow each other.
        start = t0 + i * 3 * spacing
        plan = RoundPlan(
            i + 1, start, basic_seconds=2 * spacing, warning_seconds=spacing, revision=0
        )
        plans.append(plan)
        schedule.apply(plan, source="local")
    last = plans[-1].end_at()
    while clock.now() < last + 0.5 and len(gong.fired) < rounds * 3:
        await asyncio.sleep(0.05)
    runner.stop()
    await task
    records = schedule.signals()
    schedule.close()
    missed = sum(r.outcome != "given" for r in records)
    return [r.late * 1000 for r in records if r.outcome == "given"], missed


def burn(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        for i in range(10_000):
            x += i * i


async def kiosk_busy(
    n: int, spacing: float, folder: Path, *, mode: str
) -> tuple[list[float], int, int]:
    """Signals rung while a real kiosk paints verdicts; returns (lateness ms, missed,
    verdict screens shown)."""
    from samoobsluha.shared.checks import KioskSettings
    from samoobsluha.shared.lexicon import Lexicon, write_lexicon
    from samoobsluha.shared.normalize import normalize_word
    from samoobsluha.station.app import KioskApp
    from samoobsluha.station.bell import BellThread
    from samoobsluha.station.log import KioskStore

    tag = mode
    lex_path = folder / "bench.lex"
    if not lex_path.exists():
        words = ["kočka", "pes", "dům", "les", "máma", "nejkrásnější"]
        write_lexicon(words, lex_path, language="cs", variant="BENCH", source="bench")
    lexicon = Lexicon.open(lex_path)
    store = KioskStore.open(folder / f"kiosk-{tag}.db", "bench")
    app = KioskApp(lexicon=lexicon, store=store, settings=KioskSettings(min_interval=0.0))
    plays = [["kočka", "pes"], ["xyzq"], ["dům", "les", "máma"]]
    verdicts = [lexicon.judge([normalize_word(w, lexicon.alphabet) for w in p]) for p in plays]
    record = store.record_check(verdicts[0], lexicon.info, table_no=7, round_no=1, at=time.time())

    clock = SystemClock()
    db_path = folder / f"rounds-{tag}.db"
    schedule = RoundSchedule.open(db_path, clock=clock)
    gong = Recorder(clock)
    shown = 0
    async with app.run_test(size=(80, 24)) as pilot:
        bell: BellThread | None = None
        if mode == "thread":
            bell = BellThread(lambda: RoundSchedule.open(db_path, clock=clock), clock, gong)
        if bell is not None:
            bell.start()
            schedule.add_listener(bell.wake)
            print(f"  bell {mode}: {bell.policy}")
        else:
            runner = SignalRunner(schedule, clock, gong)
            task = asyncio.create_task(runner.run())
        rounds = n // 3
        t0 = clock.now() + 1.0 + 0.06 * rounds
        last = 0.0
        for i in range(rounds):
            start = t0 + i * 3 * spacing
            plan = RoundPlan(
                i + 1, start, basic_seconds=2 * spacing, warning_seconds=spacing, revision=0
            )
            schedule.apply(plan, source="local")
            last = plan.end_at()
        while clock.now() < last + 0.5 and len(gong.fired) < rounds * 3:
            app.show_verdict(verdicts[shown % len(verdicts)], record, "first")
            shown += 1
            await pilot.pause()
            app.reset_to_idle()
            await pilot.pause()
        if bell is not None:
            bell.stop()
        else:
            runner.stop()
            await task
    records = schedule.signals()
    schedule.close()
    store.close()
    missed = sum(r.outcome != "given" for r in records)
    return [r.late * 1000 for r in records if r.outcome == "given"], missed, shown


def run_variant(
    name: str, n: int, spacing: float, busy: bool, folder: Path
) -> tuple[list[float], int]:
    stop = threading.Event()
    thread = threading.Thread(target=burn, args=(stop,), daemon=True)
    if busy:
        thread.start()
    try:
        if name == "baseline":
            return asyncio.run(baseline(n, spacing)), 0
        return asyncio.run(runner_run(n, spacing, folder / f"{name}-{busy}.db"))
    finally:
        stop.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--signals", type=int, default=300, help="per idle variant")
    parser.add_argument("--spacing", type=float, default=SPACING, help="seconds, idle")
    parser.add_argument("--busy-signals", type=int, default=150)
    parser.add_argument("--busy-spacing", type=float, default=0.15)
    parser.add_argument(
        "--switch-interval",
        type=float,
        help="sys.setswitchinterval() in seconds (Python's default is 0.005)",
    )
    parser.add_argument("--kiosk-signals", type=int, default=90, help="kiosk-busy variants")
    parser.add_argument("--only-kiosk", action="store_true", help="only the kiosk-busy variants")
    parser.add_argument(
        "--kiosk-modes",
        nargs="+",
        default=["loop", "thread"],
        choices=["loop", "thread"],
        help="where the runner runs while the kiosk is busy",
    )
    args = parser.parse_args()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    print(f"GIL switch interval {sys.getswitchinterval() * 1000:g} ms")
    print("lateness (fired minus scheduled) in ms")
    print(f"{'variant':<26}{'p50':>8}{'p99':>8}{'max':>8}   p99 / baseline p99")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if not args.only_kiosk:
            plain_variants(args, folder)
        n = args.kiosk_signals - args.kiosk_signals % 3
        print(f"-- kiosk busy: {n} signals, {args.busy_spacing * 1000:.0f} ms apart")
        base = None
        labels = {
            "loop": "runner in kiosk loop",
            "thread": "BellThread",
        }
        for mode in args.kiosk_modes:
            late, missed, shown = asyncio.run(kiosk_busy(n, args.busy_spacing, folder, mode=mode))
            stats = percentiles(late) if late else (float("nan"),) * 3
            label = labels[mode]
            ratio = ""
            if base is not None and stats[1] > 0:
                ratio = f"   {base / stats[1]:.1f}x better"
            base = stats[1] if base is None else base
            print(
                f"{label + ' (kiosk busy)':<34}{stats[0]:8.2f}{stats[1]:8.2f}{stats[2]:8.2f}"
                f"   {'OK' if stats[1] <= 5 else 'ABOVE TARGET'} (<= 5 ms)"
                + (f", {missed} missed" if missed else "")
                + f", {len(late)} given, {shown} verdict screens shown{ratio}"
            )


def plain_variants(args: argparse.Namespace, folder: Path) -> None:
    for busy in (False, True):
        n = args.busy_signals if busy else args.signals
        n -= n % 3
        spacing = args.busy_spacing if busy else args.spacing
        print(f"-- {n} signals, {spacing * 1000:.0f} ms apart")
        base = percentiles(run_variant("baseline", n, spacing, busy, folder)[0])
        late, missed = run_variant("runner", n, spacing, busy, folder)
        run = percentiles(late)
        label = " (busy thread)" if busy else ""
        print(f"{'asyncio timer' + label:<26}{base[0]:8.2f}{base[1]:8.2f}{base[2]:8.2f}")
        ratio = run[1] / base[1] if base[1] > 0 else float("inf")
        print(
            f"{'SignalRunner' + label:<26}{run[0]:8.2f}{run[1]:8.2f}{run[2]:8.2f}"
            f"   {ratio:.1f}x   {'OK' if run[1] <= 5 else 'ABOVE TARGET'} (<= 5 ms)"
            + (f", {missed} missed" if missed else "")
        )
        rec = percentiles(RECORD_MS)
        print(f"{'  record + fsync' + label:<26}{rec[0]:8.2f}{rec[1]:8.2f}{rec[2]:8.2f}")
        RECORD_MS.clear()


if __name__ == "__main__":
    main()

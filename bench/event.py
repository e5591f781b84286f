"""The director's end-of-event work on a big field: the prize list, the ruled tsh export and
its read-back, and the association's report, for 400 players and 9 rounds.

    .venv/bin/python bench/event.py [--players 400] [--rounds 9]

A tournament in a temporary hub data folder (sample names, ČAS rules, every 25th game a
forfeit ruled 200:0), three categories (juniors by birth date, women and seniors by hand)
and a prize table of 10 places and 3 prizes in each category. Prints the median of 5 runs of
each step.
"""

from __future__ import annotations

import argparse
import datetime
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from samoobsluha.hub.report import write_report
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.shared.clock import FakeClock


def median_ms(fn, runs: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=400)
    p.add_argument("--rounds", type=int, default=9)
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="samoobsluha-bench-event-"))
    try:
        svc = HubService(work, clock=FakeClock())
        svc.prepare()
        rnd = random.Random(37)
        with svc._tour() as tour:
            tour.configure(name="Bench", rules="cas", rounds=args.rounds)
            tour.import_players_csv(sample_csv(args.players, 2026))
            book = tour.prize_book
            book.define("junioři", born_from=datetime.date(2008, 1, 1))
            book.define("ženy")
            book.define("senioři")
            ids = [pl.id for pl in tour.players()]
            for i, pid in enumerate(ids):
                book.set_birth(pid, datetime.date(1950 + i % 60, 1 + i % 12, 1 + i % 28))
            book.assign("ženy", ids[::3])
            book.assign("senioři", ids[1::7])
            for rank in range(1, 11):
                book.add_prize("place", rank, f"{1100 - rank * 100} Kč")
            for cat in ("junioři", "ženy", "senioři"):
                for rank in (1, 2, 3):
                    book.add_prize("category", rank, f"{400 - rank * 100} Kč", category=cat)
            for r in range(1, args.rounds + 1):
                for n, b in enumerate(tour.pair(r, seed=r).boards):
                    if b.second is None:
                        continue
                    s1, s2 = rnd.randint(280, 560), rnd.randint(280, 560)
                    if n % 25 == 7:
                        tour.record_result(
                            r, b.table, b.first, b.second, s1, s2, b.first,
                            kind="forfeit", forfeited=b.second,
                        )  # fmt: skip
                    else:
                        tour.record_result(r, b.table, b.first, b.second, s1, s2, b.first)
                tour.publish(r)
            out = work / "export.t"
            figures = {
                "standings": median_ms(tour.standings),
                "prize list (standings included)": median_ms(tour.prize_list),
                "tsh export (ruled) + write": median_ms(lambda: tsh.write(tour.export_tsh(), out)),
            }

            def read_back() -> None:
                data = tsh.to_tournament(tsh.read(out))
                compute(data.players.values(), data.games, tour.rules)

            figures["tsh read-back + standings"] = median_ms(read_back)
            hall = [(s.player.id, s.wins, s.spread) for s in tour.standings()]
            data = tsh.to_tournament(tsh.read(out))
            again = compute(data.players.values(), data.games, tour.rules)
            assert [(s.player.id, s.wins, s.spread) for s in again] == hall
        figures["hub report (no PDF)"] = median_ms(
            lambda: write_report(svc, work / "report", lang="cs"), runs=3
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.players} players, {args.rounds} rounds (read-back standings identical)")
    for name, ms in figures.items():
        print(f"  {name:34} {ms:8.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the dashboard's reloads and fast entry cost on a big day.

A hub database with ``--players`` players (all checked in, round 1 paired) and
``--checks`` word checks from 10 stations spread over 9 rounds (stored by the server's own
ingest function), then, each the median of ``--repeat`` runs:

* the Challenges screen's data (``HubService.challenge_board``: log with appeals folded in,
  checks per table, SSS tallies) — against the baseline of only reading the same rows and
  decoding their JSON (what any log view must do at least);
* the Results screen's data (``round_results``) and the Stations screen's (``stations``);
* one fast-entry line (``enter_result``: checks, stores, recomputes the standings for the
  echo) — against the baseline of the engine's ``record_result`` alone.

The screens reload every 2 s, so a reload must stay well under that; fast entry should
feel instant to an operator typing scoresheets (target ≤ 0.2 s a line).

    .venv/bin/python bench/dashboard.py
    .venv/bin/python bench/dashboard.py --players 200 --checks 10000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.shared.storage import open_db


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build(folder: Path, players: int, checks: int, seed: int) -> HubService:
    svc = HubService(folder)
    with svc._tour() as tour:
        tour.configure(name="Bench", rules="sss", rounds=9)
        tour.import_players_csv(sample_csv(players, seed))
        for p in tour.players():
            tour.check_in(p.id)
        tour.pair(1, seed=seed)
    rnd = random.Random(seed)
    tables = players // 2
    now = time.time()
    batches = []
    for s in range(10):
        rows = []
        for seq in range(1, checks // 10 + 1):
            status = rnd.choice(("valid", "valid", "invalid", "referee"))
            payload = {
                "id": seq,
                "at": now - rnd.random() * 9 * 3600,
                "station_id": f"st-{s}",
                "table_no": rnd.randint(1, tables),
                "round_no": rnd.randint(1, 9),
                "instance": "first",
                "status": status,
                "words": ["SLOVO"],
                "canonical": ["slovo"],
                "failed": ["slovo"] if status == "invalid" else [],
                "too_long": ["SLOVO"] if status == "referee" else [],
                "refused_reason": None,
                "lexicon_sha256": "0" * 64,
                "lexicon_variant": "PLUS",
                "ui_language": "cs",
                "appeal_of": None,
                "note": "",
            }
            rows.append([seq, "challenge", json.dumps(payload), payload["at"]])
        batches.append((f"st-{s}", f"e{s}", rows))
    db = open_db(svc.db_path, sync_store.migrations)
    sync_store.ingest(db, batches, now)
    db.close()
    return svc


def raw_read(svc: HubService) -> int:
    db = open_db(svc.db_path, sync_store.migrations)
    try:
        rows = [
            json.loads(p)
            for (p,) in db.execute("SELECT payload FROM inbox WHERE kind = 'challenge'")
        ]
    finally:
        db.close()
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--checks", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        svc = build(Path(tmp), args.players, args.checks, args.seed)
        board = median_time(lambda: svc.challenge_board(), args.repeat)
        raw = median_time(lambda: raw_read(svc), args.repeat)
        results = median_time(lambda: svc.round_results(1), args.repeat)
        stations = median_time(lambda: svc.stations(), args.repeat)
        tables = args.players // 2
        entry_times, engine_times = [], []
        for table in range(1, min(tables, 2 * args.repeat) + 1, 2):
            start = time.perf_counter()
            svc.enter_result(1, Entry(table, 400, 350))
            entry_times.append(time.perf_counter() - start)
            with svc._tour() as tour:
                board_row = tour.pairing(1).boards[table]  # the next table
                start = time.perf_counter()
                tour.record_result(1, table + 1, board_row.first, board_row.second, 400, 350)
                engine_times.append(time.perf_counter() - start)
        entry, engine = statistics.median(entry_times), statistics.median(engine_times)
    print(f"players {args.players}, checks {args.checks}, median of {args.repeat}")
    print(f"{'measure':<38} {'seconds':>8}  {'baseline':>8}  ratio")
    print(
        f"{'challenges screen (log, per table, SSS)':<38} {board:8.3f}  {raw:8.3f}  "
        f"{board / raw:5.1f}x  (baseline: read + decode the rows)"
    )
    print(f"{'results screen (one round)':<38} {results:8.3f}")
    print(f"{'stations screen':<38} {stations:8.3f}")
    print(
        f"{'fast entry, one line with echo':<38} {entry:8.3f}  {engine:8.3f}  "
        f"{entry / engine:5.1f}x  (baseline: record_result alone)"
    )


if __name__ == "__main__":
    main()

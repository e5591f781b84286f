"""What telling a station the hub's word on its withdrawals costs: the hub's query
(``hub.store.withdrawal_decisions``) over a station's result rows, run when rows holding a
withdrawal arrive (before their ack) and at every connect of a station that withdrew
something; and the kiosk's F2 look-up of a table (``KioskStore.round_published`` and
``withdrawal_word``), which reads the two items the link stored.

    .venv/bin/python bench/withdraw.py [--rows 5000] [--runs 50]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from samoobsluha.hub import store
from samoobsluha.shared.payloads import ResultPayload
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox, sync
from samoobsluha.station.log import KioskStore, Result


def _median_ms(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def hub_side(folder: Path, n: int, runs: int) -> None:
    db = open_db(folder / "hub.db", store.migrations)
    rows = []
    for i in range(1, n + 1):
        record = {
            "station_id": "st-1", "round_no": 1 + i // 50, "table_no": i % 50 + 1,
            "first": "A", "second": "B", "score_first": 400, "score_second": 300,
            "started": "first", "entered_at": 1.0, "entered_by": "players", "revision": 1,
            "one_sided": False, "withdrawn": i % 500 == 0,
        }  # fmt: skip
        rows.append([i, "result", json.dumps(ResultPayload.from_dict(record).to_dict()), 1.0])
    store.ingest(db, [("st-1", "e1", rows)], 2.0)
    with db.atomic():  # what the tournament made of each (no tournament in this file)
        for i in range(1, n + 1):
            outcome = "withdraw_refused" if i % 500 == 0 else "entered"
            db.execute(
                "INSERT OR IGNORE INTO result_intake (key, at, outcome, error, round, table_no)"
                " VALUES (?, ?, ?, '', ?, ?)",
                [f"st-1/e1/{i}", 2.0, outcome, 1 + i // 50, i % 50 + 1],
            )
    found = len(store.withdrawal_decisions(db, "st-1"))
    ms = _median_ms(lambda: store.withdrawal_decisions(db, "st-1"), runs)
    print(f"hub: withdrawal_decisions over {n} result rows ({found} withdrawals): {ms:.2f} ms")
    db.close()


def kiosk_side(folder: Path, runs: int) -> None:
    kiosk = KioskStore.open(folder / "station.db", "st-1")
    sync.migrations.apply(kiosk.db)
    for t in range(1, 51):
        kiosk.store_result(Result(1, t, 400, 300, "first", "A", "B"), at=1000.0)
    kiosk.withdraw_result(1, 7, at=1001.0)
    seq = kiosk.db.execute("SELECT outbox_seq FROM results WHERE table_no = 7").fetchone()[0]
    epoch = outbox.meta(kiosk.db, "station_epoch")
    decisions = [{"epoch": epoch, "seq": seq, "round": 1, "table": 7, "outcome": "withdrawn"}]
    decisions += [
        {"epoch": epoch, "seq": 10_000 + i, "round": 1, "table": 1, "outcome": "withdrawn"}
        for i in range(199)
    ]
    sync._store_item(kiosk.db, "withdrawals", "w:1:x", {"decisions": decisions}, 0.0, 1)
    standings = {"round": 1, "columns": [], "rows": [], "published": [1]}
    sync._store_item(kiosk.db, "standings", "s:2000000:x", standings, 0.0, 2_000_000)

    def look_up() -> None:
        kiosk.round_published(1, 7)
        kiosk.withdrawal_word(1, 7)

    ms = _median_ms(look_up, runs)
    print(f"kiosk: F2 look-up's publication and hub's word (200 decisions): {ms:.3f} ms")
    kiosk.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hub_side(Path(tmp), args.rows, args.runs)
        kiosk_side(Path(tmp), args.runs)


if __name__ == "__main__":
    main()

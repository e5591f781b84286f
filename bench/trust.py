"""Receipts, re-judging and the lexicon diff at a tournament's scale (docs/benchmarks.md).

A hub database with CHECKS checks from 10 stations (real kiosk stores, each with its
receipt key, stored by the hub's own ingest), then:

* ``hub verify`` of the newest check's code and of a code that matches none (the worst
  case: every check recomputed), median of 5;
* ``rejudge`` of every check against the real Czech lexicon;
* ``diff`` of the real Czech lexicon against itself (both tries walked in full).

    .venv/bin/python bench/trust.py [CHECKS]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.receipts import find_receipt
from samoobsluha.hub.rejudge import diff, rejudge
from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.lexicon import Lexicon, ensure_default_lexicon
from samoobsluha.shared.protocol import HallKeys
from samoobsluha.shared.receipt import ReceiptKey
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.log import KioskStore

PLAYS = [["kůň"], ["žir(a)fa", "c+a-p"], ["xyzq"], ["rec(i)e"], ["strom", "les"]]


def main(checks: int) -> None:
    lexicon = Lexicon.open(ensure_default_lexicon("cs"))
    keys = HallKeys(bytes(range(32)))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        hub = open_db(folder / "hub.db", sync_store.migrations)
        last = ""
        for s in range(10):
            name = f"st-{s:02d}"
            store = KioskStore.open(folder / f"{name}.db", name)
            store.receipts = ReceiptKey.from_station_key(name, 1, keys.station_key(name, 1))
            for i in range(checks // 10):
                words = prepare_words(PLAYS[i % len(PLAYS)], lexicon.alphabet)
                record = store.record_check(
                    lexicon.judge(words),
                    lexicon.info,
                    table_no=1 + i % 30,
                    round_no=1 + i // 300,
                    at=1_767_258_000.0 + i,
                )
                last = record.receipt
            rows = outbox.pending(store.db)
            epoch = outbox.meta(store.db, "station_epoch")
            wire = [
                [r["seq"], r["kind"], json.dumps(r["payload"], ensure_ascii=False), r["created_at"]]
                for r in rows
            ]
            sync_store.ingest(hub, [(name, epoch, wire)], time.time())
            store.close()

        def timed(fn, runs: int = 5) -> float:  # type: ignore[no-untyped-def]
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                fn()
                times.append(time.perf_counter() - started)
            return statistics.median(times)

        found = timed(lambda: find_receipt(hub, keys, last))
        missing = timed(lambda: find_receipt(hub, keys, "00000-00000"))
        assert find_receipt(hub, keys, last) is not None
        again = timed(lambda: rejudge(hub, lexicon), runs=3)
        walked = timed(lambda: diff(lexicon, lexicon, 20), runs=1)
        hub.close()
    print(f"checks: {checks}")
    print(f"hub verify, newest check's code: {found * 1000:.0f} ms")
    print(f"hub verify, a code matching none: {missing * 1000:.0f} ms")
    print(f"rejudge every check (real cs lexicon): {again * 1000:.0f} ms")
    print(f"lexicon diff cs.lex cs.lex ({lexicon.info.words:,} forms each): {walked:.1f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)

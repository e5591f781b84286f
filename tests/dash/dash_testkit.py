"""Helpers for the dashboard tests: station records made by the real kiosk store, carried
to the hub with the hub's own ingest function."""

from __future__ import annotations

import json
from pathlib import Path

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.service import HubService
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.log import KioskStore


def station_store(folder: Path, name: str) -> KioskStore:
    return KioskStore.open(folder / f"{name}.db", name)


def deliver(service: HubService, store: KioskStore, now: float) -> int:
    """Carry a station's outbox to the hub exactly as the server stores it."""
    rows = outbox.pending(store.db)
    epoch = outbox.meta(store.db, "station_epoch")
    wire = [
        [r["seq"], r["kind"], json.dumps(r["payload"], ensure_ascii=False), r["created_at"]]
        for r in rows
    ]
    db = open_db(service.db_path, sync_store.migrations)
    try:
        sync_store.ingest(db, [(store.station_id, epoch, wire)], now)
    finally:
        db.close()
    return len(rows)


def check(
    store: KioskStore,
    lexicon: Lexicon,
    words: list[str],
    table: int,
    at: float,
    round_no: int | None = 1,
) -> str:
    from samoobsluha.shared.checks import prepare_words

    verdict = lexicon.judge(prepare_words(words, lexicon.alphabet))
    return store.record_check(
        verdict, lexicon.info, table_no=table, round_no=round_no, at=at
    ).status


async def settle(pilot: object) -> None:
    """Let every worker finish and every message it posted be handled."""
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(4):
        await pilot.pause()  # type: ignore[attr-defined]
        await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


def cells(table: object) -> list[list[str]]:
    """A DataTable's rows as plain text."""
    return [
        [str(c) for c in table.get_row_at(i)]  # type: ignore[attr-defined]
        for i in range(table.row_count)  # type: ignore[attr-defined]
    ]


def label_text(screen: object, selector: str) -> str:
    return str(screen.query_one(selector).render())  # type: ignore[attr-defined]


def publish_round_one(service: HubService, scores: tuple[int, int] = (400, 300)) -> float:
    """Every table of round 1 given ``scores``, the round published; when its protest
    window closes (the embargo of the results online, hub/publisher.py)."""
    with service._tour() as tour:
        for board in tour.pairing(1).boards:
            if board.second is not None:
                tour.record_result(1, board.table, board.first, board.second, *scores)
        assert tour.publish(1)
        closes = tour.book.protest_closes(1)
    assert closes is not None
    return closes

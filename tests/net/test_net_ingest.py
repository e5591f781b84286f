"""How the hub stores station rows (hub/store.py): multi-row statements within SQLite's
parameter limit, a fixed handful of statements per group commit however many stations
are in it (Python's sqlite3 gives up the GIL around every statement), the contiguous run
carried through rows stored earlier beyond it, and a station whose window is full sending
again as soon as the ack comes (not at its next poll)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from net_procs import check_payload, enqueue_checks, loopback_hub, start_sync, stop_sync
from testkit import until

from samoobsluha.hub import store
from samoobsluha.shared.protocol import new_psk
from samoobsluha.shared.storage import open_db
from samoobsluha.station import sync as station_sync

NOW = 1_767_225_600.0


def _rows(station: str, first: int, count: int) -> list[list[Any]]:
    return [
        [seq, "challenge", json.dumps(check_payload(seq, station), sort_keys=True), NOW]
        for seq in range(first, first + count)
    ]


@pytest.fixture
def hub_db(tmp_path: Path) -> Any:
    db = open_db(tmp_path / "hub.db", store.migrations)
    yield db
    db.close()


def _traced(db: Any) -> list[str]:
    statements: list[str] = []
    db.conn.set_trace_callback(statements.append)
    return statements


@pytest.mark.parametrize("limit", [999, 250_000])
def test_rows_go_in_as_multi_row_statements_within_the_parameter_limit(
    hub_db: Any, limit: int
) -> None:
    """SQLite before 3.32 allowed 999 parameters: a statement of more rows than fit would
    fail with "too many SQL variables"; a newer limit lets 1,024 rows go at once."""
    hub_db.conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, limit)
    statements = _traced(hub_db)
    rows = [("st", "e", seq, "challenge", "{}", NOW, NOW) for seq in range(1, 1501)]
    with hub_db.atomic():
        store.insert_inbox(hub_db, rows)
    inserts = [s for s in statements if s.startswith("INSERT OR IGNORE INTO inbox")]
    # 1500 = 1024 + 256 + 128 + 64 + 16 + 8 + 4; under 999 parameters, 142 rows at most
    assert len(inserts) == (7 if limit > 1024 * 7 else 15)
    got = [r[0] for r in hub_db.execute("SELECT seq FROM inbox ORDER BY seq")]
    assert got == list(range(1, 1501))
    # again: nothing changes, nothing fails
    with hub_db.atomic():
        store.insert_inbox(hub_db, rows)
    assert hub_db.execute("SELECT COUNT(*) FROM inbox").fetchone()[0] == 1500


def test_one_group_commit_runs_the_same_statements_for_one_station_or_ten(hub_db: Any) -> None:
    """Per-station statements cost the database thread a GIL hand-over each: the group
    commit's statements, other than the inbox inserts, do not grow with its stations."""

    def statements_for(names: list[str]) -> tuple[list[str], int]:
        received = [store.receive(name, "e", _rows(name, 1, 300), NOW) for name in names]
        statements = _traced(hub_db)
        acked = store.store_received(hub_db, received)
        hub_db.conn.set_trace_callback(None)
        assert acked == {(name, "e"): 300 for name in names}
        inserts = [s for s in statements if s.startswith("INSERT OR IGNORE INTO inbox")]
        return [s for s in statements if s not in inserts], len(inserts)

    one, one_inserts = statements_for(["solo"])
    ten, ten_inserts = statements_for([f"st{i}" for i in range(10)])
    # BEGIN, read progress, look for rows beyond, write progress, COMMIT
    assert len(ten) == len(one) == 5, ten
    # 300 = 256 + 32 + 8 + 4; 3000 = 2 x 1024 + 512 + 256 + 128 + 64 + 16 + 8
    assert (one_inserts, ten_inserts) == (4, 8)


def test_the_run_goes_on_through_rows_stored_beyond_it_and_stops_at_a_gap(hub_db: Any) -> None:
    """Two stations in one commit: one fills the hole before rows it sent earlier (its
    run jumps over them), the other still lacks a row (its run stops before the gap)."""
    assert store.ingest(hub_db, [("a", "e", _rows("a", 3, 2))], NOW) == {("a", "e"): 0}
    assert store.ingest(hub_db, [("b", "e", _rows("b", 4, 1))], NOW) == {("b", "e"): 0}
    acked = store.ingest(
        hub_db, [("a", "e", _rows("a", 1, 2)), ("b", "e", _rows("b", 1, 2))], NOW
    )
    assert acked == {("a", "e"): 4, ("b", "e"): 2}
    assert store.contiguous(hub_db, "a", "e") == 4
    assert store.contiguous(hub_db, "b", "e") == 2


async def test_a_full_window_sends_on_at_the_ack_not_at_the_next_poll(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A window of 2 rows and a poll that never comes: each ack alone must let the next
    rows go, or the station would sit out its poll interval for every window."""
    monkeypatch.setattr(station_sync, "WINDOW", 2)
    monkeypatch.setattr(station_sync, "BATCH", 2)
    monkeypatch.setattr(station_sync, "POLL_EVERY", 3600.0)
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        sync, task = await start_sync(hub, psk, tmp_path / "s.db", "s")
        await until(lambda: sync.status.connected)
        enqueue_checks(tmp_path / "s.db", "s", 12)
        sync.nudge()  # the one wake-up the kiosk gives; the rest must come from the acks
        await until(lambda: sync.status.acked_seq == 12, 30)
        assert len(hub.dbw.call(store.inbox_rows)) == 12
        await stop_sync(sync, task)

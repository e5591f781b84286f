"""The station's outbox: everything the hub must eventually receive, in order.

A row is written in the same transaction as the record it reports (a challenge-log
row, a result, a referee request), so it exists exactly when that record does. Rows are
keyed ``(station_id, station_epoch, seq)``: ``seq`` grows by one per row, and
``station_epoch`` is drawn at random when the database is created, so a re-imaged
station never looks like a duplicate of its former self. The network layer sends rows
after the hub's last acknowledged ``seq`` and never deletes them.
"""

from __future__ import annotations

import json
import secrets
import socket
import time
from typing import TYPE_CHECKING, Any

from samoobsluha.shared.storage import MigrationSet

if TYPE_CHECKING:
    import sqlite_utils


migrations = MigrationSet("station.outbox")


@migrations()
def m001_outbox(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("meta").insert_all(
        [
            {"key": "station_epoch", "value": secrets.token_hex(8)},
            {"key": "station_id", "value": socket.gethostname()},
        ]
    )
    db.table("outbox").create(
        {"seq": int, "kind": str, "payload": str, "created_at": float},
        pk="seq",
        not_null={"kind", "payload", "created_at"},
    )
    db.table("sync_state").create({"key": str, "value": int}, pk="key")
    db.table("sync_state").insert({"key": "acked_seq", "value": 0})


def meta(db: sqlite_utils.Database, key: str) -> str:
    row = db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    if row is None:
        raise KeyError(key)  # the row is written by m001_outbox
    return str(row[0])


def set_station_id(db: sqlite_utils.Database, station_id: str) -> None:
    db.execute(
        "INSERT INTO meta (key, value) VALUES ('station_id', ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [station_id],
    )


def enqueue(
    db: sqlite_utils.Database, kind: str, payload: dict[str, Any], *, at: float | None = None
) -> int:
    """Append one row; call inside the caller's ``db.atomic()`` block with the record it
    reports. Returns its ``seq``."""
    cursor = db.execute(
        "INSERT INTO outbox (kind, payload, created_at) VALUES (?, ?, ?)",
        [kind, json.dumps(payload, ensure_ascii=False, sort_keys=True), at or time.time()],
    )
    return int(cursor.lastrowid or 0)


def pending(db: sqlite_utils.Database, limit: int = 500) -> list[dict[str, Any]]:
    """Rows after the last acknowledged ``seq``, oldest first."""
    acked = acked_seq(db)
    rows = db.execute(
        "SELECT seq, kind, payload, created_at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
        [acked, limit],
    ).fetchall()
    return [
        {"seq": seq, "kind": kind, "payload": json.loads(payload), "created_at": created}
        for seq, kind, payload, created in rows
    ]


def acked_seq(db: sqlite_utils.Database) -> int:
    row = db.execute("SELECT value FROM sync_state WHERE key = 'acked_seq'").fetchone()
    if row is None:
        raise KeyError("acked_seq")  # the row is written by m001_outbox
    return int(row[0])


def acknowledge(db: sqlite_utils.Database, seq: int) -> None:
    """Record the hub's acknowledgement; never moves backwards."""
    with db.atomic():
        db.execute(
            "UPDATE sync_state SET value = MAX(value, ?) WHERE key = 'acked_seq'", [int(seq)]
        )


def backlog(db: sqlite_utils.Database) -> int:
    row = db.execute("SELECT COUNT(*) FROM outbox WHERE seq > ?", [acked_seq(db)]).fetchone()
    return int(row[0])

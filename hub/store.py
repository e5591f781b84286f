"""The hub's sync tables in ``hub.db`` (``Migrations("hub.sync")``).

``inbox``      every station outbox row, once: primary key (station_id, station_epoch,
               seq); ``kind`` is challenge / result / referee_request / signal …, payload
               is the station's JSON. Other hub features read their rows from here.
``progress``   highest contiguous seq stored per (station_id, station_epoch): what the hub
               acknowledges, always after the commit that stored it.
``stations``   last status each station reported (version, lexicon, clock offset …).
``round_plans`` newest :class:`~shared.rounds.RoundPlan` per round number.
``published``  what the hub shows/pushes to stations: config, pairings, standings, lexicon.
``deliveries`` which station confirmed which pushed item, and whether it applied it.

All functions take the database first so they can run on a :class:`~shared.dbworker.DbWorker`.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.rounds import RoundPlan

migrations = Migrations("hub.sync")

# Test hook (multi-process crash tests only): SIGKILL this process inside the ingest
# transaction once this many rows have been inserted since start, i.e. mid-commit.
KILL_IN_COMMIT_ENV = "SAMOOBSLUHA_TEST_KILL_IN_COMMIT"


@migrations()
def m001_sync(db: sqlite_utils.Database) -> None:
    db.table("hub_meta").create({"key": str, "value": str}, pk="key")
    db.table("inbox").create(
        {
            "station_id": str,
            "station_epoch": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "created_at": float,
            "received_at": float,
        },
        pk=("station_id", "station_epoch", "seq"),
        not_null={"kind", "payload"},
    )
    db.table("inbox").create_index(["kind"])
    db.table("progress").create(
        {"station_id": str, "station_epoch": str, "contiguous": int},
        pk=("station_id", "station_epoch"),
    )
    db.table("stations").create(
        {
            "station_id": str,
            "station_epoch": str,
            "address": str,
            "first_seen": float,
            "last_seen": float,
            "status": str,
        },
        pk="station_id",
    )
    db.table("round_plans").create(
        {"number": int, "revision": int, "plan": str, "updated_at": float}, pk="number"
    )
    db.table("published").create(
        {"kind": str, "item_id": str, "data": str, "updated_at": float}, pk="kind"
    )
    db.table("deliveries").create(
        {"item_id": str, "station_id": str, "ok": int, "detail": str, "at": float},
        pk=("item_id", "station_id"),
    )


def db_path() -> Path:
    return data_dir() / "hub.db"


def key_path() -> Path:
    return data_dir() / "tournament.key"


# -- identity -----------------------------------------------------------------------------


def get_meta(db: sqlite_utils.Database, key: str) -> str | None:
    row = db.execute("SELECT value FROM hub_meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def ensure_identity(db: sqlite_utils.Database) -> tuple[str, str, bool]:
    """(tournament_id, hub_id, created): created on the first run."""
    created = False
    with db.atomic():
        tournament = get_meta(db, "tournament_id")
        if tournament is None:
            tournament = "t-" + secrets.token_hex(4)
            db.table("hub_meta").insert({"key": "tournament_id", "value": tournament})
            created = True
        hub = get_meta(db, "hub_id")
        if hub is None:
            hub = f"{socket.gethostname()}-{secrets.token_hex(3)}"
            db.table("hub_meta").insert({"key": "hub_id", "value": hub})
    return tournament, hub, created


def ensure_key(path: Path) -> tuple[bytes, bool]:
    """Read the tournament key, creating it (mode 0600) if missing."""
    from samoobsluha.shared.protocol import new_psk, parse_psk

    if path.exists():
        return parse_psk(path.read_text()), False
    path.parent.mkdir(parents=True, exist_ok=True)
    key = new_psk()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key.hex() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return key, True


# -- ingest -------------------------------------------------------------------------------

_inserted_since_start = 0


def ingest(
    db: sqlite_utils.Database,
    batches: list[tuple[str, str, list[dict[str, Any]]]],
    now: float,
) -> dict[tuple[str, str], int]:
    """Store rows of several (station_id, epoch, rows) batches in ONE transaction and
    return the new contiguous seq per (station_id, epoch). Rows already stored are
    ignored, so a resend after a lost ack changes nothing."""
    global _inserted_since_start
    kill_at = int(os.environ.get(KILL_IN_COMMIT_ENV) or 0)
    result: dict[tuple[str, str], int] = {}
    with db.atomic():
        for station, epoch, rows in batches:
            db.conn.executemany(
                "INSERT OR IGNORE INTO inbox (station_id, station_epoch, seq, kind, payload,"
                " created_at, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (station, epoch, seq, kind, payload, created, now)
                    for seq, kind, payload, created in rows
                ],
            )
            _inserted_since_start += len(rows)
            if kill_at and _inserted_since_start >= kill_at:
                os.kill(os.getpid(), signal.SIGKILL)  # pragma: no cover - test hook
            result[(station, epoch)] = _advance(db, station, epoch, rows)
    return result


def _advance(
    db: sqlite_utils.Database, station: str, epoch: str, rows: Sequence[Any] | None = None
) -> int:
    row = db.execute(
        "SELECT contiguous FROM progress WHERE station_id = ? AND station_epoch = ?",
        [station, epoch],
    ).fetchone()
    current = row[0] if row else 0
    start = current
    # the usual case: the batch continues the contiguous run, no need to read it back
    if rows and rows[0][0] <= current + 1 <= rows[-1][0] + 1:
        seqs = [r[0] for r in rows]
        if seqs == list(range(seqs[0], seqs[0] + len(seqs))):
            current = max(current, seqs[-1])
    for (seq,) in db.execute(
        "SELECT seq FROM inbox WHERE station_id = ? AND station_epoch = ? AND seq > ? ORDER BY seq",
        [station, epoch, current],
    ):
        if seq != current + 1:
            break
        current = seq
    if row is None or current != start:
        db.execute(
            "INSERT INTO progress (station_id, station_epoch, contiguous) VALUES (?, ?, ?)"
            " ON CONFLICT (station_id, station_epoch) DO UPDATE SET contiguous = excluded."
            "contiguous",
            [station, epoch, current],
        )
    return current


def contiguous(db: sqlite_utils.Database, station: str, epoch: str) -> int:
    row = db.execute(
        "SELECT contiguous FROM progress WHERE station_id = ? AND station_epoch = ?",
        [station, epoch],
    ).fetchone()
    return int(row[0]) if row else 0


def inbox_rows(db: sqlite_utils.Database, kind: str | None = None) -> list[dict[str, Any]]:
    sql = "SELECT station_id, station_epoch, seq, kind, payload, created_at, received_at FROM inbox"
    args: list[Any] = []
    if kind:
        sql += " WHERE kind = ?"
        args.append(kind)
    out = []
    for sid, epoch, seq, k, payload, created, received in db.execute(
        sql + " ORDER BY station_id, seq", args
    ):
        out.append(
            {
                "station_id": sid,
                "station_epoch": epoch,
                "seq": seq,
                "kind": k,
                "payload": json.loads(payload),
                "created_at": created,
                "received_at": received,
            }
        )
    return out


# -- stations -----------------------------------------------------------------------------


def save_status(
    db: sqlite_utils.Database,
    station: str,
    epoch: str,
    address: str,
    status: dict[str, Any],
    now: float,
) -> None:
    with db.atomic():
        db.execute(
            "INSERT INTO stations (station_id, station_epoch, address, first_seen, last_seen,"
            " status) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (station_id) DO UPDATE SET"
            " station_epoch = excluded.station_epoch, address = excluded.address,"
            " last_seen = excluded.last_seen, status = excluded.status",
            [station, epoch, address, now, now, json.dumps(status, ensure_ascii=False)],
        )


def load_stations(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    out = []
    for sid, epoch, address, first, last, status in db.execute(
        "SELECT station_id, station_epoch, address, first_seen, last_seen, status"
        " FROM stations ORDER BY station_id"
    ):
        out.append(
            {
                "station_id": sid,
                "station_epoch": epoch,
                "address": address,
                "first_seen": first,
                "last_seen": last,
                "status": json.loads(status or "{}"),
                "contiguous": contiguous(db, sid, epoch),
            }
        )
    return out


# -- rounds and published items -----------------------------------------------------------


def save_plan(db: sqlite_utils.Database, plan: RoundPlan, now: float) -> None:
    with db.atomic():
        db.table("round_plans").upsert(
            {
                "number": plan.number,
                "revision": plan.revision,
                "plan": json.dumps(plan.to_dict()),
                "updated_at": now,
            },
            pk="number",
        )


def load_plan(db: sqlite_utils.Database, number: int) -> RoundPlan | None:
    row = db.execute("SELECT plan FROM round_plans WHERE number = ?", [number]).fetchone()
    return RoundPlan.from_dict(json.loads(row[0])) if row else None


def load_plans(db: sqlite_utils.Database) -> list[RoundPlan]:
    return [
        RoundPlan.from_dict(json.loads(p))
        for (p,) in db.execute("SELECT plan FROM round_plans ORDER BY number")
    ]


def save_published(
    db: sqlite_utils.Database, kind: str, item_id: str, data: Any, now: float
) -> None:
    with db.atomic():
        db.table("published").upsert(
            {"kind": kind, "item_id": item_id, "data": json.dumps(data), "updated_at": now},
            pk="kind",
        )


def load_published(db: sqlite_utils.Database) -> dict[str, tuple[str, Any]]:
    return {
        kind: (item_id, json.loads(data))
        for kind, item_id, data in db.execute("SELECT kind, item_id, data FROM published")
    }


def save_delivery(
    db: sqlite_utils.Database, item_id: str, station: str, ok: bool, detail: str, now: float
) -> None:
    with db.atomic():
        db.table("deliveries").upsert(
            {"item_id": item_id, "station_id": station, "ok": int(ok), "detail": detail, "at": now},
            pk=("item_id", "station_id"),
        )


def load_deliveries(db: sqlite_utils.Database, item_id: str) -> dict[str, dict[str, Any]]:
    return {
        sid: {"ok": bool(ok), "detail": detail, "at": at}
        for sid, ok, detail, at in db.execute(
            "SELECT station_id, ok, detail, at FROM deliveries WHERE item_id = ?", [item_id]
        )
    }

"""SQLite as both sides use it: one file per station or hub, opened the same way.

Durability is the point: a challenge or a result is shown as done only after its
transaction has committed, and with ``journal_mode=WAL`` plus ``synchronous=FULL`` a
commit survives a killed process or a pulled plug.

Each feature keeps its schema in its own :class:`sqlite_utils.migrations.Migrations` set
(``Migrations("station.log")``, ``Migrations("hub.results")`` …) and applies it when it
opens the database, so tables never exist without a migration.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils
from sqlite_utils.migrations import Migrations


def open_db(
    path: Path | str, *migration_sets: Migrations, check_same_thread: bool = True
) -> sqlite_utils.Database:
    """Open (creating if needed) the database at ``path`` and apply ``migration_sets``.

    ``check_same_thread=False`` lets worker threads share the connection; the caller then
    serialises access itself (e.g. with a lock)."""
    path = Path(path)
    if str(path) != ":memory:":
        path.parent.mkdir(parents=True, exist_ok=True)
    if check_same_thread:
        db = sqlite_utils.Database(path)
    else:
        db = sqlite_utils.Database(sqlite3.connect(str(path), check_same_thread=False))
    conn = db.conn
    conn.execute("PRAGMA busy_timeout = 5000")
    if str(path) != ":memory:":
        db.enable_wal()
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")
    for migrations in migration_sets:
        migrations.apply(db)
    return db

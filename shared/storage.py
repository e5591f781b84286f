"""SQLite as both sides use it: one file per station or hub, opened the same way.

Durability is the point: a challenge or a result is shown as done only after its
transaction has committed, and with ``journal_mode=WAL`` plus ``synchronous=FULL`` a
commit survives a killed process or a pulled plug.

Each feature keeps its schema in its own :class:`sqlite_utils.migrations.Migrations` set
(``Migrations("station.log")``, ``Migrations("hub.results")`` …) and applies it when it
opens the database, so tables never exist without a migration.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import sqlite_utils
from sqlite_utils.migrations import Migrations


class Database(sqlite_utils.Database):
    """sqlite-utils' Database whose outermost ``atomic()`` block takes the write lock at
    its start (``BEGIN IMMEDIATE``). A deferred transaction that reads and then writes
    fails at once with "database is locked" when another connection wrote in between,
    without waiting; an immediate one waits its turn (``busy_timeout``) instead. Every
    writer here — kiosk, gong, sync, hub — shares files with another thread or process."""

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        if self.conn.in_transaction:
            with super().atomic():
                yield self
            return
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        else:
            try:
                self.conn.execute("COMMIT")
            except BaseException:
                self.rollback()
                raise


def open_db(path: Path | str, *migration_sets: Migrations, threads: bool = False) -> Database:
    """Open (creating if needed) the database at ``path`` and apply ``migration_sets``.

    The one way this project opens SQLite (ruff bans ``sqlite3.connect`` elsewhere).
    ``threads=True`` lets several threads use the connection; the caller serialises them
    (the kiosk's store holds a lock around every use).

    sqlite-utils plugins are not loaded: no installed package adds SQL functions to our
    connections, and the first connection does not scan every installed distribution's
    entry points (importlib.metadata) — part of a kiosk's start-up on a Raspberry Pi."""
    path = Path(path)
    memory = str(path) == ":memory:"
    if not memory:
        path.parent.mkdir(parents=True, exist_ok=True)
    db = Database(
        sqlite3.connect(str(path), check_same_thread=not threads),  # noqa: TID251
        execute_plugins=False,
    )
    _configure(db)
    if memory:
        for migrations in migration_sets:
            migrations.apply(db)
        return db
    # Two processes opening a fresh file at once (the kiosk and the daemon after a
    # reboot) would both try to create the tables; SQLite answers one of them "database
    # is locked" at once rather than waiting. Schema work is serialised with a lock file.
    with open(path.with_name(path.name + ".migrate-lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            db.enable_wal()
            for migrations in migration_sets:
                migrations.apply(db)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return db


def open_watch(path: Path | str) -> sqlite3.Connection:
    """A read-only connection to an existing database for watching it change (``PRAGMA
    data_version``); usable from any thread. Writers use :func:`open_db`."""
    conn = sqlite3.connect(  # noqa: TID251
        f"file:{Path(path)}?mode=ro", uri=True, check_same_thread=False
    )
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


def _configure(db: sqlite_utils.Database) -> None:
    conn = db.conn
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA foreign_keys = ON")


class NotADatabase(ValueError):
    """A file that SQLite cannot read as a whole, consistent database (truncated, damaged,
    not a database at all); the message is SQLite's own reason."""


def snapshot_into(
    source: sqlite3.Connection,
    target: Path | str,
    then: Callable[[sqlite3.Connection], None] | None = None,
) -> None:
    """Copy the database behind ``source`` into a new file ``target`` with SQLite's online
    backup API: one consistent snapshot, even while other connections write (WAL), never a
    file copy that could catch a page half written. ``target`` is synced to disk before
    this returns and is left in rollback-journal mode, a single self-contained file.
    ``then`` may write to the copy (not to the source) before it is synced."""
    target = Path(target)
    dest = sqlite3.connect(str(target))  # noqa: TID251 - a plain file written once, here
    try:
        source.backup(dest)
        dest.execute("PRAGMA journal_mode = DELETE")
        if then is not None:
            with dest:
                then(dest)
        dest.commit()
    finally:
        dest.close()
    with open(target, "rb+") as fh:
        os.fsync(fh.fileno())


def check_file(path: Path | str) -> sqlite3.Connection:
    """A read-only connection to the database file at ``path`` once SQLite's
    ``integrity_check`` has read every page of it; :class:`NotADatabase` otherwise."""
    path = Path(path)
    if not path.is_file():
        raise NotADatabase("no such file")
    try:
        conn = sqlite3.connect(  # noqa: TID251 - read-only, checked before anything else
            f"file:{path}?mode=ro", uri=True
        )
    except sqlite3.Error as exc:
        raise NotADatabase(str(exc)) from None
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as exc:
        conn.close()
        raise NotADatabase(str(exc)) from None
    if rows != [("ok",)]:
        conn.close()
        raise NotADatabase("; ".join(str(r[0]) for r in rows[:3]))
    return conn

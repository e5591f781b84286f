"""SQLite as both sides use it: one file per station or hub, opened the same way.

Durability is the point: a challenge or a result is shown as done only after its
transaction has committed, and with ``journal_mode=WAL`` plus ``synchronous=FULL`` a
commit survives a killed process or a pulled plug.

Each feature keeps its schema in its own migration set — sqlite-utils'
:class:`~sqlite_utils.migrations.Migrations` (``Migrations("hub.results")`` …) or, for
the modules on the kiosk's way to its idle screen, a :class:`MigrationSet` with the same
decorator (``MigrationSet("station.log")``) — and applies it when it opens the database,
so tables never exist without a migration.

**sqlite-utils only when it is used.** Importing sqlite-utils (its 5,500-line ``db``
module, pluggy, click) was about a sixth of the kiosk's CPU time to its idle screen, for
a start that only reads a few rows with plain SQL. So this module does not import it:
:class:`Database` (the sqlite-utils subclass) is loaded at its first mention
(``storage.Database``, ``from … import Database``); :func:`open_db` checks each migration
set against ``_sqlite_migrations`` with one plain query and imports sqlite-utils only if
one has something to apply; and ``open_db(…, lazy=True)`` (the kiosk's store and round
schedule) returns a :class:`LazyDatabase`, whose ``execute``, ``query``, ``atomic`` and
``table_names`` are sqlite3 calls with sqlite-utils' own semantics and whose every other
attribute (``table()``, ``db[name]`` …) is a full :class:`Database` on the same
connection, built at its first use. The station's runtime builds it on a thread a second
after the kiosk's first paint (station/runtime.py), so no result waits for the import.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import sqlite_utils
    from sqlite_utils.migrations import Migrations

    from samoobsluha.shared._utilsdb import Database

    _LazyBase = Database
else:
    _LazyBase = object

_F = TypeVar("_F", bound=Callable[..., None])

MIGRATIONS_TABLE = "_sqlite_migrations"  # sqlite-utils' Migrations.migrations_table


def __getattr__(name: str) -> Any:
    """``Database`` (the sqlite-utils subclass) is defined where sqlite-utils is imported,
    at its first mention (``from samoobsluha.shared.storage import Database``)."""
    if name == "Database":
        from samoobsluha.shared._utilsdb import Database

        return Database
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class MigrationSet:
    """A set of migrations registered as with sqlite-utils' ``Migrations`` (the same
    ``@migrations()`` decorator, names, order, ``transactional``), whose names are known
    without importing sqlite-utils: applying it costs one plain query when nothing is
    pending. The real ``Migrations`` is built the first time something is to be applied
    (or ``pending``/``applied`` is asked)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._registered: list[tuple[str, Callable[..., None], bool]] = []
        self._real: Migrations | None = None

    def __call__(
        self, *, name: str | None = None, transactional: bool = True
    ) -> Callable[[_F], _F]:
        def inner(func: _F) -> _F:
            migration_name = name or func.__name__
            if migration_name in self.names:
                raise ValueError(
                    f"Migration '{migration_name}' is already registered in set '{self.name}'"
                )
            self._registered.append((migration_name, func, transactional))
            self._real = None
            return func

        return inner

    @property
    def names(self) -> list[str]:
        return [name for name, _fn, _tx in self._registered]

    def real(self) -> Migrations:
        """sqlite-utils' ``Migrations`` with the same migrations (imports sqlite-utils)."""
        if self._real is None:
            from sqlite_utils.migrations import Migrations

            real = Migrations(self.name)
            for name, fn, transactional in self._registered:
                real(name=name, transactional=transactional)(fn)
            self._real = real
        return self._real

    def apply(self, db: sqlite_utils.Database, *, stop_before: Any = None) -> None:
        if stop_before is None and not pending_sets(db.conn, [self]):
            return  # the schema is current: nothing imported, nothing written
        self.real().apply(full_database(db), stop_before=stop_before)

    def pending(self, db: sqlite_utils.Database) -> list[Any]:
        return self.real().pending(full_database(db))

    def applied(self, db: sqlite_utils.Database) -> list[Any]:
        return self.real().applied(full_database(db))

    def __repr__(self) -> str:
        return f"<MigrationSet '{self.name}': [{', '.join(self.names)}]>"


if TYPE_CHECKING:
    MigrationsLike = Migrations | MigrationSet  # what open_db applies


def _set_names(migrations: MigrationsLike) -> list[str]:
    if isinstance(migrations, MigrationSet):
        return migrations.names
    return [m.name for m in migrations._migrations]


def pending_sets(
    conn: sqlite3.Connection, migration_sets: Iterable[MigrationsLike]
) -> list[MigrationsLike]:
    """The sets with a migration not yet recorded in ``_sqlite_migrations`` — all of them
    when that table is missing or not the shape sqlite-utils keeps it in (its ``id``
    primary key), so that applying them is then exactly sqlite-utils' own work. Plain
    SQL: nothing is imported."""
    sets = list(migration_sets)
    if not sets:
        return []
    columns = conn.execute(f"PRAGMA table_info({MIGRATIONS_TABLE})").fetchall()
    if [row[1] for row in columns if row[5]] != ["id"]:
        return sets
    rows = conn.execute(f"SELECT migration_set, name FROM {MIGRATIONS_TABLE}").fetchall()
    applied: dict[str, set[str]] = {}
    for set_name, name in rows:
        applied.setdefault(set_name, set()).add(name)
    return [s for s in sets if not set(_set_names(s)) <= applied.get(s.name, set())]


def full_database(db: sqlite_utils.Database) -> sqlite_utils.Database:
    """The sqlite-utils database behind ``db`` (itself, unless it is a lazy one)."""
    if isinstance(db, LazyDatabase):
        return db.full()
    return db


def _first_keyword(sql: str) -> str:
    """The first keyword of ``sql``, uppercased, after whitespace, comments, bare ``;`` and
    a byte order mark (as sqlite-utils 4 reads it)."""
    i, n = 0, len(sql)
    while i < n:
        if sql[i].isspace() or sql[i] in (";", "\ufeff"):
            i += 1
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            if newline == -1:
                return ""
            i = newline + 1
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            if end == -1:
                return ""
            i = end + 2
        else:
            break
    j = i
    while j < n and (sql[j].isalpha() or sql[j] == "_"):
        j += 1
    return sql[i:j].upper()


_TRANSACTION_CONTROL = {"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"}


@contextlib.contextmanager
def immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """The outermost transaction of both databases this module opens (the lazy one and
    sqlite-utils' in shared/_utilsdb.py): the write lock taken at its start (``BEGIN
    IMMEDIATE``, waiting its turn for ``busy_timeout``), committed at its end, rolled back
    on any error, a failed COMMIT included."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    else:
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


class LazyDatabase(_LazyBase):
    """A station database whose sqlite-utils side is built at its first use.

    ``execute``, ``query`` (plain ``SELECT``/``WITH``), ``atomic``, ``rollback``,
    ``table_names``, ``enable_wal`` and ``close`` are done here with sqlite3, as
    sqlite-utils 4 does them (a write outside a transaction commits at once; an outermost
    ``atomic()`` takes the write lock at its start, ``BEGIN IMMEDIATE``; a nested one is
    sqlite-utils' savepoint). Everything else — ``table()``, ``db[name]``, ``transform``,
    a query sqlite-utils guards differently — is :meth:`full`, the :class:`Database` on
    the same connection (imported and built once, from any thread)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._full: Database | None = None
        self._full_lock = threading.Lock()
        conn.execute("PRAGMA recursive_triggers=on;")  # as sqlite-utils' Database does

    def full(self) -> Database:
        """The sqlite-utils :class:`Database` on this connection (imports sqlite-utils)."""
        with self._full_lock:
            if self._full is None:
                from samoobsluha.shared._utilsdb import Database

                self._full = Database(self.conn, recursive_triggers=False, execute_plugins=False)
            return self._full

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("conn", "_full", "_full_lock"):
            raise AttributeError(name)
        return getattr(self.full(), name)

    def __getitem__(self, table_name: str) -> Any:
        return self.full()[table_name]

    def execute(
        self, sql: str, parameters: Sequence[Any] | dict[str, Any] | None = None
    ) -> sqlite3.Cursor:
        conn = self.conn
        was_in_transaction = conn.in_transaction
        try:
            cursor = conn.execute(sql) if parameters is None else conn.execute(sql, parameters)
        except Exception:
            if not was_in_transaction and conn.in_transaction:
                conn.execute("ROLLBACK")  # the failed statement's implicit transaction
            raise
        if (
            not was_in_transaction
            and conn.in_transaction
            and cursor.description is None
            and _first_keyword(sql) not in _TRANSACTION_CONTROL
        ):
            conn.execute("COMMIT")  # a write outside a transaction commits at once
        return cursor

    def query(
        self, sql: str, params: Sequence[Any] | dict[str, Any] | None = None
    ) -> Generator[dict[str, Any], None, None]:
        if _first_keyword(sql) not in ("SELECT", "WITH"):
            return self.full().query(sql, params)  # sqlite-utils' guards for the rest
        cursor = self.conn.execute(sql) if params is None else self.conn.execute(sql, params)
        if cursor.description is None:  # pragma: no cover - a SELECT returns rows
            return self.full().query(sql, params)
        keys = [d[0] for d in cursor.description]
        if len(set(keys)) != len(keys):  # sqlite-utils renames duplicate columns
            return self.full().query(sql, params)
        return (dict(zip(keys, row, strict=True)) for row in cursor)

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        if self.conn.in_transaction:
            with self.full().atomic() as db:
                yield db
            return
        with immediate(self.conn):
            yield self

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def table_names(self, fts4: bool = False, fts5: bool = False) -> list[str]:
        if fts4 or fts5:
            return self.full().table_names(fts4=fts4, fts5=fts5)
        return [
            r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]

    def enable_wal(self) -> None:
        if self.conn.execute("PRAGMA journal_mode;").fetchone()[0] != "wal":
            if self.conn.in_transaction:
                self.full().enable_wal()  # sqlite-utils' error for an open transaction
                return
            self.conn.execute("PRAGMA journal_mode=wal;")

    def close(self) -> None:
        self.conn.close()


def open_db(
    path: Path | str,
    *migration_sets: MigrationsLike,
    threads: bool = False,
    lazy: bool = False,
) -> Database:
    """Open (creating if needed) the database at ``path`` and apply ``migration_sets``.

    The one way this project opens SQLite (ruff bans ``sqlite3.connect`` elsewhere).
    ``threads=True`` lets several threads use the connection; the caller serialises them
    (the kiosk's store holds a lock around every use). ``lazy=True``: a
    :class:`LazyDatabase`, sqlite-utils imported only once something needs it (the
    kiosk's start); else the sqlite-utils :class:`Database` itself.

    Sets whose every migration is recorded cost one plain query together, and nothing
    is imported for them; the rest are applied by sqlite-utils as always.

    sqlite-utils plugins are not loaded: no installed package adds SQL functions to our
    connections, and the first connection does not scan every installed distribution's
    entry points (importlib.metadata) — part of a kiosk's start-up on a Raspberry Pi."""
    path = Path(path)
    memory = str(path) == ":memory:"
    if not memory:
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=not threads)  # noqa: TID251
    db: Database
    if lazy:
        db = LazyDatabase(conn)
    else:
        from samoobsluha.shared._utilsdb import Database

        db = Database(conn, execute_plugins=False)
    _configure(conn)
    if memory:
        for migrations in pending_sets(conn, migration_sets):
            migrations.apply(full_database(db))
        return db
    # Two processes opening a fresh file at once (the kiosk and the daemon after a
    # reboot) would both try to create the tables; SQLite answers one of them "database
    # is locked" at once rather than waiting. Schema work is serialised with a lock file.
    with open(path.with_name(path.name + ".migrate-lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            db.enable_wal()
            for migrations in pending_sets(conn, migration_sets):
                migrations.apply(full_database(db))
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


def _configure(conn: sqlite3.Connection) -> None:
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
    from samoobsluha.shared.i18n import Phrase

    path = Path(path)
    if not path.is_file():
        raise NotADatabase(Phrase("err.os.EISDIR" if path.is_dir() else "err.os.ENOENT"))
    try:
        conn = sqlite3.connect(  # noqa: TID251 - read-only, checked before anything else
            f"file:{path}?mode=ro", uri=True
        )
    except sqlite3.Error as exc:
        raise NotADatabase(_sqlite_reason(exc)) from None
    try:
        rows = conn.execute("PRAGMA integrity_check").fetchall()
    except sqlite3.Error as exc:
        conn.close()
        raise NotADatabase(_sqlite_reason(exc)) from None
    if rows != [("ok",)]:
        conn.close()
        detail = "; ".join(str(r[0]) for r in rows[:3])  # SQLite's own words: for the log
        raise NotADatabase(Phrase("storage.err.integrity", detail=detail))
    return conn


def _sqlite_reason(exc: sqlite3.Error) -> str:
    """SQLite's refusal of a file as a phrase (not a database, damaged), else its text."""
    from samoobsluha.shared.i18n import Phrase

    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return Phrase("storage.err.not_a_database")
    if name == "SQLITE_CORRUPT":
        return Phrase("storage.err.corrupt")
    return str(exc)

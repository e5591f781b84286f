"""shared.storage: how every SQLite file is opened."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.storage import MigrationSet, open_db

demo = Migrations("test.storage")


@demo()
def m001(db) -> None:
    db["things"].create({"id": int, "name": str}, pk="id")


@demo()
def m002(db) -> None:
    db["things"].add_column("size", int)


def _open_and_insert(path: str, n: int) -> None:
    db = open_db(path, demo)
    with db.atomic():
        db["things"].insert({"id": n, "name": f"p{n}", "size": n})


def test_durable_settings(tmp_path: Path):
    db = open_db(tmp_path / "a.db", demo)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert [m.name for m in demo.applied(db)] == ["m001", "m002"]


def test_reopening_applies_nothing_twice(tmp_path: Path):
    open_db(tmp_path / "a.db", demo)["things"].insert({"id": 1, "name": "x", "size": 1})
    db = open_db(tmp_path / "a.db", demo)
    assert db["things"].count == 1
    assert len(demo.applied(db)) == 2


def test_processes_creating_one_file_at_once_do_not_collide(tmp_path: Path):
    path = str(tmp_path / "shared.db")
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_open_and_insert, args=(path, n)) for n in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 6
    assert open_db(path, demo)["things"].count == 6


def test_memory_database(tmp_path: Path):
    db = open_db(":memory:", demo)
    assert db["things"].exists()


def test_opening_loads_no_sqlite_utils_plugins(tmp_path: Path) -> None:
    """No installed package's plugin gets into our connections, and opening the first
    database does not scan every distribution's entry points (a kiosk's start-up).
    Checked in a fresh interpreter: another test may have loaded the plugins here."""
    probe = (
        "import json, sys\n"
        "from samoobsluha.shared.storage import open_db\n"
        "import sqlite_utils.plugins as plugins\n"
        f"open_db({str(tmp_path / 'p.db')!r}); open_db(':memory:')\n"
        "print(json.dumps([plugins._plugins_loaded, 'importlib.metadata' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, False]


def test_only_shared_storage_opens_sqlite() -> None:
    """One way to open SQLite: no other module of the package calls sqlite3.connect or
    builds a sqlite_utils Database (ruff's banned-api catches sqlite3.connect too)."""
    import ast

    repo = Path(__file__).resolve().parents[2]
    offenders = []
    for folder in ("station", "hub", "shared"):
        for path in (repo / folder).rglob("*.py"):
            if path == repo / "shared" / "storage.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = ast.unparse(node.func)
                if name in ("sqlite3.connect", "sqlite_utils.Database", "Database") or (
                    name.endswith(".Database") and "sqlite" in name
                ):
                    offenders.append(f"{path.relative_to(repo)}:{node.lineno}: {name}")
    assert offenders == []


@pytest.mark.parametrize("side", ["lazy", "sqlite-utils"])
def test_the_kiosk_store_takes_the_write_lock_up_front(tmp_path: Path, side: str) -> None:
    """A read-then-write transaction of the kiosk (a result, an appeal) must queue behind
    another writer, not fail with "database is locked" when the other commits in between:
    its transaction starts with the write lock (BEGIN IMMEDIATE), like every other — on
    the kiosk's lazy database and on the sqlite-utils one behind it alike."""
    import sqlite3

    from samoobsluha.shared.storage import Database, LazyDatabase, full_database
    from samoobsluha.station.log import KioskStore

    store = KioskStore.open(tmp_path / "station.db", "st")
    assert isinstance(store.db, LazyDatabase)
    db = store.db if side == "lazy" else full_database(store.db)
    assert isinstance(full_database(store.db), Database)
    other = sqlite3.connect(tmp_path / "station.db", timeout=0)
    try:
        with db.atomic():
            db.execute("SELECT COUNT(*) FROM results").fetchone()  # a read only
            try:
                other.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                assert "locked" in str(exc)
            else:
                raise AssertionError("the store's transaction did not hold the write lock")
    finally:
        other.close()
        store.close()


def test_a_current_schema_is_opened_without_importing_sqlite_utils(tmp_path: Path) -> None:
    """The kiosk's restart: the station database exists with every migration applied, so
    opening its store and round schedule and reading what the idle screen shows (the
    round, the backlog, the PIN, the settings) imports no sqlite-utils; the first result
    entered then does, and is stored. Fresh interpreters: this one has it loaded."""
    from samoobsluha.station.log import KioskStore
    from samoobsluha.station.rounds import RoundSchedule

    db = tmp_path / "station.db"
    KioskStore.open(db, "st-1").close()  # the first start: the migrations run
    RoundSchedule.open(db, tournament="").close()
    probe = (
        "import json, sys, time\n"
        "from samoobsluha.station.log import KioskStore, Result\n"
        "from samoobsluha.station.rounds import RoundSchedule\n"
        "from samoobsluha.station.settings import read_access, read_state\n"
        "from samoobsluha.station import outbox\n"
        f"store = KioskStore.open({str(db)!r}, 'st-1')\n"
        f"schedule = RoundSchedule.open({str(db)!r}, tournament='')\n"
        "schedule.status(time.time()); schedule.due_signals()\n"
        "store.backlog(); store.referee_pin('', now=time.time())\n"
        "outbox.set_station_id(store.db, outbox.meta(store.db, 'station_id'))\n"
        "with store._lock:\n"
        "    read_state(store.db); read_access(store.db)\n"
        "before = 'sqlite_utils' in sys.modules\n"
        "store.store_result(Result(round_no=1, table_no=3, score_first=400,\n"
        "    score_second=350, started='first'), at=time.time())\n"
        "print(json.dumps([before, 'sqlite_utils' in sys.modules,\n"
        "    store.db.execute('SELECT COUNT(*) FROM results').fetchone()[0]]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False, True, 1]


def test_a_migration_added_later_is_applied_at_the_next_open(tmp_path: Path) -> None:
    """The cheap check only skips sets whose every migration is recorded: one added to a
    set (a new version of the station) is applied when the file is opened next, lazily
    or not, and only once."""
    path = tmp_path / "a.db"
    first = MigrationSet("test.later")

    @first()
    def m001(db) -> None:
        db["things"].create({"id": int}, pk="id")

    open_db(path, first).close()
    second = MigrationSet("test.later")
    second()(m001)

    @second()
    def m002(db) -> None:
        db["things"].add_column("size", int)

    db = open_db(path, second, lazy=True)
    assert [c[1] for c in db.execute("PRAGMA table_info(things)")] == ["id", "size"]
    db.close()
    db = open_db(path, second)  # nothing pending: nothing applied again
    names = [r[0] for r in db.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names == ["m001", "m002"]


def test_the_lazy_database_executes_as_sqlite_utils_does(tmp_path: Path) -> None:
    """What the kiosk does on its :class:`LazyDatabase` before sqlite-utils is loaded
    behaves as on sqlite-utils' own Database: a write outside a transaction is committed
    at once (another connection sees it), a failed statement leaves no transaction
    open, a nested atomic() is a savepoint, ``query`` yields dicts; and sqlite-utils'
    table API on it works on the same connection."""
    import sqlite3

    results = []
    for lazy in (True, False):
        target = tmp_path / f"{lazy}.db"
        db = open_db(target, demo, lazy=lazy)
        other = sqlite3.connect(target)
        db.execute("INSERT INTO things (name) VALUES (?)", ["a"])
        seen_at_once = other.execute("SELECT COUNT(*) FROM things").fetchone()[0]
        with contextlib.suppress(sqlite3.IntegrityError):  # after its implicit BEGIN
            db.execute("INSERT INTO things (id, name) VALUES (1, 'dup')")
        open_after_error = db.conn.in_transaction
        with db.atomic():
            db.execute("INSERT INTO things (name) VALUES ('b')")
            try:
                with db.atomic():
                    db.execute("INSERT INTO things (name) VALUES ('c')")
                    raise RuntimeError("inner")
            except RuntimeError:
                pass
        rows = list(db.query("SELECT name FROM things ORDER BY id"))
        db["things"].insert({"name": "d"})  # sqlite-utils' own API
        names = [r["name"] for r in db.query("SELECT name FROM things ORDER BY id")]
        results.append((seen_at_once, open_after_error, rows, names, db.table_names()))
        other.close()
        db.close()
    assert results[0] == results[1]
    assert results[0][:4] == (1, False, [{"name": "a"}, {"name": "b"}], ["a", "b", "d"])

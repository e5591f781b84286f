"""shared.storage: how every SQLite file is opened."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

from sqlite_utils.migrations import Migrations

from samoobsluha.shared.storage import open_db

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


def test_the_kiosk_store_takes_the_write_lock_up_front(tmp_path: Path) -> None:
    """A read-then-write transaction of the kiosk (a result, an appeal) must queue behind
    another writer, not fail with "database is locked" when the other commits in between:
    its transaction starts with the write lock (BEGIN IMMEDIATE), like every other."""
    import sqlite3

    from samoobsluha.shared.storage import Database
    from samoobsluha.station.log import KioskStore

    store = KioskStore.open(tmp_path / "station.db", "st")
    assert isinstance(store.db, Database)
    other = sqlite3.connect(tmp_path / "station.db", timeout=0)
    try:
        with store.db.atomic():
            store.db.execute("SELECT COUNT(*) FROM results").fetchone()  # a read only
            try:
                other.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                assert "locked" in str(exc)
            else:
                raise AssertionError("the store's transaction did not hold the write lock")
    finally:
        other.close()
        store.close()

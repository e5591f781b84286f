"""Every SQLite connection the hub, the station link and the kiosk store open commits
with ``synchronous=FULL`` on a WAL file: lowering it anywhere fails here.

The check sits in the connection itself (a ``sqlite3.Connection`` subclass every
``sqlite3.connect`` hands out during the test), so a connection opened by new code
without the pragma is caught too, not only :func:`shared.storage.open_db`."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from net_procs import stop_sync
from testkit import until

from samoobsluha.hub.server import HubServer
from samoobsluha.shared import protocol
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.log import KioskStore
from samoobsluha.station.sync import NetworkConfig, StationSync

FULL = 2


class _Seen:
    def __init__(self) -> None:
        self.opened: list[str] = []
        self.checked: list[tuple[str, int, str]] = []


def _spy(monkeypatch: pytest.MonkeyPatch) -> _Seen:
    seen = _Seen()
    real = sqlite3.connect

    class Checked(sqlite3.Connection):
        def _check(self) -> None:
            sync = self.execute("PRAGMA synchronous").fetchone()[0]
            mode = self.execute("PRAGMA journal_mode").fetchone()[0]
            seen.checked.append((self._path, sync, mode))

        def commit(self) -> None:
            self._check()
            super().commit()

        def close(self) -> None:
            with_check = not getattr(self, "_closed_once", False)
            if with_check:
                self._closed_once = True
                self._check()
            super().close()

    def connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", Checked)
        conn = real(database, *args, **kwargs)
        conn._path = str(database)  # type: ignore[attr-defined]
        if str(database) != ":memory:":
            seen.opened.append(str(database))
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    return seen


async def test_every_connection_commits_with_synchronous_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _spy(monkeypatch)
    secret = protocol.new_psk()
    hub = HubServer(tmp_path / "hub.db", secret, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    db = open_db(tmp_path / "st.db", outbox.migrations)
    with db.atomic():
        for i in range(5):
            outbox.enqueue(db, "challenge", {"i": i})
    db.close()
    KioskStore.open(tmp_path / "st.db", "s1").close()
    net = NetworkConfig(tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id="s1")
    sync = StationSync(tmp_path / "st.db", net, psk=secret)
    task = asyncio.create_task(sync.run())
    try:
        await until(lambda: sync.status.acked_seq == 5)
    finally:
        await stop_sync(sync, task)
        await hub.close()
    files = {Path(p).name for p in seen.opened}
    assert {"hub.db", "st.db"} <= files, files
    checked = [c for c in seen.checked if c[0] != ":memory:"]
    assert {Path(p).name for p, _, _ in checked} >= {"hub.db", "st.db"}
    # every connection opened was checked at least once, and every check found FULL + WAL
    assert len({p for p, _, _ in checked}) == len(set(seen.opened))
    bad = [c for c in checked if c[1] != FULL or c[2] != "wal"]
    assert not bad, bad

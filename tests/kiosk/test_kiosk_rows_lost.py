"""A station whose database lost its WAL notices: its own count of confirmed rows
(station/log.py, ``station.db.confirmed``, fsynced after each confirmed commit) is more
than the database holds at the next start. For real: a station process commits checks
into a real SQLite file in WAL mode and is killed (SIGKILL) before any checkpoint; its
``-wal`` file is deleted; the next start shows the referee a red notice on the idle
screen (Pilot), says so in the station's log and in its status for the hub, and still
judges. The same without deleting the WAL: every row is there and nothing is said."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from kiosk_pilot import settle, start_check, type_text
from textual.widgets import Label

from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon, Status, write_lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.station.log import KioskStore, read_counter
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.verdict import VerdictScreen

CHECKS = 5

# The station's process: the database created and closed (checkpointed) first, as after
# provisioning; then CHECKS confirmed checks committed into the WAL, and it waits to be
# killed. Nothing checkpoints five small commits (SQLite's automatic checkpoint is at
# 1,000 pages).
CHILD = """
import sys, time
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.checks import prepare_words
from samoobsluha.station.log import KioskStore
db, lex, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
KioskStore.open(db, "st-1").close()
store = KioskStore.open(db, "st-1")
lexicon = Lexicon.open(lex)
for i in range(n):
    verdict = lexicon.judge(prepare_words(["pes"], lexicon.alphabet))
    store.record_check(verdict, lexicon.info, table_no=i + 1, round_no=None, at=1e9 + i)
store.counter.wait_written()  # its own thread writes it just after each commit
print("committed", flush=True)
time.sleep(600)
"""


def _station_killed_after_commits(tmp_path: Path, lexicon: Path) -> Path:
    db = tmp_path / "station.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(lexicon), str(CHECKS)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "committed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    wal = Path(f"{db}-wal")
    assert wal.stat().st_size > 0  # the checks are in the WAL, not yet in station.db
    return db


@pytest.fixture
def lexicon(tmp_path: Path) -> Path:
    path = tmp_path / "small.lex"
    write_lexicon(["pes", "les"], path, language="cs", variant="TEST", source="tests", max_length=9)
    return path


def _app(store: KioskStore, lexicon: Path) -> KioskApp:
    return KioskApp(lexicon=Lexicon.open(lexicon), store=store, clock=FakeClock())


def _notice(app: Any) -> Label:
    return app.screen.query_one("#db-notice", Label)


async def _judges(pilot: Any) -> None:
    await start_check(pilot, "3", "1")
    await type_text(pilot, "les")
    await pilot.press("enter")
    await pilot.press("f10")
    await settle(pilot)
    assert isinstance(pilot.app.screen, VerdictScreen)
    assert pilot.app.screen.verdict.status is Status.VALID


async def test_a_deleted_wal_is_noticed_at_the_next_start(
    tmp_path: Path, lexicon: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = _station_killed_after_commits(tmp_path, lexicon)
    assert read_counter(f"{db}.confirmed") == (CHECKS, 0)
    os.unlink(f"{db}-wal")  # lost: a bad block, a careless hand
    with caplog.at_level(logging.ERROR, "samoobsluha.station.log"):
        store = KioskStore.open(db, "st-1")
    assert store.recent() == []  # the database opens without a word, with fewer rows
    assert store.rows_lost == CHECKS
    assert "5 confirmed row(s) missing" in caplog.text
    app = _app(store, lexicon)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, IdleScreen)
        notice = _notice(app)
        assert notice.display
        assert "chybí 5 potvrzených záznamů" in str(notice.content)
        await _judges(pilot)  # it says so, and goes on working
    store.close()
    # the evidence stays: the next start says it again (one more row confirmed since)
    assert read_counter(f"{db}.confirmed") == (1, CHECKS)
    again = KioskStore.open(db, "st-1")
    assert again.rows_lost == CHECKS
    again.close()


async def test_a_station_killed_with_its_wal_kept_says_nothing(
    tmp_path: Path, lexicon: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = _station_killed_after_commits(tmp_path, lexicon)
    with caplog.at_level(logging.ERROR, "samoobsluha.station.log"):
        store = KioskStore.open(db, "st-1")
    assert len(store.recent()) == CHECKS  # recovered from the WAL
    assert store.rows_lost == 0
    assert "missing" not in caplog.text
    app = _app(store, lexicon)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not _notice(app).display
        assert str(_notice(app).content) == ""
        await _judges(pilot)
    store.close()
    assert read_counter(f"{db}.confirmed") == (CHECKS + 1, 0)


def test_the_status_frame_carries_the_shortfall(tmp_path: Path, lexicon: Path) -> None:
    """What ``hub stations`` shows: the station's status reports the rows lost."""
    from samoobsluha.shared.payloads import StationStatus

    db = _station_killed_after_commits(tmp_path, lexicon)
    os.unlink(f"{db}-wal")
    store = KioskStore.open(db, "st-1")
    try:
        status = StationStatus.from_dict(
            {
                "name": "st-1",
                "version": "t",
                "lexicon_sha256": None,
                "clock_synced": True,
                "clock_offset": 0.0,
                "clock_delay": None,
                "backlog": 0,
                "acked_seq": 0,
                "last_signal": None,
                "local_time": time.time(),
                "rows_lost": store.rows_lost,
            }
        )
        assert status.rows_lost == CHECKS
    finally:
        store.close()

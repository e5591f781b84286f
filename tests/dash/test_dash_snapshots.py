"""Snapshots of every dashboard screen (pytest-textual-snapshot) over fixed data: a
FakeClock, a seeded tournament, station records from the real kiosk store. No server runs,
so the screens also show how they warn about that."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import check, deliver, settle, station_store
from textual.widgets import Input

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.shared.storage import open_db

SIZE = (150, 42)


@pytest.fixture
def hall(
    service: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path
) -> HubService:
    """Two stations reported, round 1 running, checks and a referee call logged, two
    results in (one from a station waiting for its scoresheet)."""
    db = open_db(service.db_path, sync_store.migrations)
    base = {
        "version": "0.1.0",
        "lexicon_sha256": "a" * 64,
        "clock_synced": True,
        "clock_offset": 0.003,
        "backlog": 0,
        "last_signal": {
            "signal": "start",
            "hub_time": clock.now() - 600,
            "local_time": clock.now() - 600,
            "synced": True,
        },
    }
    version = int((clock.now() - 900) * 1000)  # the hall configuration, published before
    sync_store.save_published(db, "config", f"config:{version}:c0", {"tables": "1-4"}, clock.now())
    kiosk = {"lexicon_in_use_sha256": "a" * 64, "config_version": version}
    sync_store.save_status(db, "st-1", "e1", "127.0.0.1:1", base | kiosk, clock.now() - 2)
    sync_store.save_status(
        db,
        "st-2",
        "e2",
        "127.0.0.1:2",
        base | {"lexicon_sha256": "b" * 64, "backlog": 4},
        clock.now() - 90,
    )
    sync_store.save_plan(db, RoundPlan(1, clock.now() - 600), clock.now() - 605)
    db.close()
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    for i, (words, table) in enumerate(
        [(["kůň"], 1), (["xyzzy", "pes"], 2), (["REC(I)E"], 3), (["čáp"], 1)]
    ):
        check(st, lexicon, words, table, clock.now() - 500 + 60 * i)
    st.record_refusal(table_no=4, round_no=1, reason="rate_cap", at=clock.now() - 100)
    deliver(service, st, clock.now())
    service.enter_result(1, Entry(1, 412, 389))
    return service


def _app(service: HubService) -> HubApp:
    return HubApp(service, refresh_every=None, tick_every=None)


@pytest.mark.parametrize(
    "mode", ["stations", "rounds", "challenges", "results", "standings", "prizes"]
)
def test_dash_screen_snapshot(hall: HubService, mode: str, snap_compare) -> None:
    async def run_before(pilot) -> None:
        await pilot.app.switch_mode(mode)
        await settle(pilot)
        # a blinking cursor is drawn or not by a timer: the picture would depend on when
        # it was taken (the results screen's focused entry field failed that way)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        pilot.app.screen.tick()
        await pilot.pause()

    assert snap_compare(_app(hall), terminal_size=SIZE, run_before=run_before)

"""The embargo to the second: a round's pages are rendered from the moment its protest
window closes, not a second earlier (hub/publisher.py over a real hub database, on a
fake clock)."""

from __future__ import annotations

from dash_testkit import publish_round_one

from samoobsluha.hub import publisher
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.protocol import HallKeys
from samoobsluha.shared.storage import open_db


def test_nothing_renders_before_the_window_closes(service: HubService, clock: FakeClock) -> None:
    closes = publish_round_one(service)
    db = open_db(service.db_path, publisher.migrations)
    keys = HallKeys(bytes(32))
    try:
        early = publisher.render(db, keys, "t-test", closes - 1)
        assert (early.closed, early.changed, early.waiting) == ([], [], closes)
        assert publisher.pending(db) == (0, 0)
        done = publisher.render(db, keys, "t-test", closes)
        assert done.closed == [1] and "round-1/results.html" in done.changed
        assert publisher.pending(db) == (len(done.changed), 0)
        # rendered again, unchanged: nothing new queued
        assert publisher.render(db, keys, "t-test", closes + 60).changed == []
    finally:
        db.close()

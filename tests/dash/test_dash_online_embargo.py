"""The embargo to the second: a round's pages are rendered from the moment its protest
window closes, not a second earlier (hub/publisher.py over a real hub database, on a
fake clock)."""

from __future__ import annotations

from pathlib import Path

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


def test_each_pass_is_counted_at_its_own_time_sent_or_not(
    service: HubService, clock: FakeClock, tmp_path: Path
) -> None:
    """A pass under the embargo sends nothing and is counted all the same, at the time
    it was given (hub serve's clock): what ``hub online status`` shows and what the tests
    of ``hub serve`` watch instead of waiting."""
    closes = publish_round_one(service)
    db = open_db(service.db_path, publisher.migrations)
    keys = HallKeys(bytes(32))
    site = tmp_path / "www"
    try:
        assert publisher.passes(db) == (0, None)
        publisher.set_target(db, str(site))
        for i in range(3):
            done = publisher.publish_pass(db, keys, "t-test", closes - 60 + i, "cs", "en")
            assert done.code == 0 and done.sent == []
        assert publisher.passes(db) == (3, closes - 58)
        assert not site.exists()  # the embargo: not a byte
        done = publisher.publish_pass(db, keys, "t-test", closes, "cs", "en")
        assert "round-1/results.html" in done.sent and done.lines[-1].startswith("sent ")
        assert publisher.passes(db) == (4, closes)
    finally:
        db.close()

"""Fixtures for the dashboard tests: a real hub database with a small tournament, a
FakeClock, station records made by the real kiosk store and delivered with the hub's own
ingest function."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

T0 = 1_767_258_000.0  # 2026-01-01 09:00 UTC


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    """Times on screen are local; the tests pin the zone so snapshots hold anywhere."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def service(data_dir: Path, clock: FakeClock) -> HubService:
    """A hub with 8 sample players, all checked in, round 1 paired (seed 3)."""
    svc = HubService(data_dir, clock=clock)
    with svc._tour() as tour:
        tour.configure(name="Testovací turnaj", rules="cas", rounds=5)
        tour.import_players_csv(sample_csv(8, 7))
        for p in tour.players():
            tour.check_in(p.id)
        tour.pair(1, seed=3)
    return svc


@pytest.fixture
def short_sock() -> Iterator[Path]:
    """A control-socket path short enough for AF_UNIX (tmp_path may be too long)."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="hs"))
    yield folder / "hub.sock"
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def served(service: HubService, short_sock: Path) -> HubService:
    """The same hub, its control socket where the embedded server will listen."""
    service.control_path = short_sock
    return service

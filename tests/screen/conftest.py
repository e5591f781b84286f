"""Fixtures for the hall screen: a real hub (HubServer + the screen's aiohttp server) on
loopback in a thread of its own, on a FakeClock, over a real hub database with a sample
tournament; and Debian's headless Chromium driven through its chromedriver. What the
tests import by name is in screen_testkit.py."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_testkit import T0, LiveHub, make_browser, seed_tournament

from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def data_dir() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="hscr"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def hub(data_dir: Path, clock: FakeClock) -> Iterator[LiveHub]:
    seed_tournament(HubService(data_dir, clock=clock))
    live = LiveHub(data_dir, clock)
    yield live
    live.close()


@pytest.fixture
def browser_factory() -> Iterator[Callable[[tuple[int, int]], Any]]:
    drivers: list[Any] = []

    def make(size: tuple[int, int]) -> Any:
        driver = make_browser(size)
        drivers.append(driver)
        return driver

    yield make
    for driver in drivers:
        driver.quit()
        shutil.rmtree(driver._screen_profile, ignore_errors=True)

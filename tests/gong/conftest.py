"""Fixtures for the gong tests: a fake clock, mock pins that keep time on it, and a
sleep that moves the fake clock instead of waiting (a 40-minute round plays in ms)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from gong_testkit import ClockedMockFactory

from samoobsluha.shared.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def factory(clock: FakeClock):
    f = ClockedMockFactory(clock)
    yield f
    f.reset()
    f.close()


@pytest.fixture
def vsleep(clock: FakeClock) -> Callable[[float], Awaitable[None]]:
    """Virtual sleep: advance the fake clock, let other tasks run."""

    async def sleep(seconds: float) -> None:
        clock.advance(max(0.0, seconds))
        await asyncio.sleep(0)

    return sleep


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("SAMOOBSLUHA_CONFIG", raising=False)

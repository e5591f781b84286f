"""The garbage collector's holds (station/collector.py): start-up's and the signal
runner's window overlap without one switching the collector on inside the other."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from samoobsluha.station import collector


@pytest.fixture
def enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    for name in ("start-up", "runner"):
        collector.release(name)
    if not was:
        gc.disable()


def test_start_up_ending_inside_a_signal_window_leaves_the_collector_off(enabled: None) -> None:
    collector.hold("start-up")
    collector.hold("runner")  # a signal is due within the window
    assert collector.release("start-up")  # the idle screen is painted meanwhile
    assert not gc.isenabled()
    collector.release("runner")  # the signal rang
    assert gc.isenabled()


def test_a_window_opening_during_start_up_does_not_end_it(enabled: None) -> None:
    collector.hold("start-up")
    collector.hold("runner")
    collector.release("runner")
    assert not gc.isenabled() and collector.held("start-up")
    collector.release("start-up")
    assert gc.isenabled()


def test_only_a_taken_hold_is_released(enabled: None) -> None:
    assert not collector.release("runner")
    gc.disable()  # switched off by someone else
    collector.hold("runner")
    collector.release("runner")
    assert not gc.isenabled()  # stays as it was found
    gc.enable()


def test_collect_runs_only_when_no_hold_is_taken(enabled: None) -> None:
    seen: list[int] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            seen.append(2)

    gc.callbacks.append(callback)
    try:
        collector.hold("runner")  # a signal is due: no full collection now
        assert not collector.collect() and not seen
        collector.release("runner")
        assert collector.collect() and seen == [2]
    finally:
        gc.callbacks.remove(callback)

"""The one countdown format (shared/countdown.py): rounded up, so 00:00 appears only when
the time is over — the kiosk, the dashboard and ``station gong`` all show this text."""

from __future__ import annotations

import pytest

from samoobsluha.hub.screens import results, rounds
from samoobsluha.shared.countdown import countdown, minutes_left
from samoobsluha.station.commands import gong
from samoobsluha.station.widgets import clock


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (2400.0, "40:00"),
        (2399.3, "40:00"),  # a fraction into the round it still reads the full time
        (2399.0, "39:59"),
        (600.0, "10:00"),  # the warning signal's instant
        (59.01, "01:00"),
        (1.0, "00:01"),
        (0.0005, "00:01"),  # not over yet: never 00:00 while the gong has not rung
        (0.0, "00:00"),
        (-12.0, "00:00"),
        (3600.0, "1:00:00"),
        (3900.5, "1:05:01"),
        (float("nan"), "00:00"),
    ],
)
def test_countdown_rounds_up(seconds: float, text: str) -> None:
    assert countdown(seconds) == text


def test_every_screen_uses_the_one_countdown() -> None:
    assert clock.format_remaining is countdown
    assert results.countdown is countdown and rounds.countdown is countdown
    assert gong.countdown is countdown


@pytest.mark.parametrize(
    ("seconds", "minutes"),
    [(1800.0, 30), (1799.0, 30), (120.0, 2), (61.0, 2), (60.0, 1), (0.5, 1), (0.0, 0), (-5, 0)],
)
def test_minutes_left_rounds_up(seconds: float, minutes: int) -> None:
    assert minutes_left(seconds) == minutes

"""Clocks. Everything that needs the time takes a :class:`Clock`, so tests run on a
:class:`FakeClock` and the network layer can map a station's clock to the hub's.

``now()`` is wall time in seconds since the epoch in this clock's domain; ``monotonic()``
never jumps and is what timeouts and rate limits use.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Protocol

BOOT_ID_PATH = Path("/proc/sys/kernel/random/boot_id")


class Clock(Protocol):
    def now(self) -> float: ...

    def monotonic(self) -> float: ...


class SystemClock:
    """The machine's own clocks."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def __repr__(self) -> str:
        return "<SystemClock>"


class FakeClock:
    """A clock that moves only when told to; wall and monotonic time move together."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:  # 2026-01-01T00:00:00Z
        self._now = float(start)
        self._mono = 1000.0

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a fake clock does not go backwards; use set_wall() for jumps")
        self._now += seconds
        self._mono += seconds

    def set_wall(self, wall: float) -> None:
        """Jump the wall clock (as NTP or a referee would) without moving monotonic time."""
        self._now = float(wall)

    def __repr__(self) -> str:
        return f"<FakeClock now={self._now:.3f}>"


def boot_id(path: Path = BOOT_ID_PATH) -> str:
    """This boot of the machine (Linux: the kernel's random boot id). Elsewhere the wall
    time of the last boot, to the minute, which serves the same purpose. Both sides key
    what must not survive a reboot on it (a station's PIN lockout, the hub's confirmed
    time)."""
    try:
        return path.read_text().strip()
    except OSError:
        return str(round((time.time() - time.monotonic()) / 60))

"""Round timing maths shared by the hub and the stations (ČAS 4.1, 6.1, 16.3).

A round starts on one signal, gives a 10-minute warning, and ends its basic time on a
signal, after which the play-out (DOHRÁVKA) follows. :class:`RoundPlan` is the whole
truth about one round's timing, expressed in **hub time** (seconds since the epoch on
the hub's clock); a station converts with its estimated offset. Plans are immutable: a
referee's change (delay, add minutes, pause, resume, cancel) makes a new plan, so the
same plan can travel over the network, sit in SQLite and be replayed after a restart.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

BASIC_SECONDS = 40 * 60
WARNING_SECONDS = 10 * 60
# How long a clock (the kiosk's, the hall screen's) keeps showing the play-out after the
# basic time ends, before it goes back to idle.
PLAYOUT_DISPLAY_SECONDS = 20 * 60


class Phase(StrEnum):
    IDLE = "idle"  # no round planned
    SCHEDULED = "scheduled"  # start instant known, not reached
    RUNNING = "running"
    WARNING = "warning"  # less than the warning time left
    ENDED = "ended"  # basic time over: play-out (DOHRÁVKA)
    CANCELLED = "cancelled"


class Signal(StrEnum):
    START = "start"
    WARNING = "warning"
    END = "end"


@dataclass(frozen=True)
class RoundStatus:
    """What a clock shows at one instant."""

    number: int
    phase: Phase
    remaining: float  # seconds of basic time left (to the start while scheduled)
    start_at: float
    end_at: float
    paused: bool = False


@dataclass(frozen=True)
class RoundPlan:
    number: int
    start_at: float
    basic_seconds: float = BASIC_SECONDS
    warning_seconds: float = WARNING_SECONDS
    extra_seconds: float = 0.0
    paused_at: float | None = None
    paused_total: float = 0.0
    cancelled: bool = False
    revision: int = 0  # grows with every change; the newest revision wins
    # Which start of the round this plan times: 0 the first, one more every time the referee
    # starts the round again (``restarted``). A station gives each signal once per epoch, so
    # a restarted round rings its start (and later its warning and end) again, while a
    # change within one start (delay, extend, pause, resume, cancel) never re-rings a signal.
    epoch: int = 0

    # -- derived instants ---------------------------------------------------------------
    def end_at(self, now: float | None = None) -> float:
        """End of basic time. While paused the end moves with the clock."""
        end = self.start_at + self.basic_seconds + self.extra_seconds + self.paused_total
        if self.paused_at is not None:
            end += max(0.0, (now if now is not None else self.paused_at) - self.paused_at)
        return end

    def warning_at(self, now: float | None = None) -> float:
        return self.end_at(now) - self.warning_seconds

    def signal_times(self) -> dict[Signal, float]:
        """When each signal is due (a paused round has no future signals)."""
        if self.cancelled:
            return {}
        times = {Signal.START: self.start_at}
        if self.paused_at is None:
            times[Signal.WARNING] = self.warning_at()
            times[Signal.END] = self.end_at()
        return times

    def status(self, now: float) -> RoundStatus:
        end = self.end_at(now)
        if self.cancelled:
            phase, remaining = Phase.CANCELLED, 0.0
        elif now < self.start_at:
            phase, remaining = Phase.SCHEDULED, self.start_at - now
        elif now >= end:
            phase, remaining = Phase.ENDED, 0.0
        else:
            remaining = end - now
            phase = Phase.WARNING if remaining <= self.warning_seconds else Phase.RUNNING
        return RoundStatus(
            self.number, phase, remaining, self.start_at, end, self.paused_at is not None
        )

    # -- referee changes ----------------------------------------------------------------
    def _next(self, **changes: Any) -> RoundPlan:
        return dataclasses.replace(self, revision=self.revision + 1, **changes)

    def delayed(self, seconds: float) -> RoundPlan:
        return self._next(start_at=self.start_at + seconds)

    def extended(self, seconds: float) -> RoundPlan:
        return self._next(extra_seconds=self.extra_seconds + seconds)

    def paused(self, now: float) -> RoundPlan:
        return self if self.paused_at is not None else self._next(paused_at=now)

    def resumed(self, now: float) -> RoundPlan:
        if self.paused_at is None:
            return self
        return self._next(
            paused_at=None, paused_total=self.paused_total + max(0.0, now - self.paused_at)
        )

    def cancelled_plan(self) -> RoundPlan:
        return self._next(cancelled=True)

    def restarted(
        self,
        start_at: float,
        *,
        basic_seconds: float | None = None,
        warning_seconds: float | None = None,
    ) -> RoundPlan:
        """The round started again at ``start_at``: a fresh plan (no extra time, no pause,
        not cancelled) in the next epoch, so every station gives its signals anew."""
        return RoundPlan(
            self.number,
            start_at,
            basic_seconds=self.basic_seconds if basic_seconds is None else basic_seconds,
            warning_seconds=self.warning_seconds if warning_seconds is None else warning_seconds,
            revision=self.revision + 1,
            epoch=self.epoch + 1,
        )

    # -- wire / storage form --------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        if not self.epoch:
            # a round's first start travels as before: a station that predates epochs
            # still takes it (it refuses unknown fields)
            del data["epoch"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundPlan:
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise ValueError(f"unknown round plan fields: {sorted(unknown)}")
        return cls(**data)

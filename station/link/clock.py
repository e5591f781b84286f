"""The hub clock as a station sees it: an NTP-style offset estimate over the hub link.

The station sends ``time_req`` (t1, local monotonic), the hub answers with its wall time
on arrival and departure (t2, t3), the answer arrives at t4. :class:`OffsetEstimator`
keeps the last :data:`SAMPLES` samples and trusts the one with the smallest round trip;
:class:`HubClock` reads hub time as the local monotonic clock plus that offset, so a
station's wall clock (no RTC on a Pi) never matters. :class:`SkewedClock` gives tests and
demos a station with its own wrong clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from samoobsluha.shared.clock import Clock, SystemClock

SAMPLES = 8  # clock samples kept; the one with the smallest round trip wins
MAX_GOOD_DELAY = 0.5  # a sample with a longer round trip is never "a good estimate"
SYNC_BOUND = 0.010  # the clock is "synced" only while its error bound is within this
DRIFT = 100e-6  # what a Pi's crystal may drift (s/s) since the best sample: grows the bound
REJECT_FACTOR, REJECT_SLACK = 2.0, 0.002  # a round trip over 2 × the minimum + 2 ms: queued
# A station restarted while its hub is down resumes the estimate it kept when that estimate
# is still this good: 0.25 s is 40 minutes (a round's basic time) of the worst crystal
# drift above, and far inside the 5 s after which a signal is not rung at all.
RESUME_BOUND = 0.25


class SkewedClock:
    """The local clock shifted by ``skew`` seconds (both wall and monotonic): how tests
    and demos give each station its own wrong clock on one machine."""

    def __init__(self, skew: float, base: Clock | None = None) -> None:
        self.skew = skew
        self.base = base or SystemClock()

    def now(self) -> float:
        return self.base.now() + self.skew

    def monotonic(self) -> float:
        return self.base.monotonic() + self.skew


@dataclass(frozen=True)
class ClockSample:
    offset: float  # hub time minus local time
    delay: float  # round trip minus the hub's own processing
    taken_at: float  # local monotonic time


class OffsetEstimator:
    """NTP-style offset from (t1, t2, t3, t4): keep the last :data:`SAMPLES` samples and
    trust the one with the smallest delay (its offset error is at most delay / 2).

    A sample whose round trip is far above the smallest seen lately (over
    ``REJECT_FACTOR`` × it + ``REJECT_SLACK``) waited in some queue on one leg of the path
    and is rejected: one delayed leg shifts the offset by half the extra delay."""

    def __init__(self, keep: int = SAMPLES, max_delay: float = MAX_GOOD_DELAY) -> None:
        self.samples: deque[ClockSample] = deque(maxlen=keep)
        self.delays: deque[float] = deque(maxlen=4 * keep)  # accepted or not
        self.max_delay = max_delay
        self.rejected = 0

    def add(self, t1: float, t2: float, t3: float, t4: float, taken_at: float) -> ClockSample:
        sample = ClockSample(((t2 - t1) + (t3 - t4)) / 2, (t4 - t1) - (t3 - t2), taken_at)
        if sample.delay < 0:
            return sample
        self.delays.append(sample.delay)
        if sample.delay > min(self.delays) * REJECT_FACTOR + REJECT_SLACK:
            self.rejected += 1
            return sample
        self.samples.append(sample)
        return sample

    def clear(self) -> None:
        self.samples.clear()
        self.delays.clear()

    def best(self) -> ClockSample | None:
        good = [s for s in self.samples if s.delay <= self.max_delay]
        return min(good, key=lambda s: s.delay) if good else None


@dataclass(frozen=True)
class KeptClock:
    """The hub clock estimate as a station keeps it across a restart of its processes: the
    monotonic clock it is based on runs on through a restart, not through a reboot."""

    mono_offset: float  # hub wall time minus local monotonic
    delay: float  # the best sample's round trip
    synced_at: float  # local monotonic time of that sample
    boot: str  # the boot it was taken in (shared.clock.boot_id)


class HubClock:
    """A :class:`~shared.clock.Clock` that reads hub time: the local *monotonic* clock plus
    the estimated offset, so a station's wall clock (no RTC on a Pi, wrong after every
    power cut) never matters. Before the first good estimate it falls back to local wall
    time and :attr:`synced` is False."""

    def __init__(self, local: Clock | None = None, bound: float = SYNC_BOUND) -> None:
        self.local = local or SystemClock()
        self._mono_offset: float | None = None  # hub wall time minus local monotonic
        self.delay: float | None = None
        self.synced_at: float | None = None
        self.bound = bound
        self.resumed = False  # the estimate was kept from before a restart (resume)

    @property
    def synced(self) -> bool:
        """An estimate exists (signals may ring on it); see :attr:`precise`."""
        return self._mono_offset is not None

    @property
    def uncertainty(self) -> float | None:
        """Bound on the error of :meth:`now`, seconds: half the best sample's round trip
        plus what the local crystal may have drifted since; None before the first."""
        if self.delay is None or self.synced_at is None:
            return None
        return self.delay / 2 + (self.local.monotonic() - self.synced_at) * DRIFT

    @property
    def precise(self) -> bool:
        """Synced within :attr:`bound` (10 ms): what the station calls "synced"."""
        u = self.uncertainty
        return u is not None and u <= self.bound

    def kept(self, boot: str) -> KeptClock | None:
        """This estimate, to be kept across a restart; None before the first."""
        if self._mono_offset is None or self.delay is None or self.synced_at is None:
            return None
        return KeptClock(self._mono_offset, self.delay, self.synced_at, boot)

    def resume(self, kept: KeptClock, boot: str, bound: float = RESUME_BOUND) -> bool:
        """Take up ``kept`` (from before this process started) when it was taken in this
        boot and its error bound now is within ``bound``; whether it was taken up. A
        station restarted mid-round with its hub down thus rings the round's remaining
        signals on the estimate it would have had without the restart."""
        if not boot or kept.boot != boot or self.synced:
            return False
        age = self.local.monotonic() - kept.synced_at
        if age < 0 or kept.delay / 2 + age * DRIFT > bound:
            return False
        self.set_offset(kept.mono_offset, kept.delay, kept.synced_at)
        self.resumed = True
        return True

    def set_offset(self, mono_offset: float, delay: float, taken_at: float | None = None) -> None:
        self._mono_offset = mono_offset
        self.delay = delay
        self.resumed = False
        self.synced_at = self.local.monotonic() if taken_at is None else taken_at

    @property
    def offset(self) -> float:
        """Hub time minus local wall time (what the status shows)."""
        if self._mono_offset is None:
            return 0.0
        return self.local.monotonic() + self._mono_offset - self.local.now()

    def now(self) -> float:
        if self._mono_offset is None:
            return self.local.now()
        return self.local.monotonic() + self._mono_offset

    def monotonic(self) -> float:
        return self.local.monotonic()

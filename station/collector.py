"""Holds on the garbage collector, shared by everything in a station process that must
not be paused by a full collection: start-up (station/startup.py), the signal runner's
window before a signal (station/rounds.py) and a verdict on its way from F10 to the
screen (station/app.py, which then collects while the verdict is read: :func:`collect`).
A full collection of the kiosk's memory holds the GIL for tens to hundreds of
milliseconds.

The collector is off while any hold is taken and on again when the last is released —
and only if it was on when the first was taken (a collector switched off by someone else
stays off). Holds are named, so a release only ends its own hold, and they may come from
different threads (the runner lives on the bell thread)."""

from __future__ import annotations

import gc
import threading

_lock = threading.Lock()
_holds: set[str] = set()
_was_enabled = False


def hold(name: str) -> None:
    """Take hold ``name`` (again: no change) and switch the collector off."""
    global _was_enabled
    with _lock:
        if not _holds:
            _was_enabled = gc.isenabled()
            gc.disable()
        _holds.add(name)


def release(name: str, *, freeze: bool = False) -> bool:
    """End hold ``name``; with ``freeze``, first move every object alive now to the
    permanent generation (never scanned again). Returns whether the hold was taken:
    without it nothing is done."""
    with _lock:
        if name not in _holds:
            return False
        _holds.discard(name)
        if freeze:
            gc.freeze()
        if not _holds and _was_enabled:
            gc.enable()
        return True


def held(name: str) -> bool:
    with _lock:
        return name in _holds


def collect() -> bool:
    """A full collection now — unless a hold is taken (a signal is due within a second,
    or start-up): then nothing, and the collector's own thresholds decide later. The
    kiosk calls this once a verdict is painted, so the full collections that would
    otherwise land at random, some on the next F10 → verdict, happen while a verdict is
    read (it takes no keys for its first half second). Returns whether it collected."""
    with _lock:
        if _holds:
            return False
    gc.collect()
    return True

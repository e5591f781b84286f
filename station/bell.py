"""The bell where the kiosk cannot delay it.

In ``station run`` the kiosk and the round clock shared one asyncio loop: while Textual
composed and painted a verdict (tens of milliseconds on a Pi) the signal runner's timer
could not fire, and a gong was late by as much.

:class:`BellThread` — **what the station runtime runs** (station/runtime.py)
    The :class:`~station.rounds.SignalRunner` on a thread of its own, with its own
    asyncio loop and its own connection to the station database, ``SCHED_FIFO`` where
    permitted and a 1 ms switch interval. It shares the kiosk's GIL, and a full cyclic
    garbage collection of the kiosk's heap holds that for hundreds of milliseconds, so
    the runner holds the collector off in the last second before each signal
    (``gc_window``). Measured by ``bench/gong.py`` with the kiosk painting verdict
    screens back to back on a loaded 2-core machine: p99 lateness 0.25 ms, against
    ~150 ms (and signals missed) for the runner in the kiosk's loop; without the GC
    window it was no better than the loop (docs/benchmarks.md).

Use::

    bell = BellThread(lambda: RoundSchedule.open(path, clock=clock), clock, outputs)
    bell.start()                      # returns once the runner is running
    schedule.add_listener(bell.wake)  # a plan applied elsewhere: re-plan at once
    await bell.ring("start")          # the gong test / referee button, from any loop
    bell.stop()

Everything that sounds the outputs goes through the bell thread (its loop owns the
outputs' asyncio state), so a button press and a due signal never ring at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import Any

from samoobsluha.shared.clock import Clock
from samoobsluha.station.rounds import Fired, Gong, RoundSchedule, SignalRunner

log = logging.getLogger(__name__)

REALTIME_PRIORITY = 10  # SCHED_FIFO 1..99; low, but above every normal process
SWITCH_INTERVAL = 0.001  # seconds: how long the UI thread may keep the GIL from the bell
GC_WINDOW = 1.0  # seconds before a signal with no cyclic garbage collection (any thread)


def set_realtime(priority: int = REALTIME_PRIORITY) -> str:
    """Give the calling thread SCHED_FIFO ``priority`` if permitted; returns a short
    description of the policy in effect (for the startup log)."""
    if priority <= 0 or not hasattr(os, "sched_setscheduler"):
        return "normal priority"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except OSError as exc:  # EPERM without CAP_SYS_NICE / LimitRTPRIO
        return f"normal priority (real-time refused: {exc.strerror})"
    return f"SCHED_FIFO {priority}"


class BellThread:
    """A :class:`SignalRunner` on its own thread (see the module docstring).

    ``open_schedule`` is called *on the bell thread* (SQLite connections belong to the
    thread that opens them); ``gong`` is the station's outputs. ``on_fired`` is called on
    the bell thread for every signal given or missed. ``priority`` 0 skips the
    real-time request (tests)."""

    def __init__(
        self,
        open_schedule: Callable[[], RoundSchedule],
        clock: Clock,
        gong: Gong,
        *,
        priority: int = REALTIME_PRIORITY,
        on_fired: Callable[[Fired], None] | None = None,
        runner_options: dict[str, Any] | None = None,
    ) -> None:
        self.open_schedule = open_schedule
        self.clock = clock
        self.gong = gong
        self.priority = priority
        self.on_fired = on_fired
        self.runner_options = {"gc_window": GC_WINDOW, **(runner_options or {})}
        self.policy = "not started"
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: SignalRunner | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # -- life cycle -----------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> None:
        """Start the thread; returns once its runner is running (raises what opening the
        schedule raised)."""
        if self._thread is not None:
            raise RuntimeError("the bell thread is already started")
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self._thread = threading.Thread(target=self._main, name="bell", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the bell thread did not start")
        if self._error is not None:
            raise self._error
        log.info("bell thread running (%s)", self.policy)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the pattern being rung (if any); waits for the thread."""
        runner, loop = self._runner, self._loop
        if runner is not None and loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                loop.call_soon_threadsafe(runner.stop)
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def ident(self) -> int | None:
        """The bell thread's id (None before it starts)."""
        return self._thread.ident if self._thread is not None else None

    def _main(self) -> None:
        self.policy = set_realtime(self.priority)
        try:
            asyncio.run(self._amain())
        except BaseException as exc:  # reported by start() or logged
            if not self._ready.is_set():
                self._error = exc
            else:
                log.exception("the bell thread stopped")
        finally:
            self._ready.set()

    async def _amain(self) -> None:
        schedule = self.open_schedule()
        try:
            runner = SignalRunner(
                schedule, self.clock, self.gong, on_fired=self.on_fired, **self.runner_options
            )
            self._loop = asyncio.get_running_loop()
            self._runner = runner
            task = asyncio.create_task(runner.run())
            await asyncio.sleep(0)  # the runner has set up its loop state
            self._ready.set()
            await task
        finally:
            self._runner = None
            schedule.close()

    # -- from other threads ---------------------------------------------------------------
    def wake(self) -> None:
        """Re-plan now (a plan was applied through another connection). Thread-safe."""
        runner = self._runner
        if runner is not None:
            runner.wake()

    def submit(self, name: str) -> concurrent.futures.Future[None]:
        """Ring pattern ``name`` on the bell thread; returns at once."""
        loop = self._loop
        if loop is None or loop.is_closed():
            raise RuntimeError("the bell thread is not running")
        return asyncio.run_coroutine_threadsafe(self.gong.ring(name), loop)

    async def ring(self, name: str) -> None:
        """Ring pattern ``name`` on the bell thread and wait for it to finish, from any
        asyncio loop (so the bell thread can stand in for the gong)."""
        await asyncio.wrap_future(self.submit(name))


class SilentGong:
    """A gong that sounds nothing (benchmarks: the lateness is in the station DB)."""

    async def ring(self, name: str) -> None:
        return None

"""The bell thread: the signal runner on its own thread, loop and DB connection, so the
kiosk's UI loop cannot delay a gong. Real SQLite file, real threads; no timing asserted
(the machine may be busy), only where and whether things happened."""

from __future__ import annotations

import asyncio
import threading

import pytest

from samoobsluha.shared.clock import SystemClock
from samoobsluha.shared.rounds import RoundPlan, Signal
from samoobsluha.station.bell import BellThread, set_realtime
from samoobsluha.station.rounds import GIVEN, Fired, RoundSchedule


class ThreadNotingGong:
    """A gong that notes which thread and which loop rang each pattern."""

    def __init__(self) -> None:
        self.rung: list[tuple[str, str]] = []
        self.loops: set[int] = set()
        self.done = threading.Event()

    async def ring(self, name: str) -> None:
        self.rung.append((name, threading.current_thread().name))
        self.loops.add(id(asyncio.get_running_loop()))
        self.done.set()


@pytest.fixture
def bell_parts(tmp_path):
    clock = SystemClock()
    path = tmp_path / "station.db"
    main = RoundSchedule.open(path, clock=clock)  # the kiosk's / network's connection
    gong = ThreadNotingGong()
    fired: list[Fired] = []
    bell = BellThread(
        lambda: RoundSchedule.open(path, clock=clock),
        clock,
        gong,
        priority=0,
        on_fired=fired.append,
        runner_options={"max_nap": 0.05},
    )
    yield clock, main, gong, fired, bell
    bell.stop()
    main.close()


def test_a_plan_applied_elsewhere_is_rung_on_the_bell_thread(bell_parts):
    clock, main, gong, fired, bell = bell_parts
    bell.start()
    main.add_listener(bell.wake)
    assert bell.running and bell.policy == "normal priority"
    # Already due: the start signal rings at once (well within the 5 s grace).
    main.apply(RoundPlan(1, clock.now() - 0.01, basic_seconds=3600, warning_seconds=600))
    assert gong.done.wait(20), "the bell thread never rang the start signal"
    assert gong.rung == [("start", "bell")]
    bell.stop()
    assert not bell.running
    assert [(f.due.signal, f.outcome) for f in fired] == [(Signal.START, GIVEN)]
    # Recorded through the bell thread's own connection, visible to the kiosk's.
    assert [(r.signal, r.outcome) for r in main.signals(1)] == [(Signal.START, GIVEN)]


def test_rings_from_another_loop_run_on_the_bell_thread(bell_parts):
    _, _, gong, _, bell = bell_parts
    bell.start()

    async def referee_button() -> None:
        await bell.ring("end")

    asyncio.run(referee_button())  # the kiosk's loop, say
    assert gong.rung == [("end", "bell")]
    assert len(gong.loops) == 1  # the outputs only ever see the bell thread's loop


def test_a_schedule_that_cannot_be_opened_fails_start(tmp_path):
    def broken() -> RoundSchedule:
        raise OSError("read-only file system")

    bell = BellThread(broken, SystemClock(), ThreadNotingGong(), priority=0)
    with pytest.raises(OSError, match="read-only"):
        bell.start()


def test_realtime_policy_is_asked_for_and_reported():
    result: list[str] = []

    def probe() -> None:
        result.append(set_realtime(1))

    worker = threading.Thread(target=probe)
    worker.start()
    worker.join()
    # Either granted (root, CAP_SYS_NICE, LimitRTPRIO) or refused with the reason.
    assert result[0] == "SCHED_FIFO 1" or result[0].startswith("normal priority (real-time")
    assert set_realtime(0) == "normal priority"

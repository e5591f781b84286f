"""The round clock end to end on mock pins and a fake clock: a whole 40-minute round,
restart mid-round, the grace rule, pause and extend, cancel — asserted on the bell
pin's timeline and on what the station DB and outbox hold."""

from __future__ import annotations

import asyncio
import threading

import pytest
from gong_testkit import edges
from testkit import until

from samoobsluha.shared.clock import FakeClock, SystemClock
from samoobsluha.shared.rounds import Phase, RoundPlan, Signal
from samoobsluha.station import outbox
from samoobsluha.station.gong import DEFAULT_PATTERNS, GongConfig, Pattern, build_gong
from samoobsluha.station.rounds import GIVEN, MISSED, RoundSchedule, SignalRunner

START, WARNING, END = (DEFAULT_PATTERNS[n].timeline() for n in ("start", "warning", "end"))


def at(offset: float, pattern: list[tuple[float, bool]]) -> list[tuple[float, bool]]:
    """Expected edges of an active-low bell ringing ``pattern`` at ``offset``."""
    return [(round(offset + t, 6), not on) for t, on in pattern]


class Station:
    """One station process: its DB, its bell on pin 5, its runner (fake time)."""

    def __init__(self, path, clock: FakeClock, factory, vsleep) -> None:
        self.schedule = RoundSchedule.open(path, clock=clock)
        self.outputs = build_gong(
            GongConfig(audio="off", button_pin=None, lamp_pin=None),
            pin_factory=factory,
            clock=clock,
            sleep=vsleep,
        )
        self.runner = SignalRunner(self.schedule, clock, self.outputs, sleep=vsleep)

    def crash(self) -> None:
        """The process dies: pins are released, the DB closed (without goodbyes)."""
        self.outputs.close()
        self.schedule.close()


@pytest.fixture
def station(tmp_path, clock, factory, vsleep):
    stations = []

    def start() -> Station:
        s = Station(tmp_path / "station.db", clock, factory, vsleep)
        stations.append(s)
        return s

    yield start
    for s in stations:
        s.outputs.close()  # closing twice is harmless


def signal_rows(schedule: RoundSchedule) -> list[tuple[str, str, float]]:
    return [(r.signal.value, r.outcome, round(r.late, 6)) for r in schedule.signals()]


async def test_whole_40_minute_round(station, clock, factory):
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 60
    plan = RoundPlan(1, t0)
    assert s.schedule.apply(plan)
    assert s.schedule.status(clock.now()).phase is Phase.SCHEDULED
    await s.runner.run(until=plan.end_at() + 60)
    assert edges(pin, t0) == at(0, START) + at(30 * 60, WARNING) + at(40 * 60, END)
    assert signal_rows(s.schedule) == [
        ("start", GIVEN, 0.0),
        ("warning", GIVEN, 0.0),
        ("end", GIVEN, 0.0),
    ]
    status = s.schedule.status(clock.now())
    assert (status.phase, status.remaining) == (Phase.ENDED, 0.0)
    # The hub learns of every signal: one outbox row each, same facts.
    rows = outbox.pending(s.schedule.db)
    assert [r["kind"] for r in rows] == ["signal"] * 3
    assert rows[2]["payload"] == {
        "tournament": "",
        "round": 1,
        "signal": "end",
        "outcome": "given",
        "scheduled_at": t0 + 2400,
        "actual_at": t0 + 2400,
        "revision": 0,
    }


async def test_phases_on_the_clock(station, clock):
    s = station()
    t0 = clock.now() + 10
    s.schedule.apply(RoundPlan(3, t0))
    expected = [
        (-5, Phase.SCHEDULED, 5),
        (0, Phase.RUNNING, 2400),
        (1799, Phase.RUNNING, 601),
        (1800, Phase.WARNING, 600),
        (2399, Phase.WARNING, 1),
        (2400, Phase.ENDED, 0),
        (2400 + 19 * 60, Phase.ENDED, 0),
    ]
    for offset, phase, remaining in expected:
        status = s.schedule.status(t0 + offset)
        assert (status.number, status.phase, status.remaining) == (3, phase, remaining), offset
    assert s.schedule.status(t0 + 2400 + 20 * 60) is None  # play-out shown 20 min, then idle


async def test_restart_mid_round_resumes_without_ringing_twice(station, clock, factory):
    s = station()
    t0 = clock.now() + 5
    s.schedule.apply(RoundPlan(1, t0))
    await s.runner.run(until=t0 + 600)
    s.crash()

    clock.advance(20)  # reboot
    s2 = station()
    status = s2.schedule.status(clock.now())
    assert (status.phase, status.remaining) == (Phase.RUNNING, 2400 - 620)
    pin = factory.pin(5)
    pin.clear_states()
    await s2.runner.run(until=t0 + 2500)
    assert edges(pin, t0) == at(1800, WARNING) + at(2400, END)  # no second start
    assert signal_rows(s2.schedule) == [
        ("start", GIVEN, 0.0),
        ("warning", GIVEN, 0.0),
        ("end", GIVEN, 0.0),
    ]


@pytest.mark.parametrize(
    ("down_until", "outcome", "late"),
    [(3.0, GIVEN, 3.0), (5.0, GIVEN, 5.0), (5.5, MISSED, 5.5), (120.0, MISSED, 120.0)],
)
async def test_grace_rule(station, clock, factory, down_until, outcome, late):
    """A signal due while the station was down rings only within 5 s of its instant."""
    s = station()
    t0 = clock.now() + 5
    s.schedule.apply(RoundPlan(1, t0))
    await s.runner.run(until=t0 + 1700)
    s.crash()
    clock.set_wall(t0 + 1800 + down_until)  # back up after the warning was due
    s2 = station()
    pin = factory.pin(5)
    pin.clear_states()
    await s2.runner.run(until=t0 + 2500)
    expected = (at(1800 + late, WARNING) if outcome == GIVEN else []) + at(2400, END)
    assert edges(pin, t0) == expected
    warning = s2.schedule.signals(1)[1]
    assert (warning.signal, warning.outcome, round(warning.late, 6)) == (
        Signal.WARNING,
        outcome,
        late,
    )
    payloads = [r["payload"] for r in outbox.pending(s2.schedule.db)]
    assert [(p["signal"], p["outcome"]) for p in payloads] == [
        ("start", GIVEN),
        ("warning", outcome),
        ("end", GIVEN),
    ]


async def test_plan_arriving_late_logs_missed_and_rings_the_rest(station, clock, factory):
    """A station that joins mid-round does not gong the start in the middle of play."""
    s = station()
    t0 = clock.now() - 900
    pin = factory.pin(5)
    pin.clear_states()
    s.schedule.apply(RoundPlan(2, t0))
    await s.runner.run(until=t0 + 2401)
    assert edges(pin, t0) == at(1800, WARNING) + at(2400, END)
    assert [(r.signal.value, r.outcome) for r in s.schedule.signals(2)] == [
        ("start", MISSED),
        ("warning", GIVEN),
        ("end", GIVEN),
    ]


async def test_pause_and_extend(station, clock, factory):
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 5
    s.schedule.apply(RoundPlan(1, t0))
    await s.runner.run(until=t0 + 600)
    # The referee stops the clock for two minutes (a dispute in the hall) …
    paused = s.schedule.apply(s.schedule.plan(1).paused(clock.now()))
    assert paused
    await s.runner.run(until=t0 + 720)
    status = s.schedule.status(clock.now())
    assert status.paused and status.remaining == pytest.approx(1800)
    s.schedule.apply(s.schedule.plan(1).resumed(clock.now()))
    # … and later gives five more minutes (a late start at some tables).
    await s.runner.run(until=t0 + 1000)
    s.schedule.apply(s.schedule.plan(1).extended(300))
    await s.runner.run(until=t0 + 3000)
    shift = 120 + 300
    assert edges(pin, t0) == at(0, START) + at(1800 + shift, WARNING) + at(2400 + shift, END)
    assert all(r.outcome == GIVEN and r.late == pytest.approx(0) for r in s.schedule.signals())
    assert [r.revision for r in s.schedule.signals()] == [0, 3, 3]


async def test_extend_after_warning_does_not_ring_it_again(station, clock, factory):
    s = station()
    t0 = clock.now() + 5
    s.schedule.apply(RoundPlan(1, t0))
    await s.runner.run(until=t0 + 2000)
    pin = factory.pin(5)
    pin.clear_states()
    s.schedule.apply(s.schedule.plan(1).extended(180))
    await s.runner.run(until=t0 + 2700)
    assert edges(pin, t0) == at(2580, END)


async def test_delay_before_start_and_cancel(station, clock, factory):
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 60
    s.schedule.apply(RoundPlan(4, t0))
    await s.runner.run(until=t0 - 30)
    s.schedule.apply(s.schedule.plan(4).delayed(300))
    await s.runner.run(until=t0 + 600)
    s.schedule.apply(s.schedule.plan(4).cancelled_plan())
    assert s.schedule.status(clock.now()).phase is Phase.CANCELLED
    await s.runner.run(until=t0 + 3600)
    assert edges(pin, t0) == at(300, START)  # no warning, no end after the cancel
    assert s.schedule.status(clock.now()) is None  # shown 20 minutes, then idle


async def test_coinciding_signals_ring_only_the_latest(station, clock, factory):
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 5
    s.schedule.apply(RoundPlan(1, t0, basic_seconds=600, warning_seconds=0))
    await s.runner.run(until=t0 + 700)
    assert edges(pin, t0) == at(0, START) + at(600, END)
    assert [(r.signal.value, r.outcome) for r in s.schedule.signals()] == [
        ("start", GIVEN),
        ("warning", MISSED),
        ("end", GIVEN),
    ]


async def test_next_round_scheduled_during_playout(station, clock):
    s = station()
    t0 = clock.now()
    s.schedule.apply(RoundPlan(1, t0))
    s.schedule.apply(RoundPlan(2, t0 + 3300))
    assert s.schedule.current(t0 + 100).number == 1
    assert s.schedule.status(t0 + 2500).phase is Phase.SCHEDULED  # next round shown
    assert s.schedule.current(t0 + 2500).number == 2


def test_revisions_newest_wins_and_hub_overrides_local(tmp_path, clock):
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    plan = RoundPlan(1, clock.now() + 60)
    assert schedule.apply(plan)
    assert not schedule.apply(plan)  # delivered twice: nothing changes
    newer = plan.delayed(60)
    assert schedule.apply(newer)
    assert not schedule.apply(plan)  # out of order: the older one is ignored
    assert schedule.plan(1) == newer
    history = list(schedule.db["round_plan_history"].rows)
    assert [h["revision"] for h in history] == [0, 1]

    from samoobsluha.station.rounds import RoundError

    with pytest.raises(RoundError, match="round 1 is scheduled"):
        schedule.start_local()
    clock.advance(3 * 3600)
    local = schedule.start_local(number=2, lead=10)

    with pytest.raises(RoundError, match="run by the hub"):
        schedule.change_local(lambda p, now: p.paused(now), number=1)
    hub = RoundPlan(2, clock.now() + 30)  # revision 0 from the hub still takes over
    assert schedule.apply(hub)
    assert schedule.plan(2) == hub and schedule.plans()[1].source == "hub"
    assert local.revision == 0


def test_start_local_refuses_while_a_round_runs(tmp_path, clock):
    from samoobsluha.station.rounds import RoundError

    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    first = schedule.start_local()
    assert (first.number, first.start_at) == (1, clock.now())
    with pytest.raises(RoundError, match="round 1 is running"):
        schedule.start_local()
    clock.advance(2400)
    assert schedule.start_local().number == 2


def test_another_process_sees_changes(tmp_path, clock):
    a = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    b = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    assert b.status(clock.now()) is None
    a.apply(RoundPlan(1, clock.now() + 30))
    assert b.status(clock.now()).phase is Phase.SCHEDULED


class Recorder:
    def __init__(self, clock) -> None:
        self.clock = clock
        self.rung: list[tuple[str, float]] = []

    async def ring(self, name: str) -> None:
        self.rung.append((name, self.clock.now()))

    def describe(self) -> str:
        return "recorder"


async def test_real_asyncio_runner_wakes_on_new_plan(tmp_path):
    clock = SystemClock()
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    gong = Recorder(clock)
    runner = SignalRunner(schedule, clock, gong, max_nap=30.0)
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(0.05)  # the runner now naps up to 30 s
    plan = RoundPlan(1, clock.now() + 0.3, basic_seconds=1.5, warning_seconds=0.7)
    schedule.apply(plan)  # wakes it
    await until(lambda: len(gong.rung) == 3, 25)
    runner.stop()
    await asyncio.wait_for(task, 5)
    assert [name for name, _ in gong.rung] == ["start", "warning", "end"]
    due = plan.signal_times()
    for name, fired in gong.rung:
        # woken by the plan, not after its 30 s nap (the precision is bench/gong.py's
        # figure; a busy machine may delay a ring by seconds, never by the nap)
        assert 0 <= fired - due[Signal(name)] < 15


async def test_wake_from_another_thread_and_process(tmp_path):
    """A plan written by another connection (another thread or process, e.g. the CLI)
    is picked up when that writer calls wake() from its own thread."""
    clock = SystemClock()
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    gong = Recorder(clock)
    runner = SignalRunner(schedule, clock, gong, max_nap=30.0)
    task = asyncio.create_task(runner.run())
    await asyncio.sleep(0.05)

    def writer() -> None:
        other = RoundSchedule.open(tmp_path / "s.db", clock=clock)
        other.apply(RoundPlan(7, clock.now() + 0.02, basic_seconds=10, warning_seconds=5))
        other.close()
        runner.wake()

    thread = threading.Thread(target=writer)
    thread.start()
    thread.join()
    await until(lambda: gong.rung, 25)
    runner.stop()
    await asyncio.wait_for(task, 5)
    assert [name for name, _ in gong.rung] == ["start"]


async def test_bell_sounds_before_the_record_is_written(tmp_path):
    """The fsync of the signal's record must not delay the bell: the pin is already
    on when the runner writes the record (real asyncio, real clock, real outputs)."""
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    clock = SystemClock()
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    outputs = build_gong(
        GongConfig(
            audio="on",
            button_pin=None,
            lamp_pin=None,
            patterns={
                "start": Pattern((0.05,)),
                "warning": Pattern((0.05,)),
                "end": Pattern((0.05,)),
            },
        ),
        pin_factory=factory,
        sound=Recorder(clock),
    )
    levels = []
    record = schedule.record

    def spy(due, outcome, actual_at):
        levels.append((due.signal.value, factory.pin(5).state))
        return record(due, outcome, actual_at)

    schedule.record = spy
    runner = SignalRunner(schedule, clock, outputs)
    task = asyncio.create_task(runner.run())
    schedule.apply(RoundPlan(1, clock.now() + 0.02, basic_seconds=600, warning_seconds=60))
    await asyncio.sleep(0.1)
    runner.stop()
    await asyncio.wait_for(task, 5)
    assert levels == [("start", False)]  # active-low: low = ringing
    assert factory.pin(5).state is True
    assert outputs.sound.rung[0][0] == "start"  # the speaker sounded with the bell
    outputs.close()
    factory.close()


async def test_next_tournament_starts_again_at_round_1(tmp_path, clock, factory, vsleep):
    """The same station DB serves the next tournament: its round 1 is a new round."""
    path = tmp_path / "s.db"
    gong = build_gong(
        GongConfig(audio="off", button_pin=None, lamp_pin=None),
        pin_factory=factory,
        sleep=vsleep,
    )
    spring = RoundSchedule.open(path, clock=clock, tournament="brno-2026-03")
    spring.apply(RoundPlan(1, clock.now() + 5, revision=4))
    await SignalRunner(spring, clock, gong, sleep=vsleep).run(until=clock.now() + 3000)
    assert len(spring.signals()) == 3

    autumn = RoundSchedule.open(path, clock=clock, tournament="praha-2026-10")
    assert autumn.status(clock.now()) is None
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 5
    assert autumn.apply(RoundPlan(1, t0))  # revision 0, yet not "older" than spring's 4
    await SignalRunner(autumn, clock, gong, sleep=vsleep).run(until=t0 + 10)
    assert edges(pin, t0) == at(0, START)
    assert [r["payload"]["tournament"] for r in outbox.pending(autumn.db)][-1] == "praha-2026-10"
    assert len(spring.signals()) == 3  # the spring record is untouched
    gong.close()


def test_upgrade_from_a_db_without_tournaments(tmp_path, clock):
    """A station DB written before rounds were scoped by tournament keeps its rounds
    (tournament "") and signals."""
    from sqlite_utils.migrations import Migrations

    from samoobsluha.shared.storage import open_db
    from samoobsluha.station.rounds import m001_rounds

    old = Migrations("station.rounds")
    old()(m001_rounds)
    db = open_db(tmp_path / "s.db", outbox.migrations, old)
    db["round_plans"].insert(
        {
            "number": 1,
            "revision": 2,
            "source": "hub",
            "plan": '{"number": 1, "start_at": 100.0, "revision": 2}',
            "applied_at": 50.0,
        }
    )
    db["round_signals"].insert(
        {
            "number": 1,
            "signal": "start",
            "outcome": "given",
            "scheduled_at": 100.0,
            "actual_at": 100.001,
            "revision": 2,
        }
    )
    db.close()
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=clock)
    assert schedule.plan(1).revision == 2
    assert [(r.signal, r.outcome) for r in schedule.signals()] == [(Signal.START, GIVEN)]
    assert not schedule.apply(RoundPlan(1, 100.0, revision=1))  # still older


async def test_stop_before_run_is_not_lost(tmp_path):
    schedule = RoundSchedule.open(tmp_path / "s.db", clock=SystemClock())
    runner = SignalRunner(schedule, SystemClock(), Recorder(SystemClock()), max_nap=30)
    runner.stop()  # e.g. SIGTERM during startup
    await asyncio.wait_for(runner.run(), 2)


async def test_the_garbage_collector_is_held_off_just_before_each_signal(tmp_path, clock, vsleep):
    """With ``gc_window`` (the bell thread), no cyclic collection can start in the last
    second before a signal, in any thread of the process; between signals, and once the
    runner stops, the collector runs as before."""
    import gc

    class Observer:
        def __init__(self) -> None:
            self.rings: list[tuple[str, bool]] = []

        async def ring(self, name: str) -> None:
            self.rings.append((name, gc.isenabled()))

    schedule = RoundSchedule.open(tmp_path / "station.db", clock=clock)
    gong = Observer()
    seen: list[tuple[float, bool]] = []

    async def watching_sleep(seconds: float) -> None:
        seen.append((round(clock.now(), 6), gc.isenabled()))
        await vsleep(seconds)

    runner = SignalRunner(schedule, clock, gong, sleep=watching_sleep, gc_window=1.0)
    t0 = clock.now() + 60
    plan = RoundPlan(1, t0, basic_seconds=600, warning_seconds=300)
    schedule.apply(plan)
    assert gc.isenabled()
    try:
        await runner.run(until=plan.end_at() + 60)
    finally:
        held = not gc.isenabled()
        gc.enable()
        schedule.close()
    assert not held  # enabled again when the runner stopped
    assert gong.rings == [("start", False), ("warning", False), ("end", False)]
    # long naps between signals with the collector on; only the last second without it
    assert all(enabled for at, enabled in seen if at < t0 - 1.0 - 1e-6)
    assert any(enabled for at, enabled in seen if t0 + 1 < at < t0 + 300 - 1.0)


async def test_a_round_started_again_rings_its_signals_again(station, clock, factory):
    """The referee starts a round again (the hub's forced start: a new epoch): the start
    rings at the new start, and warning and end follow the new plan; a change within one
    start (extend) never re-rings the start."""
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now() + 5
    first = RoundPlan(1, t0)
    s.schedule.apply(first)
    await s.runner.run(until=t0 + 120)
    extended = first.extended(60)
    s.schedule.apply(extended)
    await s.runner.run(until=t0 + 240)
    assert edges(pin, t0) == at(0, START)  # extending did not ring the start again
    t1 = clock.now() + 5
    again = extended.restarted(t1)
    assert (again.epoch, again.revision, again.extra_seconds) == (1, 2, 0.0)
    assert s.schedule.apply(again)
    await s.runner.run(until=again.end_at() + 60)
    assert edges(pin, t0) == at(0, START) + [
        (round(t1 - t0 + t, 6), v) for t, v in at(0, START) + at(1800, WARNING) + at(2400, END)
    ]
    assert [(r.signal.value, r.outcome, r.epoch) for r in s.schedule.signals(1)] == [
        ("start", GIVEN, 1),
        ("warning", GIVEN, 1),
        ("end", GIVEN, 1),
    ]
    assert [(r.signal.value, r.epoch) for r in s.schedule.signals(1, every_start=True)] == [
        ("start", 0),
        ("start", 1),
        ("warning", 1),
        ("end", 1),
    ]
    # a restarted plan travels with its epoch; a first start without one (old stations)
    assert RoundPlan.from_dict(again.to_dict()) == again
    assert "epoch" not in first.to_dict()


async def test_a_cancelled_local_round_started_again_rings(station, clock, factory):
    s = station()
    pin = factory.pin(5)
    pin.clear_states()
    t0 = clock.now()
    s.schedule.start_local(number=1, lead=2)
    await s.runner.run(until=t0 + 60)
    s.schedule.change_local(lambda p, now: p.cancelled_plan(), 1)
    plan = s.schedule.start_local(number=1, lead=2)
    assert plan.epoch == 1
    await s.runner.run(until=plan.start_at + 10)
    assert [(r.signal.value, r.outcome) for r in s.schedule.signals(1)] == [("start", GIVEN)]
    assert len([e for e in edges(pin, t0) if e[1] is False]) == 2  # two start strokes

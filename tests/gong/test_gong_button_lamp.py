"""The referee button (debounce, short/long press, what a press does) and the status
lamp, on mock pins with a fake clock."""

from __future__ import annotations

import asyncio
import time

import pytest
from gong_testkit import edges

from samoobsluha.shared.rounds import Phase, RoundPlan
from samoobsluha.station.gong import (
    DEFAULT_PATTERNS,
    GongConfig,
    RefereeActions,
    attach_button,
    build_gong,
)
from samoobsluha.station.hardware import Lamp, RefereeButton
from samoobsluha.station.rounds import RoundSchedule, SignalRunner


class Presses:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def short(self) -> None:
        self.seen.append("short")

    def long(self) -> None:
        self.seen.append("long")


@pytest.fixture
def button(factory, clock):
    presses = Presses()
    b = RefereeButton(
        26,
        clock=clock,
        long_press=3.0,
        debounce=0.05,
        on_short=presses.short,
        on_long=presses.long,
        pin_factory=factory,
    )
    b.presses = presses
    yield b
    b.close()


def press(factory, clock, seconds: float, pin: int = 26) -> None:
    """Hold the button (to ground, pull-up) for ``seconds`` of fake time."""
    clock.advance(0.5)  # a hand needs longer than the debounce time to press again
    factory.pin(pin).drive_low()
    clock.advance(seconds)
    factory.pin(pin).drive_high()


def test_short_and_long_press(button, factory, clock):
    assert factory.pin(26).state is True  # pulled up, not pressed
    press(factory, clock, 0.3)
    clock.advance(1)
    press(factory, clock, 3.5)
    clock.advance(1)
    press(factory, clock, 2.9)
    assert button.presses.seen == ["short", "long", "short"]


def test_contact_bounce_is_one_press(button, factory, clock):
    pin = factory.pin(26)
    # make: the contacts chatter for 6 ms
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.4)
    # break: chatter again
    for _ in range(3):
        pin.drive_high()
        clock.advance(0.001)
        pin.drive_low()
        clock.advance(0.001)
    pin.drive_high()
    clock.advance(1)
    assert button.presses.seen == ["short"]


def test_a_lone_spike_is_not_a_press_and_does_not_poison_the_next(button, factory, clock):
    press(factory, clock, 0.002)  # interference on a long cable
    assert button.presses.seen == []
    clock.advance(60)
    press(factory, clock, 0.3)
    assert button.presses.seen == ["short"]  # not "long" measured from the spike


@pytest.fixture
def schedule(tmp_path, clock):
    s = RoundSchedule.open(tmp_path / "station.db", clock=clock)
    yield s
    s.close()


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_standalone_short_press_starts_round_long_press_pauses(
    schedule, factory, clock, vsleep
):
    cfg = GongConfig(audio="off", lamp_pin=None)
    outputs = build_gong(cfg, pin_factory=factory, clock=clock, sleep=vsleep)
    actions = RefereeActions(schedule, outputs.ring, config=cfg, standalone=True)
    attach_button(outputs.button, actions, asyncio.get_running_loop())
    runner = SignalRunner(schedule, clock, outputs, sleep=vsleep)
    bell = factory.pin(5)
    bell.clear_states()

    t0 = clock.now()
    press(factory, clock, 0.2)
    await settle()
    t_start = t0 + 0.7  # the press is classified (short) when released
    assert schedule.status(clock.now()).phase is Phase.RUNNING
    await runner.run(until=t_start + 600)
    assert edges(bell, t0) == [(0.7, False), (2.2, True)]  # start rang at the release

    press(factory, clock, 0.2)  # a second short press does not restart the round
    await settle()
    assert actions.history[-1][1] == "refused: round 1 is running; finish it first"

    press(factory, clock, 3.2)  # long press: pause
    await settle()
    assert schedule.status(clock.now()).paused
    clock.advance(60)
    press(factory, clock, 3.0)  # long press again: resume
    await settle()
    status = schedule.status(clock.now())
    assert not status.paused and schedule.plan(1).paused_total == pytest.approx(63.5)
    assert [h[1] for h in actions.history] == [
        "round 1 started",
        "refused: round 1 is running; finish it first",
        "round 1 paused",
        "round 1 resumed",
    ]
    outputs.close()


async def test_networked_short_press_rings_manual_gong(schedule, factory, clock, vsleep):
    cfg = GongConfig(audio="off", lamp_pin=None)
    outputs = build_gong(cfg, pin_factory=factory, clock=clock, sleep=vsleep)
    actions = RefereeActions(schedule, outputs.ring, config=cfg, standalone=False)
    attach_button(outputs.button, actions, asyncio.get_running_loop())
    bell = factory.pin(5)
    bell.clear_states()
    t0 = clock.now()
    press(factory, clock, 0.1)
    await settle()
    assert edges(bell, t0) == [(0.6, False), (2.1, True)]
    assert schedule.status(clock.now()) is None  # no local round behind the hub's back
    press(factory, clock, 3.1)  # long press (pause) is refused: the hub runs the rounds
    await settle()
    assert actions.history == [("gong", "rang"), ("pause", "refused: the hub runs the rounds")]
    outputs.close()


async def test_button_actions_are_configurable(schedule, factory, clock, vsleep):
    cfg = GongConfig(audio="off", lamp_pin=None, short_press="none", long_press="cancel")
    outputs = build_gong(cfg, pin_factory=factory, clock=clock, sleep=vsleep)
    actions = RefereeActions(schedule, outputs.ring, config=cfg, standalone=True)
    attach_button(outputs.button, actions, asyncio.get_running_loop())
    schedule.apply(RoundPlan(1, clock.now() - 10), source="local")
    press(factory, clock, 0.2)
    press(factory, clock, 4.0)
    await settle()
    assert [h[0] for h in actions.history] == ["none", "cancel"]
    assert schedule.status(clock.now()).phase is Phase.CANCELLED
    outputs.close()


def test_lamp_steady_when_synced_blinking_when_not():
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    lamp = Lamp(13, blink_on=0.02, blink_off=0.02, pin_factory=factory)
    pin = factory.pin(13)
    assert pin.state is False and lamp.state == "off"
    lamp.show(synced=True)
    pin.clear_states()
    time.sleep(0.15)
    assert pin.state is True and len(pin.states) == 1 and lamp.state == "steady"
    lamp.show(synced=False)
    time.sleep(0.2)
    assert len(pin.states) >= 5 and lamp.state == "blinking"  # toggling
    lamp.show(synced=True)
    pin.clear_states()
    time.sleep(0.1)
    assert pin.state is True and len(pin.states) == 1
    lamp.close()
    assert pin.state is False
    factory.close()


def test_patterns_reach_the_bell_from_config(factory, clock):
    cfg = GongConfig.parse({"patterns": {"start": [3.0], "gap": 1.0}})
    assert cfg.patterns["start"].pulses == (3.0,)
    assert cfg.patterns["end"] == type(DEFAULT_PATTERNS["end"])((1.5, 1.5, 1.5), 1.0)
    outputs = build_gong(cfg, pin_factory=factory, with_button=False, with_lamp=False)
    assert outputs.bell.patterns["start"].pulses == (3.0,)
    outputs.close()

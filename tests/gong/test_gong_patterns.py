"""The bell's pin timeline for each pattern, active-high and active-low, and the
guarantees that it ends off (cancel, failure, close, exit, SIGTERM)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import wave

import pytest
from gong_testkit import edges

from samoobsluha.station.gong import DEFAULT_PATTERNS, AudioGong, Pattern, TerminalBell, render_wav
from samoobsluha.station.hardware import Bell, _all_off


def level(on: bool, active_high: bool) -> bool:
    return on if active_high else not on


@pytest.mark.parametrize("active_high", [True, False], ids=["active-high", "active-low"])
@pytest.mark.parametrize("name", ["start", "warning", "end"])
async def test_pattern_timeline(name, active_high, factory, clock, vsleep):
    bell = Bell(
        5, active_high=active_high, patterns=DEFAULT_PATTERNS, sleep=vsleep, pin_factory=factory
    )
    pin = factory.pin(5)
    # Off from the first instant: an active-low relay input sits high.
    assert pin.state == level(False, active_high)
    pin.clear_states()
    t0 = clock.now()
    await bell.ring(name)
    expected = [(t, level(on, active_high)) for t, on in DEFAULT_PATTERNS[name].timeline()]
    assert edges(pin, t0) == expected
    assert pin.state == level(False, active_high)
    bell.close()


def test_default_patterns_are_distinct():
    # ČAS 4.1 / 6.1: start, 10 minutes and end must be told apart by ear.
    timelines = {name: tuple(p.timeline()) for name, p in DEFAULT_PATTERNS.items()}
    assert len(set(timelines.values())) == 3
    assert [len(p.pulses) for p in DEFAULT_PATTERNS.values()] == [1, 2, 3]
    assert DEFAULT_PATTERNS["warning"].pulses[0] < DEFAULT_PATTERNS["start"].pulses[0]


def test_pattern_durations():
    assert DEFAULT_PATTERNS["end"].duration == pytest.approx(3 * 1.5 + 2 * 0.6)
    assert Pattern((1.0,), 5.0).duration == 1.0
    with pytest.raises(ValueError):
        Pattern(())
    with pytest.raises(ValueError):
        Pattern((0.0,))


async def test_gpiozero_assert_states_and_times(factory, vsleep):
    """The fake-clock pins keep gpiozero's own state format."""
    bell = Bell(6, active_high=True, patterns=DEFAULT_PATTERNS, sleep=vsleep, pin_factory=factory)
    factory.pin(6).clear_states()
    await bell.ring("warning")
    factory.pin(6).assert_states_and_times(
        [(0.0, False), (0.0, True), (0.4, False), (0.6, True), (0.4, False)]
    )


async def test_cancelled_pattern_ends_off(factory):
    bell = Bell(5, patterns=DEFAULT_PATTERNS, pin_factory=factory)  # real asyncio.sleep
    task = asyncio.create_task(bell.ring("end"))
    await asyncio.sleep(0.01)
    assert bell.is_ringing and factory.pin(5).state is False  # active-low: on = low
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not bell.is_ringing and factory.pin(5).state is True


async def test_failing_sleep_leaves_bell_off(factory):
    async def broken(seconds: float) -> None:
        raise RuntimeError("boom")

    bell = Bell(5, patterns=DEFAULT_PATTERNS, sleep=broken, pin_factory=factory)
    with pytest.raises(RuntimeError):
        await bell.ring("start")
    assert not bell.is_ringing


def test_close_and_context_manager_switch_off(factory):
    with Bell(5, active_high=True, patterns=DEFAULT_PATTERNS, pin_factory=factory) as bell:
        bell.on()
        assert factory.pin(5).state is True
        assert "ringing" in repr(bell)
    assert factory.pin(5).state is False
    assert repr(bell) == "<Bell closed>"
    bell.close()  # twice is fine


def test_exit_hook_switches_every_live_bell_off(factory):
    bell = Bell(5, active_high=False, patterns=DEFAULT_PATTERNS, pin_factory=factory)
    bell.on()
    assert factory.pin(5).state is False
    _all_off()  # what atexit runs
    assert factory.pin(5).state is True
    bell.close()


def test_sigterm_switches_bell_off_in_a_real_process(tmp_path):
    """A SIGTERM while the bell sounds must leave the relay off (pin level recorded by
    an exit hook that runs after ours)."""
    script = textwrap.dedent(
        """
        import atexit, os, signal, time
        from gpiozero.pins.mock import MockFactory
        factory = MockFactory()
        atexit.register(lambda: print("exit level", factory.pin(5).state, flush=True))
        from samoobsluha.station.gong import DEFAULT_PATTERNS
        from samoobsluha.station.hardware import Bell, guard_outputs
        bell = Bell(5, active_high=False, patterns=DEFAULT_PATTERNS, pin_factory=factory)
        guard_outputs()
        bell.on()
        print("ringing level", factory.pin(5).state, flush=True)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
        print("not reached")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 128 + 15, proc.stderr
    assert proc.stdout.splitlines() == ["ringing level False", "exit level True"]


def test_render_wav(tmp_path):
    path = render_wav(DEFAULT_PATTERNS["warning"], tmp_path / "w.wav")
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        seconds = wav.getnframes() / wav.getframerate()
    assert seconds == pytest.approx(DEFAULT_PATTERNS["warning"].duration + 0.3, abs=0.01)


async def test_audio_gong_plays_generated_wav_through_player(tmp_path):
    player = tmp_path / "aplay"
    log = tmp_path / "played"
    player.write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    player.chmod(0o755)
    audio = AudioGong(DEFAULT_PATTERNS, player=str(player), device="hw:1", cache_dir=tmp_path)
    assert audio.available
    await audio.ring("end")
    await audio.ring("end")  # the WAV is rendered once and reused
    played = log.read_text().splitlines()
    assert len(played) == 2 and played[0] == played[1]
    assert played[0].startswith("-q -D hw:1 ") and played[0].endswith(".wav")
    assert len(list(tmp_path.glob("end-*.wav"))) == 1


def test_audio_gong_without_player():
    assert not AudioGong(DEFAULT_PATTERNS, player="").available


async def test_terminal_bell_rings_once_per_stroke(io_stream, vsleep, clock):
    bell = TerminalBell(DEFAULT_PATTERNS, stream=io_stream, sleep=vsleep)
    t0 = clock.now()
    await bell.ring("end")
    assert io_stream.getvalue() == "\a\a\a"
    assert clock.now() - t0 == pytest.approx(DEFAULT_PATTERNS["end"].duration)


@pytest.fixture
def io_stream():
    import io

    return io.StringIO()


def test_build_gong_renders_the_sounds_at_startup(tmp_path, monkeypatch):
    from gpiozero.pins.mock import MockFactory

    from samoobsluha.station.gong import GongConfig, build_gong

    player = tmp_path / "aplay"
    player.write_text("#!/bin/sh\nexit 0\n")
    player.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{__import__('os').environ['PATH']}")
    factory = MockFactory()
    outputs = build_gong(GongConfig(audio="on"), pin_factory=factory)
    assert isinstance(outputs.sound, AudioGong) and outputs.sound.player == str(player)
    rendered = sorted(p.name.split("-")[0] for p in (tmp_path / "data" / "gong").glob("*.wav"))
    assert rendered == ["end", "start", "warning"]
    assert "audio via" in outputs.summary()
    outputs.close()
    factory.close()

"""The station's gong: configuration, ring patterns, the audio fallback, and the set of
outputs a station actually has.

``[gong]`` in ``station.toml`` (every key optional; see docs/gong.md)::

    [gong]
    bell_pin = 5              # BCM number or "GPIO5"; false = no bell
    bell_active_high = false  # opto-isolated relay modules switch on a LOW input
    button_pin = 26
    lamp_pin = 13
    audio = "auto"            # auto | on | off

    [gong.patterns]           # seconds the bell sounds, per stroke
    start = [1.5]
    warning = [0.4, 0.4]
    end = [1.5, 1.5, 1.5]
    gap = 0.6                 # silence between strokes

:func:`build_gong` turns that into a :class:`GongOutputs` (bell, audio, lamp, button),
which is what :class:`station.rounds.SignalRunner` rings::

    outputs = build_gong(GongConfig.from_station(config.load()))
    log.info(outputs.summary())        # which outputs are live, which simulated
    await outputs.ring("warning")
    outputs.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import math
import shutil
import struct
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from samoobsluha.shared.clock import Clock
from samoobsluha.shared.i18n import Phrase, reason
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.rounds import BASIC_SECONDS, WARNING_SECONDS
from samoobsluha.station.config import ConfigError, StationConfig
from samoobsluha.station.hardware import (
    Bell,
    HardwareError,
    Lamp,
    RefereeButton,
    Sleep,
    detect_pin_factory,
)
from samoobsluha.station.rounds import RoundError, RoundSchedule

log = logging.getLogger(__name__)

SIGNAL_NAMES = ("start", "warning", "end")
BUTTON_ACTIONS = ("auto", "start", "gong", "pause", "cancel", "none")


# ---------------------------------------------------------------------------------------
# patterns
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pattern:
    """Strokes of the bell: each pulse is how long it sounds; ``gap`` separates them."""

    pulses: tuple[float, ...]
    gap: float = 0.6

    def __post_init__(self) -> None:
        if not self.pulses or any(p <= 0 or p > 30 for p in self.pulses):
            raise ValueError(Phrase("gong.err.strokes"))
        if not 0 <= self.gap <= 30:
            raise ValueError(Phrase("gong.err.gap_range"))

    @property
    def duration(self) -> float:
        return sum(self.pulses) + self.gap * (len(self.pulses) - 1)

    def timeline(self) -> list[tuple[float, bool]]:
        """(offset, on) for every edge, starting with (0.0, True)."""
        edges: list[tuple[float, bool]] = []
        t = 0.0
        for i, pulse in enumerate(self.pulses):
            edges.append((t, True))
            t += pulse
            edges.append((t, False))
            if i < len(self.pulses) - 1:
                t += self.gap
        return edges


LONG, SHORT, GAP = 1.5, 0.4, 0.6
DEFAULT_PATTERNS: dict[str, Pattern] = {
    "start": Pattern((LONG,), GAP),  # one long
    "warning": Pattern((SHORT, SHORT), GAP),  # two short: 10 minutes left
    "end": Pattern((LONG, LONG, LONG), GAP),  # three long: basic time over
}


# ---------------------------------------------------------------------------------------
# configuration
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GongConfig:
    """The ``[gong]`` section: pin map, wiring, button behaviour, timing, patterns."""

    bell_pin: int | str | None = 5
    bell_active_high: bool = False
    button_pin: int | str | None = 26
    button_pull_up: bool = True
    lamp_pin: int | str | None = 13
    lamp_active_high: bool = True
    long_press_seconds: float = 3.0
    debounce_ms: float = 50.0
    short_press: str = "auto"
    long_press: str = "pause"
    audio: str = "auto"
    audio_device: str = ""
    grace_seconds: float = 5.0
    basic_minutes: float = BASIC_SECONDS / 60
    warning_minutes: float = WARNING_SECONDS / 60
    playout_display_minutes: float = 20.0
    patterns: Mapping[str, Pattern] = field(default_factory=lambda: dict(DEFAULT_PATTERNS))

    PIN_KEYS = ("bell_pin", "button_pin", "lamp_pin")

    @classmethod
    def from_station(cls, config: StationConfig) -> GongConfig:
        return cls.parse(config.section("gong"), where=str(config.path or "defaults"))

    @classmethod
    def parse(cls, section: Mapping[str, Any], *, where: str = "station.toml") -> GongConfig:
        """Validate ``[gong]``; a bad value is a :class:`ConfigError` naming the key."""

        def bad(key: str, why: str) -> ConfigError:
            return ConfigError(Phrase("gong.err.key", where=where, key=key, why=why))

        known = {f.name for f in cls.__dataclass_fields__.values()}
        values: dict[str, Any] = {}
        for key, value in section.items():
            if key not in known:
                raise bad(key, Phrase("gong.err.unknown_key", known=", ".join(sorted(known))))
            default = getattr(cls, key, None) if key != "patterns" else None
            if key in cls.PIN_KEYS:
                values[key] = _pin(value, functools.partial(bad, key))
            elif key == "patterns":
                values[key] = _patterns(value, lambda why: bad("patterns", why))
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise bad(key, Phrase("gong.err.bool"))
                values[key] = value
            elif isinstance(default, float):
                if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                    raise bad(key, Phrase("gong.err.number"))
                values[key] = float(value)
            else:
                if not isinstance(value, str):
                    raise bad(key, Phrase("gong.err.string"))
                values[key] = value
        cfg = cls(**values)
        for key, allowed in (
            ("short_press", BUTTON_ACTIONS),
            ("long_press", BUTTON_ACTIONS),
            ("audio", ("auto", "on", "off")),
        ):
            if getattr(cfg, key) not in allowed:
                raise bad(key, Phrase("gong.err.one_of", choices=", ".join(allowed)))
        if cfg.warning_minutes >= cfg.basic_minutes or cfg.basic_minutes <= 0:
            raise bad("warning_minutes", Phrase("gong.err.warning"))
        seen: dict[str, str] = {}
        for key in cls.PIN_KEYS:
            pin = getattr(cfg, key)
            if pin is None:
                continue
            norm = _pin_key(pin)
            if norm in seen:
                raise bad(key, Phrase("gong.err.pin_used", pin=repr(pin), other=seen[norm]))
            seen[norm] = key
        return cfg

    @property
    def grace(self) -> float:
        return self.grace_seconds

    @property
    def basic_seconds(self) -> float:
        return self.basic_minutes * 60

    @property
    def warning_seconds(self) -> float:
        return self.warning_minutes * 60


def _pin(value: Any, bad: Callable[[str], ConfigError]) -> int | str | None:
    if value is False or value == "" or (isinstance(value, str) and value.lower() == "none"):
        return None
    if isinstance(value, bool):
        raise bad(Phrase("gong.err.pin_true"))
    if isinstance(value, int):
        if not 0 <= value <= 53:
            raise bad(Phrase("gong.err.pin_range", value=value))
        return value
    if isinstance(value, str):
        return value.strip()
    raise bad(Phrase("gong.err.pin_kind"))


def _pin_key(pin: int | str) -> str:
    text = str(pin).upper()
    for prefix in ("GPIO", "BCM"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return str(int(text[len(prefix) :]))
    return text


def _patterns(value: Any, bad: Callable[[str], ConfigError]) -> dict[str, Pattern]:
    if not isinstance(value, Mapping):
        raise bad(Phrase("gong.err.patterns_table"))
    gap = value.get("gap", GAP)
    if isinstance(gap, bool) or not isinstance(gap, int | float):
        raise bad(Phrase("gong.err.gap"))
    patterns = dict(DEFAULT_PATTERNS)
    for name, pulses in value.items():
        if name == "gap":
            continue
        if name not in SIGNAL_NAMES:
            known = ", ".join(SIGNAL_NAMES)
            raise bad(Phrase("gong.err.pattern_unknown", name=repr(name), known=known))
        if not isinstance(pulses, list) or not all(
            isinstance(p, int | float) and not isinstance(p, bool) for p in pulses
        ):
            raise bad(Phrase("gong.err.pattern_list", name=name))
        try:
            patterns[name] = Pattern(tuple(float(p) for p in pulses), float(gap))
        except ValueError as exc:
            raise bad(Phrase("gong.err.pattern_bad", name=name, error=reason(exc))) from None
    if "gap" in value:
        patterns = {
            name: p if name in value else Pattern(p.pulses, float(gap))
            for name, p in patterns.items()
        }
    return patterns


# ---------------------------------------------------------------------------------------
# sound: a WAV through ALSA, or the terminal bell
# ---------------------------------------------------------------------------------------
WAV_RATE = 16_000
_PARTIALS = ((1.0, 1.0), (2.0, 0.45), (2.76, 0.3), (5.4, 0.12))  # a struck bell, roughly


def render_wav(pattern: Pattern, path: Path, *, rate: int = WAV_RATE, pitch: float = 587.0) -> Path:
    """Write ``pattern`` as a 16-bit mono WAV of bell strokes (stdlib only, no shipped
    binaries). Each stroke sounds for its pulse length and fades in 80 ms."""
    frames = bytearray()
    n_total = int((pattern.duration + 0.3) * rate)
    edges = pattern.timeline()
    strokes = [(edges[i][0], edges[i + 1][0]) for i in range(0, len(edges), 2)]
    release = 0.08
    peak = 0.8 * 32767 / sum(a for _, a in _PARTIALS)
    for n in range(n_total):
        t = n / rate
        sample = 0.0
        for start, stop in strokes:
            if start <= t < stop + release:
                local = t - start
                env = math.exp(-local * 1.2) * min(1.0, local / 0.005)
                if t > stop:
                    env *= 1.0 - (t - stop) / release
                for ratio, amp in _PARTIALS:
                    sample += amp * env * math.sin(2 * math.pi * pitch * ratio * local)
        frames += struct.pack("<h", max(-32767, min(32767, int(sample * peak))))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    import wave  # here: the kiosk imports this module on its way to the idle screen

    with wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    tmp.replace(path)
    return path


class AudioGong:
    """Plays patterns as WAV files through ALSA's ``aplay`` (the station's speaker).

    The WAVs are rendered on first use into ``cache_dir`` (``<data dir>/gong``) and
    named by a hash of the pattern, so a changed pattern gets a new file.
    """

    def __init__(
        self,
        patterns: Mapping[str, Pattern],
        *,
        player: str | None = None,
        device: str = "",
        cache_dir: Path | None = None,
    ) -> None:
        self.patterns = dict(patterns)
        self.player = player if player is not None else shutil.which("aplay")
        self.device = device
        self.cache_dir = cache_dir

    @property
    def available(self) -> bool:
        return bool(self.player)

    def wav_for(self, name: str) -> Path:
        pattern = self.patterns[name]
        key = hashlib.sha1(repr((pattern, WAV_RATE, _PARTIALS, 1)).encode()).hexdigest()[:12]
        path = (self.cache_dir or data_dir() / "gong") / f"{name}-{key}.wav"
        if not path.exists():
            render_wav(pattern, path)
        return path

    def prepare(self) -> None:
        """Render every pattern now (at startup), not in the loop at the first signal."""
        for name in self.patterns:
            self.wav_for(name)

    def command(self, name: str) -> list[str]:
        cmd = [str(self.player), "-q"]
        if self.device:
            cmd += ["-D", self.device]
        return [*cmd, str(self.wav_for(name))]

    async def ring(self, name: str) -> None:
        if not self.player:
            raise RuntimeError("no audio player (aplay) on this machine")
        proc = await asyncio.create_subprocess_exec(
            *self.command(name),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            _, err = await proc.communicate()
        except asyncio.CancelledError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            raise
        if proc.returncode:
            log.warning("aplay failed (%s): %s", proc.returncode, err.decode(errors="replace"))

    def describe(self) -> str:
        return f"audio via {self.player}" + (f" -D {self.device}" if self.device else "")


class TerminalBell:
    """The last resort: the terminal's BEL character, once per stroke."""

    def __init__(
        self,
        patterns: Mapping[str, Pattern],
        *,
        stream: IO[str] | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.patterns = dict(patterns)
        self._stream = stream
        self._sleep = sleep or asyncio.sleep

    def _out(self) -> IO[str]:
        if self._stream is None:
            try:
                self._stream = open("/dev/tty", "w")  # noqa: SIM115 - kept for the process
            except OSError:
                self._stream = sys.stdout
        return self._stream

    async def ring(self, name: str) -> None:
        pattern = self.patterns[name]
        out = self._out()
        for i, pulse in enumerate(pattern.pulses):
            out.write("\a")
            out.flush()
            await self._sleep(pulse + (pattern.gap if i < len(pattern.pulses) - 1 else 0))

    def describe(self) -> str:
        return "terminal bell"


# ---------------------------------------------------------------------------------------
# the station's outputs
# ---------------------------------------------------------------------------------------
@dataclass
class GongOutputs:
    """The outputs one station has; ``ring(name)`` sounds them all at once."""

    config: GongConfig
    bell: Bell | None = None
    sound: AudioGong | TerminalBell | None = None
    lamp: Lamp | None = None
    button: RefereeButton | None = None
    factory: str = "none"
    simulated: bool = False

    async def ring(self, name: str) -> None:
        """Sound every output. The bell's first stroke starts before this coroutine
        first yields, so a caller that runs it for one loop step knows the bell is on."""
        if self.bell is None and self.sound is None:
            log.warning("no gong output to ring %s on", name)
            return
        sound = asyncio.ensure_future(self.sound.ring(name)) if self.sound else None
        try:
            if self.bell is not None:
                await self.bell.ring(name)
        except asyncio.CancelledError:
            if sound is not None:
                sound.cancel()
            raise
        except Exception as exc:
            log.error("%s failed: %s", self.bell.describe() if self.bell else "bell", exc)
        if sound is not None:
            try:
                await sound
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("%s failed: %s", self.sound.describe() if self.sound else "", exc)

    def summary(self) -> str:
        """One line for the startup log: what is live, what is simulated."""
        state = f"simulated ({self.factory})" if self.simulated else f"live ({self.factory})"
        parts = []
        for device in (self.bell, self.lamp, self.button):
            if device is not None:
                parts.append(f"{device.describe()} {state}")
        parts.append(f"{self.sound.describe()} live" if self.sound else "no audio gong")
        return "gong outputs: " + "; ".join(parts)

    def off(self) -> None:
        for device in (self.bell, self.lamp):
            if device is not None:
                device.off()

    def close(self) -> None:
        for device in (self.bell, self.lamp, self.button):
            if device is not None:
                device.close()

    def __enter__(self) -> GongOutputs:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_gong(
    config: GongConfig | None = None,
    *,
    pin_factory: Any = None,
    clock: Clock | None = None,
    sleep: Sleep | None = None,
    sound: AudioGong | TerminalBell | None = None,
    with_button: bool = True,
    with_lamp: bool = True,
) -> GongOutputs:
    """Open the outputs ``config`` describes and log which are live.

    ``pin_factory`` defaults to gpiozero's choice (``GPIOZERO_PIN_FACTORY`` or probing),
    falling back to :class:`~gpiozero.pins.mock.MockFactory` where there is no GPIO. A
    pin that is invalid or in use raises :class:`~station.hardware.HardwareError` with
    a message for the operator; devices opened before it are closed again.
    """
    config = config or GongConfig()
    if pin_factory is None:
        pin_factory, simulated = detect_pin_factory()
    else:
        from gpiozero.pins.mock import MockFactory

        simulated = isinstance(pin_factory, MockFactory)
    outputs = GongOutputs(config, factory=type(pin_factory).__name__, simulated=simulated)
    try:
        if config.bell_pin is not None:
            outputs.bell = Bell(
                config.bell_pin,
                active_high=config.bell_active_high,
                patterns=config.patterns,
                sleep=sleep,
                pin_factory=pin_factory,
            )
        if with_lamp and config.lamp_pin is not None:
            outputs.lamp = Lamp(
                config.lamp_pin, active_high=config.lamp_active_high, pin_factory=pin_factory
            )
        if with_button and config.button_pin is not None:
            outputs.button = RefereeButton(
                config.button_pin,
                pull_up=config.button_pull_up,
                long_press=config.long_press_seconds,
                debounce=config.debounce_ms / 1000,
                clock=clock,
                pin_factory=pin_factory,
            )
    except HardwareError:
        outputs.close()
        raise
    if sound is not None:
        outputs.sound = sound
    elif config.audio == "on" or (config.audio == "auto" and (simulated or outputs.bell is None)):
        audio = AudioGong(config.patterns, device=config.audio_device)
        outputs.sound = TerminalBell(config.patterns, sleep=sleep)
        if audio.available:
            try:
                audio.prepare()
                outputs.sound = audio
            except OSError as exc:
                log.warning("cannot write the gong's sound files (%s): terminal bell only", exc)
    log.info(outputs.summary())
    return outputs


# ---------------------------------------------------------------------------------------
# the referee button
# ---------------------------------------------------------------------------------------
class RefereeActions:
    """What the referee's button does, run in the asyncio loop.

    ``start`` plans a local round starting now (standalone stations only; refused while
    a round runs); ``gong`` rings the start pattern by hand; ``pause`` pauses or resumes
    the local round; ``cancel`` cancels it; ``auto`` is ``start`` when standalone and
    ``gong`` when the hub runs the rounds. A refused action is logged, never raised.
    """

    def __init__(
        self,
        schedule: RoundSchedule,
        ring: Callable[[str], Awaitable[None]],
        *,
        config: GongConfig | None = None,
        standalone: bool | Callable[[], bool] = True,
    ) -> None:
        self.schedule = schedule
        self.ring = ring
        self.config = config or GongConfig()
        self._standalone = standalone
        self.history: list[tuple[str, str]] = []  # (action, outcome), newest last

    @property
    def standalone(self) -> bool:
        s = self._standalone
        return bool(s() if callable(s) else s)

    def resolve(self, action: str) -> str:
        if action == "auto":
            return "start" if self.standalone else "gong"
        return action

    async def perform(self, action: str) -> str:
        action = self.resolve(action)
        try:
            outcome = await self._perform(action)
        except RoundError as exc:
            outcome = f"refused: {exc}"
        log.info("referee button: %s -> %s", action, outcome)
        self.history.append((action, outcome))
        return outcome

    async def _perform(self, action: str) -> str:
        if action == "none":
            return "nothing to do"
        if action == "gong":
            await self.ring("start")
            return "rang"
        if not self.standalone:
            raise RoundError("the hub runs the rounds")
        cfg = self.config
        if action == "start":
            plan = self.schedule.start_local(
                basic_seconds=cfg.basic_seconds, warning_seconds=cfg.warning_seconds
            )
            return f"round {plan.number} started"
        if action == "pause":
            now = self.schedule.clock.now()
            shown = self.schedule.status(now)
            if shown is None or shown.phase.value not in ("running", "warning"):
                raise RoundError("no round is running")
            plan = self.schedule.change_local(
                lambda p, at: p.resumed(at) if p.paused_at is not None else p.paused(at),
                shown.number,
            )
            return f"round {plan.number} {'paused' if plan.paused_at is not None else 'resumed'}"
        if action == "cancel":
            plan = self.schedule.change_local(lambda p, at: p.cancelled_plan())
            return f"round {plan.number} cancelled"
        raise RoundError(f"unknown action {action!r}")


def attach_button(
    button: RefereeButton, actions: RefereeActions, loop: asyncio.AbstractEventLoop
) -> None:
    """Run ``actions`` in ``loop`` when ``button`` is pressed (short/long per config)."""
    cfg = actions.config

    def post(action: str) -> Callable[[], None]:
        def fire() -> None:
            loop.call_soon_threadsafe(lambda: loop.create_task(actions.perform(action)))

        return fire

    button.on_short = post(cfg.short_press)
    button.on_long = post(cfg.long_press)

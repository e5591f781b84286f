"""Thin classes over gpiozero for the station's bell, referee button and status lamp.

Every class takes the pin first and keyword-only options after it, with
``pin_factory=`` injected as gpiozero's own devices do, so tests run them on
:class:`gpiozero.pins.mock.MockFactory`. Wiring is described in ``hardware/README.md``.

Safety of the bell output is the point of this module: the bell is a loud thing on a
relay, and a process that stops must never leave it ringing. :class:`Bell` therefore

* starts with the output inactive (``initial_value=False``),
* switches off in ``finally`` blocks (a cancelled or failing pattern still ends off),
* is switched off by an ``atexit`` hook and, through :func:`guard_outputs`, on
  SIGTERM/SIGHUP (which otherwise kill Python without running ``atexit``),
* is a context manager whose exit switches it off and releases the pin.

A SIGKILL or a power cut cannot run code: for those the systemd unit runs
``station gong off`` as ``ExecStopPost`` (see docs/gong.md), and the wiring keeps an
active-low relay off while the pin is an input (boot, crash, released pin).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import signal
import threading
import warnings
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from samoobsluha.shared.clock import Clock, SystemClock

log = logging.getLogger(__name__)


def _gpio() -> Any:
    """gpiozero, imported at the first device or pin factory: importing it (its pin
    factories' entry points through ``importlib.metadata``) costs 30-120 ms of CPU, and
    ``station run`` builds the outputs only after the kiosk's idle screen is painted
    (station/runtime.py). Importing this module stays cheap."""
    import gpiozero
    import gpiozero.pins.mock

    return gpiozero


class HardwareError(Exception):
    """A pin that cannot be used; the message says which and why, for the operator."""


# ---------------------------------------------------------------------------------------
# pin factory
# ---------------------------------------------------------------------------------------
def detect_pin_factory() -> tuple[Any, bool]:
    """The pin factory gpiozero would choose, and whether it is a mock.

    ``GPIOZERO_PIN_FACTORY`` wins (lgpio, rpigpio, pigpio, native, mock); otherwise
    gpiozero probes lgpio (Pi 5, Bookworm), RPi.GPIO, pigpio and its native driver. On
    a machine without GPIO (a laptop, CI) that fails and we fall back to
    :class:`MockFactory`: the pins are simulated, the station still runs, and the
    startup log says so. An explicitly requested factory that fails is an error, not a
    silent mock.
    """
    gpiozero = _gpio()
    Device, MockFactory = gpiozero.Device, gpiozero.pins.mock.MockFactory
    if Device.pin_factory is not None:
        return Device.pin_factory, isinstance(Device.pin_factory, MockFactory)
    requested = os.environ.get("GPIOZERO_PIN_FACTORY")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            factory = Device._default_pin_factory()
    except Exception as exc:
        if requested and requested.lower() != "mock":
            raise HardwareError(f"GPIOZERO_PIN_FACTORY={requested} cannot be used: {exc}") from None
        log.info("no GPIO on this machine (%s): pins are simulated (MockFactory)", exc)
        return MockFactory(), True
    return factory, isinstance(factory, MockFactory)


def factory_name(factory: Any) -> str:
    return type(factory).__name__


def _describe_pin_error(role: str, key: str, pin: Any, exc: Exception) -> HardwareError:
    text = str(exc) or type(exc).__name__
    if "in use" in text:
        hint = "another device (or another program) already uses it"
    elif "not a valid pin" in text or "invalid" in text.lower():
        hint = "not a GPIO pin on this board (use a BCM number such as 5, or 'GPIO5')"
    else:
        hint = text
    return HardwareError(f"[gong] {key} = {pin!r}: the {role} cannot use this pin: {hint}")


def _make(role: str, key: str, pin: Any, build: Callable[[], Any]) -> Any:
    try:
        return build()
    except (_gpio().GPIOZeroError, ValueError, OSError, RuntimeError) as exc:
        raise _describe_pin_error(role, key, pin, exc) from None


# ---------------------------------------------------------------------------------------
# safety net: every live output goes off when the process ends
# ---------------------------------------------------------------------------------------
_LIVE: weakref.WeakSet[Any] = weakref.WeakSet()
_GUARD_LOCK = threading.Lock()
_SIGNALS_GUARDED = False


def _all_off() -> None:
    for device in list(_LIVE):
        with contextlib.suppress(Exception):  # closed, factory gone: nothing to do
            device.off()


atexit.register(_all_off)


def guard_outputs() -> None:
    """Switch every live output off on SIGTERM and SIGHUP as well as at exit.

    Python's default action for these signals kills the process without running
    ``atexit``; we turn them into :class:`SystemExit` so ``finally`` blocks and the
    exit hook run. Only handlers still at their default are replaced (an application
    that installed its own keeps it), and only from the main thread.
    """
    global _SIGNALS_GUARDED
    with _GUARD_LOCK:
        if _SIGNALS_GUARDED or threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(signum) in (signal.SIG_DFL, None):
                signal.signal(signum, _exit_on_signal)
        _SIGNALS_GUARDED = True


def _exit_on_signal(signum: int, frame: Any) -> None:
    _all_off()
    raise SystemExit(128 + signum)


# ---------------------------------------------------------------------------------------
# devices
# ---------------------------------------------------------------------------------------
Sleep = Callable[[float], Awaitable[None]]


class Bell:
    """The hall bell or gong, switched by a relay module or a transistor.

    ``active_high=False`` (the default) suits the common opto-isolated relay modules,
    whose input switches the relay on when pulled **low**. Wire them with their own
    supply (see hardware/README.md). ``patterns`` maps a name to a
    :class:`station.gong.Pattern`; :meth:`ring` plays one on the pin::

        bell = Bell(5, active_high=False, patterns=DEFAULT_PATTERNS)
        await bell.ring("end")          # three long strokes
        bell.close()

    ``sleep`` is how a pattern waits between edges (tests pass a fake-clock sleep).
    """

    def __init__(
        self,
        pin: Any,
        *,
        active_high: bool = False,
        patterns: Mapping[str, Any],
        sleep: Sleep | None = None,
        pin_factory: Any = None,
    ) -> None:
        self.pin_spec = pin
        self.active_high = active_high
        self.patterns = dict(patterns)
        self._sleep = sleep or asyncio.sleep
        self._device = _make(
            "bell",
            "bell_pin",
            pin,
            lambda: _gpio().OutputDevice(
                pin, active_high=active_high, initial_value=False, pin_factory=pin_factory
            ),
        )
        self._lock = asyncio.Lock()
        _LIVE.add(self)

    @property
    def pin(self) -> Any:
        return self._device.pin

    @property
    def is_ringing(self) -> bool:
        return bool(self._device.value)

    def on(self) -> None:
        self._device.on()

    def off(self) -> None:
        self._device.off()

    async def ring(self, name: str) -> None:
        """Play pattern ``name``; the bell is off afterwards whatever happens."""
        pattern = self.patterns[name]
        async with self._lock:
            try:
                for i, pulse in enumerate(pattern.pulses):
                    self._device.on()
                    try:
                        await self._sleep(pulse)
                    finally:
                        self._device.off()
                    if i < len(pattern.pulses) - 1:
                        await self._sleep(pattern.gap)
            finally:
                self._device.off()

    def close(self) -> None:
        """Switch off and release the pin (a released pin is an input: relay off)."""
        if self._device.closed:
            return
        try:
            self._device.off()
        finally:
            self._device.close()
            _LIVE.discard(self)

    def describe(self) -> str:
        level = "active-high" if self.active_high else "active-low"
        return f"bell on {self._device.pin} ({level})"

    def __enter__(self) -> Bell:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._device.closed:
            return "<Bell closed>"
        return f"<Bell {self.describe()}, {'ringing' if self.is_ringing else 'silent'}>"


class Lamp:
    """The status lamp: steady = in step with the hub's clock, blinking = not.

    An LED with its series resistor (or a relay for a panel lamp) on an output pin::

        lamp = Lamp(13)
        lamp.show(synced=False)     # blinking
        lamp.show(synced=True)      # steady
    """

    OFF, STEADY, BLINKING = "off", "steady", "blinking"

    def __init__(
        self,
        pin: Any,
        *,
        active_high: bool = True,
        blink_on: float = 0.5,
        blink_off: float = 0.5,
        pin_factory: Any = None,
    ) -> None:
        self.blink_on = blink_on
        self.blink_off = blink_off
        self._led = _make(
            "lamp",
            "lamp_pin",
            pin,
            lambda: _gpio().LED(
                pin, active_high=active_high, initial_value=False, pin_factory=pin_factory
            ),
        )
        self.state = self.OFF
        _LIVE.add(self)

    @property
    def pin(self) -> Any:
        return self._led.pin

    def show(self, synced: bool) -> None:
        """Steady when ``synced``, blinking otherwise (no-op if already so)."""
        wanted = self.STEADY if synced else self.BLINKING
        if wanted == self.state:
            return
        if synced:
            self._led.on()
        else:
            self._led.blink(on_time=self.blink_on, off_time=self.blink_off, background=True)
        self.state = wanted

    def off(self) -> None:
        self._led.off()
        self.state = self.OFF

    def close(self) -> None:
        if not self._led.closed:
            self.off()
            self._led.close()
            _LIVE.discard(self)

    def describe(self) -> str:
        return f"lamp on {self._led.pin}"

    def __enter__(self) -> Lamp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return "<Lamp closed>" if self._led.closed else f"<Lamp {self.describe()}, {self.state}>"


class RefereeButton:
    """The referee's push button (to ground, with the internal pull-up by default).

    Debounced in software on ``clock.monotonic()``: edges within ``debounce`` seconds of
    the previous one are contact bounce. A press is classified when released: shorter
    than ``long_press`` seconds calls ``on_short()``, longer calls ``on_long()``.
    Callbacks run in gpiozero's event thread; hand them to the asyncio loop with
    ``loop.call_soon_threadsafe`` (see :func:`station.gong.attach_button`).
    """

    def __init__(
        self,
        pin: Any,
        *,
        pull_up: bool = True,
        long_press: float = 3.0,
        debounce: float = 0.05,
        clock: Clock | None = None,
        on_short: Callable[[], None] | None = None,
        on_long: Callable[[], None] | None = None,
        pin_factory: Any = None,
    ) -> None:
        self.long_press = long_press
        self.debounce = debounce
        self.clock: Clock = clock or SystemClock()
        self.on_short = on_short
        self.on_long = on_long
        self._pressed_at: float | None = None
        self._last_edge = float("-inf")
        self._spike_at: float | None = None
        self._lock = threading.Lock()
        self._button = _make(
            "button",
            "button_pin",
            pin,
            lambda: _gpio().Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory),
        )
        self._button.when_pressed = self._pressed
        self._button.when_released = self._released

    @property
    def pin(self) -> Any:
        return self._button.pin

    @property
    def is_pressed(self) -> bool:
        return bool(self._button.is_pressed)

    def _pressed(self) -> None:
        with self._lock:
            now = self.clock.monotonic()
            bounce = now - self._last_edge < self.debounce
            self._last_edge = now
            if self._pressed_at is not None:
                # Still pressed, unless the earlier "press" was a lone spike.
                if self._spike_at is not None and not bounce:
                    self._pressed_at = now
                self._spike_at = None
            elif not bounce:
                self._pressed_at = now

    def _released(self) -> None:
        with self._lock:
            now = self.clock.monotonic()
            self._last_edge = now
            if self._pressed_at is None:
                return
            held = now - self._pressed_at
            if held < self.debounce:
                self._spike_at = now  # bounce inside a press, or a lone spike
                return
            self._pressed_at = None
            self._spike_at = None
        long = held >= self.long_press
        log.info("referee button: %s press (%.2f s)", "long" if long else "short", held)
        action = self.on_long if long else self.on_short
        if action is not None:
            action()

    def close(self) -> None:
        self._button.close()

    def describe(self) -> str:
        return f"button on {self._button.pin}"

    def __enter__(self) -> RefereeButton:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return (
            "<RefereeButton closed>"
            if self._button.closed
            else f"<RefereeButton {self.describe()}>"
        )

"""Test helpers for the gong area: mock pins timed by a fake clock."""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from samoobsluha.shared.clock import FakeClock


class ClockedMockPin(MockPin):
    """A :class:`MockPin` whose recorded states are timed by the factory's fake clock.

    ``states`` keeps gpiozero's format (seconds since the previous change), so
    ``assert_states_and_times`` works; ``timeline`` has absolute (clock.now(), state).
    """

    def clear_states(self) -> None:
        clock = self.factory.clock
        self._last_change = clock.monotonic()
        self.states = [PinState(0.0, self._state)]
        self.timeline = [(clock.now(), self._state)]

    def _change_state(self, value: bool) -> bool:
        if self._state != value:
            clock = self.factory.clock
            t = clock.monotonic()
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self.timeline.append((clock.now(), value))
            self._last_change = t
            return True
        return False


class ClockedMockFactory(MockFactory):
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        super().__init__(pin_class=ClockedMockPin)

    def ticks(self) -> float:  # type: ignore[override]
        return self.clock.monotonic()


def edges(pin: ClockedMockPin, since: float = float("-inf")) -> list[tuple[float, bool]]:
    """The pin's changes after ``since`` as (seconds after ``since``, level)."""
    return [(round(t - since, 6), s) for t, s in pin.timeline[1:] if t >= since]

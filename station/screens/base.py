"""What every kiosk screen shares: access to the app, and the inactivity wipe."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen

if TYPE_CHECKING:
    from samoobsluha.station.app import KioskApp


class KioskScreen(Screen[Any]):
    """A screen of a flow a player started. Unfinished input is wiped (back to idle) after
    ``inactivity_seconds`` without a key press."""

    #: Seconds without a key after which this screen gives up; None: never.
    inactivity: float | None = None

    @property
    def kiosk(self) -> KioskApp:
        return self.app  # type: ignore[return-value]

    def tr(self, key: str, /, **values: Any) -> str:
        return self.kiosk.tr(key, **values)

    def on_screen_resume(self) -> None:
        self.kiosk.touch()

    def inactivity_limit(self) -> float | None:
        return self.kiosk.settings.inactivity_seconds

    def tick(self, now: float) -> None:
        limit = self.inactivity_limit()
        if limit is not None and now - self.kiosk.last_activity >= limit:
            self.timed_out()

    def timed_out(self) -> None:
        self.kiosk.reset_to_idle()

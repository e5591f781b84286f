"""The round clock on the idle screen: what a player glancing from his table needs —
the round, the time left in large digits, and after the end signal "DOHRÁVKA"."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label

from samoobsluha.shared.countdown import countdown
from samoobsluha.shared.i18n import t
from samoobsluha.shared.rounds import Phase, RoundStatus
from samoobsluha.station.widgets.bigtext import BigText

format_remaining = countdown  # the kiosk's name for it (shared.countdown)


def describe(status: RoundStatus | None, lang: str) -> tuple[str, str, str]:
    """(title line, digits or "", big words or "") for one clock state."""
    if status is None or status.phase is Phase.IDLE:
        return t("kiosk.round.none", lang), "", ""
    n = status.number
    if status.phase is Phase.CANCELLED:
        return t("kiosk.round.cancelled", lang, n=n), "", ""
    if status.phase is Phase.ENDED:
        return t("kiosk.round.ended_label", lang, n=n), "", t("kiosk.round.ended", lang)
    if status.paused:
        return t("kiosk.round.paused", lang, n=n), format_remaining(status.remaining), ""
    if status.phase is Phase.SCHEDULED:
        return t("kiosk.round.scheduled", lang, n=n), format_remaining(status.remaining), ""
    if status.phase is Phase.WARNING:
        return t("kiosk.round.warning", lang, n=n), format_remaining(status.remaining), ""
    return t("kiosk.round.running", lang, n=n), format_remaining(status.remaining), ""


class RoundClock(Vertical):
    DEFAULT_CSS = """
    RoundClock { height: auto; align-horizontal: center; }
    RoundClock > Label { width: 1fr; text-align: center; text-style: bold; }
    RoundClock.-warning > BigText { color: ansi_bright_yellow; }
    RoundClock.-warning > Label { color: ansi_bright_yellow; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[str, str, str, str] | None = None

    def compose(self) -> ComposeResult:
        yield Label("", id="round-title")
        yield BigText("", id="round-time")
        yield BigText("", id="round-big")

    def show(self, status: RoundStatus | None, lang: str) -> None:
        title, digits, big = describe(status, lang)
        phase = status.phase.value if status else "none"
        state = (title, digits, big, phase)
        if state == self._shown:
            return
        self._shown = state
        self.query_one("#round-title", Label).update(title)
        time_widget = self.query_one("#round-time", BigText)
        time_widget.update(digits)
        time_widget.display = bool(digits)
        big_widget = self.query_one("#round-big", BigText)
        big_widget.update(big)
        big_widget.display = bool(big)
        self.set_class(status is not None and status.phase is Phase.WARNING, "-warning")

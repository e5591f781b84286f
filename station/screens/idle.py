"""The idle screen: station, tournament, round clock, hub status, one instruction.

Typing a digit or pressing Enter starts a word check; F2 result entry, F3 "where do I
play?", F4 the language. Nothing here shows or hints at any word.

One short line says whose word the lexicon is (shared/lextrust.py): signed by the hub,
accepted by the referee, not verified (a station that pins no hub key), or refused — and
then a digit or Enter shows the refusal, not the check form. A station that found rows
of its own log missing at start (station/log.py, the confirmed-rows counter) says so in
a line for the referee, for as long as the card shows the shortfall."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Label

from samoobsluha.shared.i18n import LANGUAGES
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.widgets.clock import RoundClock


class IdleScreen(KioskScreen):
    BINDINGS = [  # noqa: RUF012
        Binding("f2", "result", show=False),
        Binding("f3", "where", show=False),
        Binding("f4", "language", show=False),
    ]

    _hub_text = ""
    _trust_key = ""

    def inactivity_limit(self) -> float | None:
        return None

    def compose(self) -> ComposeResult:
        with Horizontal(id="idle-top"):
            yield Label("", id="station-name")
            yield Label("", id="hub-status")
        yield Label("", id="tournament")
        with Vertical(id="idle-middle"):
            yield RoundClock(id="clock")
        yield Label("", id="instruction")
        yield Label("", id="lexicon-trust")
        yield Label("", id="db-notice")
        yield Label("", id="withdraw-notice")
        yield Label("", id="idle-menu")

    def on_mount(self) -> None:
        self.refresh_texts()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.kiosk.idle_moment()
        self.refresh_texts()

    def refresh_texts(self) -> None:
        kiosk = self.kiosk
        self.query_one("#station-name", Label).update(literal(kiosk.station_name))
        self.query_one("#tournament", Label).update(literal(kiosk.settings.tournament))
        self.query_one("#instruction", Label).update(literal(self.tr("kiosk.idle.instruction")))
        self.query_one("#idle-menu", Label).update(literal(self.tr("kiosk.idle.menu")))
        lost = kiosk.rows_lost
        notice = self.query_one("#db-notice", Label)
        notice.update(literal(self.tr("kiosk.db.rows_lost", n=lost) if lost else ""))
        notice.display = bool(lost)
        refused = kiosk.refusals[-1] if kiosk.refusals else None  # the newest
        line = self.query_one("#withdraw-notice", Label)
        line.update(
            literal(
                self.tr("kiosk.idle.withdraw_refused", round=refused[0], table=refused[1])
                if refused
                else ""
            )
        )
        line.display = refused is not None
        self._trust_key = ""
        self.tick(kiosk.clock.monotonic(), force=True)

    def tick(self, now: float, force: bool = False) -> None:
        kiosk = self.kiosk
        if self.is_current:
            kiosk.idle_moment()  # a lexicon pushed while the idle screen shows
            if (
                kiosk.lang != kiosk.default_language
                and now - kiosk.last_activity >= kiosk.settings.inactivity_seconds
            ):
                # a visitor chose a language (F4) and walked away: the next player finds
                # the station's own language, as after any flow (reset_to_idle)
                kiosk.lang = kiosk.default_language
                self.refresh_texts()
                return
        self.query_one(RoundClock).show(kiosk.round_status(), kiosk.lang)
        hub = kiosk.hub_connected()
        key = {True: "kiosk.hub.connected", False: "kiosk.hub.offline", None: "kiosk.hub.none"}
        text = self.tr(key[hub])
        if kiosk.backlog:
            text += " · " + self.tr("kiosk.hub.backlog", n=kiosk.backlog)
        if text != self._hub_text:
            self._hub_text = text
            self.query_one("#hub-status", Label).update(literal(text))
        trust = kiosk.lexicons.trust
        trust_key = f"kiosk.lexicon.trust.{trust.value}" if trust is not None else ""
        if trust_key != self._trust_key:  # decided after the first paint, a swap, accepted
            self._trust_key = trust_key
            line = self.query_one("#lexicon-trust", Label)
            line.update(literal(self.tr(trust_key) if trust_key else ""))
            line.set_class(trust is not None and not trust.judges, "-refused")
            line.set_class(trust is not None and trust.value != "hub", "-unverified")

    def on_key(self, event: Key) -> None:
        """A digit or Enter starts a word check (the digit is the table's first). The
        keys typed after it in the same burst wait in the app's key gate until the
        check form has mounted, and then reach it in order."""
        from samoobsluha.station.screens.check import CheckScreen

        digit = bool(event.character and event.character.isdigit() and event.character.isascii())
        if event.key != "enter" and not digit:
            return
        event.stop()
        if self.kiosk.lexicon_refused():  # not the hub's, not accepted: no check form
            self.kiosk.show_lexicon_refused()
            return
        self.app.push_screen(CheckScreen(event.character if digit and event.character else ""))

    def action_result(self) -> None:
        from samoobsluha.station.screens.result import ResultScreen

        self.app.push_screen(ResultScreen())

    def action_where(self) -> None:
        from samoobsluha.station.screens.where import WhereScreen

        self.app.push_screen(WhereScreen())

    def action_language(self) -> None:
        kiosk = self.kiosk
        kiosk.lang = LANGUAGES[(LANGUAGES.index(kiosk.lang) + 1) % len(LANGUAGES)]
        self.refresh_texts()

""" "Where do I play?": part of a name → table and opponent in the current round, from
the pairings the hub published (stored locally, so it works while the hub is away)."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from samoobsluha.station.log import Pairing
from samoobsluha.station.screens.base import KioskScreen

MIN_CHARS = 2


class WhereScreen(KioskScreen):
    BINDINGS = [Binding("escape", "leave", show=False)]  # noqa: RUF012

    def inactivity_limit(self) -> float | None:
        return self.kiosk.settings.form_inactivity_seconds

    def compose(self) -> ComposeResult:
        with Vertical(id="where-box"):
            yield Label("", id="where-title")
            yield Input(id="where-name", max_length=40)
            yield Label("", id="where-answer")
            yield Label("", id="where-hint")

    def on_mount(self) -> None:
        self.query_one("#where-title", Label).update(self.tr("kiosk.where.title"))
        self.query_one("#where-hint", Label).update(self.tr("kiosk.where.hint"))
        self.query_one("#where-name", Input).focus()

    def action_leave(self) -> None:
        self.kiosk.reset_to_idle()

    @on(Input.Changed, "#where-name")
    def _changed(self, event: Input.Changed) -> None:
        if len(event.value.strip()) >= MIN_CHARS:
            self._search(event.value)
        else:
            self.query_one("#where-answer", Label).update("")

    def _search(self, part: str) -> None:
        self._search_worker(part, self.kiosk.round_number())

    @work(thread=True, exclusive=True, exit_on_error=False, group="where")
    def _search_worker(self, part: str, current_round: int | None) -> None:
        store = self.kiosk.store
        round_no = current_round or store.latest_pairing_round()
        if round_no is None or store.latest_pairing_round() is None:
            self.app.call_from_thread(self._show, part, None, [])
            return
        found = store.find_player(part, round_no)
        self.app.call_from_thread(self._show, part, round_no, found)

    def _show(self, part: str, round_no: int | None, found: list[tuple[str, Pairing]]) -> None:
        if not self.is_mounted:
            return
        answer = self.query_one("#where-answer", Label)
        if round_no is None:
            answer.update(self.tr("kiosk.where.no_pairings"))
            return
        if not found:
            answer.update(self.tr("kiosk.where.none", round=round_no, name=part.strip()))
            return
        lines = [self.tr("kiosk.where.round", round=round_no)]
        for name, pairing in found:
            opponent = pairing.second if name == pairing.first else pairing.first
            lines.append(
                self.tr(
                    "kiosk.where.row",
                    name=name,
                    table=pairing.table_no,
                    opponent=opponent or self.tr("kiosk.where.bye"),
                )
            )
        answer.update("\n".join(lines))

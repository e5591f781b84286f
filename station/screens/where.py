""" "Where do I play?": part of a name → table and opponent, from the pairings the hub
published (stored locally, so it works while the hub is away): the next round from the
moment its pairings are published, and the round being played while it runs — both,
labelled, when both exist."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from samoobsluha.shared.rounds import Phase
from samoobsluha.shared.textsafe import literal
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
        self.query_one("#where-title", Label).update(literal(self.tr("kiosk.where.title")))
        self.query_one("#where-hint", Label).update(literal(self.tr("kiosk.where.hint")))
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
        status = self.kiosk.round_status()
        playing = None
        if status is not None and status.phase in (Phase.RUNNING, Phase.WARNING, Phase.ENDED):
            playing = status.number
        self._search_worker(part, playing)

    @work(thread=True, exclusive=True, exit_on_error=False, group="where")
    def _search_worker(self, part: str, playing: int | None) -> None:
        """The round about to be played (the newest published, from the moment it is
        published) and the one being played now, both when both exist."""
        store = self.kiosk.store
        latest = store.latest_pairing_round()
        rounds: list[tuple[str, int]] = []
        if latest is not None and (playing is None or latest > playing):
            rounds.append(("kiosk.where.next" if playing else "kiosk.where.round", latest))
        if playing is not None and store.has_pairings(playing):
            rounds.append(("kiosk.where.now", playing))
        found = [(key, n, store.find_player(part, n)) for key, n in rounds]
        self.app.call_from_thread(self._show, part, found)

    def _show(self, part: str, found: list[tuple[str, int, list[tuple[str, Pairing]]]]) -> None:
        if not self.is_mounted or part != self.query_one("#where-name", Input).value:
            return  # a search for an earlier spelling, answered late: the field moved on
        answer = self.query_one("#where-answer", Label)
        if not found:
            answer.update(literal(self.tr("kiosk.where.no_pairings")))
            return
        lines: list[str] = []
        for key, round_no, players in found:
            if not players:
                lines.append(self.tr("kiosk.where.none", round=round_no, name=part.strip()))
                continue
            lines.append(self.tr(key, round=round_no))
            for name, pairing in players:
                opponent = pairing.second if name == pairing.first else pairing.first
                lines.append(
                    self.tr(
                        "kiosk.where.row",
                        name=name,
                        table=pairing.table_no,
                        opponent=opponent or self.tr("kiosk.where.bye"),
                    )
                )
        answer.update(literal("\n".join(lines)))

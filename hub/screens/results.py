"""Results: per round which tables are in, pending (a station's entry waiting for the
paper scoresheet), missing or in conflict; fast entry from scoresheets as in tsh's ``a``
mode (type the table and the two scores, see the names and new totals echoed, ``-``
corrects the last entry); publishing the round (F6: results, protest window, standings
to the stations and the hall screen — the same as ``hub publish-round N``) and the protest
window countdown; making results final.

A *dispute* — a station's entry that arrived after the round was published and differs
from its result — marks its table (state SPOR) on its round's screen, is listed above the
tables whatever round the screen shows, and counted in every screen's top bar; F9 keeps
the published result, F10 takes the new entry (the table under the cursor, else the
oldest dispute), each after a question naming the table and both scores.

The *Kolo* field follows the tournament's current round (the last paired one); a number the
operator typed stays until the tournament moves on to another round."""

from __future__ import annotations

import time
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Input, Label

from samoobsluha.hub.entry import Entry, EntryError, parse_entry
from samoobsluha.hub.screens.base import DashScreen, fill_table, int_or_none
from samoobsluha.hub.service import (
    ConfirmationNeeded,
    DisputeRow,
    EntryEcho,
    RoundResults,
    ServiceError,
)
from samoobsluha.shared.countdown import countdown
from samoobsluha.shared.i18n import MESSAGES, error_text, localize
from samoobsluha.shared.textsafe import literal

COLUMNS = (
    ("table", "dash.col.table"),
    ("first", "dash.col.first"),
    ("score", "dash.col.score"),
    ("second", "dash.col.second"),
    ("state", "dash.col.state"),
    ("sources", "dash.col.sources"),
)


class ResultsScreen(DashScreen):
    TITLE_KEY = "dash.tab.results"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f6", "approve", "dash.act.approve", priority=True),
        Binding("f7", "finalise", "dash.act.finalise", priority=True),
        Binding("f8", "correct_last", "dash.act.correct", priority=True),
        Binding("f9", "resolve(False)", "dash.act.keep", priority=True),
        Binding("f10", "resolve(True)", "dash.act.take", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: RoundResults | None = None
        self.last: Entry | None = None
        self.correcting: Entry | None = None
        self.echoes: list[str] = []
        self.every_dispute: list[DisputeRow] = []  # of every round, oldest first
        self._suggested: int | None = None  # the round the field last followed

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="results-head"):
            yield Label(literal(self.tr("dash.rounds.round")), classes="prompt")
            yield Input(id="results-round", restrict=r"[0-9]*", max_length=3)
            yield Label("", id="results-summary")
        yield Label("", id="protest")
        yield Label("", id="station-errors")
        yield Label("", id="disputes")
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield Label("", id="echo")
        yield Label("", id="entry-mode")
        yield Input(placeholder=self.tr("dash.entry.placeholder"), id="entry")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#entry", Input).focus()

    def round_no(self) -> int:
        return int_or_none(self.query_one("#results-round", Input).value) or 0

    def fetch(self) -> tuple[int, RoundResults | None, list[DisputeRow]]:
        current = self.service.current_round()
        # a new current round wins over a typed number (round 2 was paired: show round 2)
        number = current if current != self._suggested else (self.round_no() or current)
        data = self.service.round_results(number) if number else None
        return current, data, self.service.disputes()

    def show(self, fetched: tuple[int, RoundResults | None, list[DisputeRow]]) -> None:
        current, data, every = fetched
        self.every_dispute = every
        if current != self._suggested:
            field = self.query_one("#results-round", Input)
            if field.value and self._suggested is not None and field.value != str(current):
                self.say(self.tr("dash.rounds.followed", n=current))
            self._suggested = current
            field.value = str(current) if current else ""
        self.data = data
        if data is None:
            return
        rows = []
        for row in data.tables:
            score = f"{row.score_first} : {row.score_second}" if row.score_first is not None else ""
            rows.append(
                [
                    str(row.table),
                    row.first_name,
                    score,
                    row.second_name,
                    self.tr(f"dash.state.{row.state}"),
                    ", ".join(self._source(x) for x in row.sources),
                ]
            )
        fill_table(
            self.query_one("#tables", DataTable),
            [(key, self.tr(label)) for key, label in COLUMNS],
            rows,
            keys=[str(row.table) for row in data.tables],
        )
        errors = self.query_one("#station-errors", Label)
        errors.update(
            literal(
                self.tr(
                    "dash.station_errors",
                    errors="; ".join(localize(e, self.lang) for e in data.station_errors[-3:]),
                )
                if data.station_errors
                else ""
            )
        )
        errors.display = bool(data.station_errors)
        disputes = self.query_one("#disputes", Label)
        disputes.update(
            literal(
                "\n".join(
                    self.tr(
                        "dash.dispute.hint",
                        round=d.round_no,
                        table=d.table,
                        who=d.who,
                        sent=f"{d.score_first}:{d.score_second}",
                        result=f"{d.result_first}:{d.result_second}",
                    )
                    for d in self.every_dispute
                )
                + "\n"
                + self.tr("dash.dispute.keys")
                if self.every_dispute
                else ""
            )
        )
        disputes.set_class(bool(self.every_dispute), "error")
        disputes.display = bool(self.every_dispute)
        self.query_one("#results-summary", Label).update(
            literal(
                self.tr(
                    "dash.results.summary",
                    n=data.round_no,
                    in_=data.count("in"),
                    pending=data.count("pending"),
                    missing=data.count("missing"),
                    conflict=data.count("conflict"),
                    dispute=data.count("dispute"),
                )
            )
        )

    def tick(self) -> None:
        super().tick()
        if not self.is_mounted or self.data is None:
            return
        label = self.query_one("#protest", Label)
        if self.data.final_at is not None:
            label.update(literal(self.tr("dash.final")))
        elif self.data.protest_closes is None:
            label.update(literal(self.tr("dash.protest.unpublished")))
        else:
            left = self.data.protest_closes - self.service.clock.now()
            label.update(
                literal(
                    self.tr("dash.protest.open", left=countdown(left))
                    if left > 0
                    else self.tr("dash.protest.closed")
                )
            )

    @on(Input.Submitted, "#results-round")
    def _round_changed(self) -> None:
        self.reload()

    @on(Input.Submitted, "#entry")
    def _entry(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text in ("-", "−"):
            event.input.value = ""
            self.action_correct_last()
            return
        try:
            entry = parse_entry(text)
        except EntryError as exc:
            self.say(exc.message(self.lang), error=True)
            return
        number = self.round_no()
        if not number:
            self.say(self.tr("dash.rounds.round") + "?", error=True)
            return
        correct = self.correcting is not None and self.correcting.table == entry.table
        event.input.value = ""
        self._enter(number, entry, correct)

    @work(thread=True, group="act", exit_on_error=False)
    def _enter(self, number: int, entry: Entry, correct: bool) -> None:
        """Store the entry; an implausible one (0:0, above the maximum) is stored only
        after a yes to a question saying why."""
        try:
            echo = self.service.enter_result(number, entry, correct=correct)
        except ConfirmationNeeded as exc:
            question = self.tr(
                "dash.confirm.implausible",
                reason=error_text(exc, self.lang),
                line=entry.as_line(),
            )
            self.app.call_from_thread(
                self._ask,
                question,
                lambda: self.service.enter_result(number, entry, correct=correct, confirm=True),
                self._entered,
            )
            return
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        self.app.call_from_thread(self._entered, echo)
        self.app.call_from_thread(self.dash.action_reload)

    def _entered(self, echo: EntryEcho) -> None:
        self.last = echo.entry
        self.correcting = None
        self.query_one("#entry-mode", Label).update("")
        line = self._echo_line(echo) + "".join(
            f"  ⚠ {localize(w, self.lang)}" for w in echo.warnings
        )
        self.echoes = [line, *self.echoes][:5]
        self.query_one("#echo", Label).update(literal("\n".join(self.echoes)))
        self.say(
            time.strftime("%H:%M:%S ") + self._outcome(echo.outcome),
            error=echo.outcome == "conflict",
        )

    def _source(self, source: str) -> str:
        key = f"dash.source.{source}"
        return self.tr(key) if key in MESSAGES else source

    def _outcome(self, outcome: str) -> str:
        key = f"dash.outcome.{outcome}"
        return self.tr(key) if key in MESSAGES else outcome

    def _echo_line(self, echo: EntryEcho) -> str:
        """EntryEcho.line() in the operator's language (wins with a decimal comma)."""
        return echo.line(self.lang)

    def action_correct_last(self) -> None:
        if self.last is None:
            self.say(self.tr("dash.entry.nothing"), error=True)
            return
        self.correcting = self.last
        entry = self.query_one("#entry", Input)
        entry.value = self.last.as_line()
        entry.cursor_position = len(entry.value)
        entry.focus()
        self.query_one("#entry-mode", Label).update(
            literal(self.tr("dash.entry.correcting", table=self.last.table))
        )

    def action_approve(self) -> None:
        """Publish the round: the one operation ``hub publish-round N`` also does."""
        if number := self.round_no():
            self.act(lambda: self.service.publish_round(number), self._published)

    def _published(self, done: dict[str, object]) -> None:
        standings = done["standings"]
        assert isinstance(standings, dict)
        sent = ", ".join(standings.get("sent_to") or []) or self.tr("dash.nobody")
        closes = done["protest_closes"]
        at = time.strftime("%H:%M", time.localtime(closes)) if isinstance(closes, float) else "-"
        key = "dash.published" if done["published"] else "dash.published.again"
        self.say(
            self.tr(key, round=done["round"], closes=at, sent=self.tr("dash.sent", stations=sent))
        )

    def _dispute_here(self) -> DisputeRow | None:
        """The dispute of the table under the cursor, else the oldest one of any round."""
        if self.data is not None:
            index = self.query_one("#tables", DataTable).cursor_row
            if 0 <= index < len(self.data.tables) and self.data.tables[index].disputes:
                return self.data.tables[index].disputes[0]
        return self.every_dispute[0] if self.every_dispute else None

    def action_resolve(self, take: bool) -> None:
        """F9 keeps the published result, F10 takes the disputed entry: one audited
        action each, after a question naming the table and both scores."""
        d = self._dispute_here()
        if d is None:
            self.say(self.tr("dash.dispute.pick"), error=True)
            return
        question = self.tr(
            "dash.dispute.take_q" if take else "dash.dispute.keep_q",
            round=d.round_no,
            table=d.table,
            who=d.who,
            sent=f"{d.score_first}:{d.score_second}",
            result=f"{d.result_first}:{d.result_second}",
        )
        self.confirm_then(
            lambda: question,
            lambda: self.service.resolve_dispute(d.id, take=take),
            lambda outcome: self.say(self._outcome(outcome)),
        )

    def action_finalise(self) -> None:
        """Make the round final: after the protest window, or early (director's approval)."""
        number = self.round_no()
        if not number or self.data is None:
            return
        early = (
            self.data.protest_closes is not None
            and self.service.clock.now() < self.data.protest_closes
        )
        self.act(
            lambda: self.service.finalise(number, early=early),
            lambda n: self.say(f"{n} ✓"),
        )

"""The word check: table number → how many words → the words → the opponent confirms.

Each step refuses what cannot be right with a sentence that says why (never which words
exist). The confirm key is deliberately not Enter: the player types and presses Enter by
reflex; the opponent confirms the spelling with a key of its own."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label

from shared.i18n import refusal
from shared.normalize import WordRefused
from station.checks import (
    RateDecision,
    StepError,
    prepare_words,
    preview,
    validate_count,
    validate_table,
)
from station.screens.base import KioskScreen
from station.widgets.word_input import WordInput


class CheckScreen(KioskScreen):
    BINDINGS = [Binding("escape", "back", show=False)]  # noqa: RUF012

    def __init__(self, first_digit: str = "") -> None:
        super().__init__()
        self.first_digit = first_digit
        self.step = "table"
        self.table_no: int | None = None
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Label("", id="check-title")
        with Vertical(id="check-body"):
            with Horizontal(id="row-table", classes="field"):
                yield Label("", id="table-label", classes="prompt")
                yield Input(id="table", restrict=r"[0-9]*", max_length=4)
            with Horizontal(id="row-count", classes="field"):
                yield Label("", id="count-label", classes="prompt")
                yield Input(id="count", restrict=r"[0-9]*", max_length=2)
            yield Label("", id="words-help")
            yield Vertical(id="words")
        yield Label("", id="check-error")
        yield Label("", id="check-hint")

    def on_mount(self) -> None:
        self._bind_confirm()
        self.query_one("#check-title", Label).update(self.tr("kiosk.check.title"))
        self.query_one("#table-label", Label).update(self.tr("kiosk.check.table_prompt"))
        self.query_one("#count-label", Label).update(
            self.tr("kiosk.check.count_prompt", max=self.kiosk.settings.max_words)
        )
        self.query_one("#words-help", Label).update(self.tr("kiosk.check.words_help"))
        table = self.query_one("#table", Input)
        table.value = self.first_digit
        table.cursor_position = len(self.first_digit)
        self._show_step("table")
        self.kiosk.touch()

    def _bind_confirm(self) -> None:
        self._bindings.bind(self.kiosk.settings.confirm_key, "confirm", show=False)

    # -- steps -----------------------------------------------------------------------------
    def _show_step(self, step: str) -> None:
        self.step = step
        if step == "busy":  # waiting for the worker: keep the screen, take no input
            for field in self.query(Input):
                field.disabled = True
            self.query_one("#check-hint", Label).update(self.tr("kiosk.check.judging"))
            return
        self.query_one("#row-count").display = step in ("count", "words")
        words_visible = step == "words"
        self.query_one("#words-help").display = words_visible
        self.query_one("#words").display = words_visible
        self.query_one("#table", Input).disabled = step != "table"
        self.query_one("#count", Input).disabled = step != "count"
        for word in self.query(WordInput):
            word.disabled = step != "words"
        hint = {
            "table": self.tr("kiosk.check.hint_back"),
            "count": self.tr("kiosk.check.hint_back"),
            "words": self.tr("kiosk.check.hint_words", key=self.kiosk.settings.confirm_key.upper()),
        }[step]
        self.query_one("#check-hint", Label).update(hint)
        if step == "table":
            self.query_one("#table", Input).focus()
        elif step == "count":
            self.query_one("#count", Input).focus()

    def _error(self, text: str) -> None:
        label = self.query_one("#check-error", Label)
        label.update(f"! {text}" if text else "")
        label.set_class(bool(text), "-shown")

    def _step_error(self, exc: StepError) -> None:
        self._error(self.tr(f"kiosk.error.{exc.problem.value}", **exc.values))

    @on(Input.Submitted, "#table")
    def _table_entered(self, event: Input.Submitted) -> None:
        if self.step != "table":
            return
        try:
            table_no = validate_table(event.value, self.kiosk.tables)
        except StepError as exc:
            self._step_error(exc)
            return
        self._error("")
        self._show_step("busy")
        self.kiosk.check_rate(table_no, self.rate_checked)

    def rate_checked(self, table_no: int, decision: RateDecision) -> None:
        if not self.is_current:
            return
        if not decision.allowed:
            self.kiosk.show_refusal(table_no, decision)
            return
        self.table_no = table_no
        self.query_one("#check-title", Label).update(
            self.tr("kiosk.check.title") + " · " + self.tr("kiosk.check.table_info", table=table_no)
        )
        self._show_step("count")

    @on(Input.Submitted, "#count")
    def _count_entered(self, event: Input.Submitted) -> None:
        if self.step != "count":
            return
        try:
            count = validate_count(event.value, self.kiosk.settings.max_words)
        except StepError as exc:
            self._step_error(exc)
            return
        self._error("")
        self._build_words(count)

    def _build_words(self, count: int) -> None:
        self.count = count
        box = self.query_one("#words", Vertical)
        box.remove_children()
        rows = []
        for i in range(count):
            rows.append(
                Horizontal(
                    Label(self.tr("kiosk.check.word_label", i=i + 1), classes="prompt"),
                    WordInput(i, id=f"word-{i}"),
                    Label("", id=f"face-{i}", classes="face"),
                    classes="field word-row",
                )
            )
        box.mount_all(rows)
        self._show_step("words")
        self.call_after_refresh(self._focus_word, 0)

    def _focus_word(self, index: int) -> None:
        words = list(self.query(WordInput))
        if 0 <= index < len(words):
            words[index].focus()

    # -- typing words ------------------------------------------------------------------------
    @on(Input.Changed)
    def _word_changed(self, event: Input.Changed) -> None:
        if not isinstance(event.input, WordInput):
            return
        face, _ = preview(event.value, self.kiosk.lexicon.alphabet)
        self.query_one(f"#face-{event.input.index}", Label).update(face)
        self._error("")

    @on(Input.Submitted)
    def _word_submitted(self, event: Input.Submitted) -> None:
        if isinstance(event.input, WordInput):
            event.stop()
            self._advance(event.input)

    @on(WordInput.Advance)
    def _word_space(self, event: WordInput.Advance) -> None:
        self._advance(event.input)

    def _advance(self, word: WordInput) -> None:
        if self.step != "words":
            return
        if not word.value.strip():
            self._error(self.tr("kiosk.error.word_missing", i=word.index + 1))
            return
        _, problem = preview(word.value, self.kiosk.lexicon.alphabet)
        if problem is not None:
            self._error(refusal(problem, self.kiosk.lang))
            return
        self._error("")
        if word.index + 1 < self.count:
            self._focus_word(word.index + 1)
        else:
            self.query_one("#check-hint", Label).update(
                self.tr("kiosk.check.review", key=self.kiosk.settings.confirm_key.upper())
            )
            self.query_one("#check-hint", Label).add_class("-review")

    def action_confirm(self) -> None:
        if self.step != "words":
            return
        inputs = list(self.query(WordInput))
        for word in inputs:
            if not word.value.strip():
                self._error(self.tr("kiosk.error.word_missing", i=word.index + 1))
                self._focus_word(word.index)
                return
        try:
            words = prepare_words([w.value for w in inputs], self.kiosk.lexicon.alphabet)
        except WordRefused as exc:
            self._error(refusal(exc, self.kiosk.lang))
            return
        assert self.table_no is not None
        self._show_step("busy")
        self.kiosk.judge_and_log(self.table_no, tuple(words))

    def action_back(self) -> None:
        if self.step == "words":
            self.query_one("#words", Vertical).remove_children()
            self.query_one("#check-hint", Label).remove_class("-review")
            self._error("")
            self._show_step("count")
        elif self.step == "count":
            self._error("")
            self.table_no = None
            self.query_one("#check-title", Label).update(self.tr("kiosk.check.title"))
            self._show_step("table")
        elif self.step == "table":
            self.kiosk.reset_to_idle()

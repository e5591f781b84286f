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

from samoobsluha.shared.checks import (
    RateDecision,
    StepError,
    prepare_words,
    preview,
    validate_count,
    validate_table,
)
from samoobsluha.shared.i18n import refusal
from samoobsluha.shared.normalize import WordRefused
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.widgets.word_input import FlowInput, WordInput


class CheckScreen(KioskScreen):
    BINDINGS = [Binding("escape", "back", show=False)]  # noqa: RUF012

    def __init__(self, first_digit: str = "") -> None:
        super().__init__()
        self.first_digit = first_digit
        self.step = "table"
        self.table_no: int | None = None
        self.rate_ok: bool | None = None  # the table's rate check, answered by a worker
        self.count = 0

    def flow_enter(self, widget: Input) -> None:
        """Enter (or Space between words) in one of the form's inputs, acted on at once."""
        if widget.id == "table":
            self._submit_table(widget.value)
        elif widget.id == "count":
            self._submit_count(widget.value)
        elif isinstance(widget, WordInput):
            self._advance(widget)

    def compose(self) -> ComposeResult:
        yield Label("", id="check-title")
        with Vertical(id="check-body"):
            with Horizontal(id="row-table", classes="field"):
                yield Label("", id="table-label", classes="prompt")
                yield FlowInput(id="table", restrict=r"[0-9]*", max_length=4)
            with Horizontal(id="row-count", classes="field"):
                yield Label("", id="count-label", classes="prompt")
                yield FlowInput(id="count", restrict=r"[0-9]*", max_length=2)
            yield Label("", id="words-help")
            with Vertical(id="words"):
                # Built up front and shown as needed: the first word can be typed the
                # instant the count is entered.
                for i in range(self.kiosk.settings.max_words):
                    with Horizontal(classes="field word-row", id=f"word-row-{i}"):
                        yield Label(
                            literal(self.tr("kiosk.check.word_label", i=i + 1)), classes="prompt"
                        )
                        yield WordInput(i, id=f"word-{i}")
                        yield Label("", id=f"face-{i}", classes="face")
        yield Label("", id="check-error")
        yield Label("", id="check-hint")

    def on_mount(self) -> None:
        self._bind_confirm()
        self.query_one("#check-title", Label).update(literal(self.tr("kiosk.check.title")))
        self.query_one("#table-label", Label).update(literal(self.tr("kiosk.check.table_prompt")))
        self.query_one("#count-label", Label).update(
            literal(self.tr("kiosk.check.count_prompt", max=self.kiosk.settings.max_words))
        )
        self.query_one("#words-help", Label).update(literal(self.tr("kiosk.check.words_help")))
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
            self.query_one("#check-hint", Label).update(literal(self.tr("kiosk.check.judging")))
            return
        self.query_one("#row-count").display = step in ("count", "words")
        words_visible = step == "words"
        self.query_one("#words-help").display = words_visible
        self.query_one("#words").display = words_visible
        self.query_one("#table", Input).disabled = step != "table"
        self.query_one("#count", Input).disabled = step != "count"
        for word in self.query(WordInput):
            word.disabled = step != "words" or word.index >= self.count
        hint = {
            "table": self.tr("kiosk.check.hint_back"),
            "count": self.tr("kiosk.check.hint_back"),
            "words": self.tr("kiosk.check.hint_words", key=self.kiosk.settings.confirm_key.upper()),
        }[step]
        self.query_one("#check-hint", Label).update(literal(hint))
        if step == "table":
            self.set_focus(self.query_one("#table", Input))
        elif step == "count":
            self.set_focus(self.query_one("#count", Input))
        elif step == "words":
            for word in self.query(WordInput):
                word.disabled = word.index >= self.count

    _refused_text: tuple[str, ...] | None = None  # the words a shown refusal is about

    def _word_texts(self) -> tuple[str, ...]:
        return tuple(w.value for w in self.query(WordInput))

    def _error(self, text: str) -> None:
        self._refused_text = self._word_texts() if text else None
        label = self.query_one("#check-error", Label)
        label.update(literal(f"! {text}" if text else ""))
        label.set_class(bool(text), "-shown")

    def _step_error(self, exc: StepError) -> None:
        self._error(self.tr(f"kiosk.error.{exc.problem.value}", **exc.values))

    def _submit_table(self, value: str) -> None:
        if self.step != "table":
            return
        try:
            table_no = validate_table(value, self.kiosk.tables)
        except StepError as exc:
            self._step_error(exc)
            return
        self._error("")
        # The rate check runs in a worker while the player goes on typing; a refusal
        # replaces this screen when it arrives, and nothing is judged before the answer.
        self.table_no = table_no
        self.rate_ok = None
        self.kiosk.check_rate(table_no, self.rate_checked)
        self.query_one("#check-title", Label).update(
            literal(
                self.tr("kiosk.check.title")
                + " · "
                + self.tr("kiosk.check.table_info", table=table_no)
            )
        )
        self._show_step("count")

    def rate_checked(self, table_no: int, decision: RateDecision) -> None:
        if not self.is_current or table_no != self.table_no:
            return
        if not decision.allowed:
            self.kiosk.show_refusal(table_no, decision)
            return
        self.rate_ok = True
        if self._confirm_waiting:
            self._confirm_waiting = False
            self.action_confirm()

    _confirm_waiting = False

    def _submit_count(self, value: str) -> None:
        if self.step != "count":
            return
        try:
            count = validate_count(value, self.kiosk.settings.max_words)
        except StepError as exc:
            self._step_error(exc)
            return
        self._error("")
        self._show_words(count)

    def _show_words(self, count: int) -> None:
        self.count = count
        for i, row in enumerate(self.query(".word-row")):
            row.display = i < count
            if i >= count:
                self.query_one(f"#word-{i}", WordInput).value = ""
        self._show_step("words")
        self._focus_word(0)

    def _focus_word(self, index: int) -> None:
        words = self._word_inputs()
        if 0 <= index < len(words):
            # At once, not via the message queue: keys already typed go to this word.
            self.set_focus(words[index])

    def _word_inputs(self) -> list[WordInput]:
        return [w for w in self.query(WordInput) if w.index < self.count]

    # -- typing words ------------------------------------------------------------------------
    @on(Input.Changed)
    def _word_changed(self, event: Input.Changed) -> None:
        if not isinstance(event.input, WordInput):
            return
        face, _ = preview(event.value, self.kiosk.lexicon.alphabet)
        self.query_one(f"#face-{event.input.index}", Label).update(literal(face))
        # A change typed before an Enter that refused the word arrives after it: it must
        # not wipe the refusal of the very text it produced.
        if self._refused_text is None or self._word_texts() != self._refused_text:
            self._error("")
        # Until the next repaint the new spelling is not on the screen yet: a confirm
        # key typed in the same burst waits for it (see action_confirm).
        self._painted = False
        self.call_after_refresh(self._mark_painted)

    _painted = True

    def _mark_painted(self) -> None:
        self._painted = True

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
                literal(self.tr("kiosk.check.review", key=self.kiosk.settings.confirm_key.upper()))
            )
            self.query_one("#check-hint", Label).add_class("-review")
            self._prefill()

    def _prefill(self) -> None:
        """Every word is in: let the kiosk judge and lay out the verdict off-screen now,
        so the opponent's confirm only commits and swaps it in."""
        try:
            values = [w.value for w in self._word_inputs()]
            words = prepare_words(values, self.kiosk.lexicon.alphabet)
        except WordRefused:
            return
        if self.table_no is not None:
            self.kiosk.prefill_verdict(self.table_no, tuple(words))

    def action_confirm(self) -> None:
        if self.step != "words":
            return
        if not self._painted:  # the opponent confirms what is on screen: paint it first
            self.call_after_refresh(self.action_confirm)
            return
        inputs = self._word_inputs()
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
        if self.rate_ok is None:  # the worker has not answered yet: confirm when it does
            self._confirm_waiting = True
            return
        # The judge and the commit start first; the screen only shows "judging" if they
        # take long (a slow SD card), so nothing is repainted on the way to the verdict.
        self.kiosk.judge_and_log(self.table_no, tuple(words))
        self.step = "busy"  # the fields stay as they are: nothing to repaint now
        self.set_timer(0.25, self._show_busy)

    def _show_busy(self) -> None:
        if self.is_current and self.step == "busy":
            self._show_step("busy")

    def action_back(self) -> None:
        if self.step == "words":
            for word in self.query(WordInput):
                word.value = ""
            self.query_one("#check-hint", Label).remove_class("-review")
            self._error("")
            self._show_step("count")
        elif self.step == "count":
            self._error("")
            self.table_no = None
            self.query_one("#check-title", Label).update(literal(self.tr("kiosk.check.title")))
            self._show_step("table")
        elif self.step == "table":
            self.kiosk.reset_to_idle()

"""Dialogs that ask for something typed, not a reflex key.

:class:`TypedConfirm`
    The dashboard's counterpart of ``--force`` on the command line: an action that would
    throw away a round being played (start it again, re-time it, run the hall rehearsal
    during it) goes ahead only after the operator types the round's number and Enter. An
    Enter alone, or any other number, does nothing but say what to type; Escape declines.

:class:`MinutesDialog`
    How many minutes (``x`` add minutes, ``d`` delay): the field starts at 5, Enter takes
    what it holds (1–120), Escape declines. It names the round and what will happen.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from samoobsluha.shared.i18n import t
from samoobsluha.shared.textsafe import literal

MAX_MINUTES = 120
DEFAULT_MINUTES = 5

_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 80%; max-width: 100; height: auto; border: thick $error;
                     padding: 1 2; background: $surface; }}
{name} #confirm-question {{ width: 100%; text-style: bold; }}
{name} Input {{ width: 12; margin: 1 0 0 0; }}
{name} .hint {{ width: 100%; color: $text-muted; }}
{name} .hint.error {{ color: $error; text-style: bold; }}
"""


class TypedConfirm(ModalScreen[bool]):
    """Yes only when ``expected`` (the round number) is typed and Enter pressed."""

    DEFAULT_CSS = _CSS.format(name="TypedConfirm")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "decline", show=False)]

    def __init__(self, question: str, expected: str, lang: str) -> None:
        super().__init__()
        self.question = question
        self.expected = expected
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(self.question), id="confirm-question")
            yield Input(id="confirm-typed", restrict=r"[0-9]*", max_length=4)
            yield Label(
                literal(t("dash.typed.hint", self.lang, n=self.expected)),
                id="confirm-hint",
                classes="hint",
            )

    def on_mount(self) -> None:
        self.query_one("#confirm-typed", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip() == self.expected:
            self.dismiss(True)
            return
        event.input.value = ""
        hint = self.query_one("#confirm-hint", Label)
        hint.update(literal(t("dash.typed.wrong", self.lang, n=self.expected)))
        hint.add_class("error")

    def action_decline(self) -> None:
        self.dismiss(False)


class MinutesDialog(ModalScreen[int | None]):
    """A number of minutes (1–:data:`MAX_MINUTES`, default :data:`DEFAULT_MINUTES`)."""

    DEFAULT_CSS = _CSS.format(name="MinutesDialog")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "decline", show=False)]

    def __init__(self, question: str, lang: str, default: int = DEFAULT_MINUTES) -> None:
        super().__init__()
        self.question = question
        self.lang = lang
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(self.question), id="confirm-question")
            yield Input(str(self.default), id="minutes-typed", restrict=r"[0-9]*", max_length=3)
            yield Label(
                literal(t("dash.minutes.hint", self.lang, max=MAX_MINUTES)),
                id="confirm-hint",
                classes="hint",
            )

    def on_mount(self) -> None:
        field = self.query_one("#minutes-typed", Input)
        field.focus()
        field.select_all()  # typing replaces the 5, Enter keeps it

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text.isdigit() and 1 <= int(text) <= MAX_MINUTES:
            self.dismiss(int(text))
            return
        hint = self.query_one("#confirm-hint", Label)
        hint.update(literal(t("dash.minutes.bad", self.lang, max=MAX_MINUTES)))
        hint.add_class("error")

    def action_decline(self) -> None:
        self.dismiss(None)

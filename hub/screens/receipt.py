"""The dashboard's receipt check (challenges screen, key ``o``): the code a player wrote
on his scoresheet in, what it stands for out — the same answer as ``hub verify CODE``
(hub/receipts.py), in the operator's language."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from samoobsluha.shared.i18n import error_text, t
from samoobsluha.shared.textsafe import literal


class ReceiptDialog(ModalScreen[None]):
    """A receipt code, Enter: genuine (and the check it stands for) or not. Esc closes."""

    DEFAULT_CSS = """
    ReceiptDialog { align: center middle; }
    ReceiptDialog > Vertical { width: 90%; max-width: 100; height: auto;
                               border: thick $accent; padding: 1 2; background: $surface; }
    ReceiptDialog #receipt-title { text-style: bold; width: 100%; }
    ReceiptDialog #receipt-answer { width: 100%; padding: 1 0 0 0; }
    ReceiptDialog #receipt-answer.genuine { color: $success; }
    ReceiptDialog #receipt-answer.not-genuine { color: $error; text-style: bold; }
    ReceiptDialog #receipt-hint { width: 100%; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, service: Any, lang: str) -> None:
        super().__init__()
        self.service = service
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(t("dash.receipt.title", self.lang)), id="receipt-title")
            yield Input(id="receipt-code", max_length=20)
            yield Label("", id="receipt-answer")
            yield Label(literal(t("dash.receipt.hint", self.lang)), id="receipt-hint")

    def on_mount(self) -> None:
        self.query_one("#receipt-code", Input).focus()

    @on(Input.Submitted, "#receipt-code")
    def _entered(self, event: Input.Submitted) -> None:
        event.stop()
        self._look_up(event.value.strip())

    @work(thread=True, exclusive=True, exit_on_error=False, group="receipt")
    def _look_up(self, code: str) -> None:
        from samoobsluha.hub.receipts import describe
        from samoobsluha.hub.service import ServiceError
        from samoobsluha.shared.receipt import format_code, parse_code

        try:
            row = self.service.verify_receipt(code)
        except ServiceError as exc:
            answer, cls = error_text(exc, self.lang), "not-genuine"
        else:
            if row is None:
                shown = format_code(parse_code(code) or code)
                answer, cls = t("receipt.not_genuine", self.lang, code=shown), "not-genuine"
            else:
                answer, cls = "\n".join(describe(row, code, self.lang)), "genuine"
        self.app.call_from_thread(self._show, answer, cls)

    def _show(self, answer: str, cls: str) -> None:
        label = self.query_one("#receipt-answer", Label)
        label.update(literal(answer))
        label.set_classes(cls)

    def action_close(self) -> None:
        self.dismiss(None)

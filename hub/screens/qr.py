"""The hall screen's address as a QR code, big, for players to scan off the operator's
screen (opened with Q on the Stations screen, F1)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from samoobsluha.hub.web.qr import terminal
from samoobsluha.shared.i18n import t
from samoobsluha.shared.textsafe import literal


class QrScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    QrScreen { align: center middle; }
    QrScreen > Vertical {
        width: auto; height: auto; padding: 1 2; background: $panel; align-horizontal: center;
    }
    QrScreen Label { width: auto; }
    QrScreen #qr-code { width: auto; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", show=False),
        Binding("q", "dismiss", show=False),
    ]

    def __init__(self, url: str, lang: str) -> None:
        super().__init__()
        self.url = url
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(t("screen.qr.caption", self.lang)), id="qr-caption")
            yield Static(literal(terminal(self.url)), id="qr-code")
            yield Label(literal(self.url), id="qr-url")
            yield Label(literal(t("screen.qr.close", self.lang)), id="qr-close")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)

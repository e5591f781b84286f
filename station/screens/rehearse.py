"""The kiosk's part of ``hub rehearse``: the keyboard test.

The hub asks the person at the station to type a test line with every Czech (or Slovak)
letter with a diacritic; what arrives in the input is what a player's keyboard can type,
so dead keys that do not work show up as missing letters in the hub's record. The screen
says nothing about the answer (the hub judges it) and goes away on Enter, on Esc or when
the hub's waiting time is over.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Label

from samoobsluha.shared.textsafe import literal
from samoobsluha.station.screens.base import KioskScreen


class KeyboardTestScreen(KioskScreen):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "give_up", show=False)]
    DEFAULT_CSS = """
    KeyboardTestScreen { align: center middle; }
    #rehearse-keyboard { width: 64; height: auto; border: heavy $accent; padding: 1 2; }
    #rehearse-title, #rehearse-letters { text-style: bold; }
    #rehearse-letters { margin: 1 0; }
    """

    def __init__(self, letters: str, button: bool = False) -> None:
        super().__init__()
        self.letters = letters
        self.button = button

    def inactivity_limit(self) -> float | None:
        return None  # the hub's wait ends it, not the player's inactivity

    def compose(self) -> ComposeResult:
        with Vertical(id="rehearse-keyboard"):
            yield Label(literal(self.tr("rehearse.kiosk.title")), id="rehearse-title")
            yield Label(literal(self.tr("rehearse.kiosk.hint")), id="rehearse-hint")
            yield Label(literal(self.letters), id="rehearse-letters")
            yield Input(id="rehearse-typed", max_length=200)
            if self.button:
                yield Label(literal(self.tr("rehearse.kiosk.button")), id="rehearse-button")

    def on_mount(self) -> None:
        self.query_one("#rehearse-typed", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_give_up(self) -> None:
        self.dismiss(None)


async def ask(app: object, letters: str, wait: float, button: bool = False) -> str | None:
    """Show the keyboard test on the kiosk ``app``; the typed line, or None when nobody
    typed it within ``wait`` seconds (the screen is then taken away). ``button``: the hub
    also waits for the referee button; the screen says so."""
    from textual.app import App

    assert isinstance(app, App)
    future: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def done(value: str | None) -> None:
        if not future.done():
            future.set_result(value)

    screen = KeyboardTestScreen(letters, button)
    # The request arrives on the station's link, outside the app's own context: the
    # screen is pushed (and taken away) from the app's message queue.
    app.call_later(app.push_screen, screen, done)
    try:
        async with asyncio.timeout(wait):
            return await future
    except TimeoutError:

        def take_away() -> None:
            if app.screen is screen:
                app.pop_screen()

        with contextlib.suppress(Exception):
            app.call_later(take_away)
        return None

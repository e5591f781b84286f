"""Inputs of the kiosk's forms. Keys are handled in order even when a player types
faster than the screen updates: Enter (and Space between words) is acted on at once by
the screen's ``flow_enter(input)``. The app's key gate (``KioskApp._deliver_keys``)
routes each key only after the one before it is handled, so "kočka⏎pes" reaches two
words; a key that still reaches an input after the focus has moved on (one posted to
the input directly) is passed to the input that has the focus now."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input


class FlowInput(Input):
    #: Whether Space acts like Enter (between the words of a play).
    space_advances = False

    async def _on_key(self, event: events.Key) -> None:
        screen = self.screen
        focused = screen.focused
        if focused is not self and isinstance(focused, FlowInput):
            event.stop()
            event.prevent_default()
            await focused._on_key(event)
            return
        if event.key == "enter" or (event.key == "space" and self.space_advances):
            handler: Any = getattr(screen, "flow_enter", None)
            if handler is not None:
                event.stop()
                event.prevent_default()
                handler(self)
                return
        await super()._on_key(event)


class WordInput(FlowInput):
    """One word of a play. Space moves on to the next word, as Enter does."""

    space_advances = True

    def __init__(self, index: int, *, id: str | None = None) -> None:
        # No suggester, no completion: the kiosk never proposes a word.
        super().__init__(id=id, max_length=40, select_on_focus=False)
        self.index = index

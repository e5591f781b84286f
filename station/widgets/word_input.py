"""Inputs of the check form. Keys are handled in order even when a player types faster
than the screen updates: Enter (and Space between words) is acted on at once, and a key
that reaches an input after the focus has moved on is passed to where the focus now is.
(Textual queues keys per widget, so "kočka⏎pes" typed quickly would otherwise leave
"pes" in the first word.)"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Input


class FlowInput(Input):
    async def _on_key(self, event: events.Key) -> None:
        handler: Any = getattr(self.screen, "flow_key", None)
        if handler is not None and handler(self, event.key, event.character):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)


class WordInput(FlowInput):
    """One word of a play. Space moves on to the next word, as Enter does."""

    def __init__(self, index: int, *, id: str | None = None) -> None:
        # No suggester, no completion: the kiosk never proposes a word.
        super().__init__(id=id, max_length=40, select_on_focus=False)
        self.index = index

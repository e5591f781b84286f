"""One word of a play. Space moves on to the next word (as Enter does), because a player
typing several words naturally separates them with a space."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.message import Message
from textual.widgets import Input


class WordInput(Input):
    @dataclass
    class Advance(Message):
        input: WordInput

    def __init__(self, index: int, *, id: str | None = None) -> None:
        # No suggester, no completion: the kiosk never proposes a word.
        super().__init__(id=id, max_length=40, select_on_focus=False)
        self.index = index

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "space":
            event.stop()
            event.prevent_default()
            self.post_message(self.Advance(self))
            return
        await super()._on_key(event)

"""What the fuzz tests of both apps share: the strings a hostile or clumsy player types,
how to type them as a terminal would deliver them, and what an input field must then hold.

Strings: anything printable (brackets and markup-like text such as ``a[/]b``, ``[b]x``,
``[/red]``, combining marks, emoji, right-to-left text, 1,000 characters), and control
characters, which a terminal delivers as keys (Escape, Enter, Tab, Ctrl+…)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from textual import events
from textual.keys import _character_to_key
from textual.widgets import Input

SPECIALS = [
    "a[/]b",
    "k[o]čka",
    "[b]x",
    "[/]",
    "[red]pes[/red]",
    "[@click=app.quit]x[/]",
    "[link=file:///etc/passwd]x[/link]",
    "$var ${x} {0} {name} %s",
    "e\u0301\u0308\u20dd",  # combining marks
    "🙂👍🏽🇨🇿",
    "שלום عالم",  # right to left
    "\u202eRLO\u202c",  # bidi override (not printable: dropped by the input)
    "Ｗｉｄｅ",
    "ŘÍČNÍ ŽÁBA ĎÁBEL ŤAPKA Ň",
    "\\[b]x\\",
]

printable = st.characters(blacklist_categories=("Cc", "Cs"))
PRINTABLE_TEXT = st.one_of(
    st.sampled_from(SPECIALS),
    st.text(printable, max_size=60),
    st.text(st.sampled_from("[]/\\@=:{}()+-čřž ab"), min_size=1, max_size=30),
    st.text(printable, min_size=1000, max_size=1000),
)
# With control characters too (delivered as keys): for "stays up, loses nothing".
ANY_TEXT = st.one_of(
    PRINTABLE_TEXT,
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),
    st.text(st.sampled_from("\x1b\r\t\x03\x11\x1a\x7fab[/]"), max_size=30),
)

#: A modest budget: every field gets tens of strings, the suite stays fast.
FUZZ = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)
BATCH = st.lists(PRINTABLE_TEXT, min_size=8, max_size=8)
SMALL_BATCH = st.lists(PRINTABLE_TEXT, min_size=5, max_size=5)  # forms of several fields
CHAOS_BATCH = st.lists(ANY_TEXT, min_size=6, max_size=6)


# What a terminal's escape-sequence parser makes of control characters.
_CONTROL_KEYS = {"\r": "enter", "\n": "enter", "\t": "tab", "\x1b": "escape", "\x7f": "backspace"}


def key_event(ch: str) -> events.Key:
    """``ch`` as the terminal driver would deliver it."""
    if ch == " ":
        return events.Key("space", " ")
    if ch in _CONTROL_KEYS:
        return events.Key(_CONTROL_KEYS[ch], ch)
    if ord(ch) < 0x20:
        return events.Key(f"ctrl+{chr(ord(ch) + 0x60)}", ch)
    if ch.isalnum():
        return events.Key(ch, ch)
    return events.Key(_character_to_key(ch), ch)


async def type_raw(pilot, text: str, *keys: str) -> None:
    """Post every character of ``text``, then the named ``keys`` (``"f10"``), as key
    events at once (faster than the screen repaints); then let the app catch up."""
    for ch in text:
        pilot.app.post_message(key_event(ch))
    for key in keys:
        pilot.app.post_message(events.Key(key, None))
    await pilot.pause()
    keys_delivered = getattr(pilot.app, "keys_delivered", None)  # the kiosk's key gate
    if keys_delivered is not None:
        await keys_delivered()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def expected_value(field: Input, typed: str, *, space_advances: bool = False) -> str:
    """What ``field`` (empty before) holds after ``typed`` without control characters:
    Textual's Input takes printable characters while the value fits ``max_length`` and
    matches ``restrict``."""
    value = ""
    for ch in typed:
        if ch == " " and space_advances:
            continue
        if not ch.isprintable():
            continue
        candidate = value + ch
        if field.max_length and len(candidate) > field.max_length:
            continue
        if field.restrict and not re.fullmatch(field.restrict, candidate):
            continue
        value = candidate
    return value

"""No key lost across screen changes: keys that arrive while the next screen is being
pushed and mounted reach that screen, in order (the kiosk's key gate, station/app.py).

The race is reproduced deterministically: the first key is posted, and the rest are
posted the moment the new screen is on the stack — before it has composed, mounted and
taken the focus — which is what a fast typist does to a slow Raspberry Pi."""

from __future__ import annotations

import asyncio

import pytest
from fuzz_typing import key_event
from kiosk_pilot import settle
from textual import events
from textual.widgets import Input

from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.verdict import VerdictScreen


def post(app, text: str, *keys: str) -> None:
    for ch in text:
        app.post_message(key_event(ch))
    for key in keys:
        app.post_message(events.Key(key, None))


async def until_screen(app, cls: type, *, mounted: bool = False) -> None:
    """Yield to the loop until ``app.screen`` is a ``cls`` (no wall clock involved)."""
    for _ in range(100_000):
        screen = app.screen
        if isinstance(screen, cls) and (screen.is_mounted or not mounted):
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{cls.__name__} never became the screen")


@pytest.mark.parametrize("table", ["13", "27", "4"])
async def test_keys_typed_while_the_check_form_mounts_reach_it(make_app, store, table) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        post(app, table[0])
        await until_screen(app, CheckScreen)
        screen = app.screen
        assert not screen.is_mounted  # the race: the form is not there yet
        post(app, table[1:] + "\r1\rpes", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen), type(app.screen).__name__
        assert app.screen.verdict.valid
    rows = store.recent()
    assert [(r["table_no"], r["words"]) for r in rows] == [(int(table), ["PES"])]


async def test_keys_typed_while_the_verdict_closes_reach_the_idle_screen(make_app, store) -> None:
    """After a verdict, the key that closes it and the next check typed at once: the
    next check starts on the idle screen with every digit."""
    app = make_app(verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        post(app, "5\r1\rpes", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
        post(app, "x")  # closes the verdict (back to idle)
        await until_screen(app, IdleScreen)
        post(app, "12\r1\rles", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
    assert [(r["table_no"], r["words"]) for r in store.recent()][:1] == [(12, ["LES"])]


async def test_keys_in_order_when_the_screen_changes_twice(make_app) -> None:
    """Escape back to idle and a new table typed at once: each key goes to the screen
    that is current when its turn comes, never to one that has gone."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        post(app, "9")
        await until_screen(app, CheckScreen, mounted=True)
        await pilot.pause()
        post(app, "\x1b21")  # Escape (back to idle), then a new table
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CheckScreen)
        assert screen.query_one("#table", Input).value == "21"


async def test_a_burst_behind_a_screen_change_keeps_its_order(make_app) -> None:
    """Keys queued behind a screen change keep their order with the ones after it."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        post(app, "1")
        await until_screen(app, CheckScreen)
        post(app, "2\r3\rab")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CheckScreen)
        assert screen.table_no == 12 and screen.count == 3
        assert screen.query_one("#word-0", Input).value == "ab"

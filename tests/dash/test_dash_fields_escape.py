"""Fields on the dashboard leave with Escape, and the shortcut keys work again after:
the round field of F2 (then ``s`` starts the round typed) and the filters of F3."""

from __future__ import annotations

from dash_testkit import settle
from textual.widgets import DataTable, Input

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}


async def test_escape_leaves_the_round_field_and_s_starts_again(
    served: HubService, clock: FakeClock
) -> None:
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        field = app.screen.query_one("#round-no", Input)
        field.focus()
        await pilot.press("backspace", "2", "s")  # in the field: "s" is not a shortcut
        await settle(pilot)
        assert field.value == "2" and served.plan(2) is None
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen.focused, DataTable)
        await pilot.press("s")  # the shortcut works again: round 2 (as typed) starts
        await settle(pilot)
        plan = served.plan(2)
        assert plan is not None and plan.start_at == clock.now() + 5


async def test_escape_leaves_the_challenge_filters(service: HubService) -> None:
    app = HubApp(service, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        for selector in ("#filter-round", "#filter-table"):
            field = app.screen.query_one(selector, Input)
            field.focus()
            await pilot.press("1")
            assert app.screen.focused is field
            await pilot.press("escape")
            await settle(pilot)
            assert not isinstance(app.screen.focused, Input), selector

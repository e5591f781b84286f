"""F1 ``z`` (the hall rehearsal) while a round is under way: it asks, names the round and
what the rehearsal will not do, and runs (quietly) only after the round's number is typed;
Esc runs nothing. With no round on it runs at once."""

from __future__ import annotations

import asyncio

from dash_testkit import label_text, settle
from test_dash_operator_safety import app_for, settled

from samoobsluha.hub import rehearse
from samoobsluha.hub.screens.typed import TypedConfirm
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock


async def test_rehearsal_during_a_round_needs_the_round_typed(
    served: HubService, clock: FakeClock
) -> None:
    app = app_for(served)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await asyncio.to_thread(served.start_round, 1)
        clock.advance(60)  # round 1 is under way
        await pilot.press("f1")
        await settle(pilot)
        await pilot.press("z")
        await settle(pilot)
        assert isinstance(app.screen, TypedConfirm)
        question = label_text(app.screen, "#confirm-question")
        assert "Kolo 1 právě běží." in question and "nezazvoní" in question
        await pilot.press("escape")
        await settle(pilot)
        assert rehearse.history(served) == []  # declined: nothing was asked of the hall
        await pilot.press("z")
        await settle(pilot)
        await pilot.press("enter")  # a reflex Enter is not a yes
        await settle(pilot)
        assert isinstance(app.screen, TypedConfirm)
        await pilot.press("1", "enter")
        await settled(pilot, lambda: len(rehearse.history(served)) == 1, rounds=60)
        stored = rehearse.load(served)
        assert stored is not None
        spread = next(c for c in stored.hall if c.key == "spread")
        assert spread.text == "Rozptyl gongu: nezkoušen, běží kolo 1"


async def test_rehearsal_without_a_round_runs_at_once(served: HubService) -> None:
    app = app_for(served)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        await pilot.press("z")
        await settled(pilot, lambda: len(rehearse.history(served)) == 1, rounds=60)
        assert not isinstance(app.screen, TypedConfirm)

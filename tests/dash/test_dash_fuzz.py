"""Property tests: random strings through every input field of the dashboard — the
fast-entry line, the round and table filters, the round-control fields, the standings'
round and the PIN dialog. The dashboard stays up, each field holds what it accepts of
what was typed, and what is echoed (a refused entry line) is shown literally."""

from __future__ import annotations

import asyncio

import pytest
from dash_testkit import label_text, settle
from fuzz_typing import FUZZ, SMALL_BATCH, expected_value, type_raw
from hypothesis import given, settings
from textual.widgets import Input

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.screens.stations import PinDialog
from samoobsluha.hub.service import HubService
from samoobsluha.shared.textsafe import visible

FIELDS = {
    "f2": ("#round-no", "#at"),
    "f3": ("#filter-round", "#filter-table"),
    "f4": ("#results-round", "#entry"),
    "f5": ("#standings-round",),
}


@pytest.mark.timeout(600)  # many dashboard sessions under Hypothesis
@settings(FUZZ, max_examples=3)
@given(batch=SMALL_BATCH)
def test_fuzz_dashboard_fields(service: HubService, batch: list[str]) -> None:
    async def main() -> None:
        app = HubApp(service, refresh_every=None, tick_every=None, serve=None)
        async with app.run_test(size=(160, 45)) as pilot:
            await settle(pilot)
            for key, fields in FIELDS.items():
                await type_raw(pilot, "", key)
                for typed in batch:
                    for selector in fields:
                        field = app.screen.query_one(selector, Input)
                        field.value = ""
                        field.focus()
                        await pilot.pause()
                        await type_raw(pilot, typed)
                        assert field.value == expected_value(field, typed), selector
                        if selector not in ("#entry", "#at"):
                            continue  # the numeric fields: typing is what is at stake
                        await type_raw(pilot, "\r")
                        assert app.is_running
                        if selector == "#entry" and field.value.strip():
                            # a refused line is quoted literally under the screen
                            message = label_text(app.screen, "#message")
                            assert visible(field.value.strip()) in message, message
            await type_raw(pilot, "", "f1")
            for typed in batch:
                await type_raw(pilot, "p")
                assert isinstance(app.screen, PinDialog)
                field = app.screen.query_one("#pin-input", Input)
                await type_raw(pilot, typed)
                assert field.value == expected_value(field, typed)
                await type_raw(pilot, "\x1b")
                await settle(pilot)
                assert app.is_running and not isinstance(app.screen, PinDialog)
        assert app.return_code is None

    asyncio.run(main())

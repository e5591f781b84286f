"""A rate-limit wait says how long to wait (CLDR plurals), not „call the referee“; a used
cap still calls the referee. A language chosen with F4 lasts until the kiosk goes idle."""

from __future__ import annotations

import pytest
from fuzz_typing import type_raw
from kiosk_pilot import settle
from textual.widgets import Label

from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.verdict import RefusedScreen, VerdictScreen


def text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Label).content)


@pytest.mark.parametrize(
    ("lang", "after", "expected"),
    [
        ("cs", 5.0, "Počkejte 1 sekundu."),
        ("cs", 4.0, "Počkejte 2 sekundy."),
        ("cs", 1.0, "Počkejte 5 sekund."),
        ("sk", 1.0, "Počkajte 5 sekúnd."),
        ("en", 5.0, "Wait 1 second."),
    ],
)
async def test_a_station_wait_says_how_long(make_app, clock, lang, after, expected) -> None:
    app = make_app(station_min_interval=6.0, ui_language=lang, verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "3\r1\rpes", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
        clock.advance(after)
        await type_raw(pilot, "x4\r")  # another table at once: the station's own limit
        await settle(pilot)
        assert isinstance(app.screen, RefusedScreen)
        assert text(app, "#verdict-word") == expected
        assert app.screen.has_class("-wait") and not app.screen.has_class("-referee")
        assert "ROZHOD" not in text(app, "#verdict-word").upper()


async def test_a_used_cap_still_calls_the_referee(make_app, clock) -> None:
    app = make_app(max_checks_per_round=1, cap_window=3600.0, verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "3\r1\rpes", "f10")
        await settle(pilot)
        clock.advance(30)
        await type_raw(pilot, "x3\r")
        await settle(pilot)
        assert isinstance(app.screen, RefusedScreen)
        assert text(app, "#verdict-word") == "ZAVOLEJTE ROZHODČÍHO"
        assert app.screen.has_class("-referee")


async def test_the_language_returns_to_the_stations_when_idle(make_app, clock) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "", "f4", "f4")  # čeština → slovenčina → English
        await settle(pilot)
        assert app.lang == "en" and "Word check" in text(app, "#instruction")
        clock.advance(app.settings.inactivity_seconds - 1)
        app._tick()
        await pilot.pause()
        assert app.lang == "en"  # still the visitor's
        clock.advance(2)
        app._tick()
        await settle(pilot)
        assert isinstance(app.screen, IdleScreen)
        assert app.lang == "cs" and "Kontrola slov" in text(app, "#instruction")

"""The kiosk's keyboard test, driven with Textual's Pilot: the real kiosk app shows the
prompt when the station's rehearsal responder asks, and what the player types is what the
hub gets to judge."""

from __future__ import annotations

import asyncio
from pathlib import Path

from samoobsluha.shared.checks import KioskSettings, parse_tables
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import write_lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.station.log import KioskStore
from samoobsluha.station.rehearse import TEST_LETTERS, missing_letters
from samoobsluha.station.screens.rehearse import KeyboardTestScreen, ask


def _app(tmp_path: Path, lang: str = "cs") -> KioskApp:
    lex = tmp_path / "small.lex"
    write_lexicon(["čáp", "pes"], lex, language="cs", variant="TEST", source="tests")
    from samoobsluha.shared.lexicon import Lexicon

    return KioskApp(
        lexicon=Lexicon.open(lex),
        store=KioskStore.open(tmp_path / "station.db", "st-1"),
        settings=KioskSettings(tables=parse_tables("1-30"), min_interval=0.0),
        station_name="st-1",
        ui_language=lang,
        clock=FakeClock(),
    )


async def test_kiosk_asks_and_reports_what_arrived(tmp_path: Path) -> None:
    app = _app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        answer = asyncio.ensure_future(ask(app, TEST_LETTERS, 30))
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, KeyboardTestScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query("Label"))
        assert "Napište přesně tato písmena" in shown and TEST_LETTERS in shown
        # a keyboard whose caron dead key does not work: ď and ť never arrive
        for ch in "ěščřžýáíéúůň":
            await pilot.press(ch)
        await pilot.press("enter")
        typed = await asyncio.wait_for(answer, 5)
        assert typed == "ěščřžýáíéúůň"
        assert missing_letters(TEST_LETTERS, typed) == "ďť"
        await pilot.pause()
        assert not isinstance(app.screen, KeyboardTestScreen)  # back to the kiosk
    app.store.close()


async def test_kiosk_prompt_goes_away_when_nobody_types(tmp_path: Path) -> None:
    app = _app(tmp_path, "sk")
    async with app.run_test(size=(80, 24)) as pilot:
        answer = asyncio.ensure_future(ask(app, TEST_LETTERS, 0.5))
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in app.screen.query("Label"))
        assert "Napíšte presne tieto písmená" in shown
        assert await asyncio.wait_for(answer, 10) is None
        await pilot.pause()
        assert not isinstance(app.screen, KeyboardTestScreen)
    app.store.close()

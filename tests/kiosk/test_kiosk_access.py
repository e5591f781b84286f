"""A kiosk every player can use: the referee switches large print and the spoken verdict
on one station (referee screen, items 8 and 9; kept across a restart). The spoken verdict
runs ``espeak-ng`` — here a fake one first on PATH that records how it was called — with
the kiosk's language and the verdict and table only, never a word; large print fits 80×24."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from kiosk_pilot import settle
from test_kiosk_flows import SIZE, check_words, set_pin
from textual.widgets import Label

from samoobsluha.station import speech
from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.referee import RefereeScreen
from samoobsluha.station.screens.verdict import VerdictScreen

FAKE = """#!/bin/sh
# a fake espeak-ng: one JSON line per call, its arguments
python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >> "{log}"
"""


@pytest.fixture
def spoken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """What the fake espeak-ng was asked to say: a function returning the calls."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "espeak.jsonl"
    fake = folder / "espeak-ng"
    fake.write_text(FAKE.format(log=log))
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")

    def calls() -> list[list[str]]:
        speech.wait(10)
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text().splitlines()]

    return calls


async def _dismiss(pilot) -> None:
    pilot.app.clock.advance(pilot.app.settings.verdict_lock + 0.1)
    await pilot.press("enter")
    await settle(pilot)


async def _switch(pilot, item: str) -> str:
    """Choose a referee menu item by its digit; the message it shows."""
    await pilot.press(item)
    await settle(pilot)
    await pilot.pause(0.1)
    return str(pilot.app.screen.query_one("#referee-message", Label).content)


async def test_the_spoken_verdict_says_verdict_and_table_in_the_kiosks_language(
    make_app, store, spoken
):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "4", ["čáp"])
        await _dismiss(pilot)
        assert spoken() == []  # off by default
        await set_pin(pilot)
        assert isinstance(app.screen, RefereeScreen)
        assert await _switch(pilot, "9") == "Hlasité oznámení výsledku je zapnuto."
        await pilot.press("escape")
        await settle(pilot)
        await check_words(pilot, "5", ["čáp", "kočka"])
        assert isinstance(app.screen, VerdictScreen)
        assert spoken()[-1] == ["-v", "cs", "Stůl 5: platné."]
        await _dismiss(pilot)
        await check_words(pilot, "6", ["xyzq", "kočka"])
        assert spoken()[-1] == ["-v", "cs", "Stůl 6: neplatné."]
        await _dismiss(pilot)
        await pilot.press("f4")  # a Slovak player
        await check_words(pilot, "7", ["kočka"])
        assert spoken()[-1] == ["-v", "sk", "Stôl 7: platné."]
    calls = spoken()
    assert len(calls) == 3
    said = " ".join(" ".join(c).lower() for c in calls)
    for word in ("čáp", "kočka", "xyzq"):  # nothing spoken says which word
        assert word not in said
    assert store.setting("speak_verdict") == "1"


async def test_large_print_fits_80x24_and_stays_switched(make_app, store, small_lexicon):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_pin(pilot)
        assert await _switch(pilot, "8") == "Velké písmo je zapnuto."
        assert app.has_class("-large-print")
        await pilot.press("escape")
        await settle(pilot)
        _fits(app)
        # a check of the most words a play may have, then its verdict
        words = ["kůň", "koně", "čáp", "ryba", "strom", "les", "pes", "voda"]
        from kiosk_pilot import start_check, type_text

        await start_check(pilot, "12", str(len(words)))
        for word in words:
            await type_text(pilot, word)
            await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
        _fits(app)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
        _fits(app)
        assert not app.screen.query_one("#verdict-details").display
        assert app.screen.query_one("#verdict-hint", Label).styles.text_style.bold  # not without
    # a restart keeps the referee's switch
    again = make_app()
    async with again.run_test(size=SIZE):
        assert again.has_class("-large-print") and again.settings.large_print
        assert again.settings_in_use.current.sources["large_print"] == "station"


def _fits(app) -> None:
    """Every visible widget of the screen lies within 80×24 and has room to show."""
    width, height = SIZE
    for widget in app.screen.query("*"):
        if not widget.display or not widget.visible or widget.region.area == 0:
            continue
        region = widget.region
        assert region.right <= width and region.bottom <= height, (widget, region)
    for label in app.screen.query(Label):
        if label.display and str(label.content):
            assert label.region.height >= 1, label
            # all of its text is shown: the lines it wraps to fit the height it was given
            box = label.content_region
            needed = label.get_content_height(box.size, app.size, box.width)
            assert needed <= box.height, (label, str(label.content), needed, box)


def test_espeak_ng_really_speaks_czech(tmp_path: Path) -> None:
    """The real espeak-ng (Debian's) takes what the kiosk gives it: the voices exist (cs,
    sk and pl) and it renders the sentence (to a WAV file instead of the sound card)."""
    import shutil
    import subprocess

    exe = shutil.which("espeak-ng")
    if exe is None:
        pytest.skip("espeak-ng is not installed (./dev installs it)")
    for lang, text in (
        ("cs", "Stůl 5: platné."),
        ("sk", "Stôl 5: neplatné."),
        ("pl", "Stolik 5: dobrze."),
    ):
        out = tmp_path / f"{lang}.wav"
        done = subprocess.run(
            [exe, "-v", speech.VOICES[lang], "-w", str(out), text],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and "not found" not in done.stderr.lower(), done.stderr
        assert out.read_bytes()[:4] == b"RIFF" and out.stat().st_size > 10_000
    time.sleep(0)

"""A Polish kiosk with the real Polish lexicon: the PFS challenge (rule 4.9) — several words
of one move checked at once, one verdict for the move, the list fixed once the opponent has
confirmed it — in Polish, with Polish input and its ASCII fallback."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_pilot import settle, start_check, type_text

from samoobsluha.shared.lexicon import Lexicon, Status


@pytest.mark.slow
@pytest.mark.parametrize(
    ("typed", "status", "shown"),
    [
        ("źdźbło żółw", Status.VALID, "DOBRZE"),
        ("z-dz-bl+o z+o-l+w", Status.VALID, "DOBRZE"),  # no Polish letters on the keyboard
        ("źdźbło kůň", Status.INVALID, "ŹLE"),  # a Czech word is simply not Polish
        ("źdźbło qxzw", Status.INVALID, "ŹLE"),
    ],
)
async def test_one_verdict_for_the_move_in_polish(
    pl_lexicon_path: Path, make_app, store, typed: str, status: Status, shown: str
) -> None:
    app = make_app(lexicon=Lexicon.open(pl_lexicon_path), ui_language="pl")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_check(pilot, "7", "2")
        await type_text(pilot, typed)
        await pilot.press("enter", "f10")
        await settle(pilot)
        verdict = app.screen.verdict
        assert verdict.status is status
        assert len(verdict.words) == 2  # both words, one verdict
        text = "\n".join(str(w.render()) for w in app.screen.query("Static, Label"))
        assert shown in text
        assert "Słowa: " + " ".join(w.face for w in verdict.words) in text
        # which word failed is for the log, never for the player's screen
        if status is Status.INVALID:
            assert verdict.failed and "Źle: " not in text
    row = store.recent()[0]
    assert row["lexicon_variant"] == "HUNSPELL" and row["table_no"] == 7


async def test_a_polish_referee_confirms_with_t_for_tak(make_app) -> None:
    """The Polish confirmation says „T = tak · Esc = nie“: T must be the yes key."""
    from test_kiosk_flows import SIZE, set_pin

    app = make_app(ui_language="pl")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        await settle(pilot)
        await set_pin(pilot)
        await pilot.press("7")  # quit: "really?" first
        await settle(pilot)
        assert "T = tak" in str(app.screen.query_one("#confirm-hint").render())
        await pilot.press("t")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.slow
async def test_the_list_may_be_corrected_until_handed_over_and_is_fixed_after(
    pl_lexicon_path: Path, make_app, store
) -> None:
    """PFS 4.9 in the kiosk: the challenger writes the words of the move; Esc at the
    opponent's review (before handing over) lets him write them again; once the opponent
    confirms, the list is fixed — keys typed at once after the confirm (a word's letters,
    Backspace, the confirm key again) change nothing: one logged check, those words, one
    verdict."""
    from samoobsluha.station.screens.check import CheckScreen
    from samoobsluha.station.widgets.word_input import WordInput

    app = make_app(lexicon=Lexicon.open(pl_lexicon_path), ui_language="pl")
    async with app.run_test(size=(80, 24)) as pilot:
        await start_check(pilot, "12", "2")
        await type_text(pilot, "źdźbło kolo")
        await pilot.press("enter")
        await settle(pilot)
        hint = str(app.screen.query_one("#check-hint").render())
        assert "PRZECIWNIK: sprawdź pisownię" in hint and "Esc = popraw" in hint, hint
        await pilot.press("escape")  # not handed over yet: the challenger corrects
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen) and store.recent() == []
        await type_text(pilot, "2")
        await pilot.press("enter")
        await settle(pilot)
        await type_text(pilot, "źdźbło qxzw")
        await pilot.press("enter")
        await settle(pilot)
        check = app.screen
        assert isinstance(check, CheckScreen)
        await pilot.press("f10")  # handed over: the opponent confirms
        # the fields as someone might change them after that, and the confirm again
        for word in check.query(WordInput):
            word.value = "kolo"
        check.action_confirm()
        await pilot.press("backspace", "backspace", "a", "f10")
        await settle(pilot)
        await pilot.press("escape", "f10")
        await settle(pilot)
    rows = store.recent()
    assert len(rows) == 1, rows
    assert rows[0]["words"] == ["ŹDŹBŁO", "QXZW"] and rows[0]["table_no"] == 12
    assert rows[0]["failed"] == ["qxzw"] or rows[0]["failed"] == ["QXZW"], rows[0]

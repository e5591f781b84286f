"""No key lost: a whole check typed in one burst, faster than the screen repaints —
table, Enter, count, Enter, the word, F10 — reaches the verdict, and F10 confirms only
a spelling that is on the screen."""

from __future__ import annotations

from fuzz_typing import type_raw
from kiosk_pilot import settle
from textual.widgets import Label

from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.verdict import VerdictScreen


async def test_a_burst_with_f10_reaches_the_verdict(make_app, store) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "13\r1\rc+a-p", "f10")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VerdictScreen), type(screen).__name__
        assert screen.verdict.valid
    rows = store.recent()
    assert len(rows) == 1 and rows[0]["table_no"] == 13 and rows[0]["words"] == ["ČÁP"]


async def test_two_words_in_a_burst(make_app, store) -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await type_raw(pilot, "7\r2\rpes les", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
    assert store.recent()[0]["words"] == ["PES", "LES"]


async def test_f10_confirms_only_what_is_painted(make_app, store) -> None:
    """The confirming key acts on the spelling on screen: when F10 is handled, the
    preview of every word shows exactly the faces that are judged."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "4\r1\r")
        screen = app.screen
        assert isinstance(screen, CheckScreen)
        seen: list[str] = []
        original = screen.action_confirm

        def confirm() -> None:
            # what the confirm acts on has been through a repaint
            seen.append(str(screen.query_one("#face-0", Label).content) * screen._painted)
            original()

        screen.action_confirm = confirm  # type: ignore[method-assign]
        await type_raw(pilot, "z+a-ba", "f10")
        await settle(pilot)
        assert seen[-1] == "ŽÁBA"
        assert isinstance(app.screen, VerdictScreen)


async def test_a_refusal_typed_in_a_burst_stays_on_screen(make_app) -> None:
    """„a[/]b⏎“ in one burst: the Enter refuses the word before the word's own change
    messages arrive; they must not wipe the refusal (seen in tmux at 80×24)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "3\r1\ra[/]b\r")
        await settle(pilot)
        error = str(app.screen.query_one("#check-error", Label).content)
        assert "„a[/]b“" in error
        await type_raw(pilot, "\x7f")  # a real change clears it
        await settle(pilot)
        assert str(app.screen.query_one("#check-error", Label).content) == ""

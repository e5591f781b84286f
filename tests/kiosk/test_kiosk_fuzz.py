"""Property tests: random strings through every input field of the kiosk (Hypothesis,
driven with Textual's Pilot). Whatever is typed — markup-like brackets, combining marks,
emoji, right-to-left text, 1,000 characters, control keys — the kiosk stays up, the field
holds exactly what was typed (as far as the field takes it), text is echoed literally, and
every verdict shown has its row in the log."""

from __future__ import annotations

import asyncio

from fuzz_typing import BATCH, CHAOS_BATCH, FUZZ, SMALL_BATCH, expected_value, type_raw
from hypothesis import given
from kiosk_pilot import settle
from textual.widgets import Input, Label

from samoobsluha.shared.checks import hash_pin
from samoobsluha.shared.textsafe import visible
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.referee import PinScreen, RefereeScreen
from samoobsluha.station.screens.verdict import RefusedScreen, VerdictScreen

SIZE = (80, 24)
PIN = "47114711"


def screen_text(app) -> str:
    return "\n".join(str(label.content) for label in app.screen.query(Label))


def checks_logged(store) -> int:
    return store.db.execute("SELECT COUNT(*) FROM challenges").fetchone()[0]


async def back_to_idle(pilot) -> None:
    pilot.app.reset_to_idle()
    await settle(pilot)
    assert isinstance(pilot.app.screen, IdleScreen)


async def open_referee(pilot) -> None:
    await back_to_idle(pilot)
    await type_raw(pilot, "", "f12")
    await settle(pilot)
    assert isinstance(pilot.app.screen, PinScreen)
    await type_raw(pilot, PIN + "\r")
    await settle(pilot)
    assert isinstance(pilot.app.screen, RefereeScreen)


def run(coro) -> None:
    asyncio.run(coro)


@FUZZ
@given(batch=BATCH)
def test_fuzz_words(make_app, store, batch: list[str]) -> None:
    async def main() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            for typed in batch:
                await back_to_idle(pilot)
                before = checks_logged(store)
                await type_raw(pilot, "3\r1\r")
                field = app.screen.query_one("#word-0", Input)
                await type_raw(pilot, typed)
                assert app.is_running
                assert field.value == expected_value(field, typed, space_advances=True)
                await type_raw(pilot, "", "f10")
                await settle(pilot)
                assert app.is_running
                shown = app.screen
                if isinstance(shown, VerdictScreen):
                    assert checks_logged(store) == before + 1  # shown only once logged
                    assert store.recent(1)[0]["id"] == shown.record.check_id
                else:
                    assert checks_logged(store) == before
                    assert not isinstance(shown, RefusedScreen)
                    error = str(shown.query_one("#check-error", Label).content)
                    if field.value.strip():  # a refusal quotes the word as typed
                        assert visible(field.value.strip()) in error or "(" in field.value
        await asyncio.sleep(0)

    run(main())


@FUZZ
@given(batch=BATCH)
def test_fuzz_where_do_i_play(make_app, store, batch: list[str]) -> None:
    store.replace_pairings(1, [(4, "Novák Jan", "Svoboda [b]Petr[/b]")], at=0.0)

    async def main() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            for typed in [*batch, "svob", "[b]"]:
                await back_to_idle(pilot)
                await type_raw(pilot, "", "f3")
                field = app.screen.query_one("#where-name", Input)
                await type_raw(pilot, typed)
                await settle(pilot)
                assert app.is_running
                assert field.value == expected_value(field, typed)
                answer = str(app.screen.query_one("#where-answer", Label).content)
                if len(field.value.strip()) >= 2:
                    found = "Svoboda [b]Petr[/b]" in answer
                    assert found or visible(field.value.strip()) in answer, answer

    run(main())


@FUZZ
@given(batch=SMALL_BATCH)
def test_fuzz_result_entry(make_app, store, batch: list[str]) -> None:
    async def main() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            for typed in batch:
                await back_to_idle(pilot)
                await type_raw(pilot, "", "f2")
                for field_id in ("res-round", "res-table", "res-score-a", "res-score-b"):
                    field = app.screen.query_one(f"#{field_id}", Input)
                    app.screen.set_focus(field)
                    await pilot.pause()
                    await type_raw(pilot, typed)
                    assert field.value == expected_value(field, typed), field_id
                field = app.screen.query_one("#res-starter", Input)
                app.screen.set_focus(field)
                await pilot.pause()
                await type_raw(pilot, typed)
                assert field.value == expected_value(field, typed)
                await type_raw(pilot, "", "f10")
                assert app.is_running

    run(main())


@FUZZ
@given(batch=SMALL_BATCH)
def test_fuzz_referee_fields(make_app, store, batch: list[str]) -> None:
    """The PIN prompt (any wrong PIN is refused), the appeal (table and words) and the
    table range, one after the other behind one PIN."""
    store.set_referee_pin(hash_pin(PIN), 0.0)

    async def main() -> None:
        app = make_app(pin_free_attempts=1000, pin_delay=0.0)
        async with app.run_test(size=SIZE) as pilot:
            for typed in batch:
                await back_to_idle(pilot)
                await type_raw(pilot, "", "f12")
                field = app.screen.query_one("#pin", Input)
                await type_raw(pilot, typed)
                assert field.value == expected_value(field, typed)
                await type_raw(pilot, "\r")
                assert app.is_running and not isinstance(app.screen, RefereeScreen)
                await type_raw(pilot, PIN + "\r")
                assert isinstance(app.screen, RefereeScreen)

                await type_raw(pilot, "1")
                table = app.screen.query_one("#appeal-table", Input)
                await type_raw(pilot, typed)
                assert table.value == expected_value(table, typed)
                await type_raw(pilot, "\r")
                words = app.screen.query_one("#appeal-words", Input)
                await type_raw(pilot, typed)
                assert words.value == expected_value(words, typed)
                await type_raw(pilot, "\r")
                assert app.is_running
                while not isinstance(app.screen, RefereeScreen):
                    app.pop_screen()
                    await pilot.pause()

                await type_raw(pilot, "3")
                tables = app.screen.query_one("#tables-input", Input)
                tables.value = ""
                await type_raw(pilot, typed)
                assert tables.value == expected_value(tables, typed)
                await type_raw(pilot, "\r")
                assert app.is_running
                errors = app.screen.query("#tables-error")
                if errors and tables.value.strip():
                    error = str(errors.first(Label).content)
                    assert not error or "„" in error  # the bad part, quoted as typed

    run(main())


@FUZZ
@given(batch=CHAOS_BATCH)
def test_fuzz_control_keys_and_floods_never_take_the_kiosk_down(
    make_app, store, batch: list[str]
) -> None:
    """Control characters arrive as keys (Escape, Enter, Tab, Ctrl+C, Ctrl+Q…), in any
    screen: the kiosk stays up and never quits, and every verdict shown is in the log."""

    async def main() -> None:
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            shown: set[int] = set()
            for typed in batch:
                for prefix in ("", "5\r1\r"):  # on the idle screen, in a word
                    await back_to_idle(pilot)
                    await type_raw(pilot, prefix + typed, "f10")
                    assert app.is_running
                    if isinstance(app.screen, VerdictScreen):
                        shown.add(app.screen.record.check_id)
            logged = {r["id"] for r in store.recent(1000)}
            assert shown <= logged
        assert app.return_code is None  # nothing typed made it quit

    run(main())

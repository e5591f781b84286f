"""Both players confirm a result at the kiosk: the one who typed it presses the confirm
key, then his opponent does on the same screen. Esc (it is wrong) goes back to the
fields, nothing stored; a confirm key typed twice at once is not the opponent's; nobody
confirming in time stores a one-sided entry, which the players may enter again."""

from __future__ import annotations

from kiosk_pilot import settle, type_text
from test_kiosk_flows import SIZE
from textual.widgets import Input, Label

from samoobsluha.station import outbox
from samoobsluha.station.screens.result import ResultScreen
from samoobsluha.station.screens.verdict import SavedScreen


async def _type_result(pilot, fields=("2", "5", "412", "388", "b")) -> None:
    await pilot.press("f2")
    for text in fields:
        await type_text(pilot, text)
        await pilot.press("enter")
    await settle(pilot)
    await pilot.press("f10")
    await settle(pilot)


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Label).content)


async def test_the_opponent_confirms_or_sends_it_back(make_app, store, clock):
    store.replace_pairings(2, [(5, "Novák Jan", "Dvořáková Eva")], at=clock.now())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type_result(pilot)
        asking = _text(app, "#result-confirm")
        assert asking == (
            "Soupeři, zkontrolujte výsledek: Novák Jan 412 : 388 Dvořáková Eva, začínal B. "
            "Souhlasí? F10 = ano, Esc = ne"
        )
        assert app.screen.query_one("#result-confirm").region.bottom <= SIZE[1]
        # the same key again at once: the typist's double press, not a confirmation
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen) and store.result(2, 5) is None
        # the opponent disagrees: back to the fields, nothing stored
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert "Nepotvrzeno" in _text(app, "#result-error")
        assert not app.screen.query_one("#res-score-a", Input).disabled
        assert store.result(2, 5) is None and outbox.pending(store.db) == []
        app.screen.query_one("#res-score-b", Input).value = "398"
        await pilot.press("f10")
        await settle(pilot)
        clock.advance(1)
        await pilot.press("f10")  # the opponent confirms
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
    result = store.result(2, 5)
    assert (result.score_first, result.score_second, result.one_sided) == (412, 398, False)
    (row,) = outbox.pending(store.db)
    assert row["payload"]["one_sided"] is False


async def test_nobody_confirms_a_one_sided_entry_then_both_do(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _type_result(pilot)
        clock.advance(app.settings.form_inactivity_seconds + 1)
        await pilot.pause(0.3)
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
        assert "Uloženo jednostranně" in _text(app, "#verdict-reason")
        stored = store.result(2, 5)
        assert stored.one_sided and stored.entered_by == "players"
        clock.advance(app.settings.verdict_seconds + 1)
        await pilot.pause(0.3)
        # over a one-sided entry the players may enter it again, and confirm it
        await _type_result(pilot, ("2", "5", "412", "390", "b"))
        clock.advance(1)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
        assert "Uloženo:" in _text(app, "#verdict-reason")
    again = store.result(2, 5)
    assert (again.score_second, again.one_sided, again.revision) == (390, False, 2)
    assert [p["payload"]["one_sided"] for p in outbox.pending(store.db)] == [True, False]

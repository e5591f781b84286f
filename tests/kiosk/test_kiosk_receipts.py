"""The verdict shows its receipt code (shared/receipt.py) — the code of the check just
committed, on the prepared verdict screen and on one built for the check — and none on a
kiosk that has no station key."""

from __future__ import annotations

from kiosk_pilot import settle
from test_kiosk_flows import SIZE, check_words
from textual.widgets import Label

from samoobsluha.shared.receipt import ReceiptKey, format_code
from samoobsluha.station import outbox
from samoobsluha.station.screens.verdict import VerdictScreen


def _label(app, selector: str) -> Label:
    return app.screen.query_one(selector, Label)


async def test_each_verdict_shows_the_code_of_its_own_check(make_app, store):
    signer = ReceiptKey.from_station_key("test-station", 1700000000, bytes(range(32)))
    store.receipts = signer
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        shown = []
        for table, words in (("5", ["čáp", "kočka"]), ("6", ["xyzq"])):
            await check_words(pilot, table, words)
            assert isinstance(app.screen, VerdictScreen)
            label = _label(app, "#verdict-receipt")
            shown.append(str(label.content))
            # on the screen, inside 80x24, not cut off
            assert label.display and label.region.bottom <= SIZE[1]
            app.clock.advance(app.settings.verdict_lock + 0.1)
            await pilot.press("enter")
            await settle(pilot)
    payloads = [row["payload"] for row in outbox.pending(store.db)]
    assert [p["key_id"] for p in payloads] == [1700000000, 1700000000]
    expected = [f"Kód kontroly: {format_code(signer.code(p))}" for p in payloads]
    assert shown == expected and shown[0] != shown[1]
    stored = [r["receipt"] for r in store.recent()]
    assert stored == [signer.code(p) for p in reversed(payloads)]


async def test_no_station_key_no_code(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "5", ["čáp"])
        assert isinstance(app.screen, VerdictScreen)
        assert not _label(app, "#verdict-receipt").display
    (row,) = outbox.pending(store.db)
    assert row["payload"]["key_id"] is None

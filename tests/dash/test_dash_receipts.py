"""The dashboard checks a receipt code (F3, ``o``): the answer ``hub verify`` gives, for a
check a kiosk store logged with its station's receipt key and the hub's ingest stored."""

from __future__ import annotations

from pathlib import Path

from dash_testkit import deliver, label_text, settle, station_store

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.service import HubService
from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.protocol import HallKeys
from samoobsluha.shared.receipt import ALPHABET, ReceiptKey, format_code

SECRET = bytes(range(32))


async def test_the_dashboard_says_which_check_a_code_stands_for(
    service: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path
) -> None:
    (Path(service.data) / "tournament.key").write_text(SECRET.hex() + "\n")
    keys = HallKeys(SECRET)
    kiosk = station_store(tmp_path, "st-1")
    kiosk.receipts = ReceiptKey.from_station_key("st-1", 5, keys.station_key("st-1", 5))
    lexicon = Lexicon.open(small_lexicon_path)
    record = kiosk.record_check(
        lexicon.judge(prepare_words(["kůň"], lexicon.alphabet)),
        lexicon.info,
        table_no=4,
        round_no=1,
        at=clock.now(),
    )
    deliver(service, kiosk, clock.now())
    code = format_code(record.receipt)
    wrong = code[:-1] + ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    app = HubApp(service, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        await pilot.press(*code.lower(), "enter")
        await settle(pilot)
        await settle(pilot)
        answer = label_text(app.screen, "#receipt-answer")
        assert answer.splitlines()[0] == f"Kód kontroly {code} je pravý:"
        assert "stanice st-1 · stůl 4 · kolo 1" in answer
        assert "slova: KŮŇ" in answer and "výsledek kontroly: PLATNÉ" in answer
        field = app.screen.query_one("#receipt-code")
        field.value = ""  # type: ignore[attr-defined]
        await pilot.press(*wrong, "enter")
        await settle(pilot)
        await settle(pilot)
        assert "není pravý" in label_text(app.screen, "#receipt-answer")
        await pilot.press("escape")
        await settle(pilot)

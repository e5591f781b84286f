"""Every kiosk screen in Czech and in Slovak, with nothing English on it: the idle
screen, each step of a check and its refusals, every verdict, the rate-limit refusals,
„Kde hraji?“, result entry, the PIN prompt and its lockout, the referee menu, the appeal,
the log, the table range and the „opravdu?“ question."""

from __future__ import annotations

import pytest
from fuzz_typing import type_raw
from kiosk_pilot import settle
from language_guard import english_on_screen
from textual.widgets import DataTable, Label, OptionList

from samoobsluha.shared.checks import hash_pin
from samoobsluha.shared.rounds import Phase, RoundStatus

PIN = "47114711"
NAMES = {"Novak", "Jan", "Svoboda", "Petr", "TEST"}  # data: players, lexicon variant


def visible_text(app) -> str:
    screen = app.screen
    parts = [str(label.content) for label in screen.query(Label) if label.display]
    for table in screen.query(DataTable):
        parts += [str(c.label) for c in table.columns.values()]
        for row in range(table.row_count):
            parts += [str(cell) for cell in table.get_row_at(row)]
    for menu in screen.query(OptionList):
        parts += [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
    parts += [str(n.message) for n in app._notifications]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
async def test_every_kiosk_screen_speaks_the_language(make_app, store, clock, lang) -> None:
    store.set_referee_pin(hash_pin(PIN), 0.0)
    store.replace_pairings(2, [(5, "Novak Jan", "Svoboda Petr")], at=clock.now())
    store.replace_pairings(3, [(9, "Novak Jan", "")], at=clock.now())
    status = {"now": RoundStatus(2, Phase.ENDED, 0.0, clock.now(), clock.now())}
    app = make_app(
        ui_language=lang,
        min_interval=20.0,
        max_checks_per_round=2,
        station_min_interval=6.0,
        pin_free_attempts=1,
        round_status=lambda: status["now"],
        hub_status=lambda: False,
    )
    seen: dict[str, str] = {}

    async def look(name: str) -> None:
        await settle(pilot)
        seen[name] = visible_text(app)
        leaks = english_on_screen(seen[name], allowed=NAMES, lang=lang)
        assert not leaks, f"{lang} {name}: English {leaks} in:\n{seen[name]}"

    async def idle() -> None:
        app.reset_to_idle()
        clock.advance(30)
        await settle(pilot)

    async with app.run_test(size=(100, 30)) as pilot:
        await look("idle")
        for running in (RoundStatus(3, Phase.RUNNING, 1500.0, 0.0, 0.0), status["now"]):
            status["now"] = running
            await pilot.pause(0.15)
            await look(f"idle {running.phase}")
        await type_raw(pilot, "99\r")
        await look("table unknown")
        await type_raw(pilot, "\x7f\x7f5\r0\r")
        await look("count out of range")
        await type_raw(pilot, "\x7f1\rx[y", "f10")
        await look("word refused")
        await idle()
        await type_raw(pilot, "5\r1\rpes")
        await look("review")
        await type_raw(pilot, "", "f10")
        await look("verdict valid")
        await idle()
        await type_raw(pilot, "6\r2\rpes xyzq", "f10")
        await look("verdict invalid")
        await idle()
        await type_raw(pilot, "7\r1\rdobrodružství", "f10")
        await look("verdict referee")
        app.reset_to_idle()
        await settle(pilot)
        await type_raw(pilot, "7\r")  # table 7 checked a moment ago
        await look("refused")
        await idle()
        await type_raw(pilot, "", "f3")
        await type_raw(pilot, "novak")
        await look("where")
        await idle()
        await type_raw(pilot, "", "f2")
        await type_raw(pilot, "2\r5\r400\r", "f10")
        await look("result incomplete")
        await type_raw(pilot, "399\rb", "f10")
        await look("result saved")
        await idle()
        await type_raw(pilot, "", "f12")
        await type_raw(pilot, "0000\r")
        await look("pin wrong")
        await idle()
        clock.advance(3600)
        await type_raw(pilot, "", "f12")
        await pilot.pause(0.2)
        await type_raw(pilot, PIN + "\r")
        await look("referee menu")
        await type_raw(pilot, "1")
        await type_raw(pilot, "77\r")
        await type_raw(pilot, "pes\r")
        await look("appeal error")
        await type_raw(pilot, "\x1b")
        await type_raw(pilot, "2")
        await look("log")
        app.pop_screen()
        await settle(pilot)
        await type_raw(pilot, "3")
        app.screen.query_one("#tables-input").value = ""
        await type_raw(pilot, "1-x\r")
        await look("tables error")
        await type_raw(pilot, "\x1b")
        await type_raw(pilot, "7")
        await look("confirm quit")
        await type_raw(pilot, "n")
        await type_raw(pilot, "6")
        await type_raw(pilot, "12\r")
        await look("pin too short")
    assert len(seen) >= 20
    assert "ODMÍTNUT" not in seen["refused"]  # the refusal screen, not an error
    # the log's note names the limit in words, not as rate_interval
    assert {"cs": "příliš brzy", "sk": "príliš skoro", "pl": "za wcześnie"}[lang] in seen["log"]

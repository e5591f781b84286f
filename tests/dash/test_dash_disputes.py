"""The dispute flow on the dashboard, driven by Pilot at 80×24 over a real hub database:
station results that arrive after the operator published the round are shown on every
screen and on their round's results screen (after the dashboard moved on), and resolved
with one key each; an implausible entry asks first."""

from __future__ import annotations

from pathlib import Path

from dash_testkit import cells, deliver, label_text, settle, station_store
from textual.widgets import DataTable, Input

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.station.log import Result

SCORES = {1: (412, 389), 2: (300, 350), 3: (400, 390), 4: (380, 381)}


def published_with_late_results(service: HubService, clock: FakeClock, tmp_path: Path) -> None:
    """Round 1 entered from the scoresheets and published, round 2 paired; then st-2's
    results arrive: tables 1 and 2 differ, table 3 agrees."""
    for table, (a, b) in SCORES.items():
        service.enter_result(1, Entry(table, a, b))
    service.publish_round(1)
    service.pair(2, seed=1)
    rows, _ = service.pairing_table(1)
    late = {1: (389, 412), 2: (300, 351), 3: SCORES[3]}
    st = station_store(tmp_path, "st-2")
    for table, (a, b) in late.items():
        row = rows[table - 1]
        st.store_result(Result(1, table, a, b, "first", row["first"], row["second"]), at=0)
    clock.advance(60)
    deliver(service, st, clock.now())


def scores(service: HubService) -> dict[int, tuple[int | None, int | None]]:
    return {t.table: (t.score_first, t.score_second) for t in service.round_results(1).tables}


async def test_disputes_on_every_screen_and_resolved_with_one_key(
    service: HubService, clock: FakeClock, tmp_path: Path
) -> None:
    published_with_late_results(service, clock, tmp_path)
    standings_before = service.standings_table(1)
    app = HubApp(service, refresh_every=None, tick_every=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("f1", "f2", "f3", "f5", "f4"):
            await pilot.press(key)
            await settle(pilot)
            assert label_text(app.screen, "#topbar").startswith("⚠ 2 spory o výsledek"), key
        screen = app.screen
        # F4 follows the tournament to round 2 and still lists round 1's disputes
        assert screen.query_one("#results-round", Input).value == "2"
        listed = label_text(screen, "#disputes").splitlines()[:-1]
        assert [line.split(":")[1].strip() for line in listed] == [
            "1. kolo, stůl 1",
            "1. kolo, stůl 2",
        ]
        assert "st-2 hlásí 389:412, zveřejněno 412:389" in listed[0]
        # the results and the standings are as published
        assert scores(service) == SCORES
        assert service.standings_table(1) == standings_before

        # round 1's screen marks the two tables
        screen.query_one("#results-round", Input).value = "1"
        screen.reload()
        await settle(pilot)
        states = [r[4] for r in cells(screen.query_one("#tables", DataTable))]
        assert states == ["SPOR", "SPOR", "zapsáno", "zapsáno"]
        # the round's summary counts every table: the two disputes too
        summary = label_text(screen, "#results-summary")
        assert summary == "Kolo 1: zapsáno 2, čeká 0, chybí 0, rozpor 0, spor 2", summary

        # F10 on table 1 (the cursor's row): asks, then takes the station's entry
        await pilot.press("f10")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert question.startswith("1. kolo, stůl 1: nahradit zveřejněný výsledek 412:389")
        await pilot.press("enter")
        await settle(pilot)
        assert scores(service) == {**SCORES, 1: (389, 412)}
        assert label_text(app.screen, "#topbar").startswith("⚠ 1 spor o výsledek")

        # F9 keeps the published result of table 2 (the only dispute left)
        await pilot.press("f9")
        await settle(pilot)
        assert "ponechat zveřejněný výsledek 300:350" in label_text(app.screen, "#confirm-question")
        await pilot.press("enter")
        await settle(pilot)
        assert scores(service) == {**SCORES, 1: (389, 412)}
        assert not label_text(app.screen, "#topbar").startswith("⚠")
        assert not app.screen.query_one("#disputes").display
        with service._tour() as tour:
            trail = [a["action"] for a in tour.audit(1) if a["action"].startswith("dispute")]
        assert trail == ["dispute", "dispute", "dispute_take", "dispute_keep"]


async def test_an_implausible_entry_asks_with_the_reason(service: HubService) -> None:
    app = HubApp(service, refresh_every=None, tick_every=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        await pilot.press(*"1 0 0", "enter")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "0:0 u odehrané partie; není to kontumace?" in question
        assert "Zapsat 1 0 0 přesto?" in question
        await pilot.press("n")
        await settle(pilot)
        assert service.round_results(1).tables[0].state == "missing"
        await pilot.press(*"1 0 0", "enter")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert service.round_results(1).tables[0].score_first == 0
        # a negative score is refused outright, saying why
        await pilot.press(*"2 -20 300", "enter")
        await settle(pilot)
        assert "záporné skóre nelze zapsat" in label_text(app.screen, "#message")
        assert service.round_results(1).tables[1].state == "missing"

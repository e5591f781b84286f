"""Operator safety on the dashboard (Pilot over a real hub database and the hub server in
the app, loopback): round fields follow the tournament; a round that has begun or has
results starts again only after a question that names its state, and a played round is
never cancelled — on the screen, through the service and in the server; the challenge log's
cursor stays on the check the operator chose while new checks arrive, and the action names
that check before it acts."""

from __future__ import annotations

import asyncio

import pytest
from dash_testkit import cells, check, deliver, label_text, settle, station_store
from textual.widgets import DataTable, Input

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text
from samoobsluha.shared.lexicon import Lexicon

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}


def app_for(service: HubService, serve: bool = True) -> HubApp:
    return HubApp(service, refresh_every=None, tick_every=None, serve=LOOPBACK if serve else None)


async def settled(pilot: object, done: object, rounds: int = 25) -> None:
    """Settle until ``done()`` holds: a confirmed action is a chain of workers and
    messages (dismiss, act, reload), longer than one settle on a busy machine. Counts
    event-loop rounds, not seconds."""
    for _ in range(rounds):
        if done():  # type: ignore[operator]
            return
        await settle(pilot)
    assert done()  # type: ignore[operator]


def _play_round_1(svc: HubService, clock: FakeClock) -> None:
    """Round 1 ran to its end, every table's result is in and approved; round 2 is paired."""
    clock.advance(41 * 60)
    for table in range(1, 5):
        svc.enter_result(1, Entry(table, 400 + table, 350))
    svc.publish_results(1)
    svc.pair(2, seed=1)


async def test_a_played_round_asks_before_a_restart_and_is_never_cancelled(
    served: HubService, clock: FakeClock
) -> None:
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        screen = app.screen
        field = screen.query_one("#round-no", Input)
        assert field.value == "1"
        await pilot.press("s")  # a round never started: no question
        await settle(pilot)
        assert served.plan(1) is not None and served.plan(1).revision == 0

        _play_round_1(served, clock)
        app.action_reload()
        await settle(pilot)
        assert field.value == "2"  # round 1 ended and round 2 was paired: the field follows

        field.value = "1"  # the operator goes back to round 1 on purpose
        await pilot.press("s")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "Kolo 1 skončilo v" in question
        assert "Zapsané výsledky kola 1: 4." in question
        assert "Spustit kolo 1 znovu?" in question
        await pilot.press("escape")
        await settle(pilot)
        assert served.plan(1).revision == 0  # nothing was sent

        for _ in range(2):  # cancel, twice as the key asks for a running round: refused
            await pilot.press("c")
            await settle(pilot)
            assert "Odehrané kolo 1 nelze zrušit." in label_text(screen, "#message")
        assert not served.plan(1).cancelled
        screen.tick()
        assert "ZRUŠENO" not in label_text(screen, "#round-big")
        assert all(row[1] != "ZRUŠENO" for row in cells(screen.query_one("#rounds", DataTable)))

        await pilot.press("s")
        await settle(pilot)
        await pilot.press("enter")  # a reflex Enter is not a yes: it says what to type
        await settle(pilot)
        assert "Napište 1 a Enter" in label_text(app.screen, "#confirm-hint")
        await pilot.press("2", "enter")  # another round's number is not a yes either
        await settle(pilot)
        assert served.plan(1).revision == 0
        await pilot.press("1", "enter")  # the referee types the round: it starts again
        await settled(pilot, lambda: served.plan(1).revision == 1)
        assert served.plan(1).start_at == clock.now() + 5
        assert served.plan(1).epoch == 1  # a new start: every station rings it
        assert "Odesláno stanicím" in label_text(screen, "#message")


async def test_a_first_start_never_asks_again_even_with_a_result_in(
    served: HubService, clock: FakeClock
) -> None:
    """A kiosk (or the operator) entered a result of round 1 before round 1 was ever
    started on the hub: starting it is a first start, not „again?“."""
    served.enter_result(1, Entry(1, 401, 350))
    assert served.round_guard(1).results == 1
    assert not served.round_guard(1).needs_confirmation
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("s")
        await settled(pilot, lambda: served.plan(1) is not None)
        assert not app.screen.query("#confirm-question")
        assert served.plan(1).revision == 0 and served.plan(1).epoch == 0


async def test_the_hub_refuses_to_cancel_or_silently_restart_a_played_round(
    served: HubService, clock: FakeClock
) -> None:
    """The same rules without the dashboard: hub round start / cancel reach the server
    (called from a thread, as the commands do: the server runs in this event loop)."""
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)

        async def call(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
            return await asyncio.to_thread(fn, *args, **kwargs)

        await call(served.start_round, 1)
        clock.advance(30)  # under way, no results: a restart needs the referee's yes
        with pytest.raises(ServiceError, match="has begun: its start cannot be delayed"):
            await call(served.change_round, 1, "delay", 300)  # its start rang: never silent
        with pytest.raises(ServiceError, match=r"round 1 is under way; starting it again needs"):
            await call(served.start_round, 1)
        guard = served.round_guard(1)
        assert guard.needs_confirmation and not guard.played
        await asyncio.to_thread(_play_round_1, served, clock)
        with pytest.raises(ServiceError, match="cannot be cancelled") as exc:
            await call(served.change_round, 1, "cancel")
        assert error_text(exc.value, "sk") == (
            "1. kolo má zapísané 4 výsledky: odohrané kolo nemožno zrušiť"
        )
        with pytest.raises(ServiceError, match="round 1 has ended, has 4 results entered") as exc:
            await call(served.start_round, 1)
        assert error_text(exc.value, "cs").startswith(
            "1. kolo už skončilo, má zapsané 4 výsledky; znovu ho lze spustit jen s potvrzením"
        )
        restarted = await call(served.start_round, 1, force=True)
        assert restarted["plan"]["revision"] == 1
        clock.advance(60)  # the restarted round 1 runs again, and it has results
        with pytest.raises(ServiceError, match="cannot be cancelled"):
            await call(served.change_round, 1, "cancel")
        # round 2 is not played yet: it starts without a question and may be cancelled
        await call(served.start_round, 2)
        cancelled = await call(served.change_round, 2, "cancel")
        assert cancelled["plan"]["cancelled"]


async def test_the_results_round_field_follows_the_tournament(
    served: HubService, clock: FakeClock
) -> None:
    app = app_for(served, serve=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        field = app.screen.query_one("#results-round", Input)
        assert field.value == "1"
        _play_round_1(served, clock)
        app.action_reload()
        await settle(pilot)
        assert field.value == "2"
        assert "aktuální kolo turnaje: 2" in label_text(app.screen, "#message")
        field.value = "1"  # a late scoresheet of round 1: the typed round stays
        app.action_reload()
        await settle(pilot)
        assert field.value == "1"
        assert app.screen.data is not None and app.screen.data.round_no == 1


async def test_the_challenge_cursor_stays_on_the_chosen_check_while_new_ones_arrive(
    served: HubService, clock: FakeClock, tmp_path, small_lexicon_path
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    check(st, lexicon, ["kůň"], 1, clock.now() - 600)  # ten minutes ago, table 1
    check(st, lexicon, ["xyzzy"], 2, clock.now() - 300)
    deliver(served, st, clock.now())
    app = app_for(served, serve=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        table = app.screen.query_one("#checks", DataTable)
        assert [r[3] for r in cells(table)] == ["2", "1"]
        table.move_cursor(row=0)  # the operator chooses the check of table 2
        # two new checks arrive above it
        check(st, lexicon, ["čáp"], 3, clock.now() - 5)
        check(st, lexicon, ["ryba"], 4, clock.now() - 1)
        deliver(served, st, clock.now())
        app.action_reload()
        await settle(pilot)
        assert [r[3] for r in cells(table)] == ["4", "3", "2", "1"]
        assert table.cursor_row == 2 and cells(table)[2][3] == "2"  # still the chosen one
        await pilot.press("v")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "stůl 2" in question and "XYZZY" in question and "PLATNÉ?" in question
        await pilot.press("enter")
        await settled(pilot, lambda: cells(table)[2][5] == "NEPLATNÉ → PLATNÉ")
        assert all("→" not in row[5] for i, row in enumerate(cells(table)) if i != 2)


async def test_a_scheduled_round_with_results_is_retimed_not_started_again(
    served: HubService, clock: FakeClock
) -> None:
    """Round 1 is planned for later and a kiosk result of it is already in: moving its
    start asks (it has results) without calling it a start "again", and still wants the
    round's number typed."""
    app = app_for(served)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await asyncio.to_thread(served.start_round, 1, at=clock.now() + 3600)
        served.enter_result(1, Entry(2, 380, 300))
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("s")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "Změnit start kola 1?" in question and "znovu" not in question
        assert "Zapsané výsledky kola 1: 1." in question
        await pilot.press("1", "enter")
        await settled(pilot, lambda: served.plan(1).revision == 1)
        assert served.plan(1).start_at == clock.now() + 5

"""Publishing a round is one operation whichever door the operator uses — ``hub
tournament publish N``, ``hub publish-round N`` or the dashboard's F6: the round's results
are published, the protest window starts (once), the standings after the round go to the
stations (through the running server, or stored for it) and so to the hall screen."""

from __future__ import annotations

import re

import pytest
from dash_testkit import label_text, settle

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.cli import main
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.storage import open_db

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False, "screen_port": 0}


def enter_round_1(service: HubService) -> None:
    for table in range(1, 5):
        service.enter_result(1, Entry(table, 400 + table, 350))


def published_standings(service: HubService) -> dict[str, object] | None:
    db = open_db(service.db_path, sync_store.migrations)
    try:
        item = sync_store.load_published(db).get("standings")
    finally:
        db.close()
    return item[1] if item else None


def test_both_commands_are_the_one_publication(
    service: HubService, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    enter_round_1(service)
    assert main(["tournament", "publish", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    # (the command runs on the real clock, the fixture's service on a fake one)
    assert re.fullmatch(r"1\. kolo zveřejněno; lhůta pro protesty do \d\d:\d\d:\d\d", out[0])
    assert out[1] == "server hubu neběží: stanice dostanou pořadí, až se připojí"
    standings = published_standings(service)
    assert standings is not None and standings["round"] == 1 and len(standings["rows"]) == 8
    opened = service.round_results(1).published_at

    clock.advance(600)
    service.enter_result(1, Entry(1, 401, 350))  # identical: nothing changes
    assert main(["publish-round", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert re.fullmatch(
        r"1\. kolo už bylo zveřejněno \(protesty do \d\d:\d\d:\d\d\); odesláno znovu", out[0]
    )
    assert service.round_results(1).published_at == opened  # the window keeps its start
    with service._tour() as tour:
        assert [a["action"] for a in tour.audit(1)].count("publish") == 1


async def test_f6_is_the_same_publication_with_the_server_running(served: HubService) -> None:
    enter_round_1(served)
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        message = label_text(app.screen, "#message")
        assert message.startswith("1. kolo zveřejněno, protesty do 09:30")
        assert "Odesláno stanicím: žádné" in message  # the server ran; no station connected
        standings = published_standings(served)
        assert standings is not None and standings["round"] == 1
        assert served.round_results(1).protest_closes == served.clock.now() + 30 * 60
        await pilot.press("f6")
        await settle(pilot)
        assert "už je zveřejněné" in label_text(app.screen, "#message")

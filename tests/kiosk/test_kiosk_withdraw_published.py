"""A withdrawal at the kiosk says only what is true (issue #34: "until publication"): a
real hub on 127.0.0.1 with a real tournament, its control socket (``hub publish-round``'s
path, HubService), the real station runtime with its kiosk headless at 80x24 (typed into
through Textual's Pilot), the station's real SQLite file.

Before publication the withdrawal is *asked*, and the entry's line shows the hub's word
when it comes back (withdrawn). Once the round's publication has reached the station the
kiosk refuses the withdrawal itself and stores nothing. A station that cannot know (the
hub down while the round is published) says *asked*, and when the link is back the idle
screen and the entry's line show the hub's refusal — never "withdrawn". (Before:
„Staženo“ in every case, and F8 offered after publication.)"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from kiosk_pilot import settle, type_text
from test_kiosk_hall_config import _config, _start, _stop
from testkit import hub_for_a_station, until
from textual.pilot import Pilot
from textual.widgets import Input, Label

from samoobsluha.hub import control, store
from samoobsluha.hub.server import HubServer
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.log import ASKED, REFUSED, TAKEN_BACK, Result
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.result import ResultScreen
from samoobsluha.station.screens.verdict import SavedScreen

pytestmark = pytest.mark.timeout(240)

PLAYERS = "jméno;klub\nDvořák Čeněk;Žďár\nŠťastná Růžena;Brno\nNovák Jiří;\nMalá Žofie;\n"


class Hall:
    """The hub with a paired round 1, its control socket and the stations' pairings."""

    def __init__(self, tmp_path: Path, hub: HubServer) -> None:
        self.tmp_path = tmp_path
        self.hub = hub
        self.sock_dir = Path(tempfile.mkdtemp(prefix="wd-", dir="/tmp"))  # a short AF_UNIX path
        self.service = HubService(tmp_path, control_path=self.sock_dir / "hub.sock")
        self.ctl: asyncio.AbstractServer | None = None
        self.up = True

    async def open(self) -> Hall:
        with Tournament.open(self.tmp_path / "hub.db") as tour:
            tour.configure(name="Stažení", rules="cas", protest_minutes=30)
            tour.import_players_csv(PLAYERS)
            tour.pair(1, seed=3)
            names = {p.id: p.name for p in tour.players()}
            self.tables = {
                b.table: (names[b.first], names[b.second or 0])
                for b in tour.pairing(1).boards
                if b.second is not None
            }
        await self.serve(self.hub)
        await asyncio.to_thread(self.service.publish_to_stations, 1)  # hub publish-pairings 1
        return self

    async def serve(self, hub: HubServer) -> None:
        self.hub, self.up = hub, True
        self.ctl = await control.start_control(hub, self.service.control_path)

    async def close(self) -> None:
        if self.ctl is not None:
            self.ctl.close()
            await self.ctl.wait_closed()
            self.ctl = None
        if self.up:
            self.up = False
            await self.hub.close()

    def intake(self) -> list[str]:
        db = open_db(self.tmp_path / "hub.db", store.migrations)
        try:
            return [outcome for outcome, _ in store.result_intake(db, 1).values()]
        finally:
            db.close()

    def result(self, table: int) -> dict[str, Any] | None:
        with Tournament.open(self.tmp_path / "hub.db") as tour:
            return tour.book.result_row(1, table)


def _text(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Label).content)


async def _look_up(pilot: Pilot, table: int) -> None:
    """F2, round 1, the table: the screen shows this station's entry for it."""
    app: Any = pilot.app
    await pilot.press("f2")
    await settle(pilot)
    assert isinstance(app.screen, ResultScreen)
    if app.focused is not None and app.focused.id == "res-round":
        await type_text(pilot, "1")
        await pilot.press("enter")
    else:
        assert app.screen.query_one("#res-round", Input).value == "1"
    await type_text(pilot, str(table))
    await pilot.press("enter")
    await settle(pilot)
    await until(lambda: _text(app, "#result-entry") != "")


async def _to_idle(pilot: Pilot) -> None:
    app: Any = pilot.app
    await pilot.press("escape")
    await until(lambda: isinstance(app.screen, IdleScreen))


async def _dismiss(pilot: Pilot) -> None:
    """Any key after the saved screen's lock: back to idle."""
    app: Any = pilot.app
    await pilot.press("x")
    await until(lambda: isinstance(app.screen, IdleScreen))


def _fits(app: Any) -> None:
    for selector in ("#result-entry", "#result-error"):
        assert app.screen.query_one(selector).region.bottom <= 24, selector


async def _withdraw(pilot: Pilot) -> str:
    """F8 and the opponent's F10: the text the kiosk shows then."""
    app: Any = pilot.app
    await pilot.press("f8")
    await settle(pilot)
    assert "Soupeř souhlasí" in _text(app, "#result-confirm")
    await pilot.press("f10")
    await until(lambda: isinstance(app.screen, SavedScreen))
    return _text(app, "#verdict-reason")


def _enter(app: Any, hall: Hall, table: int, a: int, b: int) -> None:
    """Both players' confirmed entry, stored by the kiosk's store (as the F2 flow does)."""
    first, second = hall.tables[table]
    app.store.store_result(Result(1, table, a, b, "first", first, second), at=time.time())


async def test_before_publication_the_withdrawal_is_asked_and_the_hub_takes_it_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    hall = await Hall(tmp_path, await hub_for_a_station(tmp_path, monkeypatch)).open()
    runtime, main = await _start(
        _config(tmp_path, hall.hub.tournament, hall.hub.port), small_lexicon_path
    )
    try:
        app: Any = runtime.app
        pilot = Pilot(app)
        await until(lambda: "st-1" in hall.hub.conns and app.store.pairing(1, 1) is not None)
        _enter(app, hall, 1, 412, 389)
        await until(lambda: hall.intake() == ["entered"])
        await until(lambda: app.store.at_hub(1, 1))
        await _look_up(pilot, 1)
        assert _text(app, "#result-entry") == (
            "Záznam této stanice: 412:389, začínal A — potvrzený oběma, hub ho má. F8 = stáhnout"
        )
        said = await _withdraw(pilot)
        assert said.startswith("Stažení požadováno: kolo 1, stůl 1. Rozhodne hub:")
        assert "Staženo" not in said
        stored = app.store.result(1, 1)
        assert stored.withdrawn and stored.revision == 2  # stored before it was shown

        # the hub took it back (the table is missing again) and said so to the station
        await until(lambda: sorted(hall.intake()) == ["entered", "withdrawn"])
        assert hall.result(1) is None
        await until(lambda: app.store.withdrawal_word(1, 1) == TAKEN_BACK, 30)
        await _dismiss(pilot)
        await _look_up(pilot, 1)
        assert _text(app, "#result-entry") == (
            "Záznam této stanice: 412:389, začínal A — stažený, hub ho má."
        )
        _fits(app)
    finally:
        await _stop(runtime, main)
        await hall.close()


async def test_after_the_publication_reached_the_station_the_kiosk_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    hall = await Hall(tmp_path, await hub_for_a_station(tmp_path, monkeypatch)).open()
    runtime, main = await _start(
        _config(tmp_path, hall.hub.tournament, hall.hub.port), small_lexicon_path
    )
    try:
        app: Any = runtime.app
        pilot = Pilot(app)
        await until(lambda: "st-1" in hall.hub.conns and app.store.pairing(1, 2) is not None)
        _enter(app, hall, 1, 412, 389)
        _enter(app, hall, 2, 300, 450)
        await until(lambda: sorted(hall.intake()) == ["entered", "entered"])
        assert not app.store.round_published(1, 1)
        await asyncio.to_thread(hall.service.publish_round, 1)  # hub publish-round 1
        await until(lambda: app.store.round_published(1, 1), 30)

        await _look_up(pilot, 1)
        line = _text(app, "#result-entry")
        assert line == (
            "Záznam této stanice: 412:389, začínal A — potvrzený oběma, hub ho má. "
            "Kolo 1 je zveřejněné: opravit ho může jen rozhodčí."
        )
        assert "F8" not in line
        rows = len(outbox.pending(app.store.db)) + outbox.acked_seq(app.store.db)
        await pilot.press("f8")
        await settle(pilot)
        assert _text(app, "#result-error") == (
            "! Kolo 1 je zveřejněné: záznam platí a stáhnout ho už nelze. "
            "Opravit ho teď může jen rozhodčí."
        )
        assert _text(app, "#result-confirm") == ""  # the opponent is asked nothing
        _fits(app)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        # nothing stored, nothing sent: the entry stands at the station as at the hub
        assert not app.store.result(1, 1).withdrawn
        assert len(outbox.pending(app.store.db)) + outbox.acked_seq(app.store.db) == rows
        assert hall.result(1)["s_first"] == 412
        await _to_idle(pilot)
    finally:
        await _stop(runtime, main)
        await hall.close()


async def test_offline_the_withdrawal_is_asked_and_then_the_hubs_refusal_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    hall = await Hall(tmp_path, await hub_for_a_station(tmp_path, monkeypatch)).open()
    psk = bytes.fromhex((tmp_path / "tournament.key").read_text())
    port = hall.hub.port
    runtime, main = await _start(_config(tmp_path, hall.hub.tournament, port), small_lexicon_path)
    try:
        app: Any = runtime.app
        pilot = Pilot(app)
        await until(lambda: "st-1" in hall.hub.conns and app.store.pairing(1, 2) is not None)
        _enter(app, hall, 1, 412, 389)
        _enter(app, hall, 2, 300, 450)
        await until(lambda: sorted(hall.intake()) == ["entered", "entered"])

        # the hub goes down; the referee publishes round 1 meanwhile (stored for the
        # stations: hub publish-round without hub serve)
        await hall.close()
        await until(lambda: not runtime.sync.status.connected, 30)  # type: ignore[union-attr]
        done = await asyncio.to_thread(hall.service.publish_round, 1)
        assert done["published"] and done["standings"].get("stored")
        assert not app.store.round_published(1, 1)  # the station cannot know

        await _look_up(pilot, 1)
        assert "F8 = stáhnout" in _text(app, "#result-entry")
        said = await _withdraw(pilot)
        assert said.startswith("Stažení požadováno: kolo 1, stůl 1. Rozhodne hub:")
        assert "Staženo" not in said
        assert app.store.withdrawal_word(1, 1) == ASKED
        await _dismiss(pilot)
        await _look_up(pilot, 1)
        assert _text(app, "#result-entry") == (
            "Záznam této stanice: 412:389, začínal A — stažení požadováno, rozhodne hub, "
            "čeká na odeslání."
        )
        await _to_idle(pilot)

        # the hub is back: the withdrawal reaches it after the publication, it refuses it,
        # and its refusal comes back over the link
        again = HubServer(tmp_path / "hub.db", psk, host="127.0.0.1", port=port, advertise=False)
        await again.start()
        await hall.serve(again)
        await until(lambda: "withdraw_refused" in hall.intake(), 60)
        await until(lambda: app.store.withdrawal_word(1, 1) == REFUSED, 30)
        assert app.store.round_published(1, 2)  # the publication reached it too (table 2)
        assert hall.result(1)["s_first"] == 412  # the entry stands
        # the idle screen says so at once (its next idle moment), for whoever passes by
        notice = "#withdraw-notice"
        await until(lambda: app.screen.query_one(notice).display)
        assert _text(app, notice) == (
            "Hub odmítl stažení záznamu kola 1, stůl 1: kolo je zveřejněné a záznam platí. "
            "Opravit ho může jen rozhodčí (záznam ukáže F2)."
        )
        assert app.screen.query_one(notice).region.bottom <= 24
        await _look_up(pilot, 1)
        line = _text(app, "#result-entry")
        assert line == (
            "Záznam této stanice: 412:389, začínal A — stažení hub odmítl: kolo je zveřejněné, "
            "záznam platí a opravit ho může jen rozhodčí, hub ho má."
        )
        assert "stažený" not in line
        _fits(app)
        await _to_idle(pilot)
        # looked at: the idle screen no longer repeats it
        await until(lambda: not app.screen.query_one(notice).display)
    finally:
        await _stop(runtime, main)
        await hall.close()

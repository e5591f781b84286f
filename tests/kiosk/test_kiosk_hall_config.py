"""The hall configuration the hub publishes (``hub publish config``) is what the kiosks
use (station/settings.py): a real hub on 127.0.0.1, the real station runtime with its
kiosk headless (typed into as a player types, through Textual's Pilot), gpiozero's mock
pins, the station's real SQLite file.

Before the publication the kiosk takes table 25 (its file says 1-30); the hall narrows the
tables to 1-20 while a player is in the middle of checking table 25 — that check finishes
as it started; at the next idle moment table 25 is refused and 15 taken. The hub sees the
version each station uses. Restarted with the hub gone, the station keeps the hall's
tables. (On a hub and station that stored the configuration and used nothing, table 25
was taken after the publication too.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fuzz_typing import type_raw
from gpiozero.pins.mock import MockFactory
from kiosk_pilot import settle
from testkit import hub_for_a_station, hub_signed, until
from textual.pilot import Pilot
from textual.widgets import Label

from samoobsluha.hub import store
from samoobsluha.hub.server import HubServer, _item_msg
from samoobsluha.hub.store import item_version
from samoobsluha.shared.checks import parse_tables
from samoobsluha.shared.i18n import localize
from samoobsluha.shared.protocol import new_psk
from samoobsluha.station import config as station_config
from samoobsluha.station.log import KioskStore
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime
from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.verdict import VerdictScreen
from samoobsluha.station.settings import DEFAULT, HUB, SettingsInUse
from samoobsluha.station.sync import load_item

KIOSK = '[kiosk]\ntables = "1-30"\nmin_interval = 0\nstation_min_interval = 0\nverdict_lock = 0\n'


def _config(tmp_path: Path, tournament: str, port: int) -> Path:
    conf = tmp_path / "station.toml"
    conf.write_text(
        f'[station]\nname = "st-1"\n\n{KIOSK}\n'
        f'[network]\ntournament_id = "{tournament}"\nhub = "127.0.0.1:{port}"\n'
        f'psk_file = "{tmp_path / "tournament.key"}"\nstation_id = "st-1"\n\n'
        '[gong]\naudio = "off"\n',
        encoding="utf-8",
    )
    return conf


async def _start(conf: Path, lexicon: Path) -> tuple[StationRuntime, asyncio.Task[int]]:
    # signed by the test's hub (its hall secret beside the config): the station pins it
    lexicon = hub_signed(lexicon, conf.parent / "lexicons", conf.parent / "tournament.key")
    options = RuntimeOptions(kiosk=True, headless=True, lexicon=lexicon)
    runtime = StationRuntime(station_config.load(conf), options, pin_factory=MockFactory())
    main = asyncio.create_task(runtime.main())
    await until(lambda: runtime.ready.is_set() and runtime.app is not None)
    app = runtime.app
    assert app is not None
    await until(lambda: app.is_running and isinstance(app.screen, IdleScreen))
    return runtime, main


async def _stop(runtime: StationRuntime, main: asyncio.Task[int]) -> None:
    runtime.stop()
    await asyncio.wait_for(main, 30)


def _table_error(app: Any) -> str:
    return str(app.screen.query_one("#check-error", Label).render())


async def _check(pilot: Pilot, table: int, word: str = "pes") -> None:
    """One whole check from the idle screen, back to idle after the verdict."""
    app: Any = pilot.app
    await type_raw(pilot, f"{table}\r1\r{word}", "f10")
    await until(lambda: isinstance(app.screen, VerdictScreen))
    assert app.screen.verdict.valid
    await type_raw(pilot, "x")
    await until(lambda: isinstance(app.screen, IdleScreen))


async def test_the_kiosk_uses_the_hall_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_lexicon_path: Path
) -> None:
    hub = await hub_for_a_station(tmp_path, monkeypatch)
    port = hub.port
    conf = _config(tmp_path, hub.tournament, port)
    runtime, main = await _start(conf, small_lexicon_path)
    try:
        app: Any = runtime.app
        pilot = Pilot(app)
        await until(lambda: "st-1" in hub.conns and runtime.synced)
        assert app.tables == parse_tables("1-30")  # the file's
        await _check(pilot, 25)  # taken before the publication

        # a player is checking table 25 when the hall narrows the tables
        await type_raw(pilot, "25\r1\rpes")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen) and app.screen.table_no == 25
        published = await hub.publish("config", {"tables": "1-20", "tournament": "Brno"})
        assert published["sent_to"] == ["st-1"]
        await until(lambda: app.settings_in_use.pending is not None)
        for _ in range(3):
            app._tick()  # the kiosk's own timer: not idle, no swap
            await pilot.pause()
        assert app.tables == parse_tables("1-30") and app.settings_in_use.in_use_version is None
        await type_raw(pilot, "", "f10")
        await until(lambda: isinstance(app.screen, VerdictScreen))
        assert app.screen.verdict.valid and app.screen.record.table_no == 25
        await type_raw(pilot, "x")  # back to idle: the hall's settings go into use
        await until(lambda: app.tables == parse_tables("1-20"))
        version = item_version(published["id"])
        assert app.settings_in_use.in_use_version == version
        assert app.settings.tournament == "Brno"
        assert str(app.screen.query_one("#tournament", Label).render()) == "Brno"

        # table 25 is refused now, 15 taken
        await type_raw(pilot, "25\r")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen) and app.screen.step == "table"
        assert "25" in _table_error(app) and "1-20" in _table_error(app)
        await type_raw(pilot, "\x1b")
        await until(lambda: isinstance(app.screen, IdleScreen))
        await _check(pilot, 15)

        # the hub sees which configuration the station uses
        async def reported() -> Any:
            rows = await hub.stations()
            return rows[0]["status"].get("config_version")

        deadline = asyncio.get_running_loop().time() + 30
        while await reported() != version:
            assert asyncio.get_running_loop().time() < deadline, "config_version not reported"
            await asyncio.sleep(0.05)
        deliveries = await hub.deliveries(published["id"])
        assert deliveries["st-1"]["ok"] is True
    finally:
        await _stop(runtime, main)
        await hub.close()

    # restarted with the hub gone: the hall's configuration stays in use
    runtime, main = await _start(conf, small_lexicon_path)
    try:
        app = runtime.app
        pilot = Pilot(app)
        assert not runtime.sync.status.connected  # type: ignore[union-attr]
        assert app.tables == parse_tables("1-20")
        assert app.settings_in_use.current.sources["tables"] == HUB
        assert app.settings_in_use.in_use_version == version
        await type_raw(pilot, "25\r")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen) and "1-20" in _table_error(app)
    finally:
        await _stop(runtime, main)
    kept = KioskStore.open(runtime.db_path, "st-1")
    try:
        rows = [(r["table_no"], r["status"]) for r in reversed(kept.recent())]
    finally:
        kept.close()
    assert rows == [(25, "valid"), (25, "valid"), (15, "valid")]


async def test_a_station_refuses_a_bad_configuration_and_keeps_its_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A configuration the hub stored before it checked them (or a hub of another
    version) is refused at the station with the reason, stored nowhere, used by no one."""
    from net.net_procs import start_sync, stop_sync

    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "hubdata"))
    psk = new_psk()
    hub = HubServer(tmp_path / "hub.db", psk, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    sync, task = await start_sync(hub, psk, tmp_path / "station.db", "s1")
    owner = SettingsInUse()
    sync.on("config", owner.offer)
    try:
        await until(lambda: "s1" in hub.conns)
        good = await hub.publish("config", {"max_words": 4})
        await until(lambda: owner.pending is not None)
        owner.take_pending()
        assert owner.settings.max_words == 4
        # signed by the hub, but not what a station uses
        bad_id = f"config:{item_version(good['id']) + 1}:bad"
        await hub._broadcast(_item_msg("config", bad_id, {"max_words": 40, "referee_key": "a"}))

        def delivered() -> dict[str, Any] | None:
            return hub.dbw.call(store.load_deliveries, bad_id).get("s1")

        await until(lambda: delivered() is not None)
        detail = delivered()
        assert detail is not None and detail["ok"] is False
        assert "referee_key" in detail["detail"] and "cannot be set" in detail["detail"]
        assert sync.dbw.call(load_item, "config") == {"max_words": 4}
        assert owner.pending is None and owner.settings.max_words == 4
        assert hub.conns["s1"].channel is not None  # refused, the link kept
    finally:
        await stop_sync(sync, task)
        await hub.close()


@pytest.mark.parametrize(
    ("data", "key", "cs"),
    [
        ({"tables": "1-20", "referee_pin_hash": "scrypt$x"}, "config.pin_item", "hub pin set"),
        ({"tables": "1-20", "tabels": "1-20"}, "config.not_hall_key", "„tabels“"),
        ({"referee_key": "f5"}, "config.not_hall_key", "„referee_key“"),
        ({"max_words": "6"}, "config.bad_value", "max_words: očekává se celé číslo"),
        ({"max_words": 40}, "config.bad_value", "max_words: 40 není mezi 1 a 15"),
        ({"tables": "20-1"}, "config.bad_value", "tables: „20-1“ není rozumný rozsah"),
        ({"min_interval": -1}, "config.bad_value", "min_interval: očekává se počet sekund"),
        ({"show_failed_words": "yes"}, "config.bad_value", "show_failed_words"),
        ({"ui_language": "de"}, "config.bad_value", "ui_language: 'de' není cs, sk, en ani pl"),
        (["tables", "1-20"], "config.not_object", "objekt JSON"),
    ],
)
async def test_the_hub_refuses_what_a_station_would_not_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: Any, key: str, cs: str
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "hubdata"))
    hub = HubServer(tmp_path / "hub.db", new_psk(), host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    try:
        with pytest.raises(ValueError) as refused:
            await hub.publish("config", data)
        phrase = refused.value.args[0]
        assert phrase.key == key
        assert cs in localize(phrase, "cs")
        assert "config" not in hub.dbw.call(store.load_published)  # nothing stored or sent
    finally:
        await hub.close()


async def test_new_limits_count_the_checks_already_made(make_app, clock) -> None:
    """The limits' state is the check log: a cap the hall lowers refuses a table that has
    used it up, one it raises lets the table check again; an interval the hall sets
    counts from the table's last check, made before it was set."""
    from samoobsluha.shared.checks import Limit
    from samoobsluha.station.screens.verdict import RefusedScreen

    app = make_app(verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _check(pilot, 3)
        await _check(pilot, 3)
        assert app.settings_in_use.offer({"max_checks_per_round": 2}, 1)
        await until(lambda: app.settings.max_checks_per_round == 2)  # idle: in use
        await type_raw(pilot, "3\r")
        await until(lambda: isinstance(app.screen, RefusedScreen))
        assert app.screen.decision.limit is Limit.CAP and app.screen.decision.used == 2
        await type_raw(pilot, "x")
        await until(lambda: isinstance(app.screen, IdleScreen))
        assert app.settings_in_use.offer({"max_checks_per_round": 3, "min_interval": 30}, 2)
        await until(lambda: app.settings.min_interval == 30)
        await type_raw(pilot, "3\r")
        await until(lambda: isinstance(app.screen, RefusedScreen))
        assert app.screen.decision.limit is Limit.INTERVAL  # from the check made before
        await type_raw(pilot, "x")
        await until(lambda: isinstance(app.screen, IdleScreen))
        clock.advance(31)
        await _check(pilot, 3)  # the third of three


async def test_the_newer_of_the_referees_tables_and_the_halls_wins(make_app, store) -> None:
    """Tables set on the kiosk's referee screen after the publication stay this
    station's; a publication naming tables after that is the hall's again; one that does
    not name tables leaves the referee's range alone."""
    from samoobsluha.station.settings import FILE, STATION, read_state

    app = make_app()
    owner = app.settings_in_use
    async with app.run_test(size=(80, 24)) as pilot:
        assert owner.current.sources["tables"] == DEFAULT  # make_app passes no file
        owner.offer({"tables": "1-20"}, 1, received_at=100.0)
        await until(lambda: app.tables == parse_tables("1-20"))
        owner.set_local_tables(parse_tables("5-9"), at=200.0)  # what the referee screen does
        assert app.tables == parse_tables("5-9") and owner.current.sources["tables"] == STATION
        owner.offer({"max_words": 3}, 2, received_at=300.0)  # no tables: the range stays
        await until(lambda: app.settings.max_words == 3)
        assert app.tables == parse_tables("5-9")
        owner.offer({"tables": "1-12", "max_words": 3}, 3, received_at=400.0)
        await until(lambda: app.tables == parse_tables("1-12"))
        assert owner.current.sources["tables"] == HUB
        await pilot.pause()
    # what a restart reads back: the stored range (set at 200) loses to the hall's (400)
    # — the link stores the configuration; here the test stores what the link would
    from samoobsluha.station.sync import _store_item, migrations

    migrations.apply(store.db)
    _store_item(store.db, "config", "config:3:x", {"tables": "1-12"}, 400.0, 3)
    store.set_setting("tables", "5-9")
    store.set_setting("tables_at", "200.0")
    published, local = read_state(store.db)
    assert SettingsInUse(published=published, local=local).settings.tables == parse_tables("1-12")
    store.set_setting("tables_at", "500.0")
    published, local = read_state(store.db)
    again = SettingsInUse(published=published, local=local)
    assert again.settings.tables == parse_tables("5-9") and again.in_use_version == 3
    assert FILE not in again.current.sources.values()


def test_each_publication_is_the_whole_hall_configuration() -> None:
    """A key the newest publication no longer names is the station's own again; ``{}``
    withdraws the hall's settings (the file's and the defaults apply)."""
    from samoobsluha.shared.checks import KioskSettings
    from samoobsluha.station.settings import FILE

    owner = SettingsInUse(
        KioskSettings.from_section({"tables": "1-30", "max_words": 5}), {"tables", "max_words"}
    )
    assert owner.offer({"tables": "1-20", "max_words": 3, "tournament": "Brno"}, 1)
    owner.take_pending()
    assert (owner.settings.tables, owner.settings.max_words) == (parse_tables("1-20"), 3)
    assert owner.offer({"tables": "1-10"}, 2)
    owner.take_pending()
    assert owner.settings.tables == parse_tables("1-10")
    assert (owner.settings.max_words, owner.settings.tournament) == (5, "")
    assert owner.current.sources["max_words"] == FILE
    assert owner.offer({}, 3)
    owner.take_pending()
    assert owner.settings.tables == parse_tables("1-30") and owner.in_use_version == 3
    assert not owner.offer({"tables": "1-10"}, 2)  # older than the one in use
    assert not owner.offer({"max_words": 0}, 4)  # refused: nothing pending
    assert owner.pending is None and owner.settings.max_words == 5


async def test_the_halls_language_is_the_idle_screens_from_the_next_idle_moment(
    make_app,
) -> None:
    from samoobsluha.shared.i18n import t

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.lang == "cs"
        await type_raw(pilot, "4")  # a check begun: the language stays until it ends
        await settle(pilot)
        assert app.settings_in_use.offer({"ui_language": "sk", "tournament": "Košice"}, 1)
        app._tick()
        await pilot.pause()
        assert app.lang == "cs" and isinstance(app.screen, CheckScreen)
        await type_raw(pilot, "\x1b")
        await until(lambda: app.lang == "sk")
        assert app.default_language == "sk"
        instruction = str(app.screen.query_one("#instruction", Label).render())
        assert instruction == t("kiosk.idle.instruction", "sk")
        assert str(app.screen.query_one("#tournament", Label).render()) == "Košice"

"""Every screen and action of the dashboard, driven by Pilot over a real hub database and
the hub server running inside the app (real TCP and control socket on loopback)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dash_testkit import cells, check, deliver, label_text, settle, station_store
from textual.widgets import DataTable, Input

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.screens.base import clock_text
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.storage import open_db

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False, "screen_port": 0}


def app_for(service: HubService, serve: bool = True) -> HubApp:
    return HubApp(service, refresh_every=None, tick_every=None, serve=LOOPBACK if serve else None)


async def test_function_keys_switch_screens_and_ctrl_q_quits(served: HubService) -> None:
    app = app_for(served)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert app.current_mode == "stations"
        for key, mode in (
            ("f2", "rounds"),
            ("f3", "challenges"),
            ("f4", "results"),
            ("f5", "standings"),
            ("f12", "prizes"),
            ("f1", "stations"),
        ):
            await pilot.press(key)
            await settle(pilot)
            assert app.current_mode == mode
        assert "server běží" in label_text(app.screen, "#topbar")
        assert "Testovací turnaj" in label_text(app.screen, "#topbar")
        await pilot.press("ctrl+q")
    assert app.return_code == 0


async def test_stations_screen_shows_each_station_and_the_15_8e_warning(
    served: HubService, clock: FakeClock
) -> None:
    db = open_db(served.db_path, sync_store.migrations)
    base = {
        "version": "0.1.0",
        "lexicon_sha256": "a" * 64,
        "clock_synced": True,
        "clock_offset": -0.004,
        "backlog": 0,
    }
    # the hall configuration published last, and the one st-3's kiosk still uses
    new, old = 1_796_173_037_512, 1_796_172_000_000
    sync_store.save_published(db, "config", f"config:{new}:c0", {"tables": "1-8"}, clock.now())
    kiosk = {"lexicon_in_use_sha256": "a" * 64}
    sync_store.save_status(
        db, "st-1", "e1", "127.0.0.1:1", base | kiosk | {"config_version": new}, clock.now() - 3
    )
    sync_store.save_status(  # a station daemon: no kiosk, nothing in use to compare
        db, "st-2", "e2", "127.0.0.1:2", base | {"lexicon_sha256": "b" * 64}, clock.now() - 3
    )
    st3 = base | kiosk | {"backlog": 12, "config_version": old}
    sync_store.save_status(db, "st-3", "e3", "127.0.0.1:3", st3, clock.now() - 3)
    db.close()
    app = app_for(served)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        rows = cells(app.screen.query_one("#stations", DataTable))
        assert [r[0] for r in rows] == ["st-1", "st-2", "st-3"]
        # none is connected to this server: all offline, so the hall is short of stations
        assert all(r[1] == "OFFLINE" for r in rows)
        assert rows[1][4].startswith("JINÝ") and rows[0][4].startswith("shodný")
        # the hall configuration: the last one, none to compare (no kiosk), an older one
        assert [r[5] for r in rows] == ["shodná", "", f"jiná (z {clock_text(old / 1000)})"]
        assert rows[2][7] == "12"
        warnings = label_text(app.screen, "#stations-warnings")
        assert "15.8e" in warnings and "stanice st-2: slovník se liší" in warnings
        assert "Hráčů: 8" in label_text(app.screen, "#stations-summary")


async def test_round_control_start_delay_extend_pause_cancel_gong(
    served: HubService, clock: FakeClock
) -> None:
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        screen = app.screen
        assert screen.query_one("#round-no", Input).value == "1"
        await pilot.press("s")
        await settle(pilot)
        plan = served.plan(1)
        assert plan is not None and plan.start_at == clock.now() + 5
        assert plan.basic_seconds == 40 * 60
        screen.tick()
        assert "START ZA" in label_text(screen, "#round-big")
        assert cells(screen.query_one("#rounds", DataTable))[0][0] == "1"
        assert "Odesláno stanicím: žádné" in label_text(screen, "#message")

        await pilot.press("d")  # delay: how many minutes? 5 unless typed
        await settle(pilot)
        assert "O kolik minut odložit start kola 1?" in label_text(app.screen, "#confirm-question")
        await pilot.press("enter")
        await settle(pilot)
        assert served.plan(1).start_at == clock.now() + 5 + 300
        assert "Start kola 1 odložen o 5 min" in label_text(screen, "#message")
        await pilot.click("#btn-extend")  # add minutes: asked, the operator types 7
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "Kolik minut přidat kolu 1?" in question and "končí v 09:45:05" in question
        await pilot.press("7", "enter")
        await settle(pilot)
        assert served.plan(1).extra_seconds == 7 * 60
        assert "Kolo 1 prodlouženo o 7 min, nový konec v 09:52:05" in label_text(screen, "#message")
        await pilot.press("x", "escape")  # asked, and declined: nothing changes
        await settle(pilot)
        assert served.plan(1).extra_seconds == 7 * 60
        assert served.plan(1).revision == 2
        clock.advance(400)
        await pilot.press("d")  # begun: its start signal was given, it is not delayed
        await settle(pilot)
        assert "nelze ho odložit" in label_text(screen, "#message")
        assert served.plan(1).revision == 2
        await pilot.press("p")
        await settle(pilot)
        assert served.plan(1).paused_at == clock.now()
        screen.tick()
        assert "PŘERUŠENO" in label_text(screen, "#round-big")
        clock.advance(60)
        await pilot.press("p")
        await settle(pilot)
        assert served.plan(1).paused_at is None and served.plan(1).paused_total == 60
        await pilot.press("g")
        await settle(pilot)
        assert "Odesláno" in label_text(screen, "#message")

        await pilot.press("c")  # once: only a warning
        await settle(pilot)
        assert not served.plan(1).cancelled
        assert "Stiskněte znovu" in label_text(screen, "#message")
        await pilot.press("c")
        await settle(pilot)
        assert served.plan(1).cancelled
        screen.tick()
        assert "ZRUŠENO" in label_text(screen, "#round-big")


async def test_round_control_starts_at_the_scheduled_time(
    served: HubService, clock: FakeClock
) -> None:
    served.set_schedule(first_start="09:30", basic_minutes=5, warning_minutes=2)
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        schedule = cells(app.screen.query_one("#schedule", DataTable))
        assert schedule[0] == ["kolo 1", "09:30", "09:37"] or schedule[0][1] == "09:30"
        await pilot.press("t")
        await settle(pilot)
        plan = served.plan(1)
        assert plan.start_at == clock.now() + 30 * 60
        assert (plan.basic_seconds, plan.warning_seconds) == (300, 120)
        app.screen.query_one("#round-no", Input).value = "12"
        await pilot.press("t")
        await settle(pilot)
        assert "není v plánu" in label_text(app.screen, "#message")
        # a time typed by the referee wins over the timetable
        app.screen.query_one("#round-no", Input).value = "2"
        at = app.screen.query_one("#at", Input)
        at.value = "10:15"
        await pilot.press("t")
        await settle(pilot)
        assert served.plan(2).start_at == clock.now() + 75 * 60
        at.value = "25:99"
        await pilot.press("t")
        await settle(pilot)
        assert "není čas" in label_text(app.screen, "#message")
        at.value = "08:00"
        await pilot.press("t")
        await settle(pilot)
        assert "už minul" in label_text(app.screen, "#message")


async def test_challenges_screen_marks_appeals_and_acknowledges(
    served: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path
) -> None:
    served_lex = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    check(st, served_lex, ["kůň"], 1, clock.now() - 30)
    check(st, served_lex, ["xyzzy"], 2, clock.now() - 20)
    st.record_refusal(table_no=3, round_no=1, reason="rate_interval", at=clock.now() - 10)
    deliver(served, st, clock.now())
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#checks", DataTable)
        rows = cells(table)
        assert [r[3] for r in rows] == ["3", "2", "1"]  # newest first
        assert rows[1][4] == "XYZZY" and rows[1][5] == "NEPLATNÉ"
        assert "Volání rozhodčího: 1" in label_text(screen, "#requests")
        requests = screen.query_one("#requests")
        flashes = set()
        for _ in range(2):  # the call flashes until acknowledged
            screen._blink()
            flashes.add(tuple(sorted(requests.classes)))
        assert flashes == {("alert",), ("flash",)}
        assert cells(screen.query_one("#per-table", DataTable)) == [
            ["1", "1"],
            ["2", "1"],
            ["3", "1"],
        ]
        assert not screen.query_one("#sss", DataTable).display  # ČAS tournament

        table.move_cursor(row=2)  # the check of table 1 (kůň, valid)
        first, second = (served.pairing_table(1)[0][0][k] for k in ("first", "second"))
        await pilot.press("2")
        await settle(pilot)
        # nothing yet: the question names the check and the player first
        question = label_text(app.screen, "#confirm-question")
        assert "stůl 1" in question and "KŮŇ" in question and second in question
        assert cells(table)[2][8] == ""
        await pilot.press("escape")  # no: nothing changes
        await settle(pilot)
        assert cells(table)[2][8] == ""
        assert "Nic se nezměnilo" in label_text(screen, "#message")
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        for _ in range(25):  # dismiss, act, reload: count loop rounds, not seconds
            if cells(table)[2][8] == second:
                break
            await settle(pilot)
        assert cells(table)[2][8] == second
        await pilot.press("n")  # appeal: the word is not valid after all
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "stůl 1" in question and "NEPLATNÉ?" in question
        await pilot.press("y")
        for _ in range(25):
            if cells(table)[2][5] == "PLATNÉ → NEPLATNÉ":
                break
            await settle(pilot)
        assert cells(table)[2][5] == "PLATNÉ → NEPLATNÉ"

        await pilot.press("a")
        await settle(pilot)
        assert "stanice st-1 · stůl 3" in label_text(app.screen, "#confirm-question")
        await pilot.press("enter")
        for _ in range(25):
            if "Žádné volání" in label_text(screen, "#requests"):
                break
            await settle(pilot)
        assert "Žádné volání" in label_text(screen, "#requests")
        screen._blink()
        assert not requests.classes

        screen.query_one("#filter-table", Input).value = "2"
        await settle(pilot)
        assert [r[3] for r in cells(table)] == ["2"]
        del first


async def test_challenges_screen_shows_sss_penalties(
    served: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path
) -> None:
    with served._tour() as tour:
        tour.configure(rules="sss")
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    for i, word in enumerate(["kůň", "čáp", "ryba"]):
        check(st, lexicon, [word], 4, clock.now() + i)
    deliver(served, st, clock.now())
    for row in served.challenges():
        served.mark_challenger(row.key, 1)
    app = app_for(served, serve=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        sss = app.screen.query_one("#sss", DataTable)
        assert sss.display
        [row] = cells(sss)
        assert row[1] == "4" and row[3] == "3" and row[4] == "−20"
        assert [r[9] for r in cells(app.screen.query_one("#checks", DataTable))] == ["−20", "", ""]


async def test_results_fast_entry_correct_approve_finalise(
    served: HubService, clock: FakeClock
) -> None:
    app = app_for(served, serve=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        screen = app.screen
        assert screen.focused is screen.query_one("#entry", Input)
        for line in ("1 412 389", "2 300 350 2", "3 400 390"):
            await pilot.press(*line, "enter")
            await settle(pilot)
        echo = label_text(screen, "#echo")
        first, second = (served.pairing_table(1)[0][2][k] for k in ("first", "second"))
        assert echo.splitlines()[0].startswith(f"3: {first} 400 – 390 {second}")
        assert "začínal" in echo  # table 2: the second player started
        await pilot.press("-", "enter")  # correct the last entry
        await settle(pilot)
        entry = screen.query_one("#entry", Input)
        assert entry.value == "3 400 390"
        assert "Oprava zápisu stolu 3" in label_text(screen, "#entry-mode")
        entry.value = ""
        await pilot.press(*"3 390 400", "enter")
        await settle(pilot)
        assert "opraveno" in label_text(screen, "#echo")
        await pilot.press(*"9 1 2", "enter")
        await settle(pilot)
        assert "1. kolo nemá stůl 9" in label_text(screen, "#message")
        await pilot.press("f6")  # approve with table 4 missing: refused
        await settle(pilot)
        assert "1. kolo: 1 stůl bez shodného výsledku" in label_text(screen, "#message")
        served.enter_result(1, Entry(4, 380, 380))
        await pilot.press("f6")
        await settle(pilot)
        states = [r[4] for r in cells(screen.query_one("#tables", DataTable))]
        assert states == ["zapsáno"] * 4
        screen.tick()
        assert "končí za 30:00" in label_text(screen, "#protest")
        clock.advance(120)
        screen.tick()
        assert "končí za 28:00" in label_text(screen, "#protest")
        await pilot.press("f7")  # early: the director approves
        await settle(pilot)
        screen.tick()
        assert "konečné" in label_text(screen, "#protest")


async def test_standings_pair_next_explain_publish_export(served: HubService) -> None:
    for table in range(1, 5):
        served.enter_result(1, Entry(table, 400 + table, 350))
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f5")
        await settle(pilot)
        screen = app.screen
        assert len(cells(screen.query_one("#standings", DataTable))) == 8
        assert len(cells(screen.query_one("#pairings", DataTable))) == 4
        await pilot.press("n")
        await settle(pilot)
        assert "Kolo 2 rozlosováno (4 stoly)" in label_text(screen, "#message")
        assert screen.query_one("#standings-round", Input).value == "2"
        await settle(pilot)
        standings = cells(screen.query_one("#standings", DataTable))
        assert standings[0][2] == "1"  # a winner of round 1 on top
        await pilot.press("e")
        await settle(pilot)
        assert label_text(screen, "#explain").startswith("stůl 1: ")
        await pilot.press("p")
        await settle(pilot)
        assert "Odesláno stanicím: žádné" in label_text(screen, "#message")
        await pilot.press("h")
        await settle(pilot)
        assert (served.data / "exports" / "standings-1.html").exists()
        assert (served.data / "exports" / "pairings-2.html").exists()
        await pilot.press("c")
        await settle(pilot)
        assert (served.data / "exports" / "pairings-2.csv").exists()


async def test_english_screens_and_footer(service: HubService) -> None:
    app = HubApp(service, lang="en", refresh_every=None, tick_every=None)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        assert label_text(app.screen, "#screen-title") == "Round control"
        descriptions = {b.binding.description for b in app.screen.active_bindings.values()}
        assert {"Start now", "Gong", "Cancel round", "Stations"} <= descriptions
        assert "SERVER NOT RUNNING" in label_text(app.screen, "#topbar")


async def test_results_screen_shows_station_results_and_lists_refusals(
    service: HubService, clock: FakeClock, tmp_path: Path
) -> None:
    from samoobsluha.station.log import Result

    rows, _ = service.pairing_table(1)
    st = station_store(tmp_path, "st-1")
    st.store_result(
        Result(1, 2, 410, 380, "first", rows[1]["first"], rows[1]["second"]), at=clock.now()
    )
    st.store_result(Result(1, 9, 400, 300, "first", "X", "Y"), at=clock.now())
    # the opponent did not confirm table 3's: one-sided, shown as such, not entered
    st.store_result(
        Result(1, 3, 355, 341, "second", rows[2]["first"], rows[2]["second"]),
        at=clock.now(),
        one_sided=True,
    )
    deliver(service, st, clock.now())
    app = app_for(service, serve=False)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        table = cells(app.screen.query_one("#tables", DataTable))
        states = [r[4] for r in table]
        assert states == ["chybí", "čeká na partiář", "jednostranně", "chybí"]
        assert "355" in " ".join(table[2]) and "341" in " ".join(table[2])
        assert label_text(app.screen, "#station-errors").endswith("zapsat: 1. kolo nemá stůl 9")
    with service._tour() as tour:  # not a result: nothing for the standings
        assert 3 not in {r["table_no"] for r in tour.results(1)}


async def test_hub_run_on_a_fresh_data_dir_creates_the_hub(
    data_dir: Path, clock: FakeClock, short_sock: Path
) -> None:
    """The first ``hub run`` on a machine: no database, no key — the dashboard creates
    both, runs the server and says where the new key is."""
    svc = HubService(data_dir, clock=clock, control_path=short_sock)
    app = app_for(svc)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert "server běží" in label_text(app.screen, "#topbar")
        assert (data_dir / "tournament.key").exists()
        assert any("tournament.key" in str(n.message) for n in app._notifications)
        # the service blocks: from the app's own loop it must run in a thread
        assert await asyncio.to_thread(svc.server_running)


async def test_stations_screen_revokes_a_key_on_a_second_press(
    served: HubService, clock: FakeClock
) -> None:
    """R on a station asks; R again revokes its key in the running hub (a lost card)."""
    db = open_db(served.db_path, sync_store.migrations)
    sync_store.save_status(db, "st-1", "e1", "127.0.0.1:1", {"backlog": 0}, clock.now() - 3)
    db.close()
    app = app_for(served)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert "Stiskněte R znovu" in label_text(app.screen, "#message")
        # the hub's control socket is served by this same event loop: ask from a thread
        assert not (await asyncio.to_thread(served.control, "stations"))[0]["revoked"]
        await pilot.press("r")
        await settle(pilot)
        assert "zneplatněn" in label_text(app.screen, "#message")
        (row,) = await asyncio.to_thread(served.control, "stations")
        assert row["station_id"] == "st-1" and row["revoked"] is True


async def test_pairing_past_the_planned_rounds_asks_first(served: HubService) -> None:
    with served._tour() as tour:
        tour.configure(rounds=1)
    for table in range(1, 5):
        served.enter_result(1, Entry(table, 400 + table, 350))
    app = app_for(served)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f5")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "Plánovaný počet kol turnaje je 1. Přesto rozlosovat 2. kolo?" in question
        await pilot.press("escape")
        await settle(pilot)
        with served._tour() as tour:
            assert tour.last_round() == 1  # declined: nothing paired
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert "Kolo 2 rozlosováno (4 stoly)" in label_text(app.screen, "#message")
        with served._tour() as tour:
            assert tour.last_round() == 2


async def test_standings_mark_an_expelled_player_in_the_operators_language(
    served: HubService,
) -> None:
    """ČAS keeps an expelled player's games: his row stays where they put him, and the
    standings say „vyloučen“ beside it (the machine rows' ``expelled``, never shown)."""
    for table in range(1, 5):
        served.enter_result(1, Entry(table, 400 + table, 350))
    with served._tour() as tour:
        before = [(s.rank, s.player.name) for s in tour.standings(after_round=1)]
        cheat = tour.standings(after_round=1)[0].player
        tour.sanction(cheat.id, "expulsion", scope="event", round_no=1, reason="podvod")
    app = app_for(served)
    async with app.run_test(size=(200, 45)) as pilot:
        await pilot.press("f5")
        await settle(pilot)
        table = app.screen.query_one("#standings", DataTable)
        heads = [str(c.label) for c in table.columns.values()]
        assert heads[-1] == "Poznámka", heads
        rows = cells(table)
        assert [(int(r[0]), r[1]) for r in rows] == before  # no rank moved
        assert {r[1]: r[-1] for r in rows} == {
            name: ("vyloučen" if name == cheat.name else "") for _, name in before
        }

"""HubService on a real hub database: results, station results, challenges, SSS
penalties, referee calls, stations, timetable. Station records come from the real kiosk
store and reach the hub through the hub's own ingest function."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import check, deliver, station_store

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.storage import open_db
from samoobsluha.station.log import Result


def board(service: HubService, table: int) -> tuple[str, str]:
    rows, _ = service.pairing_table(1)
    row = rows[table - 1]
    return row["first"], row["second"]


def test_fast_entry_echoes_names_and_totals(service: HubService) -> None:
    first, second = board(service, 1)
    echo = service.enter_result(1, Entry(1, 412, 389))
    assert echo.outcome == "entered"
    assert (echo.first_name, echo.second_name) == (first, second)
    assert echo.totals == {first: (1.0, 23), second: (0.0, -23)}
    assert f"1: {first} 412 – 389 {second}" in echo.line()


def test_operator_entry_twice_needs_a_correction(service: HubService) -> None:
    service.enter_result(1, Entry(2, 400, 300))
    with pytest.raises(ServiceError, match="correct"):
        service.enter_result(1, Entry(2, 300, 400))
    echo = service.enter_result(1, Entry(2, 300, 400), correct=True)
    assert echo.outcome == "corrected"
    table = service.round_results(1).tables[1]
    assert (table.score_first, table.score_second) == (300, 400)


def test_entry_for_a_table_that_does_not_exist(service: HubService) -> None:
    with pytest.raises(ServiceError, match="no table 9"):
        service.enter_result(1, Entry(9, 400, 300))


def test_station_results_become_pending_then_confirmed_or_conflict(
    service: HubService, tmp_path: Path, clock: FakeClock
) -> None:
    st = station_store(tmp_path, "st-1")
    for table, (a, b) in ((1, (410, 380)), (2, (350, 360))):
        first, second = board(service, table)
        st.store_result(Result(1, table, a, b, "first", first, second), at=clock.now())
    deliver(service, st, clock.now())  # the hub enters them as it stores them, once each
    with service._db() as db:
        assert len(sync_store.result_intake(db, 1)) == 2
    states = {t.table: t.state for t in service.round_results(1).tables}
    assert states == {1: "pending", 2: "pending", 3: "missing", 4: "missing"}
    service.enter_result(1, Entry(1, 410, 380))  # the scoresheet agrees
    service.enter_result(1, Entry(2, 360, 350))  # the scoresheet differs
    results = service.round_results(1)
    assert [t.state for t in results.tables] == ["in", "conflict", "missing", "missing"]
    assert results.count("conflict") == 1


def test_station_result_for_an_unknown_table_is_reported(
    service: HubService, tmp_path: Path, clock: FakeClock
) -> None:
    st = station_store(tmp_path, "st-1")
    st.store_result(Result(1, 7, 400, 300, "first", "X", "Y"), at=clock.now())
    deliver(service, st, clock.now())
    deliver(service, st, clock.now())  # a resend after a lost ack changes nothing
    with service._db() as db:
        [(outcome, error)] = sync_store.result_intake(db, 1).values()  # refused once, on receipt
    assert outcome == "" and "no table 7" in str(error)
    [error] = service.round_results(1).station_errors
    assert "no table 7" in error


def test_publish_protest_window_and_finalise(service: HubService, clock: FakeClock) -> None:
    for table in range(1, 5):
        service.enter_result(1, Entry(table, 400 + table, 300))
    service.publish_results(1)
    results = service.round_results(1)
    assert results.protest_closes == clock.now() + 30 * 60
    with pytest.raises(ServiceError, match="protest window open"):
        service.finalise(1)
    clock.advance(31 * 60)
    assert service.finalise(1) == 4
    assert service.round_results(1).final_at is not None


def test_publishing_an_incomplete_round_is_refused(service: HubService) -> None:
    with pytest.raises(ServiceError, match="without an agreed result"):
        service.publish_results(1)


def test_challenges_log_marks_appeals_and_sss_penalties(
    service: HubService, tmp_path: Path, clock: FakeClock, small_lexicon_path: Path
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st1, st2 = station_store(tmp_path, "st-1"), station_store(tmp_path, "st-2")
    # table 1: four unjustified challenges (valid words) by the same player, one justified
    for i, word in enumerate(["kůň", "čáp", "ryba", "xyzzy", "strom"]):
        check(st1, lexicon, [word], 1, clock.now() + i)
    check(st2, lexicon, ["pes"], 2, clock.now() + 10)
    check(st2, lexicon, ["les"], 3, clock.now() + 11, round_no=2)
    deliver(service, st1, clock.now())
    deliver(service, st2, clock.now())
    rows = service.challenges()
    assert len(rows) == 7
    assert rows[0].station == "st-2" and rows[0].round_no == 2  # newest first
    assert [r.verdict for r in service.challenges(table_no=1)][::-1] == [
        "valid",
        "valid",
        "valid",
        "invalid",
        "valid",
    ]
    assert len(service.challenges(round_no=1)) == 6
    assert service.checks_per_table(1) == {1: 5, 2: 1}
    first, _ = board(service, 1)
    names = service.player_names()
    for row in service.challenges(table_no=1):
        assert service.mark_challenger(row.key, 1) is not None
    penalties = service.sss_penalties(1)
    assert penalties == [
        {
            "round": 1,
            "table": 1,
            "player": penalties[0]["player"],
            "name": first,
            "unjustified": 4,
            "penalty": 40,
        }
    ]
    assert names[penalties[0]["player"]] == first
    flagged = [r.words for r in service.challenges(table_no=1) if r.penalised]
    assert sorted(flagged) == [["RYBA"], ["STROM"]]
    # the chief referee rules the third one not valid on appeal: it was justified after all
    third = next(r for r in service.challenges(table_no=1) if r.words == ["RYBA"])
    service.record_appeal(third.key, "invalid", "second instance")
    after = {tuple(r.words): r for r in service.challenges(table_no=1)}
    assert after[("RYBA",)].final == "invalid" and after[("RYBA",)].appealed
    assert service.sss_penalties(1)[0]["penalty"] == 20
    assert [r.words for r in service.challenges(table_no=1) if r.penalised] == [["STROM"]]
    service.mark_challenger(third.key, None)
    with pytest.raises(ServiceError, match="no check"):
        service.record_appeal("nope/0/1", "valid")
    with pytest.raises(ServiceError, match="valid or invalid"):
        service.record_appeal(third.key, "maybe")


def test_referee_calls_until_acknowledged(
    service: HubService, tmp_path: Path, clock: FakeClock, small_lexicon_path: Path
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    st.record_refusal(table_no=4, round_no=1, reason="rate_cap", at=clock.now())
    check(st, lexicon, ["kůň"], 2, clock.now() + 1)
    deliver(service, st, clock.now())
    [call] = service.referee_requests(pending_only=True)
    assert (call.table_no, call.reason, call.station) == (4, "rate_cap", "st-1")
    service.acknowledge_request(call.key)
    assert service.referee_requests(pending_only=True) == []
    assert service.referee_requests()[0].acknowledged


def test_a_polish_event_counts_stations_by_the_halls_rule_not_cas(service: HubService) -> None:
    """PFS rules know no self-service checking: a Polish event's screens must not cite
    ČAS 15.8e; the count (one per started 50) is the hall's own rule."""
    from samoobsluha.shared.i18n import localize, t

    assert "ČAS 15.8e" in service.stations().rule
    with service._tour() as tour:
        tour.configure(rules="pfs")
    report = service.stations()
    assert report.required == 1 and "ČAS" not in report.rule
    [few] = [w for w in report.warnings if "stations" in w and "players" in w]
    polish = localize(few, "pl")
    assert polish == "za mało stanowisk: 8 graczy wymaga 1 stanowiska " + (
        "(zasada sali: 1 na rozpoczęte 50 graczy); połączone: 0"
    )
    assert "ČAS" not in t("rehearse.cas", "pl", players=8, required=1, go=0, online=0,
                          rule=report.rule)  # fmt: skip
    assert "ČAS" not in localize(few, "cs") and "pravidlo sálu" in localize(few, "cs")
    # the dashboard's summary line: the rule in Polish too, not its English (t() with a
    # phrase among its values)
    summary = t("dash.stations.summary", "pl", players=8, required=1, online=0, total=0,
                rule=report.rule)  # fmt: skip
    assert summary == "8 graczy → potrzeba 1 stanowiska (zasada sali: 1 na rozpoczęte 50 " + (
        "graczy); połączone 0 z 0"
    )


def test_stations_report_counts_against_cas_15_8e(service: HubService, clock: FakeClock) -> None:
    report = service.stations()
    assert (report.players, report.required, report.online) == (8, 1, 0)
    assert not report.server_running
    assert any("15.8e" in w for w in report.warnings)
    db = open_db(service.db_path, sync_store.migrations)
    status = {
        "version": "0.1.0",
        "lexicon_sha256": "a" * 64,
        "clock_synced": True,
        "clock_offset": 0.012,
        "backlog": 3,
        "last_signal": {
            "signal": "start",
            "hub_time": clock.now(),
            "local_time": clock.now(),
            "synced": True,
        },
    }
    sync_store.save_status(db, "st-1", "e1", "127.0.0.1:1", status, clock.now())
    sync_store.save_status(
        db, "st-2", "e2", "127.0.0.1:2", status | {"lexicon_sha256": "b" * 64}, clock.now() - 60
    )
    db.close()
    report = service.stations()
    by = {r.station_id: r for r in report.rows}
    assert by["st-1"].online and not by["st-2"].online  # silent for a minute
    assert by["st-1"].backlog == 3 and by["st-1"].last_signal.endswith("start 09:00:00")
    assert report.online == 1 and not any("15.8e" in w for w in report.warnings)
    # two stations, two lexicons, nothing published: nobody can tell which is right
    assert by["st-1"].lexicon_ok is None and by["st-2"].lexicon_ok is None
    assert any("different lexicons" in w for w in report.warnings)
    # the lexicon most stations report is the reference until the hub publishes one
    db = open_db(service.db_path, sync_store.migrations)
    sync_store.save_status(db, "st-3", "e3", "127.0.0.1:3", status, clock.now())
    db.close()
    by = {r.station_id: r for r in service.stations().rows}
    assert (by["st-1"].lexicon_ok, by["st-2"].lexicon_ok) == (True, False)


def test_timetable_settings_round_trip(service: HubService) -> None:
    slots = service.schedule()
    assert [s.round_no for s in slots if s.is_round] == list(range(1, 10))
    service.set_schedule(first_start="10:30", rounds=3, lunch_after=None)
    slots = service.schedule()
    assert slots[0].start.strftime("%H:%M") == "10:30"
    assert [s.round_no for s in slots if s.is_round] == [1, 2, 3]
    with pytest.raises(ServiceError, match="unknown"):
        service.set_schedule(nonsense=1)
    with pytest.raises(ServiceError, match="warning"):
        service.set_schedule(warning_minutes=50)


def test_network_actions_without_a_server_say_so(service: HubService) -> None:
    with pytest.raises(ServiceError, match="not running"):
        service.start_round(1)
    assert not service.server_running()


def test_standings_pairings_payloads_and_exports(service: HubService) -> None:
    for table in range(1, 5):
        service.enter_result(1, Entry(table, 400, 300 + table))
    columns, rows = service.standings_table(1)
    assert columns[:3] == ["rank", "name", "wins"] and len(rows) == 8
    assert service.pair(2, seed=1) == 4
    pairings, standings = service.station_payloads(2)
    assert pairings["round"] == 2 and len(pairings["tables"]) == 4
    # players see only published results: round 1 is not published yet
    assert standings["round"] == 0 and {r["wins"] for r in standings["rows"]} == {"0"}
    service.publish_round(1)
    pairings, standings = service.station_payloads(2)
    assert standings["round"] == 1 and len(standings["rows"]) == 8
    html = service.export("standings", "html", 1)
    assert html.exists() and "<table" in html.read_text()
    csv = service.export("pairings", "csv", 2)
    # for the director's Excel: a BOM, ';' and the headers in the dashboard's language
    assert csv.read_bytes().startswith(b"\xef\xbb\xbf")
    assert csv.read_text(encoding="utf-8-sig").startswith("Stůl;Začíná (ZH);Soupeř (DH)")


def test_the_lexicon_column_compares_the_lexicon_in_use(service: HubService, clock) -> None:
    """A station reports the file on disk and the lexicon its kiosk judges with; only the
    one in use counts. One that has the reference on disk but still judges with the old
    one (a check under way) is 'switching', not a warning; one without a kiosk reports
    none in use and is judged by its file."""
    db = open_db(service.db_path, sync_store.migrations)
    base = {"version": "0.1.0", "clock_synced": True, "clock_offset": 0.0, "backlog": 0}
    a, b = "a" * 64, "b" * 64
    for station, disk, in_use in [
        ("st-1", a, a),
        ("st-2", a, a),
        ("st-3", a, b),  # pushed, verified, not yet swapped in
        ("st-4", a, None),  # a station daemon: no kiosk
        ("st-5", b, b),
    ]:
        status = base | {"lexicon_sha256": disk, "lexicon_in_use_sha256": in_use}
        sync_store.save_status(db, station, f"e-{station}", "127.0.0.1:1", status, clock.now())
    db.close()
    report = service.stations()
    by = {r.station_id: r for r in report.rows}
    assert [(s, by[s].lexicon_ok, by[s].lexicon_pending) for s in sorted(by)] == [
        ("st-1", True, False),
        ("st-2", True, False),
        ("st-3", False, True),
        ("st-4", True, False),
        ("st-5", False, False),
    ]
    assert by["st-3"].lexicon_sha256 == b  # the column shows the one in use
    differs = [w for w in report.warnings if "lexicon" in str(w).lower()]
    assert any("st-5" in str(w) for w in differs) and not any("st-3" in str(w) for w in differs)


def test_the_config_column_compares_the_hall_configuration_in_use(
    service: HubService, clock: FakeClock
) -> None:
    """A kiosk reports the version of the hall configuration it uses (the hub's time of
    publication); the Stations screen compares it with the one the hub published last
    and warns about an online kiosk that uses another or none. A station without a kiosk
    reports nothing to compare; before any publication there is nothing to compare."""
    db = open_db(service.db_path, sync_store.migrations)
    base = {"version": "0.1.0", "clock_synced": True, "backlog": 0, "lexicon_sha256": "a" * 64}
    kiosk = base | {"lexicon_in_use_sha256": "a" * 64}
    old, new = 1_796_170_000_000, 1_796_173_037_512
    for station, status in [
        ("st-1", kiosk | {"config_version": new}),
        ("st-2", kiosk | {"config_version": old}),  # offline when the last one was sent
        ("st-3", kiosk),  # never got one
        ("st-4", base),  # a station daemon: no kiosk, no settings in use
    ]:
        sync_store.save_status(db, station, f"e-{station}", "127.0.0.1:1", status, clock.now())
    db.close()
    before = {r.station_id: r.config_ok for r in service.stations().rows}
    assert set(before.values()) == {None}  # the hub published none yet
    db = open_db(service.db_path, sync_store.migrations)
    sync_store.save_published(db, "config", f"config:{new}:cafe", {"tables": "1-12"}, clock.now())
    db.close()
    report = service.stations()
    by = {r.station_id: r for r in report.rows}
    assert [(s, by[s].config_ok, by[s].config_version) for s in sorted(by)] == [
        ("st-1", True, new),
        ("st-2", False, old),
        ("st-3", False, None),
        ("st-4", None, None),
    ]
    differs = {w.values["station"] for w in report.warnings if w.key == "warn.config_differs"}
    assert differs == {"st-2", "st-3"}  # every station is online: seen just now

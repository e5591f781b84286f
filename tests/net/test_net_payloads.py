"""The station→hub records (shared/payloads.py) and the hub's boundary: every row the real
kiosk store writes reads back into its record; a malformed row is refused, kept aside,
acknowledged (it never blocks the stream), logged once and counted for the operator; a
station's result enters the tournament in the transaction that stores it."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samoobsluha.hub import store
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament import intake
from samoobsluha.hub.tournament import store as tour_store
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import localize
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.payloads import (
    CheckPayload,
    PayloadError,
    RefereeRequestPayload,
    ResultPayload,
    SignalPayload,
    StationStatus,
    check_row,
    parse_row,
    row_json_error,
)
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.log import KioskStore, Result

NOW = 1_767_258_000.0


def _wire(kiosk: KioskStore) -> tuple[str, list[list[Any]]]:
    rows = outbox.pending(kiosk.db)
    epoch = outbox.meta(kiosk.db, "station_epoch")
    return epoch, [
        [r["seq"], r["kind"], json.dumps(r["payload"], ensure_ascii=False), r["created_at"]]
        for r in rows
    ]


@pytest.fixture
def kiosk(tmp_path: Path) -> KioskStore:
    return KioskStore.open(tmp_path / "station.db", "st-1")


def _kiosk_rows(kiosk: KioskStore, lexicon: Lexicon) -> None:
    verdict = lexicon.judge(prepare_words(["kůň", "xyzzy"], lexicon.alphabet))
    kiosk.record_check(verdict, lexicon.info, table_no=3, round_no=1, at=NOW)
    kiosk.record_refusal(table_no=4, round_no=1, reason="rate_cap", at=NOW + 1)
    kiosk.store_result(Result(1, 2, 410, 380, "second", "Novák", "Dvořák"), at=NOW + 2)


def test_every_row_the_kiosk_writes_reads_back_into_its_record(
    kiosk: KioskStore, small_lexicon_path: Path
) -> None:
    _kiosk_rows(kiosk, Lexicon.open(small_lexicon_path))
    rows = outbox.pending(kiosk.db)
    assert [r["kind"] for r in rows] == ["challenge", "challenge", "referee_request", "result"]
    records = [parse_row(r["kind"], r["payload"]) for r in rows]
    assert [type(r) for r in records] == [
        CheckPayload,
        CheckPayload,
        RefereeRequestPayload,
        ResultPayload,
    ]
    for row, record in zip(rows, records, strict=True):
        assert record.to_dict() == row["payload"]  # what the station sent, key for key
    result = records[3]
    assert isinstance(result, ResultPayload)
    assert (result.first, result.second, result.started) == ("Novák", "Dvořák", "second")
    assert (result.score_first, result.score_second) == (410, 380)


GOOD_RESULT = {
    "station_id": "st-1",
    "round_no": 1,
    "table_no": 2,
    "first": "Novák",
    "second": "Dvořák",
    "score_first": 410,
    "score_second": 380,
    "started": "first",
    "entered_at": NOW,
    "entered_by": "players",
    "revision": 1,
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"started": "a"}, "started: 'a' is not one of"),  # the old a/b vocabulary
        ({"score_first": "410"}, "expected a whole number"),
        ({"score_first": 410.0}, "expected a whole number"),
        ({"score_second": -1}, "never negative"),
        ({"table_no": 0}, "table_no: must be 1 or more"),
        ({"round_no": None}, "round_no: must not be empty"),
        ({"entered_at": True}, "expected a number"),
        ({"entered_at": float("nan")}, "not a finite number"),
        ({"player_a": "Novák"}, "unknown fields ['player_a']"),
        ({"entered_by": "hacker"}, "entered_by"),
        ({"first": "x" * 500}, "longer than"),
    ],
)
def test_a_bad_result_is_refused_with_the_reason(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PayloadError, match=message.replace("[", r"\[").replace("]", r"\]")):
        ResultPayload.from_dict(GOOD_RESULT | change)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"started": "a"}, "started: 'a' is not one of"),
        ({"score_first": "410"}, "expected a whole number"),
        ({"score_first": 410.0}, "expected a whole number"),
        ({"score_first": 2**64}, "out of range"),
        ({"score_second": -1}, "never negative"),
        ({"round_no": None}, "round_no: must not be empty"),
        ({"entered_at": float("nan")}, "not a finite number"),
        ({"entered_at": float("inf")}, "not a finite number"),
        ({"player_a": "Novák"}, "unknown fields ['player_a']"),
        ({"first": "x" * 500}, "longer than"),
    ],
)
def test_the_hubs_json_check_words_a_refusal_as_the_record_does(
    change: dict[str, Any], message: str
) -> None:
    """The hub checks a row's JSON text in one C pass (msgspec); a refusal still gives the
    record's own reason, so the operator reads the same words either way."""
    assert row_json_error("result", json.dumps(GOOD_RESULT)) == ""
    assert message in row_json_error("result", json.dumps(GOOD_RESULT | change))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("no", "not JSON"),
        ("{not json", "not JSON"),
        ('{"a": 1}{}', "not JSON"),
        ("", "not JSON"),
        ("[1]", "expected an object"),
        ("{}", "missing fields"),
    ],
)
def test_a_payload_that_is_not_one_json_object_is_one_refused_row(
    hub_db: Any, text: str, message: str
) -> None:
    """Not a frame refused (the station would resend it forever): the row is kept aside
    with its reason and the rows after it are stored."""
    rows = [[1, "result", text, NOW], [2, "result", json.dumps(GOOD_RESULT), NOW]]
    assert store.ingest(hub_db, [("st-1", "e", rows)], NOW) == {("st-1", "e"): 2}
    [refused] = store.rejected_rows(hub_db)
    assert message in refused["error"]
    assert [r["seq"] for r in store.inbox_rows(hub_db)] == [2]


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=220),
    lambda inner: st.lists(inner, max_size=22) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=30,
)


def _kiosk_check_row() -> dict[str, Any]:
    return CheckPayload(
        id=7, at=NOW, station_id="st-1", table_no=3, round_no=1, instance="first",
        status="refused", words=("KŮŇ",), canonical=("kůň",), failed=(), too_long=(),
        refused_reason="rate_cap", lexicon_sha256="0" * 64, lexicon_variant="cs",
        ui_language="cs", appeal_of=None, note="",
    ).to_dict()  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["result", "challenge", "appeal", "signal", "referee_request"]),
    st.data(),
)
def test_the_fast_and_the_python_check_accept_the_same_rows(kind: str, data: Any) -> None:
    """Random changes to valid rows (values of every JSON type, unknown and missing keys):
    msgspec's check and the record's Python check refuse exactly the same ones."""
    good = {
        "result": GOOD_RESULT,
        "challenge": _kiosk_check_row(),
        "appeal": _kiosk_check_row() | {"instance": "appeal"},
        "signal": SignalPayload("t-1", 1, "start", "given", NOW, NOW, 1).to_dict(),
        "referee_request": RefereeRequestPayload(1, NOW, "st-1", 3, 1, "too_long", 7).to_dict(),
    }[kind]
    row = dict(good)
    for key in data.draw(st.lists(st.sampled_from(sorted(good)), max_size=3)):
        row[key] = data.draw(_JSON_VALUES)
    for key in data.draw(st.lists(st.sampled_from(sorted(good)), max_size=1)):
        row.pop(key, None)
    if data.draw(st.booleans()):
        row[data.draw(st.text(max_size=8))] = data.draw(_JSON_VALUES)
    text = json.dumps(row, ensure_ascii=data.draw(st.booleans()))
    try:
        check_row(kind, json.loads(text))
        python = ""
    except PayloadError as exc:
        python = str(exc)
    assert row_json_error(kind, text) == python


def test_missing_keys_are_named_never_guessed() -> None:
    data = dict(GOOD_RESULT)
    del data["started"]
    with pytest.raises(PayloadError, match=r"missing fields \['started'\]"):
        ResultPayload.from_dict(data)
    with pytest.raises(PayloadError, match="unknown row kind"):
        parse_row("chat", {})
    with pytest.raises(PayloadError, match="expected an object"):
        parse_row("result", [1, 2])
    signal = {
        "tournament": "t-1",
        "round": 1,
        "signal": "start",
        "outcome": "given",
        "scheduled_at": NOW,
        "actual_at": NOW,
        "revision": 0,
    }
    assert SignalPayload.from_dict(signal).to_dict() == signal
    with pytest.raises(PayloadError, match="signal"):
        SignalPayload.from_dict(signal | {"signal": "lunch"})
    # a check's kind and its instance agree
    check = {
        "id": 1,
        "at": NOW,
        "station_id": "st-1",
        "table_no": 1,
        "round_no": 1,
        "instance": "appeal",
        "status": "valid",
        "words": ["KŮŇ"],
        "canonical": ["kůň"],
        "failed": [],
        "too_long": [],
        "refused_reason": None,
        "lexicon_sha256": None,
        "lexicon_variant": None,
        "ui_language": "cs",
        "appeal_of": None,
        "note": "",
    }
    # a check without a receipt's key id (a kiosk without a station key) reads as None
    assert parse_row("appeal", check).to_dict() == check | {"key_id": None}
    check["key_id"] = 1_767_225_600
    assert parse_row("appeal", check).to_dict() == check
    with pytest.raises(PayloadError, match="is sent as 'appeal'"):
        parse_row("challenge", check)


def test_status_and_its_last_signal_are_checked() -> None:
    status = {
        "name": "Stanice 1",
        "version": "0.1",
        "lexicon_sha256": None,
        "clock_synced": False,
        "clock_offset": 0.0,
        "clock_delay": None,
        "backlog": 0,
        "acked_seq": 0,
        "last_signal": {"signal": "end", "hub_time": NOW, "local_time": NOW, "synced": True},
        "local_time": NOW,
    }
    parsed = StationStatus.from_dict(status)
    assert parsed.rung is not None and parsed.rung.signal == "end"
    with pytest.raises(PayloadError, match="last_signal: unknown fields"):
        StationStatus.from_dict(status | {"last_signal": {"signal": "end", "at": NOW}})
    with pytest.raises(PayloadError, match="backlog"):
        StationStatus.from_dict(status | {"backlog": "many"})


# -- the hub's boundary ---------------------------------------------------------------------


@pytest.fixture
def hub_db(tmp_path: Path) -> Any:
    db = open_db(tmp_path / "hub.db", tour_store.migrations, store.migrations)
    yield db
    db.close()


def test_a_bad_row_is_kept_aside_acked_logged_once_and_counted(
    hub_db: Any, kiosk: KioskStore, small_lexicon_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _kiosk_rows(kiosk, Lexicon.open(small_lexicon_path))
    epoch, wire = _wire(kiosk)
    # a row from a station with other software: the kiosk's old a/b keys
    wire.insert(
        2,
        [
            3,
            "result",
            json.dumps(GOOD_RESULT | {"started": "a"}),
            NOW,
        ],
    )
    wire = [[i + 1, *row[1:]] for i, row in enumerate(wire)]  # seqs 1..5
    with caplog.at_level(logging.WARNING, logger="hub.store"):
        acked = store.ingest(hub_db, [("st-1", epoch, wire)], NOW)
        again = store.ingest(hub_db, [("st-1", epoch, wire)], NOW + 5)  # a resend
    assert acked[("st-1", epoch)] == again[("st-1", epoch)] == 5  # the stream moved on
    refusals = [r for r in caplog.records if "refused row" in r.getMessage()]
    assert len(refusals) == 1 and "started" in refusals[0].getMessage()
    [bad] = store.rejected_rows(hub_db)
    assert bad["key"] == f"st-1/{epoch}/3" and "'a' is not one of" in bad["error"]
    assert json.loads(bad["payload"])["started"] == "a"  # kept as sent
    assert store.rejected_counts(hub_db) == {"st-1": 1}
    kinds = [r.kind for r in store.inbox_records(hub_db)]
    assert kinds == ["challenge", "challenge", "referee_request", "result"]  # never read


def test_a_bad_row_in_the_middle_does_not_hold_back_later_batches(hub_db: Any) -> None:
    """The ack is the contiguous run over stored and refused rows alike, also when the
    refused row arrives in an earlier batch than the rows after it."""
    ok = GOOD_RESULT | {"table_no": 99}  # valid record; the tournament has no such table
    store.ingest(hub_db, [("s", "e", [[1, "result", json.dumps(ok), NOW]])], NOW)
    store.ingest(hub_db, [("s", "e", [[3, "result", json.dumps(ok), NOW]])], NOW)
    assert store.contiguous(hub_db, "s", "e") == 1
    store.ingest(hub_db, [("s", "e", [[2, "result", "{}", NOW]])], NOW)
    assert store.contiguous(hub_db, "s", "e") == 3


def test_the_operator_sees_refused_rows(tmp_path: Path) -> None:
    clock = FakeClock(NOW)
    service = HubService(tmp_path / "hub", clock=clock, control_path=tmp_path / "none.sock")
    service.prepare()
    db = open_db(service.db_path, store.migrations)
    store.save_status(db, "st-1", "e", "127.0.0.1:1", {}, NOW)
    store.ingest(db, [("st-1", "e", [[1, "challenge", '{"i": 1}', NOW]])], NOW)
    db.close()
    report = service.stations()
    assert report.rows[0].rejected == 1
    assert any("st-1: 1 row refused as malformed" in w for w in report.warnings)
    [row] = service.rejected_rows()
    assert "missing fields" in row["error"]


# -- results enter the tournament on receipt --------------------------------------------------


@pytest.fixture
def paired(hub_db: Any) -> tuple[Any, dict[int, tuple[str, str]]]:
    tour = Tournament(hub_db, FakeClock(NOW))
    tour.configure(name="T", rules="cas", rounds=3)
    tour.import_players_csv(sample_csv(8, 3))
    for p in tour.players():
        tour.check_in(p.id)
    pairing = tour.pair(1, seed=1)
    names = {p.id: p.name for p in tour.players()}
    return hub_db, {b.table: (names[b.first], names[b.second]) for b in pairing.boards}


def _result(table: int, first: str, second: str, **change: Any) -> str:
    return json.dumps(GOOD_RESULT | {"table_no": table, "first": first, "second": second} | change)


def test_a_result_enters_the_tournament_with_its_inbox_row(paired: Any) -> None:
    db, boards = paired
    first, second = boards[1]
    store.ingest(db, [("st-1", "e", [[1, "result", _result(1, first, second), NOW]])], NOW)
    [res] = [r for r in Tournament(db).results(1) if r["table_no"] == 1]
    assert (res["s_first"], res["s_second"], res["status"]) == (410, 380, "entered")
    assert store.result_intake(db) == {"st-1/e/1": ("entered", "")}
    # the same row again (a resend) changes nothing
    store.ingest(db, [("st-1", "e", [[1, "result", _result(1, first, second), NOW]])], NOW)
    assert len(list(db.query("SELECT * FROM tour_entries"))) == 1


def test_a_station_listing_the_players_the_other_way_round_is_read_by_name(
    paired: Any,
) -> None:
    db, boards = paired
    first, second = boards[2]
    row = _result(2, second, first, score_first=300, score_second=450, started="first")
    store.ingest(db, [("st-1", "e", [[1, "result", row, NOW]])], NOW)
    [res] = [r for r in Tournament(db).results(1) if r["table_no"] == 2]
    players = {p.name: p.id for p in Tournament(db).players()}
    assert (res["s_first"], res["s_second"]) == (450, 300)
    assert res["starter"] == players[second]


def test_a_result_for_other_players_is_refused_not_entered(paired: Any) -> None:
    db, boards = paired
    row = _result(3, "Někdo Jiný", boards[3][1])
    store.ingest(db, [("st-1", "e", [[1, "result", row, NOW]])], NOW)
    assert not [r for r in Tournament(db).results(1) if r["table_no"] == 3]
    [(outcome, error)] = store.result_intake(db).values()
    assert outcome == "" and "the station sent Někdo Jiný" in error
    # kept as the phrase, so the operator reads it in his language (F4)
    assert localize(error, "cs").endswith(f"stanice poslala Někdo Jiný – {boards[3][1]}")
    assert localize(error, "sk").startswith("1. kolo, stôl 3: hrajú ")
    row = _result(99, *boards[1])
    store.ingest(db, [("st-1", "e", [[2, "result", row, NOW]])], NOW)
    assert localize(store.result_intake(db)["st-1/e/2"][1], "cs") == "1. kolo nemá stůl 99"


def test_two_stations_disagreeing_is_a_recorded_conflict(paired: Any) -> None:
    db, boards = paired
    first, second = boards[4]
    store.ingest(
        db,
        [
            ("st-1", "e", [[1, "result", _result(4, first, second), NOW]]),
            (
                "st-2",
                "f",
                [[1, "result", _result(4, first, second, score_first=411, station_id="st-2"), NOW]],
            ),
        ],
        NOW,
    )
    [res] = [r for r in Tournament(db).results(1) if r["table_no"] == 4]
    assert res["status"] == "conflict"
    audit = [a["action"] for a in db.query("SELECT action FROM tour_audit WHERE table_no = 4")]
    assert "conflict" in audit


def test_a_row_is_authored_by_the_station_that_sent_it(paired: Any) -> None:
    """A result (or a check) claiming another station than the one on the link is refused
    with the reason and never entered; the station's own rows are, authored by it."""
    from net_procs import check_payload

    db, boards = paired
    first, second = boards[1]
    forged = _result(1, first, second, station_id="stul-01")
    check = json.dumps(check_payload(1, station_id="stul-01"))
    own = _result(2, *boards[2], station_id="stul-66")
    rows = [[1, "result", forged, NOW], [2, "challenge", check, NOW], [3, "result", own, NOW]]
    assert store.ingest(db, [("stul-66", "e", rows)], NOW) == {("stul-66", "e"): 3}
    refused = store.rejected_rows(db)
    assert [(r["key"], r["kind"]) for r in refused] == [
        ("stul-66/e/1", "result"),
        ("stul-66/e/2", "challenge"),
    ]
    assert all("'stul-01' is not the sending station 'stul-66'" in r["error"] for r in refused)
    assert store.result_intake(db) == {"stul-66/e/3": ("entered", "")}
    assert [a["who"] for a in db.query("SELECT who FROM tour_audit WHERE action = 'entered'")] == [
        "stul-66"
    ]


def test_intake_outcomes_are_kept_per_round(paired: Any) -> None:
    db, boards = paired
    rows = [
        [1, "result", _result(1, *boards[1]), NOW],
        [2, "result", _result(9, "X", "Y"), NOW],
        [3, "result", _result(1, *boards[1], round_no=2), NOW],
    ]
    store.ingest(db, [("st-1", "e", rows)], NOW)
    assert set(store.result_intake(db, 1)) == {"st-1/e/1", "st-1/e/2"}
    assert set(store.result_intake(db, 2)) == {"st-1/e/3"}
    assert "no table" in store.result_intake(db, 1)["st-1/e/2"][1]


def test_migrating_keeps_what_the_dashboard_entered_and_sets_bad_old_rows_aside(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hub.db"
    db = open_db(path)
    store.migrations.apply(db, stop_before="m002_rejected_and_intake")
    db.table("dash_applied").create(
        {"key": str, "at": float, "outcome": str, "error": str}, pk="key"
    )
    db.table("dash_applied").insert({"key": "s/e/1", "at": NOW, "outcome": "entered", "error": ""})
    db.execute(
        "INSERT INTO inbox VALUES ('s', 'e', 1, 'result', ?, ?, ?)",
        [_result(1, "A", "B"), NOW, NOW],
    )
    db.execute(
        "INSERT INTO inbox VALUES ('s', 'e', 2, 'result', ?, ?, ?)",
        [json.dumps({"score_a": 1, "starter": "a"}), NOW, NOW],
    )
    db.close()
    db = open_db(path, tour_store.migrations, store.migrations)
    try:
        assert store.result_intake(db) == {"s/e/1": ("entered", "")}
        assert [r["key"] for r in store.rejected_rows(db)] == ["s/e/2"]
        assert [r.seq for r in store.inbox_records(db)] == [1]
        assert store.apply_results(db, NOW, keys=["s/e/1"]) == []  # entered before: not twice
    finally:
        db.close()


def test_a_bug_while_entering_a_result_does_not_stop_the_stream(
    paired: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, boards = paired

    def broken(book: Any, res: Any, names: Any) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(intake.ResultBook, "_enter_station", broken)
    row = _result(1, *boards[1])
    acked = store.ingest(db, [("st-1", "e", [[1, "result", row, NOW]])], NOW)
    assert acked[("st-1", "e")] == 1  # stored and acknowledged
    assert [r.seq for r in store.inbox_records(db)] == [1]
    [(outcome, error)] = store.result_intake(db).values()
    assert outcome == "" and error == "internal error: RuntimeError: boom"


def test_every_refusal_and_pin_lock_the_kiosk_reports_reads_at_the_hub() -> None:
    """The reasons the kiosk writes (shared.checks.Limit, the PIN lockout) are the ones the
    hub accepts: a station-wide refusal or a locked PIN prompt is never refused as junk."""
    from samoobsluha.shared.checks import Limit
    from samoobsluha.shared.payloads import (
        REFEREE_REASONS,
        REFUSED_REASONS,
        PayloadError,
        RefereeRequestPayload,
    )

    assert {limit.value for limit in Limit} == set(REFUSED_REASONS)
    row = {"id": 1, "at": 1.0, "station_id": "st", "table_no": None, "round_no": None,
           "reason": "pin_locked", "challenge_id": None}  # fmt: skip
    assert RefereeRequestPayload.from_dict(row).reason in REFEREE_REASONS
    try:
        RefereeRequestPayload.from_dict({**row, "reason": "station_cap"})
    except PayloadError as exc:
        assert "table_no" in str(exc)
    else:
        raise AssertionError("a table's referee call without a table was accepted")


def test_a_result_sent_again_under_a_new_epoch_is_not_entered_twice(paired: Any) -> None:
    """A station restored from an older copy sends its rows again under a new epoch: the
    ones the hub holds under the old epoch count as received (the ack moves) but are
    neither stored nor entered again; a row that differs is new and is stored."""
    db, boards = paired
    first, second = boards[1]
    row = [1, "result", _result(1, first, second), NOW]
    store.ingest(db, [("st-1", "old", [row])], NOW)
    other = [2, "result", _result(2, *boards[2]), NOW + 5]
    acked = store.ingest(db, [("st-1", "new", [list(row), other])], NOW + 10)
    assert acked == {("st-1", "new"): 2}
    assert sorted((r["station_epoch"], r["seq"]) for r in store.inbox_rows(db)) == [
        ("new", 2),
        ("old", 1),
    ]
    assert len(list(db.query("SELECT * FROM tour_entries"))) == 2  # tables 1 and 2, once each

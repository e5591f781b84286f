"""A station's withdrawal of its own table's entry, with real ``hub serve`` and ``station
daemon`` on 127.0.0.1: stored at the kiosk before it is shown done, it travels like any
result row (the next revision, a tombstone); before publication the hub sets the
station's entry aside (the table is missing again, or keeps the operator's own entry);
after publication the hub refuses it, stores and audits the refusal (the authenticated
sender named) and shows it to the operator in the round's intake — never dropped. The
hub's word on each withdrawal comes back to the station (the ``withdrawals`` item), and
the station learns of the publication (the standings' ``published``): its kiosk then
refuses a withdrawal itself, nothing stored."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from net_procs import Hub, Station, running, wait_for
from test_net_late_results import _online, hub_cmd, intake, results_of, set_up

from samoobsluha.station.log import (
    REFUSED,
    TAKEN_BACK,
    KioskStore,
    NothingToWithdraw,
    Result,
    RoundPublished,
)

pytestmark = pytest.mark.timeout(240)


def _audit(hub: Hub, table: int) -> list[dict[str, object]]:
    lines = hub_cmd(hub, "result", "audit", "1").splitlines()
    return [a for a in map(json.loads, lines) if a["table_no"] == table]


def _word(station: Station, table: int) -> str | None:
    kiosk = KioskStore.open(station.db_path, "st-1")
    try:
        return kiosk.withdrawal_word(1, table)
    finally:
        kiosk.close()


def test_a_withdrawal_takes_the_station_entry_back_until_publication(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    key = hub.issue_key("st-1", tmp_path / "st-1.key")
    station = Station(tmp_path / "st-1", hub, "st-1", key_file=key)
    with running(hub, station):
        tables = set_up(hub, tmp_path)
        (t1, a1, b1), (t2, a2, b2) = tables[:2]
        kiosk = KioskStore.open(station.db_path, "st-1")
        kiosk.store_result(Result(1, t1, 412, 389, "first", a1, b1), at=time.time())
        kiosk.store_result(Result(1, t2, 300, 450, "first", a2, b2), at=time.time())
        kiosk.close()
        station.start()
        wait_for(lambda: _online(hub) >= 1, 60, "the station connected")
        wait_for(lambda: len(intake(hub)) == 2, 60, "both entries")
        # the operator types table 2's scoresheet too: it is confirmed
        hub_cmd(hub, "enter", "1", f"{t2} 300 450")
        assert set(results_of(hub)) == {t1, t2}

        # both players withdraw both entries at the kiosk: durable before it returns
        kiosk = KioskStore.open(station.db_path, "st-1")
        gone = kiosk.withdraw_result(1, t1, at=time.time())
        kiosk.withdraw_result(1, t2, at=time.time())
        with pytest.raises(NothingToWithdraw):
            kiosk.withdraw_result(1, t1, at=time.time())
        kiosk.close()
        assert (gone.revision, gone.withdrawn) == (2, True)
        reopened = KioskStore.open(station.db_path, "st-1")
        stored = reopened.result(1, t1)
        reopened.close()
        assert stored is not None and stored.withdrawn  # in SQLite, not only in memory

        handled = wait_for(lambda: len(intake(hub)) == 4 and intake(hub), 60, "withdrawals")
        assert sorted(o for o, _ in handled.values()) == [
            "entered",
            "entered",
            "withdrawn",
            "withdrawn",
        ]
        results = results_of(hub)
        assert t1 not in results  # nothing else stood behind it: missing again
        # the operator's own entry stays (now the only source)
        assert results[t2]["status"] == "entered"
        assert (results[t2]["s_first"], results[t2]["s_second"]) == (300, 450)
        assert json.loads(results[t2]["sources"]) == ["operator"]
        assert [(a["action"], a["who"]) for a in _audit(hub, t1)] == [
            ("entered", "st-1"),
            ("withdrawn", "st-1"),
        ]
        # the hub's word came back to the station: taken back, both
        wait_for(lambda: _word(station, t1) == _word(station, t2) == TAKEN_BACK, 60, "the word")

        # entered again by both players: it counts again
        kiosk = KioskStore.open(station.db_path, "st-1")
        again = kiosk.store_result(Result(1, t1, 410, 389, "first", a1, b1), at=time.time())
        kiosk.close()
        assert (again.revision, again.withdrawn) == (3, False)
        wait_for(lambda: t1 in results_of(hub), 60, "the new entry")
        assert results_of(hub)[t1]["s_first"] == 410


def test_a_withdrawal_after_publication_is_refused_and_shown(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    key = hub.issue_key("st-1", tmp_path / "st-1.key")
    station = Station(tmp_path / "st-1", hub, "st-1", key_file=key)
    with running(hub, station):
        tables = set_up(hub, tmp_path)
        (t1, a1, b1), (t2, a2, b2) = tables[:2]
        scores = {1: (412, 389), 2: (300, 450), 3: (512, 287), 4: (401, 399)}
        kiosk = KioskStore.open(station.db_path, "st-1")
        kiosk.store_result(Result(1, t1, *scores[t1], "first", a1, b1), at=time.time())
        kiosk.store_result(Result(1, t2, *scores[t2], "first", a2, b2), at=time.time())
        kiosk.close()
        station.start()
        wait_for(lambda: _online(hub) >= 1, 60, "the station connected")
        wait_for(lambda: len(intake(hub)) == 2, 60, "the entries")
        hub_cmd(hub, "enter", "1", *(f"{t} {a} {b}" for t, (a, b) in scores.items()))
        # the station is off while the round is published: it cannot know, and its
        # withdrawal reaches the hub after the publication
        station.stop()
        hub_cmd(hub, "publish-round", "1")
        published = results_of(hub)

        kiosk = KioskStore.open(station.db_path, "st-1")
        assert not kiosk.round_published(1, t1)
        kiosk.withdraw_result(1, t1, at=time.time())
        kiosk.close()
        station.start()
        handled = wait_for(lambda: len(intake(hub)) == 3 and intake(hub), 60, "the withdrawal")
        refused = [(o, e) for o, e in handled.values() if o == "withdraw_refused"]
        assert len(refused) == 1 and refused[0][1]  # the refusal's reason is stored
        assert results_of(hub) == published  # nothing published changed
        assert [(a["action"], a["who"]) for a in _audit(hub, t1)][-1] == (
            "withdraw_refused",
            "st-1",
        )
        # the operator sees the refusal in the round's overview (its intake errors)
        text = hub_cmd(hub, "overview", "1")
        assert f"1. kolo je zveřejněné: záznam stanice u stolu {t1} už nelze stáhnout" in text
        english = hub_cmd(hub, "overview", "1", lang="en")
        assert f"table {t1}'s station entry can no longer be withdrawn" in english

        # the station has the publication and the hub's refusal: it says so, and refuses
        # a withdrawal of an entry made before the publication itself
        wait_for(lambda: _word(station, t1) == REFUSED, 60, "the refusal at the station")
        kiosk = KioskStore.open(station.db_path, "st-1")
        try:
            assert kiosk.round_published(1, t2)
            with pytest.raises(RoundPublished):
                kiosk.withdraw_result(1, t2, at=time.time())
            assert not kiosk.result(1, t2).withdrawn
        finally:
            kiosk.close()

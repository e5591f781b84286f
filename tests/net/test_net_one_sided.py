"""Results both players confirm: a station's one-sided entry (the second player did not
confirm it at the kiosk) travels to the hub like any row but is not entered — the
operator sees it as one-sided — and once both confirm it at the kiosk it is entered.
Real ``hub serve`` and ``station daemon`` on 127.0.0.1; every operator step a command."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from net_procs import Hub, Station, running, wait_for
from test_net_late_results import _online, hub_cmd, intake, results_of, set_up

from samoobsluha.station.log import KioskStore, Result

pytestmark = pytest.mark.timeout(240)


def test_a_one_sided_station_result_is_not_entered(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    key = hub.issue_key("st-1", tmp_path / "st-1.key")
    station = Station(tmp_path / "st-1", hub, "st-1", key_file=key)
    with running(hub, station):
        tables = set_up(hub, tmp_path)
        (t1, a1, b1), (t2, a2, b2) = tables[:2]
        kiosk = KioskStore.open(station.db_path, "st-1")
        kiosk.store_result(Result(1, t1, 412, 389, "first", a1, b1), at=time.time(), one_sided=True)
        kiosk.store_result(Result(1, t2, 300, 450, "second", a2, b2), at=time.time())
        kiosk.close()
        station.start()
        wait_for(lambda: _online(hub) >= 1, 60, "the station connected")
        handled = wait_for(lambda: len(intake(hub)) == 2 and intake(hub), 60, "2 intakes")
        assert sorted(o for o, _ in handled.values()) == ["entered", "one_sided"]

        # only the confirmed one is a result; the one-sided one is shown as such
        assert set(results_of(hub)) == {t2}
        overview = json.loads(hub_cmd(hub, "overview", "1", "--json"))
        states = {row["table"]: row for row in overview["tables"]}
        assert states[t1]["state"] == "one_sided"
        assert (states[t1]["score_first"], states[t1]["score_second"]) == (412, 389)
        assert states[t2]["state"] == "pending"  # a station's entry, waiting for the sheet
        text = hub_cmd(hub, "overview", "1")
        assert f"{a1} – {b1}  412:389  jednostranně" in text
        audit = [json.loads(line) for line in hub_cmd(hub, "result", "audit", "1").splitlines()]
        assert [a["action"] for a in audit if a["table_no"] == t1] == ["one_sided"]

        # later both players confirm it at the kiosk: now it is entered
        kiosk = KioskStore.open(station.db_path, "st-1")
        again = kiosk.store_result(Result(1, t1, 412, 389, "first", a1, b1), at=time.time())
        kiosk.close()
        assert (again.revision, again.one_sided) == (2, False)
        wait_for(lambda: len(intake(hub)) == 3, 60, "the confirmed entry")
        assert set(results_of(hub)) == {t1, t2}
        overview = json.loads(hub_cmd(hub, "overview", "1", "--json"))
        assert {r["table"]: r["state"] for r in overview["tables"]}[t1] == "pending"

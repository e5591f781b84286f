"""Results that reach the hub after the operator published the round, with real processes:
``hub serve`` and ``station daemon``s on 127.0.0.1, results entered in each station's
outbox as its kiosk would, every operator step a ``hub`` command.

What must hold (docs/tournament.md, "Results: the lifecycle"): nothing published changes
without an operator action — ``hub standings`` stays byte for byte the same, every table
whose late entry differs is listed as a dispute, resolving one changes exactly that table;
and a holder of one station's key cannot enter a result under another station's name.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from net_procs import BIN, Hub, Station, enter_at_station, running, wait_for

from samoobsluha.hub import store
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.tournament import Tournament
from samoobsluha.shared.storage import open_db
from samoobsluha.station.log import KioskStore, Result

pytestmark = pytest.mark.timeout(240)


def hub_cmd(hub: Hub, *args: str, lang: str = "cs", ok: tuple[int, ...] = (0,)) -> str:
    out = subprocess.run(
        [str(BIN / "hub"), *args],
        env={**hub.env, "SAMOOBSLUHA_LANG": lang},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode in ok, (args, out.returncode, out.stderr)
    return out.stdout


def set_up(hub: Hub, tmp_path: Path, players: int = 8) -> list[tuple[int, str, str]]:
    """A tournament with round 1 paired: [(table, first name, second name)]."""
    roster = tmp_path / "players.csv"
    roster.write_text(sample_csv(players, 2026), encoding="utf-8")
    hub_cmd(hub, "tournament", "init", "--name", "Pozdní výsledky", "--rules", "cas")
    hub_cmd(hub, "players", "import", str(roster))
    hub_cmd(hub, "round", "pair", "1", "--seed", "7")
    with Tournament.open(hub.db_path) as tour:
        names = {p.id: p.name for p in tour.players()}
        return [
            (b.table, names[b.first], names[b.second])
            for b in tour.pairing(1).boards
            if b.second is not None
        ]


def intake(hub: Hub) -> dict[str, tuple[str, str]]:
    db = open_db(hub.db_path, store.migrations)
    try:
        return store.result_intake(db, 1)
    finally:
        db.close()


def results_of(hub: Hub) -> dict[int, dict[str, Any]]:
    return {json.loads(line)["table_no"]: json.loads(line) for line in _lines(hub)}


def _lines(hub: Hub) -> list[str]:
    return [line for line in hub_cmd(hub, "result", "list", "1").splitlines() if line.strip()]


def test_late_station_results_after_publication_become_disputes(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    keys = {name: hub.issue_key(name, tmp_path / f"{name}.key") for name in ("st-1", "st-2")}
    stations = [
        Station(tmp_path / name, hub, name, key_file=keys[name]) for name in ("st-1", "st-2")
    ]
    with running(hub, *stations):
        tables = set_up(hub, tmp_path)
        assert len(tables) == 4
        for st in stations:
            st.start()
        wait_for(lambda: _online(hub) >= 2, 60, "both stations connected")
        hub_cmd(hub, "publish-pairings", "1")  # the hall screen shows round 1 and its results

        # The operator types the scoresheets and publishes round 1 (stations, hall
        # screen, protest window), then pairs round 2 — as in the hall.
        scores = {1: (412, 389), 2: (300, 450), 3: (512, 287), 4: (401, 399)}
        hub_cmd(hub, "enter", "1", *(f"{t} {a} {b}" for t, (a, b) in scores.items()))
        out = hub_cmd(hub, "publish-round", "1")
        assert "1. kolo zveřejněno" in out and "st-1" in out and "st-2" in out
        hub_cmd(hub, "round", "pair", "2", "--seed", "8")
        before = hub_cmd(hub, "standings", "--format", "csv")
        before_text = hub_cmd(hub, "standings", "--format", "text")
        published = results_of(hub)
        hall_before = hall_screen(hub)
        assert len(json.loads(hall_before)["results"]) == 4

        # Now the stations' results arrive: st-1's agree with the scoresheets, st-2's
        # differ (table 3 the other way round, table 4 one point off).
        late = {3: (287, 512), 4: (401, 398)}
        enter_at_station(
            stations[0],
            [Result(1, t, *scores[t], "first", first, second) for t, first, second in tables[:2]],
        )
        enter_at_station(
            stations[1],
            [Result(1, t, *late[t], "first", first, second) for t, first, second in tables[2:]],
        )
        handled = wait_for(lambda: len(intake(hub)) == 4 and intake(hub), 60, "4 intakes")
        assert sorted(o for o, _ in handled.values()) == [
            "dispute",
            "dispute",
            "duplicate",
            "duplicate",
        ]

        # Nothing the players see changed: standings byte for byte, every result as published.
        assert hub_cmd(hub, "standings", "--format", "csv") == before
        assert hub_cmd(hub, "standings", "--format", "text") == before_text
        assert results_of(hub) == published
        # the hall screen and the phones: not one byte of what they get is different
        assert hall_screen(hub) == hall_before

        # … and the operator sees every differing table as a dispute.
        overview = hub_cmd(hub, "overview", "1", lang="en").splitlines()
        table_lines = {
            int(line.split()[0]): line for line in overview if line[:3].strip().isdigit()
        }
        assert "dispute" in table_lines[3] and "dispute" in table_lines[4]
        assert "dispute" not in table_lines[1] and "dispute" not in table_lines[2]
        assert "2 result disputes" in "\n".join(overview)
        listed = hub_cmd(hub, "dispute", lang="en", ok=(1,)).splitlines()
        assert len(listed) == 2 and all("st-2" in line for line in listed)
        by_table = {int(line.split(" table ")[1].split()[0]): line for line in listed}
        take = int(by_table[3].split()[1].rstrip(":"))

        # Taking the station's entry for table 3 changes exactly table 3.
        assert hub_cmd(hub, "dispute", "take", str(take), lang="en").strip() == "corrected"
        after = results_of(hub)
        changed = {t for t in published if after[t] != published[t]}
        assert changed == {3}
        assert (after[3]["s_first"], after[3]["s_second"]) == late[3]
        assert hub_cmd(hub, "standings", "--format", "csv") != before
        remaining = hub_cmd(hub, "dispute", lang="en", ok=(1,)).splitlines()
        assert len(remaining) == 1 and " table 4 " in remaining[0]
        # the decision is in the audit trail, by the operator
        audit = [json.loads(line) for line in hub_cmd(hub, "result", "audit", "1").splitlines()]
        assert [a["action"] for a in audit if a["table_no"] == 3][-1] == "dispute_take"


def hall_screen(hub: Hub) -> str:
    """What the hall screen's page (and every phone) receives, as the hub builds it."""
    from samoobsluha.hub.service import HubService
    from samoobsluha.hub.web import snapshot

    return snapshot.dumps(snapshot.build(HubService(hub.data)))


def _online(hub: Hub) -> int:
    db = open_db(hub.db_path, store.migrations)
    try:
        return len(store.load_stations(db))
    finally:
        db.close()


async def stations_screen(hub: Hub) -> tuple[list[list[str]], str]:
    """The dashboard's Stations screen (F1) over the running hub, in Czech: its table's
    rows as text and its warnings."""
    from textual.widgets import DataTable

    from samoobsluha.hub.app import HubApp
    from samoobsluha.hub.service import HubService

    app = HubApp(HubService(hub.data), refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(160, 40)) as pilot:
        for _ in range(4):
            await pilot.pause()
            await app.workers.wait_for_complete()
        table = app.screen.query_one("#stations", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        warnings = str(app.screen.query_one("#stations-warnings").render())
    return rows, warnings


async def test_a_station_key_cannot_enter_results_under_another_station(tmp_path: Path) -> None:
    """stul-66's card sends result rows that claim to come from stul-01: refused into
    ``rejected`` with the reason, stored under stul-66 (the station authenticated on the
    link) with the name it claimed; nothing enters the tournament or its audit trail, and
    ``hub stations`` and the dashboard's Stations screen flag stul-66."""
    hub = Hub(tmp_path / "hub").start()
    key = hub.issue_key("stul-66", tmp_path / "stul-66.key")
    thief = Station(tmp_path / "stul-66", hub, "stul-66", key_file=key)
    with running(hub, thief):
        tables = set_up(hub, tmp_path)
        thief.start()
        # the rows are written under another station's name, as a forged card would
        forged = KioskStore.open(thief.db_path, "stul-01")
        try:
            for t, first, second in tables:
                forged.store_result(Result(1, t, 400, 300, "first", first, second), at=time.time())
        finally:
            forged.close()
        wait_for(lambda: thief.backlog() == 0, 60, "the forged rows acknowledged")
        rejected = json.loads(hub_cmd(hub, "rejected", "--json"))
        assert len(rejected) == len(tables)
        assert all(r["station_id"] == "stul-66" for r in rejected)
        assert all("'stul-01' is not the sending station 'stul-66'" in r["error"] for r in rejected)
        assert all(r["claimed"] == "stul-01" for r in rejected)
        n = len(tables)
        # the sender is flagged wherever the operator looks at the stations
        listed = {r["station_id"]: r for r in json.loads(hub_cmd(hub, "stations", "--json"))}
        assert listed["stul-66"]["impersonated"] == {"stul-01": n}
        line = next(x for x in hub_cmd(hub, "stations").splitlines() if "stul-66" in x)
        assert f"JMÉNEM stul-01: {n}" in line and f"ODMÍTNUTO {n}" in line
        rows, warnings = await stations_screen(hub)
        assert [r[0] for r in rows] == ["stul-66 ⚠ jako stul-01"]
        assert f"stanice stul-66: {n} záznamy poslané jménem stanice stul-01" in warnings
        assert "jako vadn" not in warnings  # they were well formed: not counted as malformed
        assert results_of(hub) == {}
        assert intake(hub) == {}
        audit = hub_cmd(hub, "result", "audit", "1")
        assert "stul-01" not in audit and "stul-66" not in audit

        # the same card's honest rows (its own name) are entered, authored by it
        honest = KioskStore.open(thief.db_path, "stul-66")
        try:
            t, first, second = tables[0]
            # (the referee re-enters the table at the station: the kiosk's own row is locked)
            honest.store_result(
                Result(1, t, 410, 300, "first", first, second), at=time.time(), by_referee=True
            )
        finally:
            honest.close()
        wait_for(lambda: len(intake(hub)) == 1, 60, "the honest row entered")
        audit_rows = [
            json.loads(line) for line in hub_cmd(hub, "result", "audit", "1").splitlines()
        ]
        assert [a["who"] for a in audit_rows if a["action"] == "entered"] == ["stul-66"]

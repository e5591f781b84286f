"""Two divisions in one hall, with real processes: ``hub serve`` and two ``station
daemon``s on 127.0.0.1, a 37-player and a 22-player division playing 7 rounds — round 1's
operator steps as ``hub`` commands, the later rounds' through the dashboard's service — every
result entered in a station's outbox as its kiosk would (tables numbered across the hall,
each station serving tables of both divisions).

What must hold (docs/tournament.md, "Divisions"): pairings never cross divisions; every
station's entry lands at its table in the right division; the hall has one gong (one round
start rings every station once, whatever the division); both tsh files export, read back in
tsh's grammar to the hub's standings, and import-then-export gives them byte for byte.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from net_procs import BIN, Hub, Station, enter_at_station, running, wait_for

from samoobsluha.hub import store
from samoobsluha.hub.sample import sample_players
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament import Tournament, tsh
from samoobsluha.shared.storage import open_db
from samoobsluha.station.log import Result
from samoobsluha.station.sync import load_item

pytestmark = pytest.mark.timeout(240)

ROUNDS = 7
FIELDS = {"OPEN": 37, "JUNIOR": 22}
OFF_CLOCK = 1.0  # seconds between two stations' rings of one signal: far more than sync error


def hub_cmd(hub: Hub, *args: str, ok: tuple[int, ...] = (0,), db: Path | None = None) -> str:
    extra = ["--db", str(db)] if db is not None else []
    out = subprocess.run(
        [str(BIN / "hub"), *args, *extra],
        env={**hub.env, "SAMOOBSLUHA_LANG": "cs"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode in ok, (args, out.returncode, out.stderr)
    return out.stdout + out.stderr


def roster(tmp_path: Path) -> dict[str, Path]:
    """Each division's CSV: 59 distinct sample players, the first 37 in OPEN."""
    players = sample_players(sum(FIELDS.values()), 37)
    seen: set[str] = set()
    unique = []
    for name, club, rating in players:
        while name in seen:  # the sample may repeat a name; a hall never has two alike
            name += " ml."
        seen.add(name)
        unique.append((name, club, rating))
    files, start = {}, 0
    for division, count in FIELDS.items():
        path = tmp_path / f"{division}.csv"
        rows = ["jméno,klub,rating"] + [f"{n},{c},{r}" for n, c, r in unique[start : start + count]]
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        files[division] = path
        start += count
    return files


def intakes(hub: Hub, round_no: int) -> dict[str, tuple[str, str]]:
    db = open_db(hub.db_path, store.migrations)
    try:
        return store.result_intake(db, round_no)
    finally:
        db.close()


def station_item(station: Station, kind: str) -> object:
    db = open_db(station.db_path)
    try:
        return load_item(db, kind) if db.table("hub_items").exists() else None
    finally:
        db.close()


def test_two_divisions_play_seven_rounds_in_one_hall(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    names = ("st-1", "st-2")
    keys = {n: hub.issue_key(n, tmp_path / f"{n}.key") for n in names}
    stations = [Station(tmp_path / n, hub, n, key_file=keys[n]) for n in names]
    rng = random.Random(2026)
    with running(hub, *stations):
        hub_cmd(hub, "tournament", "init", "--name", "Dvě skupiny", "--rules", "cas",
                "--rounds", str(ROUNDS))  # fmt: skip
        hub_cmd(hub, "division", "add", *FIELDS)
        for division, path in roster(tmp_path).items():
            hub_cmd(hub, "players", "import", str(path), "--division", division)
        # several divisions and none named: a refusal in Czech naming them
        refused = hub_cmd(hub, "round", "pair", "1", ok=(2,))
        assert "zvolte jednu přepínačem --division" in refused and "OPEN, JUNIOR" in refused
        for st in stations:
            st.start()
        wait_for(lambda: len(json.loads(hub.ctl("stations", "--json"))) == 2, 60, "stations")

        with Tournament.open(hub.db_path) as tour:
            division_of = {p.id: p.division for p in tour.players()}
            name_of = {p.id: p.name for p in tour.players()}
        assert sorted(division_of.values()).count("OPEN") == 37

        starts: dict[str, list[float]] = {n: [] for n in names}
        service = HubService(hub.data)
        for r in range(1, ROUNDS + 1):
            # round 1 by the operator's hub commands; later rounds by the dashboard's service
            # (the same owner, in this process: a hub command costs seconds on a busy machine)
            for division in FIELDS:
                if r == 1:
                    hub_cmd(hub, "round", "pair", "1", "--division", division, "--seed", "1")
                else:
                    with Tournament.open(hub.db_path) as tour:
                        tour.pair(r, seed=r, division=division)
            with Tournament.open(hub.db_path) as tour:
                boards = tour.pairing(r).boards
                by_division = {d: tour.pairing(r, d).boards for d in FIELDS}
            # pairings never cross divisions; tables are the hall's, one block per division
            for b in boards:
                if b.second is not None:
                    assert division_of[b.first] == division_of[b.second], (r, b)
            assert len({b.table for b in boards}) == len(boards) == 19 + 11
            assert max(b.table for b in by_division["OPEN"]) < min(
                b.table for b in by_division["JUNIOR"]
            )
            assert sum(b.second is None for b in by_division["OPEN"]) == 1  # 37: one bye
            assert all(b.second is not None for b in by_division["JUNIOR"])

            # the stations get the hall's pairings, every table with its division
            if r == 1:
                hub_cmd(hub, "publish-pairings", "1")
            else:
                service.publish_to_stations(r)

            # one gong for the hall: one round start for both divisions (it runs while they play)
            plan = service.start_round(r, lead=5, basic_seconds=2, warning_seconds=1)["plan"]

            def got_pairings(r: int = r) -> bool:
                items = [station_item(st, "pairings") for st in stations]
                return all(isinstance(i, dict) and i.get("round") == r for i in items)

            wait_for(got_pairings, 60, f"round {r} pairings at both stations")
            sent = station_item(stations[0], "pairings")
            assert isinstance(sent, dict)
            assert {t["table"]: t["division"] for t in sent["tables"]} == {
                b.table: division_of[b.first] for b in boards
            }

            # results at the stations: st-1 takes odd tables, st-2 even ones (both divisions)
            played = [b for b in boards if b.second is not None]
            scores = {b.table: (rng.randint(280, 520), rng.randint(280, 520)) for b in played}
            for i, st in enumerate(stations):
                enter_at_station(
                    st,
                    [
                        Result(
                            r,
                            b.table,
                            *scores[b.table],
                            "first",
                            name_of[b.first],
                            name_of[b.second or 0],
                        )
                        for b in played
                        if b.table % 2 == (1 - i)
                    ],
                )
            done = wait_for(
                lambda r=r, n=len(played): len(intakes(hub, r)) == n and intakes(hub, r),  # noqa: B008
                90,
                f"round {r}: every station result entered",
            )
            assert {outcome for outcome, _ in done.values()} == {"entered"}, done
            # every entry at its table, in its division, with the players' scores
            with Tournament.open(hub.db_path) as tour:
                results = {row["table_no"]: row for row in tour.results(r)}
                for b in played:
                    row = results[b.table]
                    assert (row["s_first"], row["s_second"]) == scores[b.table]
                    assert tour.table_division(r, b.table) == division_of[b.first]
                    assert json.loads(row["sources"]) == ["station"]
                assert not tour.missing_results(r)
            # … and rang both stations once, together
            for st in stations:
                wait_for(
                    lambda st=st, r=r: sum(x["signal"] == "end" for x in st.rings()) == r,
                    60,
                    f"{st.station_id}: round {r} ends",
                )
            for st in stations:
                rang = [x["local_time"] for x in st.rings() if x["signal"] == "start"]
                assert len(rang) == r, (st.station_id, r, st.rings())
                assert abs(rang[-1] - plan["start_at"]) <= OFF_CLOCK
                starts[st.station_id] = rang

            if r == 1:
                hub_cmd(hub, "publish-round", "1")
            else:
                service.publish_round(r)

        # the hall's gong: every station rang each round's start once, at the same instant
        assert [len(v) for v in starts.values()] == [ROUNDS, ROUNDS]
        for a, b in zip(starts["st-1"], starts["st-2"], strict=True):
            assert abs(a - b) <= OFF_CLOCK

        # tsh: the event as tsh keeps it — config.tsh and one .t per division
        out = tmp_path / "tsh"
        hub_cmd(hub, "tournament", "export-tsh", str(out))
        files = sorted(p.name for p in out.iterdir())
        assert files == ["config.tsh", "junior.t", "open.t"]
        config = (out / "config.tsh").read_text()
        assert "division OPEN open.t\n" in config and "division JUNIOR junior.t\n" in config
        for division, file in (("OPEN", "open.t"), ("JUNIOR", "junior.t")):
            source = tsh.read(out / file)  # tsh's grammar, every line
            assert len(source.players) == FIELDS[division]
            assert source.scored_rounds == ROUNDS and not source.warnings
            from_file = hub_cmd(hub, "standings", "--rules", "cas", "--tsh", str(out / file))
            in_hub = hub_cmd(hub, "standings", "--rules", "cas", "--division", division)
            # the same table, clubs included (tsh's team key)
            assert from_file == in_hub
        # read back into another hub and written again: the same bytes
        again = tmp_path / "again.db"
        hub_cmd(hub, "tournament", "import-tsh", str(out / "config.tsh"), db=again)
        out2 = tmp_path / "tsh2"
        hub_cmd(hub, "tournament", "export-tsh", str(out2), db=again)
        for name in files:
            assert (out2 / name).read_bytes() == (out / name).read_bytes(), name

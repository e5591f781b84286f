"""A whole round across processes, loopback only: ``hub serve`` and two ``station daemon``
processes (mock GPIO, no audio), the hub driven through the dashboard's service.

Start signal on both stations, checks from both stations on the hub, results entered at
the stations and by the operator, the round approved and made final, the next round
paired, and its pairings and the standings delivered to both stations."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dash_testkit import check

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.storage import open_db
from samoobsluha.station.log import KioskStore, Result

BIN = Path(sys.executable).parent
STATIONS = ("st-1", "st-2")


def wait_for(what: str, probe: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Proc:
    """A child process whose stdout JSON lines are collected."""

    def __init__(self, cmd: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log.open("wb")
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL
        )
        self.events: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.events.append(json.loads(line))
            except ValueError:
                continue

    def rings(self, signal: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("event") == "ring" and e["signal"] == signal]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


@pytest.fixture
def hall(small_lexicon_path: Path) -> Iterator[dict[str, Any]]:
    root = Path(tempfile.mkdtemp(prefix="e2e"))  # short: the control socket lives here
    procs: list[Proc] = []
    try:
        lexicon = root / "small-cs.lex"  # the processes' own copy, whatever pytest cleans up
        shutil.copyfile(small_lexicon_path, lexicon)
        hub_dir = root / "hub"
        svc = HubService(hub_dir)
        with svc._tour() as tour:
            tour.configure(name="E2E", rules="cas", rounds=3)
            tour.import_players_csv(sample_csv(8, 11))
            for p in tour.players():
                tour.check_in(p.id)
            tour.pair(1, seed=5)
        env = dict(os.environ, SAMOOBSLUHA_DATA=str(hub_dir), GPIOZERO_PIN_FACTORY="mock")
        port_file = root / "port"
        procs.append(
            Proc(
                [
                    str(BIN / "hub"),
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--port-file",
                    str(port_file),
                    "--no-mdns",
                ],
                env,
                root / "hub.log",
            )
        )
        port = int(wait_for("hub port", lambda: port_file.exists() and port_file.read_text()))
        wait_for("control socket", svc.server_running)
        # the stations' lexicon, signed by this hub's key as `hub lexicon sign` signs it
        subprocess.run([str(BIN / "hub"), "lexicon", "sign", str(lexicon)], env=env, check=True)
        db = open_db(svc.db_path, sync_store.migrations)
        tournament = sync_store.get_meta(db, "tournament_id")
        db.close()
        stations = {}
        for name in STATIONS:
            folder = root / name
            folder.mkdir()
            conf = folder / "station.toml"
            conf.write_text(
                f'[station]\nname = "{name}"\nlexicon = "{lexicon}"\n\n'
                f'[gong]\naudio = "off"\n\n'
                f'[network]\ntournament_id = "{tournament}"\n'
                f'psk_file = "{hub_dir / "tournament.key"}"\n'
                f'hub = "127.0.0.1:{port}"\nstation_id = "{name}"\n',
                encoding="utf-8",
            )
            st_env = dict(env, SAMOOBSLUHA_DATA=str(folder))
            proc = Proc(
                [str(BIN / "station"), "daemon", "--config", str(conf)],
                st_env,
                root / f"{name}.log",
            )
            procs.append(proc)
            stations[name] = {"dir": folder, "proc": proc, "db": folder / "station.db"}
        yield {"svc": svc, "stations": stations, "root": root}
    finally:
        for proc in procs:
            proc.stop()
        shutil.rmtree(root, ignore_errors=True)


def station_item(db: Path, kind: str) -> Any:
    if not db.exists():
        return None
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        row = conn.execute("SELECT data FROM hub_items WHERE kind = ?", [kind]).fetchone()
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()
    return json.loads(row[0]) if row else None


def test_a_full_round_between_the_hub_and_two_stations(
    hall: dict[str, Any], small_lexicon_path: Path
) -> None:
    svc: HubService = hall["svc"]
    stations = hall["stations"]
    wait_for("both stations online", lambda: svc.stations().online == 2)

    # pairings of round 1 reach both stations
    svc.publish_to_stations(1)
    for st in stations.values():
        got = wait_for("round 1 pairings", lambda st=st: station_item(st["db"], "pairings"))
        assert got["round"] == 1 and len(got["tables"]) == 4

    # the round starts on both stations at once, warns and ends (short timings)
    svc.start_round(1, lead=1.5, basic_seconds=3.0, warning_seconds=1.5)
    for signal in ("start", "warning", "end"):
        for st in stations.values():
            wait_for(f"{signal} ring", lambda st=st, signal=signal: st["proc"].rings(signal))
    starts = [st["proc"].rings("start")[0]["hub_time"] for st in stations.values()]
    # both aimed at the hub's instant (the spread itself is bench/sync.py's figure)
    assert max(starts) - min(starts) < 1.0
    wait_for("the round's plan confirmed by both", lambda: len(svc.rounds()[0].confirmed) == 2)

    # players check words at both stations; the hub's log shows them all
    lexicon = Lexicon.open(small_lexicon_path)
    stores = {name: KioskStore.open(st["db"], name) for name, st in stations.items()}
    try:
        check(stores["st-1"], lexicon, ["kůň"], 1, time.time())
        check(stores["st-1"], lexicon, ["xyzzy"], 2, time.time())
        check(stores["st-2"], lexicon, ["čáp", "ryba"], 3, time.time())
        rows = wait_for(
            "checks on the hub", lambda: len(svc.challenges()) == 3 and svc.challenges()
        )
        assert {r.station for r in rows} == set(STATIONS)
        assert {(r.table_no, r.verdict) for r in rows} == {
            (1, "valid"),
            (2, "invalid"),
            (3, "valid"),
        }

        # results: two tables at st-1, one at st-2, the fourth by the operator
        pairings = station_item(stations["st-1"]["db"], "pairings")
        names = {t["table"]: (t["first"]["name"], t["second"]["name"]) for t in pairings["tables"]}
        scores = {1: (420, 380), 2: (350, 400), 3: (390, 391), 4: (500, 300)}
        for name, tables in (("st-1", (1, 2)), ("st-2", (3,))):
            for table in tables:
                a, b = names[table]
                stores[name].store_result(
                    Result(1, table, *scores[table], "first", a, b), at=time.time()
                )
        # no dashboard: the server enters each result as it stores it, so
        # ``hub standings`` (another process, reading the file) counts them
        wait_for(
            "station results in the tournament",
            lambda: svc.round_results(1).count("pending") == 3,
        )
        standings = subprocess.run(
            [str(BIN / "hub"), "standings", "--format", "csv"],
            env=dict(os.environ, SAMOOBSLUHA_DATA=str(hall["root"] / "hub")),
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        wins = {row["name"]: row["wins"] for row in csv.DictReader(io.StringIO(standings))}
        for table in (1, 2, 3):
            won, lost = names[table] if scores[table][0] > scores[table][1] else names[table][::-1]
            assert (wins[won], wins[lost]) == ("1", "0"), (table, wins)
        svc.enter_result(1, Entry(4, *scores[4]))
        # the scoresheets arrive: the operator confirms the stations' entries
        for table in (1, 2, 3):
            assert svc.enter_result(1, Entry(table, *scores[table])).outcome == "confirmed"
        results = svc.round_results(1)
        assert [t.state for t in results.tables] == ["in"] * 4
        assert results.tables[0].sources == ["operator", "station"]
    finally:
        for store in stores.values():
            store.close()

    # approve, make final, pair round 2 and publish it with the standings
    svc.publish_results(1)
    assert svc.finalise(1, early=True) == 4
    assert svc.pair(2, seed=1) == 4
    sent = svc.publish_to_stations(2)
    assert sorted(sent["pairings"]["sent_to"]) == list(STATIONS)
    for st in stations.values():
        got = wait_for(
            "round 2 pairings",
            lambda st=st: (
                (station_item(st["db"], "pairings") or {}).get("round") == 2
                and station_item(st["db"], "pairings")
            ),
        )
        assert len(got["tables"]) == 4
        standings = wait_for(
            "standings after round 1",
            lambda st=st: (
                (station_item(st["db"], "standings") or {}).get("round") == 1
                and station_item(st["db"], "standings")
            ),
        )
        assert len(standings["rows"]) == 8
        assert standings["rows"][0]["wins"] == "1"
    wait_for("deliveries confirmed", lambda: len(svc.deliveries(sent["pairings"]["id"])) == 2)
    # each station reports the last signal it gave: the end of round 1
    wait_for(
        "last signals on the hub",
        lambda: all("end" in r.last_signal for r in svc.stations().rows),
        timeout=15,
    )


def test_the_linked_kiosk_joins_the_hub_and_stores_published_pairings(
    hall: dict[str, Any], small_lexicon_path: Path
) -> None:
    """``station run`` of a tournament's station (kiosk + sync + gong in one process, here
    headless) shows up on the hub and turns published pairings into the kiosk's own
    pairings — what the provisioned tty1 unit starts."""
    svc: HubService = hall["svc"]
    first = hall["stations"]["st-1"]["dir"] / "station.toml"
    folder = hall["root"] / "st-3"
    folder.mkdir()
    conf = folder / "station.toml"
    conf.write_text(
        first.read_text().replace("st-1", "st-3") + '\n[kiosk]\ntables = "1-10"\n',
        encoding="utf-8",
    )
    env = dict(os.environ, SAMOOBSLUHA_DATA=str(folder), GPIOZERO_PIN_FACTORY="mock")
    proc = Proc(
        [str(BIN / "station"), "run", "--config", str(conf), "--headless"],
        env,
        hall["root"] / "st-3.log",
    )
    try:
        wait_for(
            "st-3 online",
            lambda: any(r.station_id == "st-3" and r.online for r in svc.stations().rows),
        )
        svc.publish_to_stations(1)

        def kiosk_pairings() -> list[Any]:
            if not (folder / "station.db").exists():
                return []
            conn = sqlite3.connect(f"file:{folder / 'station.db'}?mode=ro", uri=True)
            try:
                return conn.execute(
                    "SELECT table_no, first, second FROM pairings WHERE round_no = 1"
                ).fetchall()
            except sqlite3.OperationalError:
                return []
            finally:
                conn.close()

        rows = wait_for("the kiosk's pairings", kiosk_pairings)
        assert len(rows) == 4 and all(a and b for _, a, b in rows)
    except AssertionError:
        proc.stop()
        raise AssertionError((hall["root"] / "st-3.log").read_text()[-2000:]) from None
    finally:
        proc.stop()

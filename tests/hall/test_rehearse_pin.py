"""The rehearsal's PIN line reads what the stations hold — the record the kiosk verifies
against and ``hub pin set`` writes — on real processes: ``hub serve`` and two ``station
daemon``s on 127.0.0.1. One station starts with a PIN hash made under the old policy
(refused: the line says a new PIN is needed), the other with none; after ``hub pin set``
both lines are green, each station holding its own salted hash."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.hub import rehearse
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService
from samoobsluha.shared.pin import verify_pin
from samoobsluha.shared.storage import open_db
from samoobsluha.station.log import KioskStore, referee_pin_in_force

PIN = "86429753"


def _run(args: list[str], data: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data), "SAMOOBSLUHA_LANG": "cs"}
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=120, **kw)


def _held(station: Station) -> str:
    db = open_db(station.db_path)
    try:
        return referee_pin_in_force(db)
    finally:
        db.close()


def _rehearse(hub: Hub) -> tuple[str, dict[str, str]]:
    out = _run(
        [str(BIN / "hub"), "rehearse", "--wait", "20", "--no-button", "--no-keyboard"], hub.data
    )
    stored = rehearse.load(HubService(hub.data))
    assert stored is not None, out.stdout + out.stderr
    pins = {
        s.station_id: next(c for c in s.checks if c.key == "pin").level for s in stored.stations
    }
    return out.stdout, pins


def test_rehearsal_pin_line_follows_hub_pin_set(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub")
    hub.data.mkdir(parents=True)
    players = tmp_path / "players.csv"
    players.write_text(sample_csv(16, 3), encoding="utf-8")
    for cmd in (
        ["tournament", "init", "--name", "Zkouška PINu", "--rounds", "5"],
        ["players", "import", str(players)],
    ):
        out = _run([str(BIN / "hub"), *cmd], hub.data)
        assert out.returncode == 0, out.stderr
    hub.start()
    st1 = Station(tmp_path / "st-1", hub, "st-1")
    st2 = Station(tmp_path / "st-2", hub, "st-2")
    # st-1's card still holds a hash of the old policy (a 4-digit PIN, scrypt N=2**14)
    st1.data.mkdir(parents=True)
    salt = os.urandom(16)
    digest = hashlib.scrypt(b"4826", salt=salt, n=2**14, r=8, p=1, dklen=32)
    store = KioskStore.open(st1.db_path, "st-1")
    try:
        store.set_referee_pin(f"scrypt${2**14}$8$1${salt.hex()}${digest.hex()}", 1.0)
    finally:
        store.close()
    with running(hub, st1, st2):
        st1.start()
        st2.start()
        wait_for(
            lambda: (
                {"st-1", "st-2"}
                <= {r.station_id for r in HubService(hub.data).stations().rows if r.online}
            ),
            60,
            "both stations linked",
        )
        before, pins = _rehearse(hub)
        assert pins == {"st-1": "fail", "st-2": "fail"}, before
        st1_line = next(line for line in before.splitlines() if line.startswith("st-1:"))
        st2_line = next(line for line in before.splitlines() if line.startswith("st-2:"))
        assert "podle starých pravidel" in st1_line, before
        assert "PIN rozhodčího není nastaven" in st2_line, before

        done = _run([str(BIN / "hub"), "pin", "set"], hub.data, input=f"{PIN}\n")
        assert done.returncode == 0, done.stderr
        assert "st-1" in done.stdout and "st-2" in done.stdout
        wait_for(lambda: verify_pin(PIN, _held(st1)) and verify_pin(PIN, _held(st2)), 30)
        assert _held(st1).split("$")[4] != _held(st2).split("$")[4]  # own salt each

        after, pins = _rehearse(hub)
        assert pins == {"st-1": "ok", "st-2": "ok"}, after
        assert "PIN rozhodčího není nastaven" not in after
        assert "podle starých pravidel" not in after

        # too short: refused in the operator's language, nothing sent
        short = _run([str(BIN / "hub"), "pin", "set"], hub.data, input="4826\n")
        assert short.returncode == 2 and "alespoň 6 znaků" in short.stderr
        assert verify_pin(PIN, _held(st1))

        # a PIN for each station: what cracking one copied card gives opens that one only
        each = _run([str(BIN / "hub"), "pin", "set", "--per-station"], hub.data)
        assert each.returncode == 0, each.stderr
        assert "Každá stanice má jiný PIN" in each.stdout
        shown = dict(line.split() for line in each.stdout.splitlines() if line.startswith("  st-"))
        assert set(shown) == {"st-1", "st-2"} and shown["st-1"] != shown["st-2"]
        assert all(len(pin) == 6 and pin.isdigit() for pin in shown.values())
        wait_for(lambda: verify_pin(shown["st-1"], _held(st1)), 30)
        wait_for(lambda: verify_pin(shown["st-2"], _held(st2)), 30)
        assert not verify_pin(shown["st-1"], _held(st2))
        assert not verify_pin(shown["st-2"], _held(st1))
        assert not verify_pin(PIN, _held(st1))  # the hall-wide one is replaced

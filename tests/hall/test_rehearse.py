"""``hub rehearse`` on real processes: ``hub serve`` and two ``station daemon``s on
127.0.0.1, the keyboard answered with ``station rehearse type`` (one keyboard whose dead
keys lose ď and ť), then the stored record, ``hub rehearse show`` and the A4 page."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
from pathlib import Path

import pytest
from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.hub import rehearse
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService

ALL = "ěščřžýáíéúůďťň"
DEAD_KEYS = "ěščřžýáíéúůň"  # ď and ť are dead keys (caron) on a Czech layout


def _run(args: list[str], data: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data)}
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=90, **kw)


@pytest.fixture
def hall(tmp_path: Path, small_lexicon_path: Path):
    hub = Hub(tmp_path / "hub")
    hub.data.mkdir(parents=True)
    players = tmp_path / "players.csv"
    players.write_text(sample_csv(64, 3), encoding="utf-8")
    for cmd in (
        ["tournament", "init", "--name", "Zkouška sálu", "--rounds", "9"],
        ["players", "import", str(players)],
    ):
        out = _run([str(BIN / "hub"), *cmd], hub.data)
        assert out.returncode == 0, out.stderr
    hub.start()
    # the hub's own lexicon: what the stations' must equal
    _push_lexicon(hub, small_lexicon_path)
    stations = [
        Station(tmp_path / "st-1", hub, "st-1", skew=0.25),
        Station(tmp_path / "st-2", hub, "st-2", skew=-0.4),
    ]
    with running(hub, *stations):
        for st in stations:
            st.start()
        wait_for(
            lambda: all(
                (r := _status(hub, st.station_id)) and r.get("lexicon_sha256") for st in stations
            ),
            60,
            "both stations connected with the pushed lexicon",
        )
        yield hub, stations


def _push_lexicon(hub: Hub, lexicon: Path) -> None:
    """``hub push-lexicon FILE`` as one control request. (The command itself passes the
    file as ``path=``, which ``hub.control.request`` takes for the socket path.)"""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.settimeout(30)
        sock.connect(str(hub.data / "hub.sock"))
        sock.sendall(json.dumps({"op": "push_lexicon", "path": str(lexicon)}).encode() + b"\n")
        reply = json.loads(sock.makefile().readline())
    assert reply["ok"], reply


def _status(hub: Hub, station: str) -> dict[str, object] | None:
    for row in HubService(hub.data).stations().rows:
        if row.station_id == station and row.online and row.clock_synced:
            return {"lexicon_sha256": row.lexicon_ok and row.lexicon_sha256}
    return None


def test_rehearse_real_hall(hall: tuple[Hub, list[Station]], tmp_path: Path) -> None:
    hub, (st1, st2) = hall
    # the referee PIN is set on st-1 only
    out = _run([str(BIN / "station"), "pin", "set"], st1.data, input="482648\n")
    assert out.returncode == 0, out.stderr
    page = tmp_path / "rehearsal.html"
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(hub.data)}
    proc = subprocess.Popen(
        # the daemons' buttons are mock pins in other processes: nobody can press them here
        # (test_rehearse_runtime.py presses one)
        [str(BIN / "hub"), "rehearse", "--wait", "20", "--no-button", "--html", str(page)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for st, typed in ((st1, ALL), (st2, DEAD_KEYS)):
            answer = _run(
                [str(BIN / "station"), "rehearse", "type", "--text", typed, "--wait", "30"],
                st.data,
            )
            assert answer.returncode == 0, answer.stderr
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
    # st-2 loses ď and ť and has no PIN: the hall is not ready
    assert proc.returncode == 1, err
    lines = out.splitlines()
    st1_line = next(line for line in lines if line.startswith("st-1:"))
    st2_line = next(line for line in lines if line.startswith("st-2:"))
    assert st1_line.startswith("st-1: PŘIPRAVENA"), out
    assert "NEPŘIPRAVENA" in st2_line and "nedošla písmena: ď ť" in st2_line, out
    assert "PIN rozhodčího není nastaven" in st2_line
    assert "Počet stanic (ČAS 15.8e): hráčů 64, potřeba 2; připraveno 1, připojeno 2" in out
    assert "Rozptyl gongu:" in out and "(2)" in out
    assert "slovník shodný s hubem" in out

    # kept with the tournament: the same verdicts, the measured figures
    stored = rehearse.load(HubService(hub.data))
    assert stored is not None and not stored.go
    by_id = {s.station_id: s for s in stored.stations}
    assert by_id["st-1"].go and by_id["st-1"].missing == ""
    assert by_id["st-2"].missing == "ďť"
    assert stored.spread is not None and stored.spread >= 0  # figure only: a busy machine
    assert by_id["st-1"].late is not None and by_id["st-2"].late is not None
    # each station measured its bell in hub time though its wall clock is off
    clocks = {s.station_id: next(c for c in s.checks if c.key == "clock") for s in stored.stations}
    for sid, skew in (("st-1", 0.25), ("st-2", -0.4)):
        found = re.search(r"odchylka ([-+][\d,]+) ms, nejistota ±([\d,]+) ms", clocks[sid].text)
        assert found, clocks[sid].text
        offset, unc = (float(g.replace(",", ".")) for g in found.groups())
        # NTP: the true offset lies within half the round trip of the estimate
        assert abs(offset - (-skew * 1000)) <= unc + 1.0, clocks[sid].text

    shown = _run([str(BIN / "hub"), "rehearse", "show"], hub.data)
    assert shown.returncode == 1 and shown.stdout == out.split("Uloženo:")[0].rstrip() + "\n"
    listed = _run([str(BIN / "hub"), "rehearse", "list"], hub.data)
    assert stored.id in listed.stdout and "NEPŘIPRAVENA" in listed.stdout

    text = page.read_text(encoding="utf-8")
    assert "size: A4" in text and "<h2>Protokol o zkoušce sálu</h2>" in text
    assert "Zkouška sálu" in text  # the event, in every printed page's header
    assert "SÁL NENÍ PŘIPRAVEN" in text and "nedošla písmena: ď ť" in text
    assert "Hlavní rozhodčí" in text


def test_rehearse_without_answers_is_no_go(hall: tuple[Hub, list[Station]]) -> None:
    """Nobody types the test line: the keyboard is no-go on both, after the wait."""
    hub, (_st1, st2) = hall
    st2.kill()  # and one station loses power before the check
    wait_for(lambda: not _status(hub, "st-2"), 40, "the hub noticing st-2 is gone")
    # a station that never answers costs the --wait, not a hang (_run's timeout guards)
    out = _run([str(BIN / "hub"), "rehearse", "--wait", "2", "--no-button"], hub.data)
    assert out.returncode == 1, out.stderr
    assert "st-1: NEPŘIPRAVENA — zkušební řádek nikdo nenapsal" in out.stdout
    assert "st-2: NEPŘIPRAVENA — není připojena k hubu" in out.stdout
    assert "připraveno 0, připojeno 1" in out.stdout

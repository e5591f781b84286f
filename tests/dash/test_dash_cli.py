"""The dashboard's actions as ``hub`` subcommands (the operator's scripting contract), run
through ``hub.cli.main`` on a real hub database."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from dash_testkit import check, deliver, station_store

from samoobsluha.hub.cli import main
from samoobsluha.hub.sample import sample_players
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sample_players_are_fixed_by_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sample-players", "--count", "32", "--seed", "2026")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["jméno", "klub", "rating"] and len(rows) == 33
    assert len({r[0] for r in rows[1:]}) == 32  # distinct names
    assert sample_players(32, 2026) == sample_players(32, 2026)
    assert sample_players(32, 2026) != sample_players(32, 2027)
    assert any(ch in out for ch in "čřžšěůňťď")  # Czech and Slovak names


def test_enter_echoes_and_overview_lists_tables(
    service: HubService, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "enter", "1", "1 412 389", "2 300 350 2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("1: ") and "412 – 389" in lines[0]
    assert any("varování" in line and "začínal" in line for line in lines)
    code, _, err = run(capsys, "enter", "1", "1 100 200")
    assert code == 2 and "výsledek už zapsal operátor; změňte ho opravou" in err
    code, out, _ = run(capsys, "enter", "1", "1 100 200", "--correct")
    assert code == 0 and "opraveno" in out
    code, _, err = run(capsys, "enter", "1", "12 abc")
    assert code == 2 and "jen čísla" in err  # the CLI speaks the catalogue (cs by default)
    code, out, _ = run(capsys, "overview", "1")
    assert code == 0
    assert out.splitlines()[0] == "Kolo 1: zapsáno 2, čeká 0, chybí 2, rozpor 0, spor 0"


def test_challenges_mark_appeal_penalties_requests(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    small_lexicon_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    for i in range(3):
        check(st, lexicon, ["kůň"], 2, clock.now() + i)
    st.record_refusal(table_no=2, round_no=1, reason="rate_cap", at=clock.now() + 5)
    deliver(service, st, clock.now())
    code, out, _ = run(capsys, "challenges", "--table", "2")
    keys = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and len(keys) == 4
    for key in keys[1:]:
        assert run(capsys, "challenges", "mark", key, "2")[0] == 0
    code, out, _ = run(capsys, "challenges", "penalties")
    assert "neoprávněné námitky: 3, pokuta 20" in out
    code, out, _ = run(capsys, "challenges", "appeal", keys[1], "invalid")
    assert code == 0 and out == f"{keys[1]}: odvolání – NEPLATNÉ\n"
    assert "pokuta 0" in run(capsys, "challenges", "penalties")[1]
    code, out, _ = run(capsys, "challenges", "requests")
    [request] = out.splitlines()
    assert "ČEKÁ" in request and "limit kontrol" in request
    assert run(capsys, "challenges", "ack", request.split()[0])[0] == 0
    assert run(capsys, "challenges", "requests")[1] == ""
    code, _, err = run(capsys, "challenges", "mark", "no/such/1", "1")
    assert code == 2 and err == "hub: kontrola no/such/1 neexistuje\n"


def test_hall_exit_code_follows_cas_15_8e(
    service: HubService, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "hall")
    assert code == 1 and "je potřeba 1 stanice (ČAS 15.8e); online 0 z 0" in out


def test_schedule_show_and_set(service: HubService, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schedule")
    assert code == 0 and out.splitlines()[0] == "09:00-09:45  kolo 1"
    code, out, _ = run(
        capsys,
        "schedule",
        "--set",
        "first_start=10:00",
        "--set",
        "rounds=2",
        "--set",
        "lunch_after=none",
    )
    assert out.splitlines() == [
        "10:00-10:45  kolo 1",
        "10:45-10:55  přestávka",
        "10:55-11:40  kolo 2",
    ]
    code, _, err = run(capsys, "schedule", "start", "1")  # 10:00 on the real clock
    assert code == 2 and ("server hubu neběží" in err or "Ten čas už minul" in err)
    code, _, err = run(capsys, "schedule", "start", "1", "--at", "25:61")
    assert code == 2 and err == "hub: „25:61“ není čas (HH:MM).\n"


def test_network_commands_need_the_running_hub(
    service: HubService, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "publish-pairings", "1")
    assert code == 2 and "server hubu neběží" in err
    # publishing a round needs its results, not the server (stations get them later)
    code, _, err = run(capsys, "publish-round", "1")
    assert code == 2 and "bez shodného výsledku" in err

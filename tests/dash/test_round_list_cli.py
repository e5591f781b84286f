"""``hub round list`` as a table with local times, and ``--at HH:MM`` for ``hub round
start`` (epoch seconds still work for scripts)."""

from __future__ import annotations

import time

import pytest

from samoobsluha.hub.commands.round_list import AtError, parse_at, render_rounds
from samoobsluha.shared.i18n import error_text
from samoobsluha.shared.rounds import RoundPlan

T0 = 1_767_258_000.0  # 2026-01-01 09:00 UTC (the dashboard tests pin TZ=UTC)


def test_at_takes_a_local_time_today_or_epoch_seconds() -> None:
    assert time.strftime("%H:%M", time.localtime(T0)) == "09:00"
    assert parse_at("09:30", T0) == T0 + 30 * 60
    assert parse_at("9:30", T0) == T0 + 30 * 60
    assert parse_at("09:30:15", T0) == T0 + 30 * 60 + 15
    assert parse_at(" 23:59 ", T0) == T0 + 14 * 3600 + 59 * 60
    assert parse_at(str(T0 + 7), T0) == T0 + 7  # epoch seconds, as scripts pass them
    for bad in ("9.30", "25:00", "12:60", "abc", "", "100", "nan", "-5"):
        with pytest.raises(AtError) as exc:
            parse_at(bad, T0)
        assert "není čas" in error_text(exc.value, "cs"), bad
    with pytest.raises(AtError) as exc:
        parse_at("08:59", T0)
    assert error_text(exc.value, "cs") == "čas 08:59:00 už dnes minul"
    assert error_text(exc.value, "sk") == "čas 08:59:00 už dnes uplynul"
    with pytest.raises(AtError):
        parse_at(str(T0 - 1), T0)


def test_round_list_is_a_table_with_local_times() -> None:
    first = RoundPlan(1, T0 - 3000, basic_seconds=2400, warning_seconds=600)
    again = first.restarted(T0 - 600)
    second = RoundPlan(2, T0 + 3600, basic_seconds=2400, warning_seconds=600)
    rows = [
        {"plan": again.to_dict(), "phase": "running", "remaining": 1800.0},
        {"plan": second.to_dict(), "phase": "scheduled", "remaining": 3600.0},
    ]
    text = render_rounds(rows, "cs", T0)
    lines = text.splitlines()
    assert lines[0].split() == ["Kolo", "Fáze", "Start", "Konec", "Zbývá", "Revize"]
    assert lines[1].split()[:6] == ["1", "HRAJE", "SE", "08:50:00", "09:30:00", "30:00"]
    assert lines[1].endswith("1 · spuštěno znovu (1×)")
    assert lines[2].split()[:6] == ["2", "START", "ZA", "10:00:00", "10:40:00", "1:00:00"]
    assert "1767" not in text  # no epoch seconds on the operator's screen
    assert render_rounds([], "sk", T0) == "Žiadne kolo nie je naplánované.\n"
    assert render_rounds(rows, "en", T0).splitlines()[0].split()[0] == "Round"


def test_round_list_reads_the_hubs_database_when_the_server_is_down(
    data_dir, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hub's laptop was restarted mid-round and `hub serve` is not up yet: the operator
    still sees the round the stations were sent (from hub.db), and is told where from."""
    import json

    from samoobsluha.hub import store
    from samoobsluha.hub.cli import main as hub_main
    from samoobsluha.shared.storage import open_db

    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    now = time.time()
    db = open_db(store.db_path(), store.migrations)
    store.save_plan(db, RoundPlan(3, now - 600, basic_seconds=2400, warning_seconds=600), now)
    db.close()
    assert hub_main(["round", "list", "--json"]) == 0
    out = capsys.readouterr()
    (row,) = json.loads(out.out)
    assert row["plan"]["number"] == 3 and row["phase"] == "running"
    assert 1790 < row["remaining"] <= 1800
    assert f"The hub is not running: the rounds as stored in {store.db_path()}" in out.err
    assert hub_main(["round", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[0] == "3"


def test_round_list_without_a_hub_or_its_database_says_the_hub_is_not_running(
    data_dir, capsys: pytest.CaptureFixture[str]
) -> None:
    from samoobsluha.hub.cli import main as hub_main

    with pytest.raises(SystemExit) as exc:
        hub_main(["round", "list"])
    assert exc.value.code == 2
    assert "hub.sock" in capsys.readouterr().err

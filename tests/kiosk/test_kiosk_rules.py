"""The kiosk's rules without a terminal, the `station pin` command, and one check against
the real Czech lexicon."""

from __future__ import annotations

import io
import sys

import pytest
from kiosk_pilot import settle, start_check, type_text

from samoobsluha.shared.lexicon import Lexicon, Status
from samoobsluha.station.checks import (
    KioskSettings,
    Limit,
    SettingsError,
    format_tables,
    hash_pin,
    parse_tables,
    pin_gate,
    rate_decision,
    verify_pin,
)
from samoobsluha.station.cli import main
from samoobsluha.station.log import KioskStore


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("1-100", set(range(1, 101))),
        ("1-3, 7", {1, 2, 3, 7}),
        (4, {1, 2, 3, 4}),
        ([1, "5-6"], {1, 5, 6}),
    ],
)
def test_parse_tables(spec, expected):
    assert parse_tables(spec) == frozenset(expected)


@pytest.mark.parametrize("spec", ["", "0-3", "5-2", "a", True, 0])
def test_parse_tables_refuses(spec):
    with pytest.raises(SettingsError):
        parse_tables(spec)


def test_format_tables_round_trips():
    assert format_tables(parse_tables("1-40, 51-60, 70")) == "1-40, 51-60, 70"


def test_settings_refuse_unknown_keys_and_types():
    with pytest.raises(SettingsError, match="unknown"):
        KioskSettings.from_section({"tabels": "1-4"})
    with pytest.raises(SettingsError, match="min_interval"):
        KioskSettings.from_section({"min_interval": "20"})
    s = KioskSettings.from_section({"tables": "1-8", "show_failed_words": True, "min_interval": 5})
    assert s.tables == frozenset(range(1, 9)) and s.show_failed_words and s.min_interval == 5.0


def test_rate_decision():
    s = KioskSettings(min_interval=20, max_checks_per_round=3)
    assert rate_decision(s, now=100, last_at=None, used=0).allowed
    d = rate_decision(s, now=100, last_at=95, used=1)
    assert (d.allowed, d.limit, d.wait) == (False, Limit.INTERVAL, 15)
    assert rate_decision(s, now=100, last_at=80, used=1).allowed
    assert rate_decision(s, now=100, last_at=500, used=1).allowed  # clock jumped back
    assert rate_decision(s, now=100, last_at=None, used=3).limit is Limit.CAP


def test_pin_hash_is_salted_and_verifies():
    a, b = hash_pin("4711"), hash_pin("4711")
    assert a != b and verify_pin("4711", a) and verify_pin("4711", b)
    assert not verify_pin("4712", a) and not verify_pin("4711", "garbage")
    with pytest.raises(SettingsError):
        hash_pin("12")


def test_pin_gate_delays_then_locks():
    s = KioskSettings(pin_free_attempts=3, pin_delay=2, pin_lockout=60)
    assert pin_gate(s, failures=0, last_failure_at=None, now=0).open
    g = pin_gate(s, failures=2, last_failure_at=100, now=101)
    assert not g.open and not g.locked_out and g.wait == 3
    g = pin_gate(s, failures=3, last_failure_at=100, now=130)
    assert g.locked_out and g.wait == 30
    assert pin_gate(s, failures=4, last_failure_at=100, now=200).wait == 20  # 120 s now
    assert pin_gate(s, failures=3, last_failure_at=100, now=161).open


def test_station_pin_set_from_stdin(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path))
    monkeypatch.setenv("SAMOOBSLUHA_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    monkeypatch.setattr(sys, "stdin", io.StringIO("2468\n"))
    assert main(["pin", "set"]) == 0
    store = KioskStore.open(tmp_path / "station.db", "x")
    try:
        assert verify_pin("2468", store.setting("referee_pin_hash"))
    finally:
        store.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    assert main(["pin", "set"]) == 2


@pytest.mark.slow
async def test_real_czech_lexicon_check(real_czech_lexicon, make_app, store):
    app = make_app(lexicon=Lexicon.open(real_czech_lexicon))
    async with app.run_test(size=(80, 24)) as pilot:
        await start_check(pilot, "3", "2")
        await type_text(pilot, "kočka ž(l)utý")
        await pilot.press("enter", "f10")
        await settle(pilot)
        assert app.screen.verdict.status is Status.VALID
    assert store.recent()[0]["lexicon_variant"] == "HUNSPELL"


def test_station_run_refuses_a_bad_kiosk_section(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path))
    config = tmp_path / "station.toml"
    config.write_text('[kiosk]\ntables = "5-1"\n')
    assert main(["run", "--config", str(config), "--lexicon", str(tmp_path / "x.lex")]) == 2
    assert "tables" in capsys.readouterr().err

"""The kiosk's rules without a terminal, the `station pin` command, and one check against
the real Czech lexicon."""

from __future__ import annotations

import io
import sys

import pytest
from kiosk_pilot import settle, start_check, type_text

from samoobsluha.shared.checks import (
    PIN_WAIT_CAP,
    KioskSettings,
    Limit,
    PinError,
    PinLock,
    RateState,
    SettingsError,
    format_tables,
    hash_pin,
    parse_tables,
    pin_gate,
    pin_wait,
    rate_decision,
    verify_pin,
)
from samoobsluha.shared.lexicon import Lexicon, Status
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
    a, b = hash_pin("471147"), hash_pin("471147")
    assert a != b and verify_pin("471147", a) and verify_pin("471147", b)
    assert not verify_pin("471148", a) and not verify_pin("471147", "garbage")
    with pytest.raises(PinError):
        hash_pin("12")


def test_pin_gate_delays_then_locks():
    s = KioskSettings(pin_free_attempts=3, pin_delay=2, pin_lockout=60)
    assert pin_gate(s, PinLock(), boot="b", mono=0).open
    lock = PinLock().failed(s, "b", 100).failed(s, "b", 100)
    g = pin_gate(s, lock, boot="b", mono=101)
    assert not g.open and not g.locked_out and g.wait == 3
    lock = lock.failed(s, "b", 100)
    g = pin_gate(s, lock, boot="b", mono=130)
    assert g.locked_out and g.wait == 30
    assert pin_gate(s, lock.failed(s, "b", 100), boot="b", mono=200).wait == 20  # 120 s now
    assert pin_gate(s, lock, boot="b", mono=161).open
    # the monotonic clock never runs back; if a stored value is ahead, nothing is gained
    assert pin_gate(s, lock, boot="b", mono=50).wait == 60


def test_pin_wait_is_capped_after_thousands_of_failures():
    s = KioskSettings(pin_free_attempts=3, pin_lockout=60)
    lock = PinLock()
    for _ in range(2000):
        lock = lock.failed(s, "b", 0.0)
    assert lock.failures == 2000
    assert pin_wait(s, 10**9) == (PIN_WAIT_CAP, True)
    assert pin_gate(s, lock, boot="b", mono=10.0).wait == PIN_WAIT_CAP - 10
    assert PinLock.from_json(lock.to_json()) == lock
    assert PinLock.from_json("garbage") == PinLock()


def test_pin_lock_after_a_reboot_counts_the_rest_from_the_first_look():
    s = KioskSettings(pin_free_attempts=1, pin_lockout=60)
    lock = PinLock().failed(s, "boot-1", 1000.0)
    assert lock.left("boot-1", 1040.0) == 20
    again = lock.rebased("boot-2", 5.0)  # after a reboot the monotonic clock is small
    assert again.left("boot-2", 5.0) == 60 and again.left("boot-2", 66.0) == 0


def test_station_wide_rate_limits():
    s = KioskSettings(min_interval=20, station_min_interval=6, station_max_checks_per_round=10)
    fresh_table = RateState(last_at=None, used=0, station_last_at=98.0, station_used=3)
    d = rate_decision(s, now=100, state=fresh_table)
    assert (d.allowed, d.limit, d.wait) == (False, Limit.STATION_INTERVAL, 4)
    assert rate_decision(s, now=105, state=fresh_table).allowed
    full = RateState(station_last_at=0.0, station_used=10)
    assert rate_decision(s, now=100, state=full).limit is Limit.STATION_CAP


def test_station_pin_set_from_stdin(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path))
    monkeypatch.setenv("SAMOOBSLUHA_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    monkeypatch.setattr(sys, "stdin", io.StringIO("246824\n"))
    assert main(["pin", "set"]) == 0
    store = KioskStore.open(tmp_path / "station.db", "x")
    try:
        assert verify_pin("246824", store.setting("referee_pin_hash"))
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

"""``./dev demo`` without a terminal: the setup (real Czech lexicon, 32 sample players,
round 1 paired, station configs) and the background hall it starts (hub serve, a station
daemon and its simulated players), stopped again."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import samoobsluha.hub.demo as demo
from samoobsluha.hub.service import HubService
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.protocol import StationKey
from samoobsluha.station import config as station_config
from samoobsluha.station.sync import NetworkConfig


@pytest.fixture
def demo_dir(monkeypatch: pytest.MonkeyPatch, cs_lexicon_path: Path) -> Iterator[Path]:
    root = Path(tempfile.mkdtemp(prefix="demo"))  # short: the control socket lives here
    monkeypatch.setattr(demo, "DEMO", root)
    monkeypatch.setattr(demo, "HUB", root / "hub")
    (root / "hub" / "lexicons").mkdir(parents=True)
    shutil.copyfile(cs_lexicon_path, root / "hub" / "lexicons" / "cs.lex")  # no rebuild
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
def test_demo_sets_up_a_hall_and_its_simulated_station_reaches_the_hub(
    demo_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = demo.setup(fresh=True)
    svc = HubService(demo_dir / "hub")
    settings = svc.info()
    assert (settings["name"], settings["players"], settings["checked_in"]) == (
        "Ukázkový turnaj",
        32,
        32,
    )
    rows, _ = svc.pairing_table(1)
    assert len(rows) == 16
    assert svc.schedule_settings()["basic_minutes"] == 5
    for name in demo.STATIONS:
        cfg = station_config.load(demo_dir / name / "station.toml")
        net = NetworkConfig.from_config(cfg)
        assert (cfg.name, net.station_id) == (name, name)
        assert net.hub == f"127.0.0.1:{info['port']}"
        # each station has its own derived key, as a provisioned card: never the hall secret
        key = net.psk()
        assert isinstance(key, StationKey) and key.station == name
        assert net.psk_file.stat().st_mode & 0o777 == 0o600
        # its own copy of the hub's lexicon, as on a card: a pushed lexicon replaces
        # the station's file, never the hub's or the other station's
        assert cfg.lexicon == demo_dir / name / "lexicons" / "cs.lex"
        hub_lexicon = demo_dir / "hub" / "lexicons" / "cs.lex"
        assert cfg.lexicon.read_bytes() == hub_lexicon.read_bytes()
    procs = demo.start_background(info["port"], info["screen_port"])
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            checks = svc.challenges() if svc.server_running() else []
            if checks:
                break
            time.sleep(0.2)
        assert checks and checks[0].station == "st-2"
        assert checks[0].variant  # judged by the real lexicon
        assert svc.stations().online == 1
        # the hall screen shows the published round 1 at the address the demo prints
        url = f"http://127.0.0.1:{info['screen_port']}/snapshot.json"
        while time.monotonic() < deadline + 30:
            with urllib.request.urlopen(url, timeout=10) as resp:
                snap = json.loads(resp.read())
            if snap["round"] == 1:
                break
            time.sleep(0.2)
        assert snap["round"] == 1 and len(snap["tables"]) == 16
        # the hub sent the demo's referee PIN, which the demo prints: F12 opens the
        # referee screen and the hall check finds the stations ready
        from samoobsluha.shared.pin import verify_pin
        from samoobsluha.station.log import KioskStore

        store = KioskStore.open(demo_dir / "st-2" / "station.db", "st-2")
        try:
            while not (stored := store.referee_pin(now=time.time())):
                assert time.monotonic() < deadline + 30, "no referee PIN reached st-2"
                time.sleep(0.2)
        finally:
            store.close()
        assert verify_pin(demo.DEMO_PIN, stored) and not verify_pin("123456", stored)
    finally:
        demo.stop(procs)
    assert all(p.poll() is not None for p in procs)


@pytest.mark.slow
def test_the_polish_demo_is_a_pfs_event_of_120_players(
    monkeypatch: pytest.MonkeyPatch, pl_lexicon_path: Path
) -> None:
    """``./dev demo --lang pl``: 120 Polish players, PFS rules (round 1 by ranking), the real
    Polish lexicon on both stations, every screen set to Polish, and the simulated station's
    checks judged by that lexicon."""
    root = Path(tempfile.mkdtemp(prefix="demo"))
    monkeypatch.setattr(demo, "DEMO", root)
    monkeypatch.setattr(demo, "HUB", root / "hub")
    (root / "hub" / "lexicons").mkdir(parents=True)
    shutil.copyfile(pl_lexicon_path, root / "hub" / "lexicons" / "pl.lex")  # no rebuild
    try:
        info = demo.setup(fresh=True, event=demo.Event("pl"))
        svc = HubService(root / "hub")
        settings = svc.info()
        assert (settings["name"], settings["players"], settings["checked_in"]) == (
            "Turniej pokazowy PFS",
            120,
            120,
        )
        assert settings["rules"] == "pfs"
        rows, _ = svc.pairing_table(1)
        assert len(rows) == 60
        with svc._tour() as tour:
            assert tour.pairing(1).method == "rating"
            names = [p.name for p in tour.players()]
        assert any(ch in "".join(names) for ch in "ąćęłńóśźż")
        for name in demo.STATIONS:
            cfg = station_config.load(root / name / "station.toml")
            assert cfg.ui_language == "pl"
            assert cfg.lexicon == root / name / "lexicons" / "pl.lex"
            # the real one: the lexicon built from hunspell-pl, word for word
            assert cfg.lexicon.read_bytes() == pl_lexicon_path.read_bytes()
            lex = Lexicon.open(cfg.lexicon, language="pl")
            assert lex.contains("źdźbło") and not lex.contains("qxzw") and len(lex) > 2_600_000
        assert 'lang = "pl"' in (root / "hub" / "hub.toml").read_text(encoding="utf-8")
        assert "--lang pl" in demo.dashboard_command("pl")
        procs = demo.start_background(info["port"], info["screen_port"])
        try:
            deadline = time.monotonic() + 60
            checks = []
            while time.monotonic() < deadline:
                checks = svc.challenges() if svc.server_running() else []
                if checks:
                    break
                time.sleep(0.2)
            assert checks and checks[0].station == "st-2"
            from samoobsluha.station.simulate import POLISH_PLAYS

            polish = {w.lower() for play in POLISH_PLAYS for w in play} | {"rekin", "żółw"}
            assert {w.lower() for w in checks[0].words} <= polish, checks[0].words
        finally:
            demo.stop(procs)
    finally:
        shutil.rmtree(root, ignore_errors=True)

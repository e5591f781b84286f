"""A receipt code for every verdict: made at the station with the key its link
authenticates with, checked by the hub (``hub verify CODE``) after the real link carried
the check over — a changed code, or one made with another station's key, is not genuine."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.receipt import ALPHABET, format_code, parse_code
from samoobsluha.station.log import KioskStore
from samoobsluha.station.sync import NetworkConfig, StationSync


def _kiosk(folder: Path, station: str, key_file: Path, tournament: str) -> KioskStore:
    """The kiosk's store with the receipt key the station's link derives from its card's
    key file (what StationRuntime wires into the kiosk)."""
    db = folder / "station.db"
    store = KioskStore.open(db, station)
    net = NetworkConfig(tournament_id=tournament, psk_file=key_file, station_id=station)
    sync = StationSync(db, net)
    store.receipts = sync.receipt_key()
    sync.dbw.close()
    return store


def _verify(hub: Hub, code: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**hub.env, "SAMOOBSLUHA_LANG": "cs"}
    return subprocess.run(
        [str(BIN / "hub"), "verify", code, *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _changed(code: str) -> str:
    """The code with its last character replaced by another one."""
    last = ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    return code[:-1] + last


def test_a_receipt_verifies_at_the_hub_and_a_changed_one_does_not(
    tmp_path: Path, cs_lexicon_path: Path
) -> None:
    hub = Hub(tmp_path / "hub").start()
    with running(hub):
        key_file = hub.issue_key("st-1", tmp_path / "st-1.key")
        folder = tmp_path / "st-1"
        folder.mkdir()
        store = _kiosk(folder, "st-1", key_file, hub.tournament)
        lexicon = Lexicon.open(cs_lexicon_path)
        at = time.time()
        valid = store.record_check(
            lexicon.judge(prepare_words(["žir(a)fa", "c+a-p"], lexicon.alphabet)),
            lexicon.info,
            table_no=7,
            round_no=2,
            at=at,
        )
        invalid = store.record_check(
            lexicon.judge(prepare_words(["rec(i)e"], lexicon.alphabet)),
            lexicon.info,
            table_no=7,
            round_no=2,
            at=at + 30,
        )
        store.close()
        assert valid.receipt and invalid.receipt and valid.receipt != invalid.receipt
        assert parse_code(format_code(valid.receipt)) == valid.receipt

        # the real link carries the checks to the hub
        station = Station(folder, hub, "st-1", key_file=key_file).start()
        with running(station):
            wait_for(lambda: hub.count("st-1") >= 2, what="the checks at the hub")

        # as a player wrote it on his scoresheet: lower case, a dash, O for 0
        written = format_code(valid.receipt).lower().replace("0", "o")
        out = _verify(hub, written)
        assert out.returncode == 0, out.stdout + out.stderr
        lines = out.stdout.splitlines()
        assert lines[0] == f"Kód kontroly {format_code(valid.receipt)} je pravý:"
        assert lines[1].startswith("stanice st-1 · stůl 7 · kolo 2 · ")
        assert time.strftime("%H:%M:%S", time.localtime(at)) in lines[1]
        assert lines[2] == "slova: ŽIR(A)FA ČÁP"
        assert lines[3] == f"slovník: {lexicon.info.variant} (sha256 {lexicon.info.sha256})"
        assert lines[4] == "výsledek kontroly: PLATNÉ"

        out = _verify(hub, invalid.receipt, "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert (data["words"], data["verdict"], data["table_no"]) == (["REC(I)E"], "invalid", 7)

        # one character changed: no check has that code
        for code in (_changed(valid.receipt), _changed(invalid.receipt)):
            out = _verify(hub, code)
            assert out.returncode == 1, out.stdout
            assert "není pravý" in out.stdout
        # not a code at all: refused, with what a code looks like
        out = _verify(hub, "ABC")
        assert out.returncode == 2 and "není kód kontroly" in out.stderr


def test_a_code_made_with_another_stations_key_is_not_genuine(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    """A copied card's key signs for its own station only: a receipt made under st-2's
    key for a check that st-1 logged (same row, same words) matches nothing."""
    hub = Hub(tmp_path / "hub").start()
    with running(hub):
        key1 = hub.issue_key("st-1", tmp_path / "st-1.key")
        key2 = hub.issue_key("st-2", tmp_path / "st-2.key")
        folder = tmp_path / "st-1"
        folder.mkdir()
        store = _kiosk(folder, "st-1", key1, hub.tournament)
        lexicon = Lexicon.open(small_lexicon_path)
        verdict = lexicon.judge(prepare_words(["kůň"], lexicon.alphabet))
        record = store.record_check(verdict, lexicon.info, table_no=3, round_no=1, at=time.time())
        payload = json.loads(
            store.db.execute("SELECT payload FROM outbox ORDER BY seq DESC LIMIT 1").fetchone()[0]
        )
        other = _kiosk(tmp_path / "st-2", "st-2", key2, hub.tournament).receipts
        store.close()
        assert other is not None
        forged = other.code(payload)
        assert forged != record.receipt
        station = Station(folder, hub, "st-1", key_file=key1).start()
        with running(station):
            wait_for(lambda: hub.count("st-1") >= 1, what="the check at the hub")
        assert _verify(hub, forged).returncode == 1
        assert _verify(hub, record.receipt).returncode == 0


@pytest.mark.parametrize("text", ["", "ABCDE-FGHJ", "ABCDE-FGHJU", "ABCDE-FGHJKX"])
def test_what_is_not_a_receipt_code(text: str) -> None:
    assert parse_code(text) is None


def test_no_tournament_key_cannot_tell(tmp_path: Path) -> None:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(tmp_path), "SAMOOBSLUHA_LANG": "en"}
    out = subprocess.run(
        [str(BIN / "hub"), "verify", "7KQ2M-X4D9A"], env=env, capture_output=True, text=True
    )
    assert out.returncode == 2 and "no tournament key" in out.stderr

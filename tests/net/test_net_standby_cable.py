"""The primary's network cable pulled instead of a kill (SIGSTOP: it neither answers nor
closes a connection), stations finding their hub by mDNS: after `hub takeover` the stations
leave the silent primary (the link's idle timeout) for the successor, which announces
itself under its new id. When the primary comes back (SIGCONT) both hubs see each other
(the old one's `hub stations` says TWO HUBS), and a station restarted then, finding both
by mDNS, goes to the successor, never to the retired hub. Real processes, mDNS on
127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from net_procs import Hub, Station, free_port, running, wait_for

BIN = Path(sys.executable).parent


def _connected(hub: Hub) -> set[str]:
    return {r["station_id"] for r in json.loads(hub.ctl("stations", "--json")) if r["connected"]}


def test_takeover_after_the_primarys_cable_is_pulled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    primary = Hub(tmp_path / "primary", mdns=True, standby_port=free_port()).start()
    stations = [Station(tmp_path / f"st{i}", primary, f"st{i}", use_mdns=True) for i in range(3)]
    data = tmp_path / "standby"
    data.mkdir()
    shutil.copyfile(primary.key_file, data / "tournament.key")
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data)}
    successor = Hub(data, mdns=True)
    with running(primary, *stations, successor):
        for i, st in enumerate(stations):
            st.enqueue(10, start=100 * i)
            st.start()
        wait_for(lambda: primary.count() == 30, 60, "30 rows at the primary")
        out = tmp_path / "standby.out"
        with open(out, "wb") as fh:
            follower = subprocess.Popen(
                [str(BIN / "hub"), "standby", "--primary", f"127.0.0.1:{primary.standby_port}",
                 "--tournament", primary.tournament],
                env=env, stdout=fh, stderr=subprocess.STDOUT,
            )  # fmt: skip
            try:
                wait_for(lambda: b"station records: 30" in out.read_bytes(), 60, "a copy")
            finally:
                follower.send_signal(signal.SIGTERM)
                follower.wait(10)
        assert primary.proc is not None
        primary.proc.send_signal(signal.SIGSTOP)  # the cable is pulled
        try:
            took = subprocess.run(
                [str(BIN / "hub"), "takeover"], env=env, capture_output=True, text=True,
                timeout=60,
            )  # fmt: skip
            assert took.returncode == 0, took.stderr
            successor.start()
            wait_for(lambda: _connected(successor) == {"st0", "st1", "st2"}, 90, "the move")
        finally:
            primary.proc.send_signal(signal.SIGCONT)  # the cable is back
        # both hubs see each other; a station restarted now finds both by mDNS and skips
        # the retired one (the handover it holds names the successor)
        wait_for(lambda: "TWO HUBS" in primary.ctl("stations"), 30, "the old hub warned")
        stations[0].stop()
        stations[0].start()
        wait_for(lambda: _connected(successor) == {"st0", "st1", "st2"}, 60, "st0 back")
        assert _connected(primary) == set()

"""A round started again, on real processes: ``hub serve`` and three ``station daemon``s
on 127.0.0.1 (gpiozero's mock pins). The referee's forced start gives a new start signal on
every connected station at the new start; a station that was away during the restart
follows the new plan when it comes back; without ``--force`` the hub refuses."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from net_procs import BIN, Hub, Station, running, wait_for


def _hub(hub: Hub, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "hub"), *args],
        env={**hub.env, "SAMOOBSLUHA_LANG": "en"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _starts(st: Station) -> list[float]:
    """The hub-clock instants at which ``st``'s bell rang the start pattern."""
    return [r["hub_time"] for r in st.rings() if r["signal"] == "start"]


def test_a_forced_restart_rings_a_new_start_on_every_station(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    stations = [Station(tmp_path / f"st{i}", hub, f"st{i}") for i in range(3)]
    away = stations[2]
    with running(hub, *stations):
        for st in stations:
            st.start()

        def connected(names: list[str]) -> bool:
            rows = json.loads(hub.ctl("stations", "--json"))
            up = {
                r["station_id"] for r in rows if r["connected"] and r["status"].get("clock_synced")
            }
            return set(names) <= up

        wait_for(lambda: connected([s.station_id for s in stations]), 60, "three synced stations")
        first = json.loads(hub.ctl("round", "start", "--json", "1", "--in", "2", "--basic", "600",
                                   "--warning", "60"))  # fmt: skip
        assert sorted(first["sent_to"]) == ["st0", "st1", "st2"]
        wait_for(lambda: all(len(_starts(st)) == 1 for st in stations), 30, "the first start")

        # the round is under way: a plain start is refused, naming why
        refused = _hub(hub, "round", "start", "1", "--in", "2")
        assert refused.returncode != 0
        assert "round 1" in refused.stderr.lower() and "--force" in refused.stderr, refused.stderr

        away.stop()  # st2 is off the link while the referee starts the round again
        wait_for(lambda: not connected(["st2"]), 30, "st2 gone")
        again = json.loads(hub.ctl("round", "start", "--json", "1", "--in", "12", "--basic", "600",
                                   "--warning", "60", "--force"))  # fmt: skip
        assert sorted(again["sent_to"]) == ["st0", "st1"]
        assert again["plan"]["epoch"] == 1 and again["plan"]["revision"] == 1
        away.start()  # back before the new start: it must take the new plan from the hub
        new_start = again["plan"]["start_at"]
        wait_for(lambda: all(len(_starts(st)) == 2 for st in stations), 60, "the new start")

        wait_for(lambda: len([r for r in hub.rows("signal")
                              if r["payload"]["signal"] == "start"]) == 6, 30,
                 "six start rows at the hub")  # fmt: skip
        starts = [r for r in hub.rows("signal") if r["payload"]["signal"] == "start"]
        for st in stations:
            mine = sorted(
                (r["payload"]["revision"], r["payload"]["outcome"], r["payload"]["scheduled_at"])
                for r in starts
                if r["station_id"] == st.station_id
            )
            assert [(rev, outcome) for rev, outcome, _ in mine] == [(0, "given"), (1, "given")]
            assert mine[1][2] == new_start
        # every bell's second start stroke sounded at the new start (hub time; the bound is
        # the grace a late signal may still ring in, not a speed target)
        for st in stations:
            ring = [r for r in st.rings() if r["signal"] == "start"][-1]
            assert ring["synced"] is True and abs(ring["hub_time"] - new_start) < 5.0, ring

        # the operator's view of it: a table with local times, the restart named
        listed = _hub(hub, "round", "list")
        assert listed.returncode == 0, listed.stderr
        head, row = listed.stdout.splitlines()
        assert head.split()[:2] == ["Round", "Phase"]
        assert row.split()[0] == "1" and "started again (1×)" in row
        assert time.strftime("%H:%M:%S", time.localtime(new_start)) in row
        assert json.loads(_hub(hub, "round", "list", "--json").stdout)[0]["plan"]["epoch"] == 1

"""No gong lost to a power blip: a hub and three station processes with skewed clocks; in
the middle of a round the hub is SIGKILLed and so is one station, which is started again
with no hub. The restarted station rings the remaining warning and end on the hub clock
it kept (station/sync.py, kept_clock), given, not missed, and not on its own skewed clock.

How close to the others it rings (the spread) is a figure of bench/restart_gong.py
(docs/benchmarks.md), not an assertion: a busy machine may delay a ring, never shift it
by a station's skew."""

from __future__ import annotations

from pathlib import Path

from net_procs import restart_with_the_hub_down

SKEWS = [4.0, -3.0, 0.0]  # station 0, the one restarted, runs 4 s fast
OFF_CLOCK = 1.0  # far below the skews and the 5 s grace


def test_a_station_restarted_with_the_hub_down_rings_the_rest_of_the_round(
    tmp_path: Path,
) -> None:
    plan, rings, stations = restart_with_the_hub_down(tmp_path, SKEWS)
    due = {
        "start": plan["start_at"],
        "warning": plan["start_at"] + plan["basic_seconds"] - plan["warning_seconds"],
        "end": plan["start_at"] + plan["basic_seconds"],
    }
    for i, own in enumerate(rings):
        assert [r["signal"] for r in own] == ["start", "warning", "end"], (i, own)
        for r in own:
            assert r["synced"] is True
            # rung at the hub's instant, by its bell: its own clock minus its skew
            assert abs(r["local_time"] - SKEWS[i] - due[r["signal"]]) <= OFF_CLOCK, (i, r)
    log = stations[0].log()
    assert "signals ring on the hub clock kept from before this start" in log
    assert "missed" not in log

"""What a hostile peer on the station link costs the hub: ``hub serve`` and three
``station daemon``s on 127.0.0.1, then each attack of the "hub no device can take down"
issue that goes through the station port, and the same measurements without an attack
in the same run (the baseline):

* ``rows``   a copied card streaming 1,000-row frames of junk without waiting for acks,
             reconnecting at once whenever it is dropped;
* ``valid``  the same with valid check rows (they are data: stored up to the budget);
* ``big``    a copied card sending 1 MB notes and 1 MB ``done`` details;
* ``slots``  silent connections from 8 addresses (127.0.0.2–9) holding every handshake
             slot, reopened as soon as the hub drops them.

Per run: the referee's ``stations`` call over the control socket (median and worst
answer, in s), a round start's lateness on the honest stations (ms: the bell's instant
against the plan's), a restarted station's time back (s), the hub's peak memory against
its idle size, hub.db growth (MB) and the hub's log lines.

    .venv/bin/python bench/hostile.py [--seconds 20] [--only rows,big]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import CopiedCard, Hub, Station, check_payload, running, silent_slots, wait_for

from samoobsluha.hub import control
from samoobsluha.shared import protocol


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


def db_mb(hub: Hub) -> float:
    return (
        sum(p.stat().st_size for p in hub.data.glob("hub.db*") if p.suffix != ".migrate-lock") / 1e6
    )


def _attack(kind: str, hub: Hub, tmp: Path) -> contextlib.AbstractContextManager[Any]:
    if kind == "idle":
        return contextlib.nullcontext()
    if kind == "slots":
        return silent_slots(hub.port)
    creds = protocol.StationKey.from_text(hub.issue_key("copied", tmp / "copied.key").read_text())
    if kind == "rows":
        return CopiedCard(hub.port, creds, hub.tournament)
    if kind == "valid":
        payload = json.dumps(check_payload(1, "copied"))
        return CopiedCard(hub.port, creds, hub.tournament, kind="challenge", payload=payload)
    big = "n" * ((1 << 20) - 4096)

    async def dones(channel: protocol.Channel) -> None:
        for i in range(20):
            await channel.send({"t": "done", "id": f"plan:1:{i}", "ok": False, "detail": big})

    note = json.dumps({**check_payload(1, "copied"), "note": big[: (1 << 20) - 8192]})
    return CopiedCard(
        hub.port, creds, hub.tournament, kind="challenge", payload=note, per_frame=1, extra=dones
    )


def ask_stations(hub: Hub) -> float:
    started = time.perf_counter()
    control.request("stations", path=hub.data / "hub.sock", timeout=30)
    return time.perf_counter() - started


def run(kind: str, tmp: Path, seconds: float) -> dict[str, Any]:
    hub = Hub(tmp / f"{kind}-hub").start()
    stations = [Station(tmp / f"{kind}-st{i}", hub, f"st{i}") for i in range(3)]
    out: dict[str, Any] = {"attack": kind}
    with running(hub, *stations):
        for st in stations:
            st.start()
        names = {"st0", "st1", "st2"}

        def connected(want: set[str]) -> bool:
            rows = control.request("stations", path=hub.data / "hub.sock")
            return want <= {r["station_id"] for r in rows if r["connected"]}

        wait_for(lambda: connected(names), 60, "three stations")
        assert hub.proc is not None
        time.sleep(2)
        idle_rss, idle_db = rss_mb(hub.proc.pid), db_mb(hub)
        peak = idle_rss
        answers: list[float] = []
        with _attack(kind, hub, tmp):
            until = time.monotonic() + seconds
            start_at = None
            restarted_at = back_after = None
            while time.monotonic() < until or back_after is None or start_at is None:
                answers.append(ask_stations(hub))
                peak = max(peak, rss_mb(hub.proc.pid))
                left = until - time.monotonic()
                if start_at is None and left < seconds / 2:
                    plan = control.request(
                        "start_round", path=hub.data / "hub.sock", number=1, lead=3.0,
                        basic_seconds=3600.0, warning_seconds=600.0,
                    )  # fmt: skip
                    start_at = plan["plan"]["start_at"]
                    out["plan_sent_to"] = len(plan["sent_to"])
                if restarted_at is None and left < seconds / 3:
                    stations[2].stop()
                    stations[2].start()
                    restarted_at = time.monotonic()
                if restarted_at is not None and back_after is None and connected({"st2"}):
                    back_after = time.monotonic() - restarted_at
                if time.monotonic() - (restarted_at or time.monotonic()) > 60:
                    back_after = float("inf")
                time.sleep(0.25)
            wait_for(lambda: all(st.rings() for st in stations[:2]), 30, "the round start")
            late = [st.rings()[0]["local_time"] - start_at for st in stations[:2]]
        out.update(
            stations_median=statistics.median(answers),
            stations_max=max(answers),
            start_late_ms=max(late) * 1000,
            back_s=back_after,
            rss_idle=idle_rss,
            rss_ratio=peak / idle_rss,
            db_growth=db_mb(hub) - idle_db,
            log_lines=len(hub.log().splitlines()),
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="each attack's length")
    ap.add_argument("--only", help="comma-separated: idle,rows,valid,big,slots")
    args = ap.parse_args()
    kinds = args.only.split(",") if args.only else ["idle", "rows", "valid", "big", "slots"]
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        results = [run(kind, Path(tmp), args.seconds) for kind in kinds]
    head = (
        f"{'attack':<7} {'stations s':>11} {'worst s':>8} {'start late ms':>14} "
        f"{'back s':>7} {'RSS ×idle':>10} {'db +MB':>7} {'log lines':>10}"
    )
    print(head)
    for r in results:
        print(
            f"{r['attack']:<7} {r['stations_median']:>11.3f} {r['stations_max']:>8.3f} "
            f"{r['start_late_ms']:>14.1f} {r['back_s']:>7.1f} {r['rss_ratio']:>10.2f} "
            f"{r['db_growth']:>7.1f} {r['log_lines']:>10}"
        )
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

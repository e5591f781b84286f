"""Hall screen benchmark: a real ``hub serve`` on 127.0.0.1 with 200 live pages.

    .venv/bin/python bench/screen.py [--clients 200] [--players 200] [--played 8]
                                     [--updates 20] [--spread-stations 10] [--pairs 3]

The hub holds a ``--players`` tournament with ``--played`` rounds complete and the next
one paired and published: the state a hall sees late in the day.

1. Sizes: the phone page, the projector page, script and style (what a phone downloads),
   the whole state (sent on connect) and the patch an approved result sends.
2. Hub CPU and memory: 15 s with no page, then 15 s with ``--clients`` pages connected
   (Server-Sent Events; each gets the clock tick every second).
3. Update latency: ``--updates`` times a result is approved (HubService, another process,
   as the dashboard does); from the call that commits it to each page receiving the new
   state; p50, p99 and max over every (update, page) pair; the hub's own part (from its
   log); hub CPU per update.
4. Gong spread with and without the pages: ``--spread-stations`` station daemons with
   clocks off by up to ±10 min (bench/sync.py's method); ``--pairs`` times two rounds of
   three signals without pages, then two rounds with ``--clients`` pages connected while a
   result is approved every second; same hub, same run, alternating so that the machine's
   drifting load hits both sides alike.

The pages are plain aiohttp clients in a separate process (a thread per 50 pages would
measure the client, not the hub); they read every event and record arrival times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import Hub, Station, wait_for

from samoobsluha.hub.entry import Entry
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.service import HubService

V_RE = re.compile(rb'"v":"([0-9a-f]+)"')


# -- the pages (another process) ------------------------------------------------------------
async def _page(url: str, log: list[tuple[float, str]], ready: Any, stop: asyncio.Event) -> None:
    import aiohttp

    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session,
        session.get(url + "events") as resp,
    ):
        event = b""
        counted = False
        async for line in resp.content:
            if stop.is_set():
                return
            if line.startswith(b"event: "):
                event = line[7:].strip()
            elif line.startswith(b"data: ") and event in (b"snap", b"patch"):
                m = V_RE.search(line)
                log.append((time.time(), m.group(1).decode() if m else "?"))
                if not counted:
                    counted = True
                    with ready.get_lock():
                        ready.value += 1


def _pages_main(url: str, n: int, ready: Any, done: Any, out: Any) -> None:
    async def main() -> None:
        stop = asyncio.Event()
        logs: list[list[tuple[float, str]]] = [[] for _ in range(n)]
        tasks = [asyncio.create_task(_page(url, logs[i], ready, stop)) for i in range(n)]
        while not done.is_set():
            await asyncio.sleep(0.1)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        out.put(logs)

    asyncio.run(main())


class Pages:
    def __init__(self, url: str, n: int) -> None:
        ctx = mp.get_context("spawn")
        self.ready = ctx.Value("i", 0)
        self.done = ctx.Event()
        self.out = ctx.Queue()
        self.proc = ctx.Process(
            target=_pages_main, args=(url, n, self.ready, self.done, self.out), daemon=True
        )
        self.proc.start()
        self.n = n
        wait_for(lambda: self.ready.value >= n, 60, f"{n} pages connected")

    def stop(self) -> list[list[tuple[float, str]]]:
        self.done.set()
        logs: list[list[tuple[float, str]]] = self.out.get(timeout=60)
        self.proc.join(10)
        return logs


# -- the hub ----------------------------------------------------------------------------------
def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def seed(data: Path, players: int, played: int) -> HubService:
    """A tournament of ``players`` with ``played`` rounds complete and published (random
    scores, fixed seed) and the next round paired: the state a hall sees late in the day."""
    data.mkdir(parents=True, exist_ok=True)
    svc = HubService(data)
    svc.prepare()
    with svc._tour() as tour:
        tour.configure(name="Bench", rules="cas", rounds=played + 1)
        tour.import_players_csv(sample_csv(players, 2026))
        for p in tour.players():
            tour.check_in(p.id)
    rnd = random.Random(7)
    for number in range(1, played + 2):
        svc.pair(number, seed=number)
        if number > played:
            break
        for row in svc.pairing_table(number)[0]:
            if row["second"] != "—":
                entry = Entry(int(row["table"]), rnd.randint(300, 520), rnd.randint(300, 520))
                svc.enter_result(number, entry)
        svc.publish_results(number)
    return svc


def screen_url(data: Path) -> str:
    """The running hub's hall screen (net_procs starts it on a free loopback port)."""
    from samoobsluha.hub.control import request

    return str(request("info", path=data / "hub.sock")["screen"][0])


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return bytes(resp.read())


def spread(
    hub: Hub, stations: list[Station], skews: list[float], first: int, rounds: int
) -> list[float]:
    """``rounds`` rounds of start/warning/end; the spread of true ring instants per signal."""
    spreads = []
    for number in range(first, first + rounds):
        before = [len(st.rings()) for st in stations]
        hub.ctl("round", "start", str(number), "--in", "7", "--basic", "4", "--warning", "2")
        wait_for(lambda b=before: all(len(st.rings()) >= n + 3
                                      for st, n in zip(stations, b, strict=True)), 30)  # fmt: skip
        by: dict[str, list[float]] = {}
        for i, st in enumerate(stations):
            for ring in st.rings()[before[i] : before[i] + 3]:
                by.setdefault(ring["signal"], []).append(ring["local_time"] - skews[i])
        spreads += [max(v) - min(v) for v in by.values()]
    return spreads


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--spread-stations", type=int, default=10)
    parser.add_argument("--played", type=int, default=8, help="rounds already played")
    parser.add_argument("--pairs", type=int, default=3, help="spread: pairs of 2-round runs")
    args = parser.parse_args()
    os.environ.pop("SAMOOBSLUHA_CONFIG", None)
    with tempfile.TemporaryDirectory() as td:
        data = Path(td) / "hub"
        svc = seed(data, args.players, args.played)
        current = args.played + 1
        rnd = random.Random(42)
        skews = [rnd.uniform(-600, 600) for _ in range(args.spread_stations)]
        hub = Hub(data).start()
        url = screen_url(data)
        assert hub.proc is not None
        pid = hub.proc.pid
        stations = [
            Station(Path(td) / f"st{i}", hub, f"st{i:02d}", skew=s) for i, s in enumerate(skews)
        ]
        pages: Pages | None = None
        try:
            hub.ctl("publish-pairings", str(current))
            wait_for(
                lambda: f'"round":{current}'.encode() in fetch(url + "snapshot.json"),
                10,
                "published",
            )
            phone, projector = fetch(url), fetch(url + "projector")
            js, css = fetch(url + "static/screen.js"), fetch(url + "static/screen.css")
            snap = fetch(url + "snapshot.json")
            page_kb = (len(phone) + len(js) + len(css)) / 1024
            print(
                f"sizes: phone page {len(phone) / 1024:.1f} kB + script {len(js) / 1024:.1f} kB"
                f" + style {len(css) / 1024:.1f} kB = {page_kb:.1f} kB (target < 100 kB); "
                f"projector page {len(projector) / 1024:.1f} kB; state of {args.players} "
                f"players in round {current} {len(snap) / 1024:.1f} kB "
                f"({len(zlib.compress(snap)) / 1024:.1f} kB deflated), sent whole on connect"
            )
            for st in stations:
                st.start()
            wait_for(
                lambda: (
                    sum(
                        1
                        for r in json.loads(hub.ctl("stations", "--json"))
                        if r["connected"] and r["status"].get("clock_synced")
                    )
                    == len(stations)
                ),
                60,
                "stations synced",
            )

            def cpu_window(seconds: float) -> tuple[float, float]:
                c0, t0 = _cpu_seconds(pid), time.monotonic()
                time.sleep(seconds)
                return (_cpu_seconds(pid) - c0) / (time.monotonic() - t0), _rss_mb(pid)

            idle_cpu, idle_rss = cpu_window(15)
            pages = Pages(url, args.clients)
            live_cpu, live_rss = cpu_window(15)
            print(
                f"hub with {args.spread_stations} stations: CPU {idle_cpu:.1%} of a core, "
                f"RSS {idle_rss:.0f} MB without pages; with {args.clients} live pages CPU "
                f"{live_cpu:.1%}, RSS {live_rss:.0f} MB"
            )
            rows, _ = svc.pairing_table(current)
            tables = [int(r["table"]) for r in rows if r["second"] != "—"]
            commits: list[float] = []
            before = json.loads(fetch(url + "snapshot.json"))
            c0 = _cpu_seconds(pid)
            for i in range(min(args.updates, len(tables))):
                # timed from the call: the hub may see the commit before enter_result
                # returns (it goes on to compute the echoed totals), so the figures are an
                # upper bound by that tail
                commits.append(time.time())
                svc.enter_result(current, Entry(tables.pop(), 400 + i, 300))
                time.sleep(1.0)
            update_cpu = (_cpu_seconds(pid) - c0) / len(commits)
            after = json.loads(fetch(url + "snapshot.json"))
            patch = {k: v for k, v in after.items() if before.get(k) != v}
            patch_kb = len(json.dumps(patch, ensure_ascii=False, separators=(",", ":"))) / 1024
            logs = pages.stop()
            pages = None
            latencies = []
            missed = 0
            per_update: list[list[float]] = [[] for _ in commits]
            for log in logs:
                for k, at in enumerate(commits):
                    arrivals = [t for t, _ in log if t >= at]
                    if arrivals:
                        latencies.append(arrivals[0] - at)
                        per_update[k].append(arrivals[0] - at)
                    else:
                        missed += 1
            # the hub's own log says when each update left it: splits the latency into the
            # hub's part (notice + rebuild) and the delivery to the pages
            pushes = []
            for line in hub.log().splitlines():
                if "hall screen: update" in line:
                    stamp = time.strptime(line[:19], "%Y-%m-%d %H:%M:%S")
                    pushes.append(time.mktime(stamp) + int(line[20:23]) / 1000)
            hub_side = []
            for at in commits:
                sent = [t for t in pushes if t >= at]
                if sent:
                    hub_side.append(sent[0] - at)
            if hub_side:
                print(
                    f"hub side (approval call -> update sent, from its log, ms resolution): p50 "
                    f"{pct(hub_side, 0.5) * 1000:.0f} ms, max {max(hub_side) * 1000:.0f} ms"
                )
            print(
                "per update, fastest/slowest page (ms): "
                + " ".join(f"{min(v) * 1000:.0f}/{max(v) * 1000:.0f}" for v in per_update if v)
            )
            print(
                f"update latency (result approved -> page), {len(commits)} updates x "
                f"{args.clients} pages: p50 {pct(latencies, 0.5) * 1000:.0f} ms, p99 "
                f"{pct(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
                f"(target p99 <= 1000 ms), missed {missed}; hub CPU "
                f"{update_cpu * 1000:.0f} ms per update (rebuild + {args.clients} sends, "
                f"1 s window incl. ticks)"
            )
            print(
                f"an approved result travels as a patch of {patch_kb:.1f} kB "
                f"(keys: {', '.join(sorted(patch))})"
            )
            # Gong spread in alternating runs (the machine's load drifts): two rounds with
            # no page, two with every page connected while a result is approved each second.
            base: list[float] = []
            loaded: list[float] = []
            number = 100
            for _ in range(args.pairs):
                base += spread(hub, stations, skews, number, 2)
                number += 2
                pages = Pages(url, args.clients)
                stop_updates = threading.Event()

                def approve(stop: threading.Event = stop_updates) -> None:
                    while not stop.is_set() and tables:
                        svc.enter_result(current, Entry(tables.pop(), 410, 320))
                        stop.wait(1.0)

                feeder = threading.Thread(target=approve)
                feeder.start()
                loaded += spread(hub, stations, skews, number, 2)
                number += 2
                stop_updates.set()
                feeder.join()
                pages.stop()
                pages = None
            print(
                f"gong spread, {args.spread_stations} stations, skews up to "
                f"±{max(abs(s) for s in skews):.0f} s, {args.pairs} x (2 rounds without pages, "
                f"2 rounds with {args.clients} pages and a result approved every second), "
                f"3 signals each: without pages max {max(base) * 1000:.2f} ms median "
                f"{statistics.median(base) * 1000:.2f} ms; with pages max "
                f"{max(loaded) * 1000:.2f} ms median {statistics.median(loaded) * 1000:.2f} ms"
            )
        finally:
            if pages is not None:
                pages.stop()
            for st in stations:
                st.stop()
            hub.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

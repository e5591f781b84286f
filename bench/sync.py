"""Station ↔ hub sync benchmark (real processes on 127.0.0.1, real SQLite files).

    .venv/bin/python bench/sync.py [--rows 100000] [--stations 20] [--spread-stations 10]

1. Ingest, against a raw SQLite baseline measured in the same run: the same rows (the
   payload texts the stations send) into the same table (the hub's own migration), with
   the hub's own insert (multi-row ``VALUES``), same pragmas — WAL, synchronous=FULL —
   and the station's batch size; one process, no network, no checks. (The textbook
   ``executemany`` baseline, slower, is printed too.) Measured twice:
   a. the hub alone: ``--stations`` connections of one light client that does the real
      handshake and sends the stations' rows frames, sealed beforehand, within the
      station's window (:func:`_replay`) — what the hub's ingest costs;
   b. with ``--stations`` real station daemons, connected and idle, each given
      ``rows/stations`` outbox rows in one transaction; time until the hub has stored all
      of them. The daemons (5 µs of CPU a row) share this machine's cores with the hub.
   Also the CPU the hub and the stations spent per row.
2. Latency from a kiosk log row to the hub row: a station link in this process (as in the
   kiosk), one row every 20 ms with ``nudge()``; p50/p99 to the hub's receipt and to the
   station seeing the hub's ack (i.e. after the hub's commit). Also for a separate daemon
   process that only polls the database.
3. Start-signal spread: ``--spread-stations`` daemons with clocks off by up to ±10 min;
   three rounds of three signals; spread of the true ring instants per signal.
4. The same under a hello flood (four connections sending 1 MiB junk hellos, as the audit
   did): signal spread and error, a manual ``hub gong``'s worst lateness, how long
   ``hub stations`` takes to answer, how many junk connections the hub refused.
5. A frozen station (SIGSTOP) during ``hub round start``: how long the command takes, and
   the healthy stations' worst error against the start instant.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "net"))

from net_procs import Hub, Station, check_payload, flood, station_status, wait_for

from samoobsluha.hub import store
from samoobsluha.shared import protocol
from samoobsluha.shared.protocol import HallKeys, parse_psk
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox
from samoobsluha.station.sync import BATCH, WINDOW, NetworkConfig, StationSync

# The ingest figures push hundreds of thousands of rows through one station in minutes,
# far past what a real station may store in a round (hub.quota.Budget): a budget that
# never binds, so they measure ingest and not the quota.
BENCH_BUDGET = 10_000_000


def raw_sqlite_rate(path: Path, rows: int, n_stations: int, multi: bool = True) -> float:
    """Raw SQLite storing the rows the hub stores: the hub's own inbox table (its
    migration: primary key and index), the very payload texts the stations send, the
    stations' batch size, WAL and synchronous=FULL; one process, no network, no checks.

    ``multi``: with the hub's own insert (multi-row ``VALUES``, ``store.insert_inbox``),
    the faster of the two and the baseline the ratio is taken against; otherwise one
    ``executemany`` per batch, the textbook way (the baseline before session 4)."""
    db = open_db(path, store.migrations)
    per = rows // n_stations
    batches = [
        [
            (f"in{s:02d}", "e", i + 1, "challenge", _payload(i, f"in{s:02d}"), 1.0, 2.0)
            for i in range(per)
        ]
        for s in range(n_stations)
    ]
    started = time.perf_counter()
    for batch in batches:
        for start in range(0, per, BATCH):
            with db.atomic():
                if multi:
                    store.insert_inbox(db, batch[start : start + BATCH])
                else:
                    db.conn.executemany(
                        store.INBOX_INSERT + "(?, ?, ?, ?, ?, ?, ?)", batch[start : start + BATCH]
                    )
    elapsed = time.perf_counter() - started
    db.close()
    return per * n_stations / elapsed


def _payload(i: int, station: str) -> str:
    """A row's payload text exactly as the station's outbox holds and sends it."""
    return json.dumps(check_payload(i, station), ensure_ascii=False, sort_keys=True)


def freeze(st: Station) -> None:
    """SIGSTOP a station daemon at a moment it holds no write lock on its database (one
    frozen inside a transaction would lock this script's ``enqueue`` out for good)."""
    while True:
        st.proc.send_signal(signal.SIGSTOP)
        _wait_stopped(st.proc.pid)  # a signal takes effect later: it might still begin one
        db = open_db(st.db_path)
        db.conn.execute("PRAGMA busy_timeout = 0")
        try:
            db.conn.execute("BEGIN IMMEDIATE")
            db.conn.execute("ROLLBACK")
            return
        except sqlite3.OperationalError:
            st.proc.send_signal(signal.SIGCONT)
            time.sleep(0.01)
        finally:
            db.close()


def _wait_stopped(pid: int) -> None:
    """Until every thread of ``pid`` is stopped (state T in /proc)."""
    while True:
        states = []
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                states.append((task / "stat").read_text().rsplit(")", 1)[1].split()[0])
            except (FileNotFoundError, ProcessLookupError):
                continue  # a thread that just ended
        if all(state in ("T", "t") for state in states):
            return
        time.sleep(0.001)


def connected(hub: Hub, n: int) -> bool:
    rows = json.loads(hub.ctl("stations", "--json"))
    return sum(1 for r in rows if r["connected"] and r["status"].get("clock_synced")) == n


def bench_ingest(tmp: Path, rows: int, n_stations: int, repeats: int = 3) -> dict[str, Any]:
    hub = Hub(tmp / "ingest-hub", budget_rows=BENCH_BUDGET).start()
    stations = [Station(tmp / f"ingest-{i}", hub, f"in{i:02d}") for i in range(n_stations)]
    per = rows // n_stations
    raw: list[float] = []
    many: list[float] = []
    rates: list[float] = []
    cpu: list[float] = []
    st_cpus: list[float] = []
    try:
        for st in stations:
            st.enqueue(0)
            st.start()
        wait_for(lambda: connected(hub, n_stations), 60, "stations connected")
        # one read-only connection, kept open, polled every 2 ms for the acknowledged
        # rows (a few-row table): a COUNT(*) over the inbox every 50 ms, as before, took
        # CPU from the hub it measures and overshot the end by up to 50 ms
        watch = sqlite3.connect(f"file:{hub.db_path}?mode=ro", uri=True)
        for rep in range(repeats):
            # freeze the (connected) stations, give each its backlog, thaw them all at
            # once: the clock then measures sending and storing, not this script's writes
            for st in stations:
                freeze(st)
            # the disk's fsync time drifts during a run: interleave baseline and hub runs;
            # the baseline runs while the stations are frozen (a quiet machine)
            raw.append(raw_sqlite_rate(tmp / f"raw{rep}.db", rows, n_stations))
            many.append(raw_sqlite_rate(tmp / f"many{rep}.db", rows, n_stations, multi=False))
            for st in stations:
                st.enqueue(per, start=rep * per)
            hub_cpu = _cpu_seconds(hub.proc.pid)
            st_cpu = sum(_cpu_seconds(st.proc.pid) for st in stations)
            started = time.perf_counter()
            for st in stations:
                st.proc.send_signal(signal.SIGCONT)
            want = (rep + 1) * per * n_stations
            stored = _stored_rows(watch, want, deadline=started + 300)
            rates.append(per * n_stations / (stored - started))
            cpu.append(_cpu_seconds(hub.proc.pid) - hub_cpu)
            st_cpus.append(sum(_cpu_seconds(st.proc.pid) for st in stations) - st_cpu)
        watch.close()
        assert hub.count() == repeats * per * n_stations
    finally:
        for st in stations:
            st.stop()
        hub.stop()
    return {
        **_ingest_figures(raw, rates, cpu, per * n_stations),
        "raw_many": statistics.median(many),
        "station_cpu": statistics.median(st_cpus) / (per * n_stations) * 1e6,
    }


def _ingest_figures(
    raw: list[float], rates: list[float], cpu: list[float], rows: int
) -> dict[str, Any]:
    """Medians of interleaved baseline/hub pairs: rows/s of each, their ratio (and each
    pair's), the hub's CPU µs a row."""
    base, rate = statistics.median(raw), statistics.median(rates)
    return {
        "raw": base,
        "hub": rate,
        "ratio": rate / base,
        "ratios": [r / b for r, b in zip(rates, raw, strict=True)],
        "cpu": statistics.median(cpu) / rows * 1e6,
    }


async def _replay(
    hub: Hub, stations: list[str], frames: dict[str, list[list[list[Any]]]], window: int
) -> tuple[float, float, float]:
    """Stations reduced to their wire: each connects with its own key, does the real
    handshake and status frame, seals all its rows frames beforehand, then sends them as
    fast as the station's window allows (``WINDOW`` rows unacknowledged). Returns the
    seconds from the first frame to the last ack, and the hub's and this process's CPU
    seconds meanwhile."""
    keys = HallKeys(parse_psk(hub.key_file.read_text()))
    conns = []
    for name in stations:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", hub.port, limit=protocol.MAX_FRAME + 64
        )
        channel, _ = await protocol.client_handshake(
            reader, writer, keys.credentials(name), tournament=hub.tournament,
            station=name, epoch="replay",
        )  # fmt: skip
        await channel.send({"t": "status", "status": station_status(name, version="bench")})
        sealed = [
            (rows[-1][0], channel.session.seal({"t": "rows", "rows": rows}))
            for rows in frames[name]
        ]
        conns.append((channel, writer, sealed))

    async def one(channel: protocol.Channel, writer: asyncio.StreamWriter, sealed: Any) -> None:
        acked, last = 0, sealed[-1][0]
        for top, body in sealed:
            while top - acked > window:
                msg = await channel.recv()
                if msg["t"] == "ack":
                    acked = msg["seq"]
            writer.write(body)
        while acked < last:
            msg = await channel.recv()
            if msg["t"] == "ack":
                acked = msg["seq"]

    cpu = time.process_time()
    hub_cpu = _cpu_seconds(hub.proc.pid)
    started = time.perf_counter()
    await asyncio.gather(*(one(*c) for c in conns))
    took = time.perf_counter() - started
    hub_cpu = _cpu_seconds(hub.proc.pid) - hub_cpu
    cpu = time.process_time() - cpu
    for _, writer, _ in conns:
        writer.close()
    return took, hub_cpu, cpu


def bench_ingest_wire(tmp: Path, rows: int, n_stations: int, repeats: int = 3) -> dict[str, Any]:
    """The hub's ingest alone: the same rows from ``n_stations`` connections of one
    light client (:func:`_replay`) instead of ``n_stations`` station daemons, whose own
    reading, sealing and bookkeeping (5 µs a row) would otherwise share this machine's
    cores with the hub; in a hall every station is its own Pi. Baseline and hub runs
    interleaved, as in :func:`bench_ingest`."""
    hub = Hub(tmp / "wire-hub", budget_rows=BENCH_BUDGET).start()
    per = rows // n_stations
    raw: list[float] = []
    rates: list[float] = []
    cpu: list[float] = []
    client: list[float] = []
    try:
        for rep in range(repeats):
            names = [f"w{rep}-{s:02d}" for s in range(n_stations)]
            frames = {
                name: [
                    [[i + 1, "challenge", _payload(i, name), 1.0] for i in range(k, k + BATCH)]
                    for k in range(0, per, BATCH)
                ]
                for name in names
            }
            raw.append(raw_sqlite_rate(tmp / f"wraw{rep}.db", rows, n_stations))
            took, hub_cpu, mine = asyncio.run(_replay(hub, names, frames, WINDOW))
            rates.append(per * n_stations / took)
            cpu.append(hub_cpu)
            client.append(mine)
    finally:
        hub.stop()
    return {
        **_ingest_figures(raw, rates, cpu, per * n_stations),
        "client_cpu": statistics.median(client) / (per * n_stations) * 1e6,
    }


def _stored_rows(watch: sqlite3.Connection, want: int, deadline: float) -> float:
    """The moment the hub's progress table says ``want`` rows are stored (committed: the
    hub advances it in the transaction that stores them)."""
    while True:
        (done,) = watch.execute("SELECT COALESCE(SUM(contiguous), 0) FROM progress").fetchone()
        now = time.perf_counter()
        if done >= want:
            return now
        if now > deadline:
            raise AssertionError(f"only {done} of {want} rows at the hub")
        time.sleep(0.002)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _latency_inprocess(hub: Hub, tmp: Path, n: int) -> tuple[list[float], list[float]]:
    net = NetworkConfig(tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id="lat")
    psk = parse_psk(hub.key_file.read_text())
    sync = StationSync(tmp / "lat-station.db", net, psk=psk)
    task = asyncio.create_task(sync.run())
    while not sync.status.connected:
        await asyncio.sleep(0.01)
    kiosk_db = open_db(tmp / "lat-station.db", outbox.migrations)
    acked: list[float] = []
    created: list[float] = []
    for _ in range(n):
        with kiosk_db.atomic():  # what the kiosk does with a challenge-log row
            seq = outbox.enqueue(kiosk_db, "challenge", check_payload(len(created), "lat"))
        t0 = time.time()
        created.append(t0)
        sync.nudge()
        while sync.status.acked_seq < seq:
            await asyncio.sleep(0.0005)
        acked.append(time.time() - t0)
        await asyncio.sleep(0.02)
    sync.stop()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    sync.close()
    kiosk_db.close()
    rows = [r for r in hub.rows() if r["station_id"] == "lat"]
    received = [r["received_at"] - r["created_at"] for r in rows]
    return received, acked


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bench_latency(tmp: Path, n: int) -> dict[str, float]:
    hub = Hub(tmp / "lat-hub", budget_rows=BENCH_BUDGET).start()
    daemon = Station(tmp / "lat-daemon", hub, "latd")
    try:
        received, acked = asyncio.run(_latency_inprocess(hub, tmp, n))
        daemon.enqueue(0)
        daemon.start()
        wait_for(lambda: connected(hub, 1), 20, "daemon connected")
        for i in range(n // 2):
            daemon.enqueue(1, start=i)
            time.sleep(0.02)
        wait_for(lambda: hub.count("latd") == n // 2, 30, "daemon rows")
        drows = [r for r in hub.rows() if r["station_id"] == "latd"]
        dlat = [r["received_at"] - r["created_at"] for r in drows]
    finally:
        daemon.stop()
        hub.stop()
    return {
        "recv_p50": pct(received, 0.5),
        "recv_p99": pct(received, 0.99),
        "ack_p50": pct(acked, 0.5),
        "ack_p99": pct(acked, 0.99),
        "daemon_p50": pct(dlat, 0.5),
        "daemon_p99": pct(dlat, 0.99),
    }


def bench_spread(tmp: Path, n: int, rounds: int = 3, under_flood: bool = False) -> dict[str, float]:
    import contextlib
    import random

    rnd = random.Random(42)
    skews = [rnd.uniform(-600, 600) for _ in range(n)]
    tag = "flood" if under_flood else "spread"
    hub = Hub(tmp / f"{tag}-hub", budget_rows=BENCH_BUDGET).start()
    stations = [Station(tmp / f"{tag}-{i}", hub, f"sp{i:02d}", skew=s) for i, s in enumerate(skews)]
    spreads: list[float] = []
    errors: list[float] = []
    extra: dict[str, float] = {}
    stack = contextlib.ExitStack()
    try:
        for st in stations:
            st.start()
        wait_for(lambda: connected(hub, n), 60, "stations synced")
        if under_flood:
            refused0 = hub.info()["refused"]
            attempts = stack.enter_context(flood(hub.port))
            wait_for(lambda: attempts[0] >= 20, 30, "the flood under way")
            t0 = time.perf_counter()
            hub.ctl("stations", "--json")
            extra["stations_s"] = time.perf_counter() - t0
            gong = json.loads(hub.ctl("gong", "warning", "--json"))
            wait_for(lambda: all(st.rings() for st in stations), 30, "the gong")
            extra["gong_late_max"] = max(
                st.rings()[0]["local_time"] - skews[i] - gong["at"] for i, st in enumerate(stations)
            )
            for st in stations:  # the round numbering below counts rings from 0
                st.data.joinpath("station.out").write_text("")
        for number in range(1, rounds + 1):
            # 7 s ahead: the previous round's end pattern (about 6 s) is over by then
            plan = json.loads(hub.ctl("round", "start", "--json", str(number), "--in", "7",
                                      "--basic", "4", "--warning", "2"))["plan"]  # fmt: skip
            wait_for(lambda k=number: all(len(st.rings()) >= 3 * k for st in stations), 30)
            due = {"start": plan["start_at"], "warning": plan["start_at"] + 2,
                   "end": plan["start_at"] + 4}  # fmt: skip
            by: dict[str, list[float]] = {}
            for i, st in enumerate(stations):
                for ring in st.rings()[3 * (number - 1) :]:
                    true = ring["local_time"] - skews[i]  # the bell's real instant
                    by.setdefault(ring["signal"], []).append(true)
                    errors.append(abs(true - due[ring["signal"]]))
            spreads += [max(v) - min(v) for v in by.values()]
        if under_flood:
            extra["refused"] = hub.info()["refused"] - refused0
    finally:
        stack.close()
        for st in stations:
            st.stop()
        hub.stop()
    return {
        **extra,
        "spread_max": max(spreads),
        "spread_median": statistics.median(spreads),
        "error_max": max(errors),
        "skew_max": max(abs(s) for s in skews),
    }


def bench_frozen(tmp: Path, n: int = 5) -> dict[str, float]:
    hub = Hub(tmp / "frozen-hub", budget_rows=BENCH_BUDGET).start()
    stations = [Station(tmp / f"frozen-{i}", hub, f"fr{i:02d}") for i in range(n)]
    try:
        for st in stations:
            st.start()
        wait_for(lambda: connected(hub, n), 60, "stations synced")
        stations[-1].proc.send_signal(signal.SIGSTOP)
        # baseline: the same command-line round trip without a broadcast (on a loaded
        # machine starting the `hub` process is most of it)
        t0 = time.perf_counter()
        hub.ctl("round", "list")
        baseline = time.perf_counter() - t0
        t0 = time.perf_counter()
        plan = json.loads(hub.ctl("round", "start", "--json", "1", "--in", "3", "--basic", "4",
                                  "--warning", "2"))["plan"]  # fmt: skip
        took = time.perf_counter() - t0
        healthy = stations[:-1]
        wait_for(lambda: all(st.rings() for st in healthy), 30, "start on the healthy ones")
        error = max(abs(st.rings()[0]["local_time"] - plan["start_at"]) for st in healthy)
    finally:
        for st in stations:
            st.stop()
        hub.stop()
    return {"round_start_s": took, "cli_baseline_s": baseline, "error_max": error}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--stations", type=int, default=20)
    parser.add_argument("--spread-stations", type=int, default=10)
    parser.add_argument("--latency-rows", type=int, default=300)
    args = parser.parse_args()
    os.environ.pop("SAMOOBSLUHA_CONFIG", None)
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        wire = bench_ingest_wire(tmp, args.rows, args.stations)
        print(
            f"ingest, the hub alone: {args.stations} connections x "
            f"{args.rows // args.stations} rows, median of 3: hub {wire['hub']:,.0f} rows/s "
            f"vs raw SQLite {wire['raw']:,.0f} rows/s (batches of {BATCH}, WAL, "
            f"synchronous=FULL) = {wire['ratio']:.0%} (target >= 50%; runs "
            f"{', '.join(f'{r:.0%}' for r in wire['ratios'])}); CPU per row: hub "
            f"{wire['cpu']:.1f} us, the client {wire['client_cpu']:.2f} us"
        )
        ing = bench_ingest(tmp, args.rows, args.stations)
        print(
            f"ingest from {args.stations} station daemons on the same cores x "
            f"{args.rows // args.stations} rows, median of 3: hub {ing['hub']:,.0f} rows/s vs "
            f"raw SQLite {ing['raw']:,.0f} rows/s = {ing['ratio']:.0%} (runs "
            f"{', '.join(f'{r:.0%}' for r in ing['ratios'])}); vs executemany "
            f"{ing['raw_many']:,.0f} rows/s = {ing['hub'] / ing['raw_many']:.0%}; CPU per "
            f"row: hub {ing['cpu']:.1f} us, stations {ing['station_cpu']:.1f} us"
        )
        lat = bench_latency(tmp, args.latency_rows)
        print(
            f"latency kiosk row -> hub (in-process link, nudge): receipt p50 "
            f"{lat['recv_p50'] * 1000:.1f} ms p99 {lat['recv_p99'] * 1000:.1f} ms; "
            f"ack after hub commit p50 {lat['ack_p50'] * 1000:.1f} ms "
            f"p99 {lat['ack_p99'] * 1000:.1f} ms"
        )
        print(
            f"latency kiosk row -> hub (separate daemon, polling): p50 "
            f"{lat['daemon_p50'] * 1000:.1f} ms p99 {lat['daemon_p99'] * 1000:.1f} ms"
        )
        sp = bench_spread(tmp, args.spread_stations)
        print(
            f"signal spread: {args.spread_stations} stations, skews up to "
            f"±{sp['skew_max']:.0f} s, 3 rounds x 3 signals: max spread "
            f"{sp['spread_max'] * 1000:.2f} ms, median {sp['spread_median'] * 1000:.2f} ms, "
            f"worst error vs due instant {sp['error_max'] * 1000:.2f} ms (target 20 ms)"
        )
        fl = bench_spread(tmp, args.spread_stations, under_flood=True)
        print(
            f"under a hello flood (4 x 1 MiB junk hellos, {fl['refused']:,.0f} refused): "
            f"hub stations answered in {fl['stations_s'] * 1000:.0f} ms (target 2 s); manual "
            f"gong worst lateness {fl['gong_late_max'] * 1000:.2f} ms (target 50 ms); signal "
            f"max spread {fl['spread_max'] * 1000:.2f} ms, median "
            f"{fl['spread_median'] * 1000:.2f} ms, worst error {fl['error_max'] * 1000:.2f} ms"
        )
        fr = bench_frozen(tmp)
        print(
            f"one of 5 stations SIGSTOPped: hub round start returned in "
            f"{fr['round_start_s'] * 1000:.0f} ms (target 2 s; `hub round list`, the same "
            f"round trip without a broadcast: {fr['cli_baseline_s'] * 1000:.0f} ms); the others' "
            "worst start "
            f"error {fr['error_max'] * 1000:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

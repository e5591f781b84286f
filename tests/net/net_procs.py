"""Real hub and station processes on 127.0.0.1 for the network tests and the benchmark."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack

from samoobsluha.hub import store
from samoobsluha.shared import protocol
from samoobsluha.shared.payloads import CheckPayload
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def loopback_hub(db: Path, psk: bytes, **kw: Any) -> AsyncIterator[Any]:
    """A ``HubServer`` in this process on a free port of 127.0.0.1, without mDNS."""
    from samoobsluha.hub.server import HubServer

    hub = HubServer(db, psk, host="127.0.0.1", port=0, advertise=False, **kw)
    await hub.start()
    try:
        yield hub
    finally:
        await hub.close()


async def start_sync(
    hub: Any, psk: bytes, db: Path, sid: str, **kw: Any
) -> tuple[Any, asyncio.Task[Any]]:
    """A station's sync in this process, linked to an in-process ``HubServer``."""
    from samoobsluha.station.sync import NetworkConfig, StationSync

    net = NetworkConfig(tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id=sid)
    sync = StationSync(db, net, psk=psk, **kw)
    return sync, asyncio.create_task(sync.run())


async def stop_sync(sync: Any, task: asyncio.Task[Any]) -> None:
    sync.stop()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    sync.close()


def station_status(name: str = "s", backlog: int = 0, version: str = "test") -> dict[str, Any]:
    """A whole station status record, as a station's ``status`` frame carries it (the hub
    refuses a partial one)."""
    from samoobsluha.shared.payloads import StationStatus

    return StationStatus(
        name=name, version=version, lexicon_sha256=None, clock_synced=True,
        clock_offset=0.0, clock_delay=0.001, backlog=backlog, acked_seq=0, last_signal=None,
        local_time=0.0,
    ).to_dict()  # fmt: skip


def enqueue_checks(
    db_path: Path, station_id: str, n: int, *, kind: str = "challenge", start: int = 0
) -> None:
    """Write ``n`` check rows into a station's outbox in one transaction, as the kiosk
    does (its own connection to the station's database file)."""
    db = open_db(db_path, outbox.migrations)
    outbox.set_station_id(db, station_id)
    with db.atomic():
        for i in range(start, start + n):
            outbox.enqueue(db, kind, check_payload(i, station_id))
    db.close()


def check_payload(i: int, station_id: str = "st", at: float = 1_767_225_600.0) -> dict[str, Any]:
    """A kiosk's check row (the station's challenge id ``i``), as the hub accepts it."""
    return CheckPayload(
        id=i,
        at=at + i,
        station_id=station_id,
        table_no=1 + i % 30,
        round_no=1,
        instance="first",
        status="valid" if i % 2 == 0 else "invalid",
        words=("SLOVO",),
        canonical=("slovo",),
        failed=() if i % 2 == 0 else ("slovo",),
        too_long=(),
        refused_reason=None,
        lexicon_sha256="0" * 64,
        lexicon_variant="cs",
        ui_language="cs",
        appeal_of=None,
        note="",
    ).to_dict()


def wait_for(cond: Callable[[], Any], timeout: float = 15.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Hub:
    def __init__(
        self,
        data: Path,
        port: int | None = None,
        mdns: bool = False,
        budget_rows: int | None = None,
        standby_port: int | None = None,
    ) -> None:
        self.data = data
        self.standby_port = standby_port  # hub serve --standby-port (hub/standby.py)
        self.port = port or free_port()
        self.mdns = mdns
        self.budget_rows = budget_rows  # hub serve --budget-rows (default: the real one)
        self.proc: subprocess.Popen[bytes] | None = None
        self.tournament = ""
        self.serve_args: list[str] = []  # more ``hub serve`` options (e.g. --online-every)

    @property
    def seat_file(self) -> Path:
        """Its machine's seat file (hub/seat.py): beside its data, never in it; each hub
        here stands for a machine of its own."""
        return self.data.with_name(f"{self.data.name}.seat")

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "SAMOOBSLUHA_DATA": str(self.data),
            "SAMOOBSLUHA_SEAT_FILE": str(self.seat_file),
        }

    def seat(self) -> str:
        from samoobsluha.hub.seat import local_seat

        return local_seat(self.seat_file)

    @property
    def key_file(self) -> Path:
        return self.data / "tournament.key"

    @property
    def db_path(self) -> Path:
        return self.data / "hub.db"

    def start(
        self, extra_env: dict[str, str] | None = None, *, kill_in_commit: int | None = None
    ) -> Hub:
        """Start ``hub serve``; with ``kill_in_commit`` it SIGKILLs itself inside the
        ingest transaction once that many rows are inserted (tests/net/hub_crashing.py)."""
        self.data.mkdir(parents=True, exist_ok=True)
        port_file = self.data / "port"
        port_file.unlink(missing_ok=True)
        hub = [str(BIN / "hub")]
        if kill_in_commit is not None:
            hub = [str(BIN / "python"), str(Path(__file__).with_name("hub_crashing.py"))]
            hub.append(str(kill_in_commit))
        args = [*hub, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        # the hall screen on a free port: hubs of parallel tests never fight over 8080
        args += ["--port-file", str(port_file), "--screen-port", "0"]
        if not self.mdns:
            args.append("--no-mdns")
        if self.standby_port:
            args += ["--standby-port", str(self.standby_port)]
        if self.budget_rows:
            args += ["--budget-rows", str(self.budget_rows), "--budget-mb", "1024"]
        args += self.serve_args
        self.stderr = open(self.data / "hub.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            args,
            env={**self.env, **(extra_env or {})},
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
        )
        wait_for(lambda: port_file.exists() or self.proc.poll() is not None, what="hub start")
        assert self.proc.poll() is None, self.log()
        db = open_db(self.db_path, store.migrations)
        self.tournament = store.get_meta(db, "tournament_id") or ""
        db.close()
        return self

    def log(self) -> str:
        return (self.data / "hub.log").read_text(errors="replace")

    def issue_key(self, station: str, path: Path) -> Path:
        """A station key file for ``station`` (what provisioning puts on its card)."""
        self.ctl("key", "station", station, "--out", str(path))
        return path

    def info(self) -> dict[str, Any]:
        from samoobsluha.hub import control

        return dict(control.request("info", path=self.data / "hub.sock"))

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def ctl(self, *args: str) -> str:
        out = subprocess.run(
            [str(BIN / "hub"), *args], env=self.env, capture_output=True, text=True, timeout=30
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    def rows(self, kind: str | None = None) -> list[dict[str, Any]]:
        db = open_db(self.db_path, store.migrations)
        try:
            return store.inbox_rows(db, kind)
        finally:
            db.close()

    def count(self, station: str | None = None) -> int:
        if not self.db_path.exists():
            return 0
        conn = sqlite3.connect(self.db_path, timeout=5)
        try:
            if station:
                sql, args = "SELECT COUNT(*) FROM inbox WHERE station_id = ?", [station]
            else:
                sql, args = "SELECT COUNT(*) FROM inbox", []
            return int(conn.execute(sql, args).fetchone()[0])
        except sqlite3.OperationalError:  # the hub has not created its tables yet
            return 0
        finally:
            conn.close()


class Station:
    def __init__(
        self,
        data: Path,
        hub: Hub,
        station_id: str,
        *,
        skew: float = 0.0,
        use_mdns: bool = False,
        key_file: Path | None = None,
        hub_address: str | None = None,
    ) -> None:
        self.key_file = key_file  # default: the hub's hall secret (as its own demo kiosk)
        self.hub_address = hub_address  # default: the hub's port on 127.0.0.1
        self.data = data
        self.hub = hub
        self.station_id = station_id
        self.skew = skew
        self.use_mdns = use_mdns
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def db_path(self) -> Path:
        return self.data / "station.db"

    def start(self) -> Station:
        self.data.mkdir(parents=True, exist_ok=True)
        args = [
            str(BIN / "station"),
            "daemon",
            "--tournament",
            self.hub.tournament,
            "--psk-file",
            str(self.key_file or self.hub.key_file),
            "--station-id",
            self.station_id,
            "--clock-skew",
            str(self.skew),
        ]
        if self.use_mdns:
            args += ["--mdns-interface", "127.0.0.1"]
        else:
            args += ["--hub", self.hub_address or f"127.0.0.1:{self.hub.port}"]
        # no sound card here: the bell rings on simulated pins only
        (self.data / "station.toml").write_text('[gong]\naudio = "off"\n')
        env = {**os.environ, "SAMOOBSLUHA_DATA": str(self.data)}
        env.pop("SAMOOBSLUHA_CONFIG", None)
        env.pop("GPIOZERO_PIN_FACTORY", None)
        self.log_fh = open(self.data / "station.log", "ab")  # noqa: SIM115
        self.out_fh = open(self.data / "station.out", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            args, env=env, stdout=self.out_fh, stderr=self.log_fh, cwd=self.data
        )
        return self

    def rings(self) -> list[dict[str, Any]]:
        """The rings this station reported on stdout (signal, local and hub time)."""
        path = self.data / "station.out"
        if not path.exists():
            return []
        events = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return [e for e in events if e.get("event") == "ring"]

    def log(self) -> str:
        return (self.data / "station.log").read_text(errors="replace")

    def enqueue(self, n: int, kind: str = "challenge", start: int = 0) -> None:
        """Write ``n`` outbox rows as the kiosk would (another process, same DB file)."""
        enqueue_checks(self.db_path, self.station_id, n, kind=kind, start=start)

    def backlog(self) -> int:
        """Rows in the station's outbox the hub has not acknowledged."""
        db = open_db(self.db_path, outbox.migrations)
        try:
            return outbox.backlog(db)
        finally:
            db.close()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a frozen one too
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def running(*procs: Hub | Station):
    try:
        yield procs
    finally:
        for p in reversed(procs):
            with contextlib.suppress(Exception):
                p.stop()


# what the audit sent: a hello announcing 1 MiB of empty msgpack arrays
FLOOD = struct.pack(">I", protocol.MAX_FRAME) + msgpack.packb([[]] * (protocol.MAX_FRAME - 5))


@contextlib.contextmanager
def flood(port: int, connections: int = 4) -> Iterator[list[int]]:
    """``connections`` threads sending 1 MiB junk hellos to the hub, reconnecting as soon
    as it hangs up; yields the running count of attempts."""
    stop = threading.Event()
    attempts = [0]

    def run() -> None:
        while not stop.is_set():
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", port), timeout=2) as sock,
            ):
                sock.sendall(FLOOD)
            attempts[0] += 1

    threads = [threading.Thread(target=run, daemon=True) for _ in range(connections)]
    for t in threads:
        t.start()
    try:
        yield attempts
    finally:
        stop.set()
        for t in threads:
            t.join(10)


class CopiedCard:
    """A copied station card on the hall LAN: it holds station ``creds`` and streams
    frames of ``per_frame`` rows (``kind``/``payload`` of every row) without waiting for acks,
    reconnecting at once whenever the hub drops it. Runs in its own thread."""

    def __init__(
        self,
        port: int,
        creds: protocol.StationKey,
        tournament: str,
        *,
        kind: str = "junk",
        payload: str = "x" * 100,
        extra: Callable[[protocol.Channel], Any] | None = None,
        per_frame: int = 1000,
    ) -> None:
        self.port, self.creds, self.tournament = port, creds, tournament
        self.per_frame = per_frame
        self.frame_rows = [kind, payload]
        self.extra = extra  # one more coroutine per connection (done frames …)
        self.frames = 0
        self.attempts = 0  # connections opened
        self.connections = 0  # connections that got through the handshake
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)

    def __enter__(self) -> CopiedCard:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(15)

    async def _run(self) -> None:
        assert self.creds.station is not None
        seq = 1
        while not self._stop.is_set():
            writer = None
            try:
                self.attempts += 1
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                channel, _ = await protocol.client_handshake(
                    reader, writer, self.creds, tournament=self.tournament,
                    station=self.creds.station, epoch="copied",
                )  # fmt: skip
                await channel.send({"t": "status", "status": station_status(self.creds.station)})
                self.connections += 1
                if self.extra is not None:
                    await self.extra(channel)
                while not self._stop.is_set():
                    rows = [[seq + i, *self.frame_rows, 1.0] for i in range(self.per_frame)]
                    seq += self.per_frame
                    await channel.send({"t": "rows", "rows": rows})
                    self.frames += 1
            except (ConnectionError, OSError, protocol.ProtocolError, asyncio.IncompleteReadError):
                pass
            finally:
                if writer is not None:
                    writer.close()
            await asyncio.sleep(0.01)


@contextlib.contextmanager
def silent_slots(port: int, addresses: int = 8, per: int = 16) -> Iterator[list[int]]:
    """``per`` silent connections from each of ``addresses`` loopback addresses, each
    reopened as soon as the hub closes it; yields the running count of openings."""
    stop = threading.Event()
    opened = [0]

    async def hold(source: str) -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened[0] += 1
            with contextlib.suppress(ConnectionError, OSError):
                await reader.read(1)  # until the hub drops it
            writer.close()

    async def main() -> None:
        tasks = [
            asyncio.create_task(hold(f"127.0.0.{2 + a}"))
            for a in range(addresses)
            for _ in range(per)
        ]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    try:
        yield opened
    finally:
        stop.set()
        thread.join(10)


def restart_with_the_hub_down(
    folder: Path,
    skews: list[float],
    *,
    basic: float = 24.0,
    warning: float = 12.0,
    lead: float = 2.0,
    down_for: float = 1.0,
) -> tuple[dict[str, Any], list[list[dict[str, Any]]], list[Station]]:
    """A hub and one station per skew (real processes); a round starts; once every station
    has rung its start, the hub is SIGKILLed, then station 0 is SIGKILLed and started again
    ``down_for`` s later, with no hub. Returns the round's plan, each station's rings
    (signal, hub and local time, as it reported them) once the end has passed, and the
    stations (for their logs). The test and bench/restart_gong.py share it."""
    hub = Hub(folder / "hub").start()
    stations = [Station(folder / f"st{i}", hub, f"st{i}", skew=s) for i, s in enumerate(skews)]
    with running(hub, *stations):
        for st in stations:
            st.start()

        def all_synced() -> bool:
            rows = json.loads(hub.ctl("stations", "--json"))
            return len(rows) == len(stations) and all(
                r["connected"] and r["status"].get("clock_synced") for r in rows
            )

        wait_for(all_synced, 30, "connected stations with synced clocks")
        wait_for(lambda: all(_kept(st) for st in stations), 30, "every station keeping its clock")
        started = json.loads(
            hub.ctl(
                "round", "start", "--json", "1", "--in", str(lead), "--basic", str(basic),
                "--warning", str(warning),
            )
        )  # fmt: skip
        plan = started["plan"]
        wait_for(lambda: all(st.rings() for st in stations), 30, "every station's start")
        hub.kill()  # the hub's laptop dies mid-round
        stations[0].kill()  # and a station's process with it (a crash, a power blip)
        time.sleep(down_for)
        stations[0].start()
        end_at = plan["start_at"] + basic
        wait_for(lambda: time.time() > end_at + 2.0, basic + 60, "the round's end")
        wait_for(lambda: all(len(st.rings()) >= 3 for st in stations), 10, "every station's end")
        return plan, [st.rings() for st in stations], stations


def _kept(st: Station) -> bool:
    """The station has written its hub clock estimate (station.sync kept_clock)."""
    if not st.db_path.exists():
        return False
    conn = sqlite3.connect(f"file:{st.db_path}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute("SELECT COUNT(*) FROM kept_clock").fetchone()[0] > 0
    except sqlite3.OperationalError:
        return False
    finally:
        conn.close()
def enter_at_station(station: Station, results: list[Any]) -> None:
    """What the kiosk does when players enter their result: store each
    (``station.log.Result``) in the station's outbox."""
    from samoobsluha.station.log import KioskStore

    kiosk = KioskStore.open(station.db_path, station.station_id)
    try:
        for result in results:
            kiosk.store_result(result, at=time.time())
    finally:
        kiosk.close()

"""The station's side of the hub link: find the hub, sync the outbox, follow the hub clock.

:class:`StationSync` runs as one asyncio task beside the kiosk (or in ``station daemon``)
and never makes the kiosk wait: SQLite work happens on its own thread
(:class:`~shared.dbworker.DbWorker`), everything else is short. It

* finds the hub of *its* tournament by zeroconf (``_samoobsluha._tcp``, TXT
  ``tournament``) or uses ``[network] hub = "host:port"``; mDNS is only a hint, the TCP
  connection is the proof of life; reconnects with capped exponential backoff and jitter;
* sends outbox rows after the hub's acknowledged seq and records each ack;
* estimates the offset to the hub clock NTP-style (four timestamps; the minimum-delay
  sample of the last :data:`SAMPLES` wins) and exposes it as :class:`HubClock`;
* stores round plans, config, pairings/standings the hub pushes (``Migrations("station.sync")``)
  and confirms each; receives a pushed lexicon in chunks, checks its SHA-256 and swaps it
  in atomically; then calls the handlers the caller registered (``on_plan``, ``on_gong`` …).

:class:`SyncStatus` is what the kiosk shows ("clock not synced", hub offline, backlog).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared import protocol
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.dbworker import DbWorker
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.payloads import StationStatus
from samoobsluha.shared.protocol import Channel, ProtocolError
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import outbox, rounds
from samoobsluha.station.config import ConfigError, StationConfig

log = logging.getLogger("station.sync")

SAMPLES = 8  # clock samples kept; the one with the smallest round trip wins
MAX_GOOD_DELAY = 0.5  # a sample with a longer round trip is never "a good estimate"
BURST = 6  # clock exchanges right after connecting
RESYNC_EVERY = 5.0
STATUS_EVERY = 5.0
POLL_EVERY = 0.1  # how often to look for new outbox rows written by another process
BATCH = 500
BATCH_BYTES = protocol.MAX_FRAME // 2
WINDOW = 2000  # rows in flight before waiting for an ack
CONNECT_TIMEOUT = 3.0
IDLE_TIMEOUT = 20.0  # no frame from the hub for this long: the link is dead
BACKOFF_MIN, BACKOFF_MAX = 0.5, 10.0

migrations = Migrations("station.sync")


@migrations()
def m001_sync(db: sqlite_utils.Database) -> None:
    db.table("hub_plans").create(
        {"number": int, "revision": int, "plan": str, "received_at": float}, pk="number"
    )
    db.table("hub_items").create(
        {"kind": str, "item_id": str, "data": str, "received_at": float}, pk="kind"
    )


@migrations()
def m002_tournament(db: sqlite_utils.Database) -> None:
    # A station serves one tournament after another: round 1 of the next tournament is a
    # new round, whatever revision the last tournament's round 1 reached.
    db.table("hub_plans").add_column("tournament", str, not_null_default="")
    db.table("hub_plans").transform(pk=("tournament", "number"))


@migrations()
def m003_one_plan_table(db: sqlite_utils.Database) -> None:
    # Round plans from the hub were kept twice: here and in the schedule's round_plans
    # (station.rounds). They now live only there; carry over anything newer, then drop.
    rounds.migrations.apply(db)
    for tournament, text, received_at in db.execute(
        "SELECT tournament, plan, received_at FROM hub_plans ORDER BY tournament, number"
    ).fetchall():
        plan = RoundPlan.from_dict(json.loads(text))
        rounds.store_plan(db, tournament, plan, source=rounds.SOURCE_HUB, now=received_at)
    db.execute("DROP TABLE hub_plans")


# -- configuration ------------------------------------------------------------------------


@dataclass
class NetworkConfig:
    tournament_id: str = ""
    psk_file: Path = field(default_factory=lambda: data_dir() / "tournament.key")
    hub: str | None = None  # "host:port": skip mDNS
    mdns_interfaces: list[str] | None = None  # None: all
    station_id: str | None = None  # default: the outbox's station_id (host name)

    @classmethod
    def from_config(cls, config: StationConfig) -> NetworkConfig:
        sec = config.section("network")
        out = cls()
        out.tournament_id = str(sec.get("tournament_id", ""))
        if sec.get("psk_file"):
            out.psk_file = Path(sec["psk_file"])
        out.hub = sec.get("hub") or None
        if sec.get("mdns_interfaces"):
            out.mdns_interfaces = [str(a) for a in sec["mdns_interfaces"]]
        out.station_id = sec.get("station_id") or None
        if out.hub is not None:
            parse_hostport(out.hub, where=f"{config.path}: [network] hub")
        return out

    def psk(self) -> bytes:
        try:
            return protocol.parse_psk(self.psk_file.read_text())
        except FileNotFoundError:
            raise ConfigError(f"tournament key file {self.psk_file} not found") from None
        except ValueError as exc:
            raise ConfigError(f"{self.psk_file}: {exc}") from None


def parse_hostport(text: str, where: str = "hub") -> tuple[str, int]:
    host, _, port = str(text).rpartition(":")
    if not host or not port.isdigit():
        raise ConfigError(f'{where} must be "host:port", not {text!r}')
    return host, int(port)


# -- clocks -------------------------------------------------------------------------------


class SkewedClock:
    """The local clock shifted by ``skew`` seconds (both wall and monotonic): how tests
    and demos give each station its own wrong clock on one machine."""

    def __init__(self, skew: float, base: Clock | None = None) -> None:
        self.skew = skew
        self.base = base or SystemClock()

    def now(self) -> float:
        return self.base.now() + self.skew

    def monotonic(self) -> float:
        return self.base.monotonic() + self.skew


@dataclass(frozen=True)
class ClockSample:
    offset: float  # hub time minus local time
    delay: float  # round trip minus the hub's own processing
    taken_at: float  # local monotonic time


class OffsetEstimator:
    """NTP-style offset from (t1, t2, t3, t4): keep the last :data:`SAMPLES` samples and
    trust the one with the smallest delay (its offset error is at most delay / 2)."""

    def __init__(self, keep: int = SAMPLES, max_delay: float = MAX_GOOD_DELAY) -> None:
        self.samples: deque[ClockSample] = deque(maxlen=keep)
        self.max_delay = max_delay

    def add(self, t1: float, t2: float, t3: float, t4: float, taken_at: float) -> ClockSample:
        sample = ClockSample(((t2 - t1) + (t3 - t4)) / 2, (t4 - t1) - (t3 - t2), taken_at)
        if sample.delay >= 0:
            self.samples.append(sample)
        return sample

    def best(self) -> ClockSample | None:
        good = [s for s in self.samples if s.delay <= self.max_delay]
        return min(good, key=lambda s: s.delay) if good else None


class HubClock:
    """A :class:`~shared.clock.Clock` that reads hub time: the local *monotonic* clock plus
    the estimated offset, so a station's wall clock (no RTC on a Pi, wrong after every
    power cut) never matters. Before the first good estimate it falls back to local wall
    time and :attr:`synced` is False."""

    def __init__(self, local: Clock | None = None) -> None:
        self.local = local or SystemClock()
        self._mono_offset: float | None = None  # hub wall time minus local monotonic
        self.delay: float | None = None
        self.synced_at: float | None = None

    @property
    def synced(self) -> bool:
        return self._mono_offset is not None

    def set_offset(self, mono_offset: float, delay: float) -> None:
        self._mono_offset = mono_offset
        self.delay = delay
        self.synced_at = self.local.monotonic()

    @property
    def offset(self) -> float:
        """Hub time minus local wall time (what the status shows)."""
        if self._mono_offset is None:
            return 0.0
        return self.local.monotonic() + self._mono_offset - self.local.now()

    def now(self) -> float:
        if self._mono_offset is None:
            return self.local.now()
        return self.local.monotonic() + self._mono_offset

    def monotonic(self) -> float:
        return self.local.monotonic()


# -- status -------------------------------------------------------------------------------


@dataclass
class SyncStatus:
    """What the kiosk and the hub see about this station's link."""

    connected: bool = False
    hub_address: str | None = None
    hub_id: str | None = None
    clock_synced: bool = False
    clock_offset: float = 0.0
    clock_delay: float | None = None
    backlog: int = 0
    acked_seq: int = 0
    last_error: str | None = None
    last_contact: float | None = None  # local monotonic
    last_signal: dict[str, Any] | None = None
    lexicon_sha256: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self, lang: str = "cs") -> list[str]:
        """Short lines for the kiosk's status bar, in the station's language."""
        from samoobsluha.shared.i18n import t

        lines = [t("sync.hub_online" if self.connected else "sync.hub_offline", lang)]
        if not self.clock_synced:
            lines.append(t("sync.clock_not_synced", lang))
        if self.backlog:
            lines.append(t("sync.backlog", lang, count=self.backlog))
        return lines


def software_version() -> str:
    try:
        from importlib.metadata import version

        return version("samoobsluha")
    except Exception:
        return "unknown"


# -- discovery ----------------------------------------------------------------------------


async def discover_hub(
    tournament: str, *, interfaces: list[str] | None = None, timeout: float = 3.0
) -> list[tuple[str, int, str]]:
    """Hubs of ``tournament`` answering on mDNS: [(host, port, hub_id)]."""
    from zeroconf import IPVersion, ServiceStateChange
    from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

    kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
    if interfaces:
        kwargs["interfaces"] = interfaces
    azc = AsyncZeroconf(**kwargs)
    names: list[str] = []
    found: list[tuple[str, int, str]] = []
    seen = asyncio.Event()

    def on_change(
        zeroconf: Any, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is not ServiceStateChange.Removed and name not in names:
            names.append(name)
            seen.set()

    browser = AsyncServiceBrowser(azc.zeroconf, [protocol.SERVICE_TYPE], handlers=[on_change])
    try:
        deadline = time.monotonic() + timeout
        checked = 0
        while time.monotonic() < deadline and not found:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.wait(), max(0.0, deadline - time.monotonic()))
            seen.clear()
            for name in names[checked:]:
                info = AsyncServiceInfo(protocol.SERVICE_TYPE, name)
                if not await info.async_request(azc.zeroconf, 1500):
                    continue
                props = {
                    k.decode(): (v or b"").decode(errors="replace")
                    for k, v in info.properties.items()
                }
                if props.get("tournament") != tournament:
                    continue
                if props.get("v") != str(protocol.PROTOCOL_VERSION):
                    log.warning("hub %s speaks protocol %s", name, props.get("v"))
                    continue
                for addr in info.parsed_addresses():
                    found.append((addr, int(info.port or 0), props.get("hub", "")))
            checked = len(names)
    finally:
        await browser.async_cancel()
        await azc.async_close()
    return found


# -- the link -----------------------------------------------------------------------------

Handler = Callable[..., Any]


def _pending_after(db: sqlite_utils.Database, after: int, limit: int) -> list[list[Any]]:
    """Outbox rows after ``after`` in their wire form ``[seq, kind, payload, created_at]``
    (payload stays the JSON text the outbox holds)."""
    return [
        list(r)
        for r in db.execute(
            "SELECT seq, kind, payload, created_at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
            [after, limit],
        )
    ]


def _last_seq(db: sqlite_utils.Database) -> int:
    return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM outbox").fetchone()[0])


def _store_plan(db: sqlite_utils.Database, tournament: str, plan: RoundPlan, now: float) -> bool:
    return rounds.store_plan(db, tournament, plan, source=rounds.SOURCE_HUB, now=now)


def _store_item(db: sqlite_utils.Database, kind: str, item_id: str, data: Any, now: float) -> None:
    with db.atomic():
        db.table("hub_items").upsert(
            {"kind": kind, "item_id": item_id, "data": json.dumps(data), "received_at": now},
            pk="kind",
        )


def load_item(db: sqlite_utils.Database, kind: str) -> Any:
    """The last config / pairings / standings the hub pushed, or None."""
    row = db.execute("SELECT data FROM hub_items WHERE kind = ?", [kind]).fetchone()
    return json.loads(row[0]) if row else None


def lexicon_sha(path: Path | None) -> str | None:
    if path is None or not path.is_file():
        return None
    from samoobsluha.shared.lexicon import LexiconError, read_info

    try:
        return read_info(path).sha256
    except LexiconError:
        return None


class StationSync:
    def __init__(
        self,
        db_path: Path | str,
        net: NetworkConfig,
        *,
        psk: bytes | None = None,
        local_clock: Clock | None = None,
        lexicon_path: Path | None = None,
        station_name: str | None = None,
    ) -> None:
        self.net = net
        self.psk = psk if psk is not None else net.psk()
        self.clock = HubClock(local_clock)
        self.estimator = OffsetEstimator()
        self.dbw = DbWorker(db_path, outbox.migrations, rounds.migrations, migrations)
        self.epoch: str = self.dbw.call(outbox.meta, "station_epoch")
        if net.station_id:
            self.dbw.call(outbox.set_station_id, net.station_id)
        self.station_id: str = self.dbw.call(outbox.meta, "station_id")
        self.station_name = station_name or self.station_id
        self.lexicon_path = lexicon_path
        self.status = SyncStatus(acked_seq=self.dbw.call(outbox.acked_seq))
        self.status.lexicon_sha256 = lexicon_sha(lexicon_path)
        self.handlers: dict[str, list[Handler]] = {}
        self._wake = asyncio.Event()
        self._stopped = False
        self._channel: Channel | None = None
        self._time_id = 0
        self._time_sent: dict[int, float] = {}
        self._lexicon_rx: dict[str, Any] | None = None
        self._handler_tasks: set[asyncio.Future[Any]] = set()
        self._status_now = asyncio.Event()

    # -- public -----------------------------------------------------------------------
    def on(self, event: str, handler: Handler) -> None:
        """Register a handler: plan(RoundPlan), gong(signal, at), config(dict),
        show(kind, data), lexicon(Path), clock(SyncStatus), connected(bool)."""
        self.handlers.setdefault(event, []).append(handler)

    def nudge(self) -> None:
        """New outbox rows were committed: send them now rather than at the next poll."""
        self._wake.set()

    def plans(self) -> list[RoundPlan]:
        return self.dbw.call(rounds.load_plans, self.net.tournament_id)

    def note_signal(self, info: dict[str, Any]) -> None:
        self.status.last_signal = info

    async def run(self) -> None:
        """Connect, sync, reconnect with backoff; until :meth:`stop` or cancellation."""
        backoff = BACKOFF_MIN
        while not self._stopped:
            try:
                targets = await self._targets()
                if not targets:
                    raise ConnectionError("no hub of this tournament found")
                for host, port in targets:
                    try:
                        await self._session(host, port)
                        backoff = BACKOFF_MIN
                        break
                    except (ConnectionError, OSError, TimeoutError) as exc:
                        self.status.last_error = f"{host}:{port}: {exc or type(exc).__name__}"
                        log.info("hub link %s:%d: %s", host, port, exc or type(exc).__name__)
            except ProtocolError as exc:
                self.status.last_error = str(exc)
                log.warning("hub link refused: %s", exc)
            except (ConnectionError, OSError, TimeoutError) as exc:
                self.status.last_error = str(exc)
                log.info("hub link: %s", exc)
            finally:
                self._set_connected(False)
            if self._stopped:
                break
            await asyncio.sleep(backoff * random.uniform(0.7, 1.3))
            backoff = min(BACKOFF_MAX, backoff * 2)

    def stop(self) -> None:
        self._stopped = True
        if self._channel is not None:
            self._channel.writer.close()

    def close(self) -> None:
        self.dbw.close()

    # -- internals --------------------------------------------------------------------
    async def _targets(self) -> list[tuple[str, int]]:
        if self.net.hub:
            return [parse_hostport(self.net.hub)]
        hubs = await discover_hub(self.net.tournament_id, interfaces=self.net.mdns_interfaces)
        return [(h, p) for h, p, _ in hubs]

    def _emit(self, event: str, *args: Any) -> None:
        for handler in self.handlers.get(event, []):
            try:
                result = handler(*args)
                if asyncio.iscoroutine(result):
                    task = asyncio.ensure_future(result)
                    self._handler_tasks.add(task)
                    task.add_done_callback(self._handler_tasks.discard)
            except Exception:
                log.exception("%s handler failed", event)

    def _set_connected(self, value: bool) -> None:
        if self.status.connected != value:
            self.status.connected = value
            self._emit("connected", value)

    def _status_payload(self) -> dict[str, Any]:
        s = self.status
        s.clock_synced = self.clock.synced
        s.clock_offset = self.clock.offset
        s.clock_delay = self.clock.delay
        return StationStatus(
            name=self.station_name,
            version=software_version(),
            lexicon_sha256=s.lexicon_sha256,
            clock_synced=s.clock_synced,
            clock_offset=s.clock_offset,
            clock_delay=s.clock_delay,
            backlog=s.backlog,
            acked_seq=s.acked_seq,
            last_signal=s.last_signal,
            local_time=self.clock.local.now(),
        ).to_dict()

    async def _session(self, host: str, port: int) -> None:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, limit=protocol.MAX_FRAME + 64), CONNECT_TIMEOUT
        )
        try:
            try:
                channel, welcome = await protocol.client_handshake(
                    reader,
                    writer,
                    self.psk,
                    tournament=self.net.tournament_id,
                    station=self.station_id,
                    epoch=self.epoch,
                )
            except ConnectionError:
                raise ConnectionError(
                    "the hub hung up during the handshake: wrong tournament key or id?"
                ) from None
            self._channel = channel
            # the hub's word is what counts: resend everything after what it has stored
            if self.status.hub_id not in (None, welcome["hub"]):
                self.estimator.samples.clear()  # another hub, another clock
            hub_acked = welcome["acked"]
            await self.dbw.run(outbox.acknowledge, hub_acked)
            self.status.acked_seq = hub_acked
            self.status.hub_id = welcome["hub"]
            self.status.hub_address = f"{host}:{port}"
            self.status.last_error = None
            self.status.last_contact = self.clock.monotonic()
            self.status.backlog = await self.dbw.run(outbox.backlog)
            await channel.send({"t": "status", "status": self._status_payload()})
            self._set_connected(True)
            log.info("connected to hub %s at %s:%d", welcome["hub"], host, port)
            tasks = [
                asyncio.create_task(self._receiver(channel)),
                asyncio.create_task(self._sender(channel, hub_acked)),
                asyncio.create_task(self._timesync(channel)),
                asyncio.create_task(self._status_loop(channel)),
            ]
            try:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    exc = task.exception()
                    if exc is not None:
                        raise exc
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        except asyncio.IncompleteReadError:
            raise ConnectionResetError("hub closed the connection") from None
        finally:
            self._channel = None
            self._abort_lexicon()
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _sender(self, channel: Channel, start_after: int) -> None:
        sent = start_after
        while True:
            if sent - self.status.acked_seq < WINDOW:
                rows = await self.dbw.run(_pending_after, sent, BATCH)
                if rows:
                    await channel.send({"t": "rows", "rows": rows})
                    sent = rows[-1][0]
                    continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_EVERY)

    async def _timesync(self, channel: Channel) -> None:
        for _ in range(BURST):
            await self._time_request(channel)
            await asyncio.sleep(0.05)
        self._status_now.set()  # the estimate after the burst is the one worth reporting
        while True:
            await asyncio.sleep(RESYNC_EVERY)
            await self._time_request(channel)

    async def _time_request(self, channel: Channel) -> None:
        self._time_id += 1
        t1 = self.clock.local.monotonic()
        self._time_sent[self._time_id] = t1
        await channel.send({"t": "time_req", "id": self._time_id, "t1": t1})

    async def _status_loop(self, channel: Channel) -> None:
        while True:
            self._status_now.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._status_now.wait(), STATUS_EVERY)
            self.status.backlog = await self.dbw.run(outbox.backlog)
            await channel.send({"t": "status", "status": self._status_payload()})

    async def _receiver(self, channel: Channel) -> None:
        while True:
            msg = await asyncio.wait_for(channel.recv(), IDLE_TIMEOUT)
            t4 = self.clock.local.monotonic()
            self.status.last_contact = t4
            kind = msg["t"]
            if kind == "time_rep":
                self._on_time(msg, t4)
            elif kind == "ack":
                seq = msg["seq"]
                await self.dbw.run(outbox.acknowledge, seq)
                self.status.acked_seq = max(self.status.acked_seq, seq)
            elif kind == "plan":
                await self._on_plan(channel, msg)
            elif kind == "gong":
                self._emit("gong", msg["signal"], float(msg["at"]))
                await self._done(channel, msg["id"], True)
            elif kind == "config":
                await self.dbw.run(_store_item, "config", msg["id"], msg["config"], time.time())
                self._emit("config", msg["config"])
                await self._done(channel, msg["id"], True)
            elif kind == "show":
                await self.dbw.run(_store_item, msg["kind"], msg["id"], msg["data"], time.time())
                self._emit("show", msg["kind"], msg["data"])
                await self._done(channel, msg["id"], True)
            elif kind.startswith("lexicon_"):
                await self._on_lexicon(channel, msg)
            elif kind == "bye":
                raise ConnectionResetError(f"hub said bye: {msg['reason']}")
            else:
                raise ProtocolError(f"a hub may not send {kind!r}")

    def _on_time(self, msg: dict[str, Any], t4: float) -> None:
        t1 = self._time_sent.pop(msg["id"], None)
        if t1 is None or t1 != msg["t1"]:
            return  # not ours (or from before a reconnect): ignore
        # t1/t4 are local monotonic, t2/t3 hub wall time: the "offset" maps monotonic → hub
        self.estimator.add(t1, msg["t2"], msg["t3"], t4, t4)
        best = self.estimator.best()
        if best is not None:
            first = not self.clock.synced
            self.clock.set_offset(best.offset, best.delay)
            self.status.clock_synced = True
            self.status.clock_offset = self.clock.offset
            self.status.clock_delay = best.delay
            if first:
                self._status_now.set()  # tell the hub at once
                log.info(
                    "clock synced: offset %+.4f s, delay %.4f s", self.clock.offset, best.delay
                )
            self._emit("clock", self.status)

    async def _done(self, channel: Channel, item: str, ok: bool, detail: str = "") -> None:
        await channel.send({"t": "done", "id": item, "ok": ok, "detail": detail})

    async def _on_plan(self, channel: Channel, msg: dict[str, Any]) -> None:
        try:
            plan = RoundPlan.from_dict(msg["plan"])
        except (TypeError, ValueError) as exc:
            await self._done(channel, msg["id"], False, f"bad plan: {exc}")
            return
        news = await self.dbw.run(_store_plan, self.net.tournament_id, plan, time.time())
        if news:
            self._emit("plan", plan)
        await self._done(channel, msg["id"], True)

    async def _on_lexicon(self, channel: Channel, msg: dict[str, Any]) -> None:
        kind, item = msg["t"], msg["id"]
        rx = self._lexicon_rx
        if kind == "lexicon_begin":
            self._abort_lexicon()  # a push the hub restarted
            target = self.lexicon_path or (data_dir() / "lexicons" / Path(msg["name"]).name)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.incoming")
            self._lexicon_rx = {
                "id": item,
                "target": target,
                "tmp": tmp,
                "fh": tmp.open("wb"),
                "sha": hashlib.sha256(),
                "size": msg["size"],
                "expect_sha": msg["sha256"],
                "offset": 0,
            }
            return
        if rx is None or rx["id"] != item:
            raise ProtocolError("lexicon chunk without a matching begin")
        if kind == "lexicon_chunk":
            if msg["offset"] != rx["offset"] or rx["offset"] + len(msg["data"]) > rx["size"]:
                raise ProtocolError("lexicon chunk out of order or beyond the announced size")
            await asyncio.to_thread(rx["fh"].write, msg["data"])
            rx["sha"].update(msg["data"])
            rx["offset"] += len(msg["data"])
            return
        # lexicon_end
        self._lexicon_rx = None
        ok, detail = await asyncio.to_thread(self._finish_lexicon, rx)
        if ok:
            self.status.lexicon_sha256 = detail
            self.lexicon_path = rx["target"]
            self._emit("lexicon", rx["target"])
            await channel.send({"t": "status", "status": self._status_payload()})
        await self._done(channel, item, ok, detail)

    def _abort_lexicon(self) -> None:
        """Drop a half-received lexicon (the hub sends it again after a reconnect)."""
        rx, self._lexicon_rx = self._lexicon_rx, None
        if rx is not None:
            with contextlib.suppress(OSError):
                rx["fh"].close()
                rx["tmp"].unlink(missing_ok=True)

    @staticmethod
    def _finish_lexicon(rx: dict[str, Any]) -> tuple[bool, str]:
        fh = rx["fh"]
        fh.flush()
        os.fsync(fh.fileno())
        fh.close()
        tmp: Path = rx["tmp"]
        if rx["offset"] != rx["size"] or rx["sha"].hexdigest() != rx["expect_sha"]:
            tmp.unlink(missing_ok=True)
            return False, "SHA-256 or size mismatch; lexicon not replaced"
        from samoobsluha.shared.lexicon import Lexicon, LexiconError

        try:
            info = Lexicon.open(tmp).info
        except LexiconError as exc:
            tmp.unlink(missing_ok=True)
            return False, f"not a usable lexicon: {exc}"
        os.replace(tmp, rx["target"])
        dir_fd = os.open(rx["target"].parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return True, info.sha256

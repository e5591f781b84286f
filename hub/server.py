"""The hub's network side: accepts stations, stores their rows, keeps one clock for all.

:class:`HubServer` listens on TCP, advertises itself with zeroconf, and speaks
:mod:`shared.protocol`. It is also the API the dashboard and the ``hub round`` /
``hub gong`` … commands use (the commands reach a running server through the local
control socket, see :mod:`hub.control`): start a round N seconds ahead, change it, ring a
gong now, publish config / pairings / standings, push a lexicon. Every change is stored
first, then pushed to every connected station; each station confirms each item and the
confirmations are kept per station (:meth:`HubServer.deliveries`). A station that
connects later gets the current state on connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.hub.tournament import store as tour_store
from samoobsluha.shared import protocol
from samoobsluha.shared.address import format_hostport
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.dbworker import DbWorker
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.lexicon import read_info
from samoobsluha.shared.payloads import RESULT, PayloadError, StationStatus
from samoobsluha.shared.pin import PinHashState, pin_hash_state
from samoobsluha.shared.protocol import Channel, HallKeys, PeerLog, ProtocolError
from samoobsluha.shared.rounds import BASIC_SECONDS, WARNING_SECONDS, Phase, RoundPlan

from . import auth, hubtime, quota, store
from .backup import Backups, BackupSettings
from .rivals import RivalWatch
from .seat import local_seat
from .standby import FOLLOWS, HANDED_OVER, StandbyListener

log = logging.getLogger("hub.server")

#: a station's lexicon_trust that judges nothing (shared/lextrust.Trust)
UNTRUSTED = ("unsigned", "bad_signature")

START_LEAD = 5.0  # seconds between the referee's "start" and the start signal
GONG_LEAD = 1.0  # a manual gong rings this far ahead so every station has it in time
FIRST_FRAME_TIMEOUT = 5.0
IDLE_TIMEOUT = 30.0
DUPLICATE_WINDOW = 10.0  # a same-named station heard from this recently is not a ghost
# A broadcast (plan, gong, publication) goes to every station at once; one that has not
# taken its frame within this deadline is frozen or gone: its link is closed (it gets the
# current state when it reconnects) and nobody else waits for it.
BROADCAST_DEADLINE = 1.0
# Bounded resources: connections still in their handshake (nothing proved yet) share
# MAX_PENDING slots, at most MAX_PENDING_PER_ADDRESS per address, fairly (hub.quota:
# a newcomer takes the slot of the oldest handshake of the address holding the most);
# a hello with a valid MAC leaves its slot, and at most MAX_PROVING connections per
# station may sit between their hello and their first frame (a replayed hello). All
# connections together: MAX_CONNECTIONS. One log line per misbehaving address or
# station per LOG_EVERY seconds.
MAX_CONNECTIONS = 512
MAX_PENDING = 64
MAX_PENDING_PER_ADDRESS = 8
MAX_PROVING = 2
LOG_EVERY = 60.0
STALL_AFTER = 60.0  # a station whose backlog has not shrunk for this long is "stalled"
STATUS_SAVE_EVERY = 5.0  # a station's status is written at most this often (kept in memory)
WATCH_EVERY = 2.0  # budget periods and unsaved statuses are looked at this often
# results online (hub/publisher.py): a render-and-send pass this often when a target is
# set — the embargo decides what goes, the pass costs nothing when nothing changed
ONLINE_EVERY = 60.0
CUTOFF_SHOWN = 600.0  # a cut-off station stays flagged for the referee this long
MAX_ITEMS_TRACKED = 1024  # items sent on one link that await the station's done


class PeerCutOff(ProtocolError):
    """A station broke a limit of hub.quota: its link is closed, it is flagged on the
    dashboard and refused for :data:`quota.CUTOFF_COOLDOWN`."""


class RoundPlayed(ValueError):
    """Starting again, or cancelling, a round that has begun or has results: refused unless
    the referee confirmed it (``force``); a played round is never cancelled."""


def played_reason(plan: RoundPlan | None, results: int, now: float) -> list[Phrase]:
    """Why starting round ``plan.number`` again needs the referee's confirmation (empty when
    it does not): it has begun (running, paused or ended) or has results. A round never
    planned is a first start, never "again", whatever results the kiosks already took."""
    if plan is None:
        return []
    reasons = []
    if plan is not None and not plan.cancelled and now >= plan.start_at:
        phase = plan.status(now).phase
        reasons.append(
            Phrase("round.played.ended" if phase is Phase.ENDED else "round.played.under_way")
        )
    if results:
        reasons.append(Phrase("round.played.results", count=results))
    return reasons


@dataclass(eq=False)  # one per connection, keyed by identity
class StationConn:
    station: str
    epoch: str
    address: str
    channel: Channel
    status: dict[str, Any] = field(default_factory=dict)
    acked: int = -1  # the last ack sent on this connection
    sender: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_rx: float = 0.0  # hub monotonic time of the last frame
    progress_at: float = 0.0  # hub monotonic time the backlog last shrank (or was empty)
    best_backlog: int | None = None
    # flow control (hub.quota): rows and bytes received and not yet acknowledged, which
    # includes rows held back because the station's budget is full (never acknowledged)
    unacked_rows: int = 0
    unacked_bytes: int = 0
    held_rows: int = 0
    frames: quota.Bucket = field(
        default_factory=lambda: quota.Bucket(quota.FRAMES_PER_SECOND, quota.FRAME_BURST)
    )
    status_saved_at: float | None = None  # hub monotonic time of the last status write
    status_dirty: bool = False
    # items sent to this station (plans, gongs, publications …; on this link or one before
    # it): a done is taken only for one of them; shared by its connections
    items: dict[str, None] = field(default_factory=dict)

    def sent(self, item: Any) -> None:
        if isinstance(item, str):
            self.items[item] = None
            if len(self.items) > MAX_ITEMS_TRACKED:
                del self.items[next(iter(self.items))]


class HubServer:
    def __init__(
        self,
        db_path: Path | str,
        psk: bytes | HallKeys,
        *,
        host: str = "0.0.0.0",
        port: int = protocol.DEFAULT_PORT,
        clock: Clock | None = None,
        advertise: bool = True,
        mdns_interfaces: list[str] | None = None,
        budget: quota.Budget | None = None,
        backup: BackupSettings | None = None,
        standby_port: int | None = None,
        online_every: float | None = ONLINE_EVERY,
        seat: str | None = None,
    ) -> None:
        # the hall secret: station keys and the hub's signing key are derived from it
        self.keys = psk if isinstance(psk, HallKeys) else HallKeys(psk)
        self.host = host
        self.port = port
        self.clock = clock or SystemClock()
        self.advertise = advertise
        self.mdns_interfaces = mdns_interfaces
        # Two lanes to hub.db, each a connection on its own thread. The stations' bulk
        # (rows, status saves, done) goes through ``dbw``; the referee's path (control
        # commands, round plans, publications, handshakes, the state sent on connect)
        # through ``lane``, so it never queues behind a peer's rows. SQLite (WAL) lets
        # the lane read while ingest writes; a lane write waits for at most one ingest
        # commit, which flow control and the budgets keep small (hub.quota).
        # The tournament's tables too: a station's result enters the tournament in the
        # transaction that stores it (store.store_received).
        migration_sets = (tour_store.migrations, store.migrations, auth.migrations)
        self.dbw = DbWorker(db_path, *migration_sets)
        self.lane = DbWorker(db_path, *migration_sets)
        self.revoked: dict[str, int] = self.dbw.call(auth.load_revocations)
        self.max_connections = MAX_CONNECTIONS
        self.slots = quota.HandshakeSlots(MAX_PENDING, MAX_PENDING_PER_ADDRESS)
        self.max_proving = MAX_PROVING
        self._proving: dict[str, list[asyncio.WriteTransport]] = {}
        self.peer_log = PeerLog(log, LOG_EVERY)
        self._open = 0
        self.refused_unauthenticated = 0  # handshakes refused (a test and bench figure)
        self.budget = budget or quota.BUDGET
        self.usage: dict[str, quota.Usage] = {}  # per station, this budget period
        # station -> (hub monotonic time it may connect again, why, hub time of the cut)
        self.cut_off: dict[str, tuple[float, str, float]] = {}
        self.cutoff_cooldown = quota.CUTOFF_COOLDOWN
        self._items: dict[str, dict[str, None]] = {}  # per station: StationConn.items
        self.broadcast_deadline = BROADCAST_DEADLINE
        self.stall_after = STALL_AFTER
        self.published_dir = Path(db_path).parent / "published"
        self.data_dir = Path(db_path).parent
        self.tournament, self.hub_id, _ = self.dbw.call(store.ensure_identity)
        # the machine this hub runs on (hub/seat.py), never from its data: stations follow
        # one seat, so a copy of this data elsewhere is refused without a signed handover
        self.seat = seat or local_seat(data=self.data_dir)
        self.conns: dict[str, StationConn] = {}
        self._plans: list[RoundPlan] = self.lane.call(store.load_plans)  # budget periods
        self._server: asyncio.Server | None = None
        self._zc: Any = None
        self._zc_info: Any = None
        # (connection, its checked rows, how many rows and bytes they weigh in its window)
        self._pending: list[tuple[StationConn, store.Received, int, int]] = []
        self._flushing = False
        self._gong_counter = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self.screen_urls: list[str] = []  # the hall screen's addresses (hub.web)
        # automatic backups (hub/backup.py): at start, after a publication, every N minutes
        self.backups = Backups(Path(db_path), backup or BackupSettings())
        self._backing_up = False
        # results online: a pass every ``online_every`` s (None or 0: only ``hub online send``)
        self.db_path = Path(db_path)
        self.online_every = online_every
        self._online_due = 0.0  # hub monotonic time of the next pass
        self._online_running = False
        self._online_error = ""  # the last pass's error, logged once until it changes
        self.rivals: RivalWatch | None = None  # other hubs of this tournament (hub.rivals)
        self.standby_port = standby_port  # None: no standby link (hub.standby)
        self.standby: StandbyListener | None = None
        # the hub a signed handover named instead of this one, as stations report it
        self.replaced_by: str | None = None
        # stations that refuse this hub because they follow another seat: station -> the
        # address of the hub they follow (as each said in its status)
        self.followed_elsewhere: dict[str, str] = {}
        self.projector_urls: list[str] = []  # the projector's, with its token (hub.web)

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, self.host, self.port, limit=protocol.MAX_FRAME + 64
        )
        self.port = self._server.sockets[0].getsockname()[1]
        log.info(
            "hub %s of tournament %s on %s",
            self.hub_id,
            self.tournament,
            format_hostport(self.host, self.port),
        )
        self._spawn(self._watch())
        await self._hand_over()
        if self.standby_port is not None:
            self.standby = StandbyListener(
                Path(self.data_dir) / "hub.db", self.keys, self.tournament, self.hub_id
            )
            self.standby_port = await self.standby.start(self.host, self.standby_port)
            log.info("standby link on %s", format_hostport(self.host, self.standby_port))
        if self.advertise:
            await self._advertise()

    async def _hand_over(self) -> None:
        """After ``hub takeover`` (hub/standby.py), the first start publishes the signed
        handover: every station that connects gets it and from then on refuses the hubs it
        retires (the old primary, and any copy of its data)."""
        pending = await self.lane.run(store.get_meta, "handover_pending")
        if not pending:
            return
        retired = json.loads(pending)
        await self.publish(
            "handover", {"hub": self.hub_id, "retired": retired, "seat": self.seat}
        )
        await self.lane.run(store.set_meta, "handover_pending", None)
        log.warning("handover published: this hub %s replaces %s", self.hub_id, retired)

    async def _advertise(self) -> None:
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        any_address = self.host in ("0.0.0.0", "::", "")
        ipv6 = ":" in self.host and not any_address
        interfaces = self.mdns_interfaces
        if interfaces is None and not any_address and not ipv6:
            interfaces = [self.host]
        # stations browse over IPv4; a hub listening on an IPv6 address announces it there
        kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
        if interfaces:
            kwargs["interfaces"] = interfaces
        self._zc = AsyncZeroconf(**kwargs)
        if any_address:
            from samoobsluha.hub.web.config import local_addresses

            addresses = [socket.inet_aton(a) for a in local_addresses()]
        elif ipv6:
            addresses = [socket.inet_pton(socket.AF_INET6, self.host.split("%", 1)[0])]
        else:
            addresses = [socket.inet_aton(self.host)]
        self._zc_info = AsyncServiceInfo(
            protocol.SERVICE_TYPE,
            f"{self.hub_id}.{protocol.SERVICE_TYPE}",
            addresses=addresses,
            port=self.port,
            properties={
                "tournament": self.tournament,
                "hub": self.hub_id,
                # the public key stations pin: theirs resolves first, fakes cannot delay it
                "key": self.keys.public_key.hex(),
                "v": str(protocol.PROTOCOL_VERSION),
            },
        )
        await self._zc.async_register_service(self._zc_info, allow_name_change=True)
        # another hub of this tournament (a copy of this data) is told on both dashboards
        self.rivals = RivalWatch(
            self._zc.zeroconf,
            self._zc_info.name,
            self.tournament,
            self.keys.public_key.hex(),
            own_port=self.port,
            own_addresses=self._zc_info.parsed_addresses(),
        )
        self.rivals.start()

    async def close(self) -> None:
        if self.standby is not None:
            await self.standby.close()
        if self.rivals is not None:
            await self.rivals.close()
        if self._zc is not None:
            with contextlib.suppress(Exception):
                # the first await withdraws the service, the second waits for its goodbyes
                # (three multicasts, well under a second): closing at once sent none, and
                # every other hub and station kept this one's records until they expired
                goodbyes = await self._zc.async_unregister_service(self._zc_info)
                async with asyncio.timeout(3.0):
                    await goodbyes
            await self._zc.async_close()
            self._zc = None
        if self._server is not None:
            self._server.close()
            for conn in list(self.conns.values()):
                with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                    # tell the station, so it reconnects at once rather than on a timeout
                    async with asyncio.timeout(1.0):
                        await conn.channel.send({"t": "bye", "reason": "hub shutting down"})
                await conn.channel.close()
            await self._server.wait_closed()
            self._server = None
        for task in list(self._tasks):
            task.cancel()
        self.dbw.close()
        self.lane.close()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- connections ----------------------------------------------------------------------
    def _key_for(self, station: str, key_id: int) -> bytes | None:
        """The key of ``station`` issued under ``key_id``; None when revoked."""
        if key_id <= self.revoked.get(station, -1):
            return None
        return self.keys.station_key(station, key_id)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        ip = str(peer[0]) if peer else "?"
        address = f"{peer[0]}:{peer[1]}" if peer else "?"
        if self._open >= self.max_connections:
            # nothing read, nothing answered: the cheapest refusal there is
            self.refused_unauthenticated += 1
            self.peer_log.warning(ip, "refused %s: too many connections", address)
            writer.transport.abort()
            return
        # a handshake slot, shared fairly per address: a full house of silent
        # connections gives way to a newcomer rather than keep a station out
        slot, victim = self.slots.admit(ip, writer.transport, self.clock.monotonic())
        if victim is not None:
            self.refused_unauthenticated += 1
            self.peer_log.warning(
                "slots:" + victim.address,
                "dropped a handshake from %s after %.1f s: its slot went to a newer connection"
                " (%d handshakes held by %d addresses)",
                victim.address,
                self.clock.monotonic() - victim.opened,
                len(self.slots),
                len(self.slots.by_address),
            )
        self._open += 1
        proving: list[asyncio.WriteTransport] | None = None

        def hello_ok(station: str) -> None:
            """The hello's MAC held: out of the handshake slots, into the station's own
            (at most ``max_proving`` between a hello and a first frame: a replay)."""
            nonlocal proving
            self.slots.release(slot)
            proving = self._proving.setdefault(station, [])
            while len(proving) >= self.max_proving:
                proving.pop(0).abort()
            proving.append(writer.transport)

        def done_proving() -> None:
            nonlocal proving
            if proving is not None:
                with contextlib.suppress(ValueError):
                    proving.remove(writer.transport)
                if not proving:
                    for name, held in list(self._proving.items()):
                        if held is proving:
                            del self._proving[name]
                proving = None

        async def acked_for(station: str, epoch: str) -> tuple[int, bytes]:
            hello_ok(station)
            cut = self.cut_off.get(station)
            if cut is not None and self.clock.monotonic() < cut[0]:
                left = cut[0] - self.clock.monotonic()
                raise ProtocolError(
                    f"station {station!r} was cut off ({cut[1]}); refused for {left:.0f} s more"
                )
            return await self.lane.run(auth.stored_tip, station, epoch)

        conn: StationConn | None = None
        try:
            channel, hello = await protocol.server_handshake(
                reader,
                writer,
                self.keys,
                tournament=self.tournament,
                hub=self.hub_id,
                acked_for=acked_for,
                key_for=self._key_for,
                seat=self.seat,
            )
            # The station proves it holds the key only with its first sealed frame (a
            # replayed hello proves nothing); until then nothing about it is recorded.
            async with asyncio.timeout(FIRST_FRAME_TIMEOUT):
                first = await channel.recv()
            if first["t"] != "status":
                raise ProtocolError(f"first frame must be status, not {first['t']!r}")
            done_proving()
            conn = StationConn(hello.station, hello.epoch, address, channel)
            conn.items = self._items.setdefault(conn.station, {})
            conn.last_rx = conn.progress_at = self.clock.monotonic()
            old = self.conns.get(conn.station)
            if old is not None:
                alive = self.clock.monotonic() - old.last_rx < DUPLICATE_WINDOW
                if old.epoch != conn.epoch and alive:
                    # two machines with one name (both still "raspberrypi"?): refuse the
                    # newcomer rather than let them knock each other off in turn
                    raise ProtocolError(
                        f"station id {conn.station!r} is already connected with another "
                        f"database (epoch {old.epoch}); give each station its own name"
                    )
                log.info("station %s reconnected; closing its old connection", conn.station)
                await old.channel.close()
            self.conns[conn.station] = conn
            await self._on_status(conn, first["status"])
            await self._load_usage(conn.station)
            log.info("station %s (epoch %s) connected from %s", conn.station, conn.epoch, address)
            await self._send_state(conn)
            while True:
                # a station sends a clock request or status every few seconds; silence
                # means it lost power or the Wi-Fi dropped it without a FIN
                async with asyncio.timeout(IDLE_TIMEOUT):
                    msg = await channel.recv()
                received = self.clock.now()
                conn.last_rx = self.clock.monotonic()
                kind = msg["t"]
                if kind == "rows":
                    if msg["rows"]:
                        self._take_rows(conn, msg["rows"], received)
                    continue
                if not conn.frames.take(conn.last_rx):
                    raise PeerCutOff(
                        f"more than {quota.FRAMES_PER_SECOND:.0f} frames a second"
                        f" (beyond a burst of {quota.FRAME_BURST})"
                    )
                if kind == "time_req":
                    channel.send_nowait(
                        {
                            "t": "time_rep",
                            "id": msg["id"],
                            "t1": msg["t1"],
                            "t2": received,
                            "t3": self.clock.now(),
                        }
                    )
                    if writer.transport.get_write_buffer_size() > quota.MAX_SEND_BUFFER:
                        raise PeerCutOff("it does not read what the hub sends")
                elif kind == "status":
                    await self._on_status(conn, msg["status"])
                elif kind == "done":
                    await self._on_done(conn, msg, received)
                else:
                    raise ProtocolError(f"a station may not send {kind!r}")
        except PeerCutOff as exc:
            assert conn is not None
            self._cut(conn, str(exc))
        except ProtocolError as exc:
            if conn is None:
                self.refused_unauthenticated += 1
            self.peer_log.warning(ip, "refused %s: %s", conn.station if conn else address, exc)
        except TimeoutError:
            if conn is None:
                self.refused_unauthenticated += 1
            who = conn.station if conn else address
            self.peer_log.warning(ip, "closed %s: nothing received in time", who)
        except (ConnectionError, OSError) as exc:
            if conn is not None:
                log.info("station %s disconnected (%s)", conn.station, exc)
        finally:
            self.slots.release(slot)
            done_proving()
            self._open -= 1
            if conn is not None and self.conns.get(conn.station) is conn:
                del self.conns[conn.station]
                if conn.status_dirty:
                    self._spawn(self._save_status(conn))
            if conn is None:
                writer.transport.abort()  # nothing to flush to a peer that proved nothing
            else:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()

    def _cut(self, conn: StationConn, why: str) -> None:
        """Close a station's link for breaking a limit; flag it and refuse it a while."""
        now = self.clock.monotonic()
        self.cut_off[conn.station] = (now + self.cutoff_cooldown, why, self.clock.now())
        self.peer_log.warning(
            "cut:" + conn.station,
            "station %s cut off: %s; refused for %.0f s",
            conn.station,
            why,
            self.cutoff_cooldown,
        )
        conn.channel.writer.transport.abort()

    # -- rows: flow control, budget, one ingest pipeline --------------------------------------
    def _period(self) -> tuple[Any, float]:
        return quota.budget_period(self._plans, self.clock.now(), self.budget.period)

    async def _load_usage(self, station: str) -> quota.Usage:
        """The station's use of its budget this period (read from hub.db once per period
        after a restart, then counted here)."""
        period, start = self._period()
        usage = self.usage.get(station)
        if usage is None or usage.period != period:
            rows, size = await self.lane.run(store.usage_since, station, start)
            usage = self.usage[station] = quota.Usage(period, rows, size)
        return usage

    def _take_rows(self, conn: StationConn, rows: list[Any], received: float) -> None:
        """A station's rows frame: check the window, take what its budget allows into the
        ingest pipeline, hold back (unacknowledged) what it does not."""
        size = quota.frame_bytes(rows)
        conn.unacked_rows += len(rows)
        conn.unacked_bytes += size
        if conn.unacked_rows > quota.MAX_UNACKED_ROWS or (
            conn.unacked_bytes > quota.MAX_UNACKED_BYTES
        ):
            raise PeerCutOff(
                f"{conn.unacked_rows} rows ({conn.unacked_bytes} bytes) sent without waiting"
                f" for acknowledgements (the window is {quota.MAX_UNACKED_ROWS} rows,"
                f" {quota.MAX_UNACKED_BYTES} bytes)"
            )
        period, _ = self._period()
        usage = self.usage.get(conn.station)
        if usage is None or usage.period != period:
            usage = self.usage[conn.station] = quota.Usage(period)
        budget = self.budget
        take, weight = len(rows), size
        if usage.full_since is None and budget.exceeded_by(usage.rows + take, usage.bytes + size):
            take, weight = 0, 0
            for row in rows:
                w = len(row[1]) + len(row[2])
                if budget.exceeded_by(usage.rows + take + 1, usage.bytes + weight + w):
                    break
                take, weight = take + 1, weight + w
            usage.full_since = self.clock.now()
            log.warning(
                "station %s used its budget for this period (%d rows, %d bytes): further"
                " rows are held back until the next round",
                conn.station,
                budget.rows,
                budget.bytes,
            )
        elif usage.full_since is not None:
            take, weight = 0, 0
        if take < len(rows):
            held = len(rows) - take
            usage.refused += held
            conn.held_rows += held
            self.peer_log.warning(
                "budget:" + conn.station,
                "station %s is over its budget: %d rows held back this period",
                conn.station,
                usage.refused,
            )
        if take:
            usage.rows += take
            usage.bytes += weight
            # checked here, on the event loop: the database thread only stores
            checked = store.receive(conn.station, conn.epoch, rows[:take], received)
            self._pending.append((conn, checked, take, weight))
            if not self._flushing:
                self._flushing = True
                self._spawn(self._flush())

    async def _flush(self) -> None:
        """Group commit, one pipeline for all stations: each round stores everything that
        arrived while the round before was being stored (from any station, in arrival
        order) in ONE transaction, then acks each station after that commit. The
        database thread starts the next round at once: no station waits for its own turn,
        and the thread never sits idle while rows are queued."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                conns = list(dict.fromkeys(conn for conn, *_ in batch))
                for conn, _, n, weight in batch:  # stored or failed, no longer in flight
                    conn.unacked_rows -= n
                    conn.unacked_bytes -= weight
                try:
                    result = await self.dbw.run(store.store_received, [r for _, r, *_ in batch])
                except Exception as exc:  # the disk is full, the file went read-only …
                    # nothing was acked; drop the links so the stations resend after a backoff
                    for conn in conns:
                        log.error(
                            "cannot store rows of %s (%s); closing its link", conn.station, exc
                        )
                        self._spawn(conn.channel.close())
                    continue
                # what became of a withdrawal goes to its station before the ack: a kiosk
                # that sees its row at the hub has the hub's word on it too
                for conn in dict.fromkeys(c for c, r, *_ in batch if _withdraws(r)):
                    await self._tell_withdrawals(conn)
                now = self.clock.monotonic()
                for conn in conns:
                    acked = result[(conn.station, conn.epoch)]
                    if acked != conn.acked:
                        conn.acked = acked
                        conn.progress_at = now
                        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                            conn.channel.send_nowait({"t": "ack", "seq": acked})
        finally:
            self._flushing = False

    async def _tell_withdrawals(self, conn: StationConn) -> None:
        """Tell ``conn``'s station what the tournament made of its withdrawals (the
        ``withdrawals`` item, kept like the referee PIN: one record for the hall, each
        station sent its own part, again whenever it connects). Best effort: a failure is
        logged, the rows stay stored and acknowledged, and the next connect sends it."""
        try:
            decisions = await self.dbw.run(store.withdrawal_decisions, conn.station)
            published = await self.lane.run(store.load_published)
            _, held = published.get("withdrawals", ("", {}))
            stations = dict(held.get("stations") or {}) if isinstance(held, dict) else {}
            stations[conn.station] = decisions
            data = {"stations": stations}
            digest = hashlib.sha256(repr(data).encode()).hexdigest()[:12]
            item = f"withdrawals:{await self._next_version('withdrawals')}:{digest}"
            await self.lane.run(store.save_published, "withdrawals", item, data, self.clock.now())
            msg = _withdrawals_msg(item, stations, conn.station)
            if msg is not None:
                await self._send(conn, msg)
        except Exception:  # never the acks' loss: the station hears it on its next connect
            log.exception("telling %s what became of its withdrawals", conn.station)

    async def _watch(self) -> None:
        """Every few seconds: write statuses held back, and when a new budget period
        begins, reconnect the stations whose rows were held back so they send them."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                period, _ = self._period()
                for station, usage in list(self.usage.items()):
                    if usage.period == period:
                        continue
                    del self.usage[station]
                    conn = self.conns.get(station)
                    if conn is not None and conn.held_rows:
                        log.info("station %s: a new budget period; reconnecting it", station)
                        self._spawn(conn.channel.close())
                for conn in list(self.conns.values()):
                    if conn.status_dirty:
                        await self._save_status(conn)
                if self.backups.enabled and not self._backing_up:
                    self._spawn(self._backup())
                mono = self.clock.monotonic()
                if self.online_every and not self._online_running and mono >= self._online_due:
                    self._online_due = mono + self.online_every
                    self._spawn(self._online())
            except Exception:  # never let the watcher die (the disk, a bug)
                log.exception("hub watcher")

    async def _backup(self) -> None:
        """An automatic backup when one is due, on a thread of its own: it reads through
        its own connection, so neither lane waits for a slow USB stick."""
        self._backing_up = True
        try:
            await asyncio.to_thread(self.backups.run, self.clock.now())
        except Exception:
            log.exception("automatic backup")
        finally:
            self._backing_up = False

    async def _online(self) -> None:
        """A results-online pass (hub/publisher.py) on a thread of its own with its own
        connection: a slow uplink or a target that hangs never holds a lane, a gong or a
        station; at most one pass at a time."""
        self._online_running = True
        try:
            await asyncio.to_thread(self._online_pass)
        except Exception:
            log.exception("results online")
        finally:
            self._online_running = False

    def _online_pass(self) -> None:
        from samoobsluha.shared.storage import open_db

        from . import publisher

        db = open_db(self.db_path, tour_store.migrations, store.migrations, publisher.migrations)
        try:
            target = publisher.setting(db, "target")
            if not target:
                return
            lang = publisher.pages_language(self.data_dir)
            try:
                now = self.clock.now()
                done = publisher.publish_pass(db, self.keys, self.tournament, now, lang)
            except publisher.PublishError as exc:
                done = publisher.Pass(2, [], [], str(exc))
        finally:
            db.close()
        if done.sent:
            log.info("results online: %d pages sent to %s", len(done.sent), target)
        if done.error and done.error != self._online_error:
            every = self.online_every
            log.warning("results online: %s (tried again every %.0f s)", done.error, every)
        elif self._online_error and not done.error:
            log.info("results online: %s reached again", target)
        self._online_error = done.error

    async def _on_status(self, conn: StationConn, status: dict[str, Any]) -> None:
        try:
            StationStatus.from_dict(status)
        except PayloadError as exc:
            raise ProtocolError(f"bad status: {exc}") from None
        was = conn.status.get("lexicon_trust")
        conn.status = dict(status)
        if status.get("lexicon_trust") in UNTRUSTED and was not in UNTRUSTED:
            # its lexicon (the published one, perhaps, but without the signature beside
            # it: built on the card) judges nothing: send the published one, signed
            await self._resend_lexicon(conn)
        error = str(status.get("last_error") or "")
        if error.startswith(HANDED_OVER) and self.replaced_by is None:
            self.replaced_by = error[len(HANDED_OVER) :].split(":", 1)[0].strip()
            log.error("station %s refuses this hub: %s", conn.station, error)
        if error.startswith(FOLLOWS):
            where = error[len(FOLLOWS) :].strip().split(" ", 1)[0].rstrip(",;:")
            if self.followed_elsewhere.get(conn.station) != where:
                log.error("station %s refuses this hub: %s", conn.station, error)
            self.followed_elsewhere[conn.station] = where
        else:
            self.followed_elsewhere.pop(conn.station, None)
        backlog = status.get("backlog")
        if isinstance(backlog, int):
            if backlog == 0 or conn.best_backlog is None or backlog < conn.best_backlog:
                conn.progress_at = self.clock.monotonic()
            conn.best_backlog = backlog
        # at most one write per STATUS_SAVE_EVERY: the newest is in memory (stations())
        now = self.clock.monotonic()
        if conn.status_saved_at is None:
            # part of the handshake: the referee's lane, not behind anyone's rows
            await self._save_status(conn, self.lane)
        elif now - conn.status_saved_at >= STATUS_SAVE_EVERY:
            await self._save_status(conn)
        else:
            conn.status_dirty = True

    async def _save_status(self, conn: StationConn, lane: DbWorker | None = None) -> None:
        conn.status_dirty = False
        conn.status_saved_at = self.clock.monotonic()
        await (lane or self.dbw).run(
            store.save_status, conn.station, conn.epoch, conn.address, conn.status, self.clock.now()
        )

    async def _on_done(self, conn: StationConn, msg: dict[str, Any], received: float) -> None:
        """A station confirms an item the hub sent it on this link (only those: a done
        for anything else would be a row the hub stores for nothing)."""
        item = msg["id"]
        if item not in conn.items:
            self.peer_log.warning(
                "done:" + conn.station,
                "station %s confirmed item %r the hub did not send it; ignored",
                conn.station,
                item[:64],
            )
            return
        del conn.items[item]
        detail = str(msg.get("detail", ""))[: protocol.MAX_DETAIL]
        await self.dbw.run(store.save_delivery, item, conn.station, msg["ok"], detail, received)

    async def _send_state(self, conn: StationConn) -> None:
        """Everything a (re)connecting station must have: plans, config, shows, lexicon.
        A signed handover first: a station that follows another seat waits for it and
        takes nothing else before it (station/sync.py)."""
        published = await self.lane.run(store.load_published)
        if "handover" in published:
            item_id, data = published["handover"]
            await self._send(conn, _item_msg("handover", item_id, data))
        for plan in await self.lane.run(store.load_plans):
            await self._send(conn, _plan_msg(plan))
        for kind, (item_id, data) in sorted(published.items()):
            if kind == "handover":
                continue  # sent first
            if kind == "lexicon":
                if (
                    conn.status.get("lexicon_sha256") != data["lexicon_sha256"]
                    or conn.status.get("lexicon_trust") in UNTRUSTED
                ):
                    self._spawn(self._send_lexicon(conn, item_id, data))
            elif kind == "referee_pin":
                pin = _pin_msg(item_id, (data.get("hashes") or {}).get(conn.station))
                if pin is not None:  # a station not known when the PIN was set keeps its own
                    await self._send(conn, pin)
            elif kind == "withdrawals":  # each station its own part only
                told = _withdrawals_msg(item_id, data.get("stations") or {}, conn.station)
                if told is not None:
                    await self._send(conn, told)
            else:
                await self._send(conn, _item_msg(kind, item_id, data))

    async def _send(self, conn: StationConn, msg: dict[str, Any]) -> None:
        conn.sent(msg.get("id"))
        await conn.channel.send(msg)

    async def _resend_lexicon(self, conn: StationConn) -> None:
        published = await self.lane.run(store.load_published)
        if "lexicon" in published:
            item_id, data = published["lexicon"]
            self._spawn(self._send_lexicon(conn, item_id, data))

    async def _send_lexicon(self, conn: StationConn, item_id: str, info: dict[str, Any]) -> None:
        path = Path(info["path"])
        begin: dict[str, Any] = {
            "t": "lexicon_begin",
            "id": item_id,
            "ver": store.item_version(item_id),
            "name": info["name"],
            "size": info["size"],
            "sha256": info["file_sha256"],
        }
        if info.get("lexsig"):  # the hub's signature of it (shared/lextrust.py)
            begin["lexsig"] = info["lexsig"]
        try:
            async with conn.sender:
                conn.sent(item_id)
                await conn.channel.send(begin)
                with path.open("rb") as fh:
                    offset = 0
                    while chunk := fh.read(protocol.LEXICON_CHUNK):
                        await conn.channel.send(
                            {"t": "lexicon_chunk", "id": item_id, "offset": offset, "data": chunk}
                        )
                        offset += len(chunk)
                await conn.channel.send({"t": "lexicon_end", "id": item_id})
        except (ConnectionError, OSError) as exc:
            log.info("lexicon push to %s interrupted: %s", conn.station, exc)

    async def _broadcast(
        self, msg: dict[str, Any] | Callable[[StationConn], dict[str, Any] | None]
    ) -> list[str]:
        """Send ``msg`` to every connected station at once (signed once for all; or a
        function giving each station its own message, None: nothing for that one); a
        station that does not take it within :data:`BROADCAST_DEADLINE` delays nobody
        else: its link is cut and it gets the current state when it reconnects."""
        signed = None if callable(msg) else protocol.sign_item(self.keys, self.tournament, msg)
        deadline = self.broadcast_deadline

        async def one(conn: StationConn) -> str | None:
            if signed is not None:
                msg_ = signed
            else:
                assert callable(msg)
                own = msg(conn)
                if own is None:
                    return None
                msg_ = protocol.sign_item(self.keys, self.tournament, own)
            try:
                async with asyncio.timeout(deadline):
                    await self._send(conn, msg_)
                return conn.station
            except TimeoutError:
                self.peer_log.warning(
                    conn.station,
                    "station %s did not take %s within %.1f s; closing its link",
                    conn.station,
                    msg_["t"],
                    deadline,
                )
                conn.channel.writer.transport.abort()
            except (ConnectionError, OSError) as exc:
                log.info("could not send %s to %s: %s", msg_["t"], conn.station, exc)
            return None

        results = await asyncio.gather(*(one(c) for c in list(self.conns.values())))
        return [r for r in results if r is not None]

    # -- API for the dashboard and the control socket --------------------------------------
    async def stations(self) -> list[dict[str, Any]]:
        """Every station's last status, ``connected``, and the referee's flags:

        ``stalled``    connected with a backlog that has not shrunk for
                       :data:`STALL_AFTER` seconds (its sync is stuck);
        ``cut_off``    why its link was cut for breaking a limit (hub.quota), for
                       :data:`CUTOFF_SHOWN` seconds after (else None);
        ``over_budget`` its rows this round exceed its budget: the rest are held back;
        ``budget``     rows and bytes stored this period, rows held back, the limits."""
        rows = await self.lane.run(store.load_stations)
        now = self.clock.monotonic()
        period, _ = self._period()
        for row in rows:
            sid = row["station_id"]
            conn = self.conns.get(sid)
            row["connected"] = conn is not None
            if conn is not None and conn.status:
                row["status"] = dict(conn.status)  # newer than the one saved
            row["revoked"] = sid in self.revoked
            cut = self.cut_off.get(sid)
            shown = cut is not None and now - (cut[0] - self.cutoff_cooldown) < CUTOFF_SHOWN
            row["cut_off"] = cut[1] if shown and cut is not None else None
            row["cut_off_at"] = cut[2] if shown and cut is not None else None
            usage = self.usage.get(sid)
            if usage is not None and usage.period != period:
                usage = None
            row["over_budget"] = usage is not None and usage.full_since is not None
            # a station over its budget waits for the next round, it is not stuck
            row["stalled"] = bool(
                conn is not None
                and not row["over_budget"]
                and (conn.best_backlog or 0) > 0
                and now - conn.progress_at > self.stall_after
            )
            row["budget"] = {
                "rows": usage.rows if usage else 0,
                "bytes": usage.bytes if usage else 0,
                "held": usage.refused if usage else 0,
                "max_rows": self.budget.rows,
                "max_bytes": self.budget.bytes,
            }
        return rows

    async def revoke_station(self, station: str) -> dict[str, Any]:
        """Refuse every key issued so far to ``station`` and drop its link at once."""
        bound = await self.lane.run(auth.revoke, station, self.clock.now())
        self.revoked[station] = bound
        conn = self.conns.get(station)
        if conn is not None:
            conn.channel.writer.transport.abort()
        log.warning("station %s: keys issued up to %d revoked", station, bound)
        return {"station": station, "revoked_before": bound, "was_connected": conn is not None}

    async def rounds(self) -> list[dict[str, Any]]:
        now = self.clock.now()
        out = []
        for plan in await self.lane.run(store.load_plans):
            status = plan.status(now)
            out.append(
                {"plan": plan.to_dict(), "phase": str(status.phase), "remaining": status.remaining}
            )
        return out

    async def start_round(
        self,
        number: int,
        *,
        at: float | None = None,
        lead: float = START_LEAD,
        basic_seconds: float = BASIC_SECONDS,
        warning_seconds: float = WARNING_SECONDS,
        force: bool = False,
    ) -> dict[str, Any]:
        """Plan round ``number`` to start at ``at`` (hub time) or ``lead`` seconds from now.
        A round that has begun or has results starts again only with ``force`` (the
        referee confirmed it); otherwise :class:`RoundPlayed`."""
        if number < 1:
            raise ValueError(Phrase("err.round.first"))
        if warning_seconds >= basic_seconds:
            raise ValueError(Phrase("err.schedule.warning"))
        # Never on a clock guessed after a restart (hub.hubtime): every gong would be off.
        hubtime.require_confirmed(self.data_dir)
        old = await self.lane.run(store.load_plan, number)
        if not force:
            results = await self.lane.run(store.round_results_count, number)
            reasons = played_reason(old, results, self.clock.now())
            if reasons:
                raise RoundPlayed(Phrase("err.round.start_played", round=number, reasons=reasons))
        start_at = at if at is not None else self.clock.now() + lead
        if old is not None:
            # started again: a new epoch, so every station gives the start (and later the
            # warning and end) anew instead of counting them as given in the first start
            plan = old.restarted(
                start_at, basic_seconds=basic_seconds, warning_seconds=warning_seconds
            )
        else:
            plan = RoundPlan(
                number, start_at, basic_seconds=basic_seconds, warning_seconds=warning_seconds
            )
        return await self._publish_plan(plan)

    async def change_round(self, number: int, action: str, seconds: float = 0.0) -> dict[str, Any]:
        """``action``: delay, extend (by ``seconds``), pause, resume, cancel."""
        plan = await self.lane.run(store.load_plan, number)
        if plan is None:
            raise ValueError(Phrase("err.round.not_planned", round=number))
        now = self.clock.now()
        if action == "delay":
            if not plan.cancelled and now >= plan.start_at:
                # its start signal was given: a later start would be silent and the clocks
                # would count a round being played back to "starts in"; start it again
                raise RoundPlayed(Phrase("err.round.delay_begun", round=number))
            new = plan.delayed(seconds)
        elif action == "extend":
            new = plan.extended(seconds)
        elif action == "pause":
            new = plan.paused(now)
        elif action == "resume":
            new = plan.resumed(now)
        elif action == "cancel":
            results = await self.lane.run(store.round_results_count, number)
            if plan.status(now).phase is Phase.ENDED or results:
                # the kiosks would show "round N cancelled" and the round table ZRUŠENO for
                # a round that was played: never
                reason = (
                    Phrase("round.played.results", count=results)
                    if results
                    else Phrase("round.played.ended")
                )
                raise RoundPlayed(Phrase("err.round.cancel_played", round=number, reasons=[reason]))
            new = plan.cancelled_plan()
        else:
            raise ValueError(f"unknown round action {action!r}")
        return await self._publish_plan(new)

    async def _publish_plan(self, plan: RoundPlan) -> dict[str, Any]:
        await self.lane.run(store.save_plan, plan, self.clock.now())
        self._plans = [p for p in self._plans if p.number != plan.number] + [plan]
        msg = _plan_msg(plan)
        sent = await self._broadcast(msg)
        return {"id": msg["id"], "plan": plan.to_dict(), "sent_to": sent}

    async def gong(self, signal: str = "start", *, lead: float = GONG_LEAD) -> dict[str, Any]:
        """Every connected station rings ``signal`` at the same instant, ``lead`` s ahead."""
        self._gong_counter += 1
        at = self.clock.now() + lead
        item = f"gong:{int(at * 1000)}:{self._gong_counter}"
        sent = await self._broadcast({"t": "gong", "id": item, "signal": signal, "at": at})
        return {"id": item, "at": at, "sent_to": sent}

    async def publish(self, kind: str, data: Any) -> dict[str, Any]:
        """``kind``: config (the hall's kiosk settings: tables, limits …, only the keys of
        :data:`shared.checks.HALL_KEYS`, checked by :func:`shared.checks.hall_settings`),
        pairings, standings, or referee_pin (``{"hash": "scrypt$…"}``: the referee PIN
        every station uses from now on). A refused item is neither stored nor sent."""
        if kind not in ("config", "pairings", "standings", "referee_pin", "handover"):
            raise ValueError(f"cannot publish {kind!r}")
        pin_hashes = _check_pin_hashes(data) if kind == "referee_pin" else {}
        # a station refuses a malformed frame and reconnects; a bad item would be resent
        # on every connect, so check it here, once
        if kind == "config":
            # the hall's kiosk settings: refused here, naming the key, unless every
            # station would use them (the station checks them again with the same rules)
            from samoobsluha.shared.checks import hall_settings

            hall_settings(data)
        elif not isinstance(data, dict | list):
            raise ValueError(f"{kind} must be a JSON object or list")
        if len(protocol.pack({"t": "show", "id": "x" * 64, "kind": kind, "data": data})) > (
            protocol.MAX_FRAME - 1024
        ):
            raise ValueError(f"{kind} is too large for one frame")
        digest = hashlib.sha256(repr(data).encode()).hexdigest()[:12]
        item = f"{kind}:{await self._next_version(kind)}:{digest}"
        await self.lane.run(store.save_published, kind, item, data, self.clock.now())
        if kind == "referee_pin":
            # each station its own hash (its own salt), never the others'
            sent = await self._broadcast(lambda conn: _pin_msg(item, pin_hashes.get(conn.station)))
            return {"id": item, "sent_to": sent, "stations": sorted(pin_hashes)}
        return {"id": item, "sent_to": await self._broadcast(_item_msg(kind, item, data))}

    async def _next_version(self, kind: str) -> int:
        """A published item's version: the hub's time in ms, and always above the last
        one of its kind (a hub clock set back must not make the next item look older)."""
        published = await self.lane.run(store.load_published)
        last = store.item_version(published[kind][0]) if kind in published else 0
        return max(int(self.clock.now() * 1000), last + 1)

    async def push_lexicon(self, path: Path | str) -> dict[str, Any]:
        """Send a lexicon file to every station whose lexicon differs (and later joiners)."""
        original = Path(path)
        info = read_info(original)  # refuses a file that is not a lexicon
        data = original.read_bytes()
        # keep our own copy: the referee's file may move or change before every station
        # (including ones that join later) has it
        path = self.published_dir / f"{info.sha256[:16]}.lex"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        # signed by this hub (the key the stations pin): a station judges with nothing else
        from samoobsluha.shared.lextrust import sign_lexicon

        sig = await asyncio.to_thread(sign_lexicon, path, self.keys, info=info)
        record = {
            "path": str(path),
            "name": original.name,
            "size": len(data),
            "file_sha256": hashlib.sha256(data).hexdigest(),
            "lexicon_sha256": info.sha256,
            "lexsig": Path(sig).read_text(encoding="utf-8"),
        }
        item = f"lexicon:{await self._next_version('lexicon')}:{info.sha256[:16]}"
        await self.lane.run(store.save_published, "lexicon", item, record, self.clock.now())
        sent = []
        for conn in list(self.conns.values()):
            if conn.status.get("lexicon_sha256") != info.sha256:
                self._spawn(self._send_lexicon(conn, item, record))
                sent.append(conn.station)
        return {"id": item, "sent_to": sent}

    async def deliveries(self, item_id: str) -> dict[str, dict[str, Any]]:
        return await self.lane.run(store.load_deliveries, item_id)


def _check_pin_hashes(data: Any) -> dict[str, str]:
    """A referee PIN to publish is ``{"hashes": {station: hash}}``: one current-policy
    hash per station, each with its own salt (``hub pin set`` and the dashboard make it)."""
    hashes = data.get("hashes") if isinstance(data, dict) else None
    if not isinstance(hashes, dict) or not hashes:
        raise ValueError(
            'referee_pin must be {"hashes": {"station": "scrypt$…", …}} (hub pin set makes it)'
        )
    for station, stored in hashes.items():
        if not isinstance(station, str) or not isinstance(stored, str):
            raise ValueError("referee_pin: station names and hashes must be text")
        if pin_hash_state(stored) is not PinHashState.OK:
            raise ValueError(f"referee_pin: the hash for {station} is not a current PIN hash")
    if len(set(h.split("$")[4] for h in hashes.values())) != len(hashes):
        raise ValueError("referee_pin: every station needs its own salt")
    return dict(hashes)


def _pin_msg(item: str, stored: str | None) -> dict[str, Any] | None:
    """A station's own referee PIN hash, as the versioned item a station keeps."""
    if stored is None:
        return None
    return _item_msg("referee_pin", item, {"hash": stored})


def _withdraws(received: store.Received) -> bool:
    """Whether a station's stored rows hold a withdrawal (a ``result`` row, withdrawn)."""
    for row in received.good:
        if row[3] == RESULT and '"withdrawn"' in row[4]:
            try:
                if json.loads(row[4]).get("withdrawn"):
                    return True
            except (ValueError, AttributeError):
                continue
    return False


def _withdrawals_msg(item: str, stations: dict[str, Any], station: str) -> dict[str, Any] | None:
    """A station's own withdrawal decisions (:func:`hub.store.withdrawal_decisions`) as
    the versioned item it keeps; None when it has withdrawn nothing."""
    decisions = stations.get(station)
    if not decisions:
        return None
    return _item_msg("withdrawals", item, {"decisions": decisions})


def _item_msg(kind: str, item_id: str, data: Any) -> dict[str, Any]:
    """The frame of a published config / pairings / standings / referee PIN item."""
    ver = store.item_version(item_id)
    if kind == "config":
        return {"t": "config", "id": item_id, "ver": ver, "config": data}
    return {"t": "show", "id": item_id, "ver": ver, "kind": kind, "data": data}


def _plan_msg(plan: RoundPlan) -> dict[str, Any]:
    return {"t": "plan", "id": f"plan:{plan.number}:{plan.revision}", "plan": plan.to_dict()}

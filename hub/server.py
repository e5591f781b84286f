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
import logging
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.hub.tournament import store as tour_store
from samoobsluha.shared import protocol
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.dbworker import DbWorker
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.lexicon import read_info
from samoobsluha.shared.payloads import PayloadError, StationStatus
from samoobsluha.shared.protocol import Channel, HallKeys, PeerLog, ProtocolError
from samoobsluha.shared.rounds import BASIC_SECONDS, WARNING_SECONDS, Phase, RoundPlan

from . import auth, hubtime, store

log = logging.getLogger("hub.server")

START_LEAD = 5.0  # seconds between the referee's "start" and the start signal
GONG_LEAD = 1.0  # a manual gong rings this far ahead so every station has it in time
FIRST_FRAME_TIMEOUT = 5.0
IDLE_TIMEOUT = 30.0
DUPLICATE_WINDOW = 10.0  # a same-named station heard from this recently is not a ghost
# A broadcast (plan, gong, publication) goes to every station at once; one that has not
# taken its frame within this deadline is frozen or gone: its link is closed (it gets the
# current state when it reconnects) and nobody else waits for it.
BROADCAST_DEADLINE = 1.0
# Bounded resources: connections still in their handshake (nothing proved yet) are capped
# per address and in total; authenticated stations only in total. One log line per
# misbehaving address per LOG_EVERY seconds.
MAX_CONNECTIONS = 512
MAX_PENDING = 64
MAX_PENDING_PER_ADDRESS = 8
LOG_EVERY = 60.0
STALL_AFTER = 60.0  # a station whose backlog has not shrunk for this long is "stalled"


class RoundPlayed(ValueError):
    """Starting again, or cancelling, a round that has begun or has results: refused unless
    the referee confirmed it (``force``); a played round is never cancelled."""


def played_reason(plan: RoundPlan | None, results: int, now: float) -> list[Phrase]:
    """Why starting round ``plan.number`` again needs the referee's confirmation (empty when
    it does not): it has begun (running, paused or ended) or has results."""
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
    ) -> None:
        # the hall secret: station keys and the hub's signing key are derived from it
        self.keys = psk if isinstance(psk, HallKeys) else HallKeys(psk)
        self.host = host
        self.port = port
        self.clock = clock or SystemClock()
        self.advertise = advertise
        self.mdns_interfaces = mdns_interfaces
        # the tournament's tables too: a station's result enters the tournament in the
        # transaction that stores it (store.store_received)
        self.dbw = DbWorker(db_path, tour_store.migrations, store.migrations, auth.migrations)
        self.revoked: dict[str, int] = self.dbw.call(auth.load_revocations)
        self.max_connections = MAX_CONNECTIONS
        self.max_pending = MAX_PENDING
        self.max_pending_per_address = MAX_PENDING_PER_ADDRESS
        self.peer_log = PeerLog(log, LOG_EVERY)
        self._open = 0
        self._pending_by_addr: dict[str, int] = {}
        self.refused_unauthenticated = 0  # handshakes refused (a test and bench figure)
        self.broadcast_deadline = BROADCAST_DEADLINE
        self.stall_after = STALL_AFTER
        self.published_dir = Path(db_path).parent / "published"
        self.data_dir = Path(db_path).parent
        self.tournament, self.hub_id, _ = self.dbw.call(store.ensure_identity)
        # results stored before the hub entered them on receipt (an older hub): now
        for key, _, error in self.dbw.call(store.apply_results, self.clock.now()):
            log.info("station result %s entered%s", key, f": refused ({error})" if error else "")
        self.conns: dict[str, StationConn] = {}
        self._server: asyncio.Server | None = None
        self._zc: Any = None
        self._zc_info: Any = None
        self._pending: list[tuple[StationConn, store.Received]] = []
        self._flushing = False
        self._gong_counter = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self.screen_urls: list[str] = []  # the hall screen's addresses (hub.web)

    # -- lifecycle ------------------------------------------------------------------------
    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._handle, self.host, self.port, limit=protocol.MAX_FRAME + 64
        )
        self.port = self._server.sockets[0].getsockname()[1]
        log.info(
            "hub %s of tournament %s on %s:%d", self.hub_id, self.tournament, self.host, self.port
        )
        if self.advertise:
            await self._advertise()

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

    async def close(self) -> None:
        if self._zc is not None:
            with contextlib.suppress(Exception):
                await self._zc.async_unregister_service(self._zc_info)
            await self._zc.async_close()
            self._zc = None
        if self._server is not None:
            self._server.close()
            for conn in list(self.conns.values()):
                with contextlib.suppress(ConnectionError, OSError, TimeoutError):
                    # tell the station, so it reconnects at once rather than on a timeout
                    await asyncio.wait_for(
                        conn.channel.send({"t": "bye", "reason": "hub shutting down"}), 1.0
                    )
                await conn.channel.close()
            await self._server.wait_closed()
            self._server = None
        for task in list(self._tasks):
            task.cancel()
        self.dbw.close()

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
        pending_here = self._pending_by_addr.get(ip, 0)
        if (
            self._open >= self.max_connections
            or sum(self._pending_by_addr.values()) >= self.max_pending
            or pending_here >= self.max_pending_per_address
        ):
            # nothing read, nothing answered: the cheapest refusal there is
            self.refused_unauthenticated += 1
            self.peer_log.warning(ip, "refused %s: too many connections", address)
            writer.transport.abort()
            return
        self._open += 1
        self._pending_by_addr[ip] = pending_here + 1
        pending = True

        def authenticated() -> None:
            nonlocal pending
            if pending:
                pending = False
                left = self._pending_by_addr.get(ip, 1) - 1
                if left > 0:
                    self._pending_by_addr[ip] = left
                else:
                    self._pending_by_addr.pop(ip, None)

        conn: StationConn | None = None
        try:
            channel, hello = await protocol.server_handshake(
                reader,
                writer,
                self.keys,
                tournament=self.tournament,
                hub=self.hub_id,
                acked_for=lambda s, e: self.dbw.run(auth.stored_tip, s, e),
                key_for=self._key_for,
            )
            # The station proves it holds the key only with its first sealed frame (a
            # replayed hello proves nothing); until then nothing about it is recorded.
            first = await asyncio.wait_for(channel.recv(), FIRST_FRAME_TIMEOUT)
            if first["t"] != "status":
                raise ProtocolError(f"first frame must be status, not {first['t']!r}")
            authenticated()
            conn = StationConn(hello.station, hello.epoch, address, channel)
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
            log.info("station %s (epoch %s) connected from %s", conn.station, conn.epoch, address)
            await self._send_state(conn)
            while True:
                # a station sends a clock request or status every few seconds; silence
                # means it lost power or the Wi-Fi dropped it without a FIN
                msg = await asyncio.wait_for(channel.recv(), IDLE_TIMEOUT)
                received = self.clock.now()
                conn.last_rx = self.clock.monotonic()
                kind = msg["t"]
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
                elif kind == "rows":
                    if msg["rows"]:
                        # checked here, on the event loop: the database thread only stores
                        rows = store.receive(conn.station, conn.epoch, msg["rows"], received)
                        self._queue_rows(conn, rows)
                elif kind == "status":
                    await self._on_status(conn, msg["status"])
                elif kind == "done":
                    await self.dbw.run(
                        store.save_delivery,
                        msg["id"],
                        conn.station,
                        msg["ok"],
                        str(msg.get("detail", "")),
                        received,
                    )
                else:
                    raise ProtocolError(f"a station may not send {kind!r}")
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
            authenticated()
            self._open -= 1
            if conn is not None and self.conns.get(conn.station) is conn:
                del self.conns[conn.station]
            if conn is None:
                writer.transport.abort()  # nothing to flush to a peer that proved nothing
            else:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()

    def _queue_rows(self, conn: StationConn, rows: store.Received) -> None:
        """Queue a station's checked rows for the one ingest pipeline (:meth:`_flush`)."""
        self._pending.append((conn, rows))
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
                conns = list(dict.fromkeys(conn for conn, _ in batch))
                try:
                    result = await self.dbw.run(store.store_received, [r for _, r in batch])
                except Exception as exc:  # the disk is full, the file went read-only …
                    # nothing was acked; drop the links so the stations resend after a backoff
                    for conn in conns:
                        log.error(
                            "cannot store rows of %s (%s); closing its link", conn.station, exc
                        )
                        self._spawn(conn.channel.close())
                    continue
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

    async def _on_status(self, conn: StationConn, status: dict[str, Any]) -> None:
        try:
            StationStatus.from_dict(status)
        except PayloadError as exc:
            raise ProtocolError(f"bad status: {exc}") from None
        conn.status = dict(status)
        backlog = status.get("backlog")
        if isinstance(backlog, int):
            if backlog == 0 or conn.best_backlog is None or backlog < conn.best_backlog:
                conn.progress_at = self.clock.monotonic()
            conn.best_backlog = backlog
        await self.dbw.run(
            store.save_status, conn.station, conn.epoch, conn.address, conn.status, self.clock.now()
        )

    async def _send_state(self, conn: StationConn) -> None:
        """Everything a (re)connecting station must have: plans, config, shows, lexicon."""
        for plan in await self.dbw.run(store.load_plans):
            await conn.channel.send(_plan_msg(plan))
        published = await self.dbw.run(store.load_published)
        for kind, (item_id, data) in sorted(published.items()):
            if kind == "lexicon":
                if conn.status.get("lexicon_sha256") != data["lexicon_sha256"]:
                    self._spawn(self._send_lexicon(conn, item_id, data))
            else:
                await conn.channel.send(_item_msg(kind, item_id, data))

    async def _send_lexicon(self, conn: StationConn, item_id: str, info: dict[str, Any]) -> None:
        path = Path(info["path"])
        try:
            async with conn.sender:
                await conn.channel.send(
                    {
                        "t": "lexicon_begin",
                        "id": item_id,
                        "ver": item_version(item_id),
                        "name": info["name"],
                        "size": info["size"],
                        "sha256": info["file_sha256"],
                    }
                )
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

    async def _broadcast(self, msg: dict[str, Any]) -> list[str]:
        """Send ``msg`` to every connected station at once (signed once for all); a
        station that does not take it within :data:`BROADCAST_DEADLINE` delays nobody
        else: its link is cut and it gets the current state when it reconnects."""
        msg = protocol.sign_item(self.keys, self.tournament, msg)
        deadline = self.broadcast_deadline

        async def one(conn: StationConn) -> str | None:
            try:
                await asyncio.wait_for(conn.channel.send(msg), deadline)
                return conn.station
            except TimeoutError:
                self.peer_log.warning(
                    conn.station,
                    "station %s did not take %s within %.1f s; closing its link",
                    conn.station,
                    msg["t"],
                    deadline,
                )
                conn.channel.writer.transport.abort()
            except (ConnectionError, OSError) as exc:
                log.info("could not send %s to %s: %s", msg["t"], conn.station, exc)
            return None

        results = await asyncio.gather(*(one(c) for c in list(self.conns.values())))
        return [r for r in results if r is not None]

    # -- API for the dashboard and the control socket --------------------------------------
    async def stations(self) -> list[dict[str, Any]]:
        """Every station's last status, ``connected``, and ``stalled``: connected with a
        backlog that has not shrunk for :data:`STALL_AFTER` seconds (its sync is stuck)."""
        rows = await self.dbw.run(store.load_stations)
        now = self.clock.monotonic()
        for row in rows:
            conn = self.conns.get(row["station_id"])
            row["connected"] = conn is not None
            row["stalled"] = bool(
                conn is not None
                and (conn.best_backlog or 0) > 0
                and now - conn.progress_at > self.stall_after
            )
            row["revoked"] = row["station_id"] in self.revoked
        return rows

    async def revoke_station(self, station: str) -> dict[str, Any]:
        """Refuse every key issued so far to ``station`` and drop its link at once."""
        bound = await self.dbw.run(auth.revoke, station, self.clock.now())
        self.revoked[station] = bound
        conn = self.conns.get(station)
        if conn is not None:
            conn.channel.writer.transport.abort()
        log.warning("station %s: keys issued up to %d revoked", station, bound)
        return {"station": station, "revoked_before": bound, "was_connected": conn is not None}

    async def rounds(self) -> list[dict[str, Any]]:
        now = self.clock.now()
        out = []
        for plan in await self.dbw.run(store.load_plans):
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
        old = await self.dbw.run(store.load_plan, number)
        if not force:
            results = await self.dbw.run(store.round_results_count, number)
            reasons = played_reason(old, results, self.clock.now())
            if reasons:
                raise RoundPlayed(Phrase("err.round.start_played", round=number, reasons=reasons))
        start_at = at if at is not None else self.clock.now() + lead
        plan = RoundPlan(
            number,
            start_at,
            basic_seconds=basic_seconds,
            warning_seconds=warning_seconds,
            revision=old.revision + 1 if old else 0,
        )
        return await self._publish_plan(plan)

    async def change_round(self, number: int, action: str, seconds: float = 0.0) -> dict[str, Any]:
        """``action``: delay, extend (by ``seconds``), pause, resume, cancel."""
        plan = await self.dbw.run(store.load_plan, number)
        if plan is None:
            raise ValueError(Phrase("err.round.not_planned", round=number))
        now = self.clock.now()
        if action == "delay":
            new = plan.delayed(seconds)
        elif action == "extend":
            new = plan.extended(seconds)
        elif action == "pause":
            new = plan.paused(now)
        elif action == "resume":
            new = plan.resumed(now)
        elif action == "cancel":
            results = await self.dbw.run(store.round_results_count, number)
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
        await self.dbw.run(store.save_plan, plan, self.clock.now())
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
        """``kind``: config (tables, limits …), pairings, standings, or referee_pin
        (``{"hash": "scrypt$…"}``: the referee PIN every station uses from now on)."""
        if kind not in ("config", "pairings", "standings", "referee_pin"):
            raise ValueError(f"cannot publish {kind!r}")
        if kind == "referee_pin" and not (
            isinstance(data, dict)
            and isinstance(data.get("hash"), str)
            and data["hash"].startswith("scrypt$")
            and data["hash"].count("$") == 5
        ):
            raise ValueError('referee_pin must be {"hash": "scrypt$…"} (hub pin set makes it)')
        # a station refuses a malformed frame and reconnects; a bad item would be resent
        # on every connect, so check it here, once
        if not isinstance(data, dict if kind == "config" else (dict, list)):
            raise ValueError(
                f"{kind} must be a JSON object" + ("" if kind == "config" else " or list")
            )
        if len(protocol.pack({"t": "show", "id": "x" * 64, "kind": kind, "data": data})) > (
            protocol.MAX_FRAME - 1024
        ):
            raise ValueError(f"{kind} is too large for one frame")
        digest = hashlib.sha256(repr(data).encode()).hexdigest()[:12]
        item = f"{kind}:{await self._next_version(kind)}:{digest}"
        await self.dbw.run(store.save_published, kind, item, data, self.clock.now())
        return {"id": item, "sent_to": await self._broadcast(_item_msg(kind, item, data))}

    async def _next_version(self, kind: str) -> int:
        """A published item's version: the hub's time in ms, and always above the last
        one of its kind (a hub clock set back must not make the next item look older)."""
        published = await self.dbw.run(store.load_published)
        last = item_version(published[kind][0]) if kind in published else 0
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
        record = {
            "path": str(path),
            "name": original.name,
            "size": len(data),
            "file_sha256": hashlib.sha256(data).hexdigest(),
            "lexicon_sha256": info.sha256,
        }
        item = f"lexicon:{await self._next_version('lexicon')}:{info.sha256[:16]}"
        await self.dbw.run(store.save_published, "lexicon", item, record, self.clock.now())
        sent = []
        for conn in list(self.conns.values()):
            if conn.status.get("lexicon_sha256") != info.sha256:
                self._spawn(self._send_lexicon(conn, item, record))
                sent.append(conn.station)
        return {"id": item, "sent_to": sent}

    async def deliveries(self, item_id: str) -> dict[str, dict[str, Any]]:
        return await self.dbw.run(store.load_deliveries, item_id)


def item_version(item_id: str) -> int:
    """The version in a published item's id (``kind:version:digest``)."""
    parts = item_id.split(":")
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0


def _item_msg(kind: str, item_id: str, data: Any) -> dict[str, Any]:
    """The frame of a published config / pairings / standings / referee PIN item."""
    ver = item_version(item_id)
    if kind == "config":
        return {"t": "config", "id": item_id, "ver": ver, "config": data}
    return {"t": "show", "id": item_id, "ver": ver, "kind": kind, "data": data}


def _plan_msg(plan: RoundPlan) -> dict[str, Any]:
    return {"t": "plan", "id": f"plan:{plan.number}:{plan.revision}", "plan": plan.to_dict()}

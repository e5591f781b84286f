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

from samoobsluha.shared import protocol
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.dbworker import DbWorker
from samoobsluha.shared.lexicon import read_info
from samoobsluha.shared.protocol import Channel, ProtocolError
from samoobsluha.shared.rounds import BASIC_SECONDS, WARNING_SECONDS, RoundPlan

from . import hubtime, store

log = logging.getLogger("hub.server")

START_LEAD = 5.0  # seconds between the referee's "start" and the start signal
GONG_LEAD = 1.0  # a manual gong rings this far ahead so every station has it in time
FIRST_FRAME_TIMEOUT = 5.0
SEND_TIMEOUT = 30.0
IDLE_TIMEOUT = 30.0
DUPLICATE_WINDOW = 10.0  # a same-named station heard from this recently is not a ghost


@dataclass
class StationConn:
    station: str
    epoch: str
    address: str
    channel: Channel
    status: dict[str, Any] = field(default_factory=dict)
    rows_queue: asyncio.Queue[list[dict[str, Any]]] = field(default_factory=asyncio.Queue)
    sender: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_rx: float = 0.0  # hub monotonic time of the last frame


class HubServer:
    def __init__(
        self,
        db_path: Path | str,
        psk: bytes,
        *,
        host: str = "0.0.0.0",
        port: int = protocol.DEFAULT_PORT,
        clock: Clock | None = None,
        advertise: bool = True,
        mdns_interfaces: list[str] | None = None,
    ) -> None:
        self.psk = psk
        self.host = host
        self.port = port
        self.clock = clock or SystemClock()
        self.advertise = advertise
        self.mdns_interfaces = mdns_interfaces
        self.dbw = DbWorker(db_path, store.migrations)
        self.published_dir = Path(db_path).parent / "published"
        self.data_dir = Path(db_path).parent
        self.tournament, self.hub_id, _ = self.dbw.call(store.ensure_identity)
        self.conns: dict[str, StationConn] = {}
        self._server: asyncio.Server | None = None
        self._zc: Any = None
        self._zc_info: Any = None
        self._pending: list[tuple[str, str, list[dict[str, Any]], asyncio.Future[int]]] = []
        self._flushing = False
        self._gong_counter = 0
        self._tasks: set[asyncio.Task[Any]] = set()

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

        interfaces = self.mdns_interfaces
        if interfaces is None and self.host not in ("0.0.0.0", ""):
            interfaces = [self.host]
        kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
        if interfaces:
            kwargs["interfaces"] = interfaces
        self._zc = AsyncZeroconf(**kwargs)
        if self.host in ("0.0.0.0", ""):
            addresses = [socket.inet_aton(a) for a in _local_ipv4_addresses()]
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
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = f"{peer[0]}:{peer[1]}" if peer else "?"
        conn: StationConn | None = None
        ingester: asyncio.Task[Any] | None = None
        try:
            channel, hello = await protocol.server_handshake(
                reader,
                writer,
                self.psk,
                tournament=self.tournament,
                hub=self.hub_id,
                acked_for=lambda s, e: self.dbw.run(store.contiguous, s, e),
            )
            # The station proves it holds the key only with its first sealed frame; until
            # then nothing about it is recorded.
            first = await asyncio.wait_for(channel.recv(), FIRST_FRAME_TIMEOUT)
            if first["t"] != "status":
                raise ProtocolError(f"first frame must be status, not {first['t']!r}")
            conn = StationConn(hello["station"], hello["epoch"], address, channel)
            conn.last_rx = self.clock.monotonic()
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
            ingester = asyncio.create_task(self._ingest_loop(conn))
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
                        conn.rows_queue.put_nowait(msg["rows"])
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
            who = conn.station if conn else address
            log.warning("refused %s: %s", who, exc)
        except TimeoutError:
            who = conn.station if conn else address
            log.warning("closed %s: nothing received in time", who)
        except (ConnectionError, OSError) as exc:
            if conn is not None:
                log.info("station %s disconnected (%s)", conn.station, exc)
        finally:
            if ingester is not None:
                ingester.cancel()
            if conn is not None and self.conns.get(conn.station) is conn:
                del self.conns[conn.station]
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _ingest_loop(self, conn: StationConn) -> None:
        """Store a station's batches in arrival order; ack each after its commit."""
        last_acked = -1
        while True:
            rows = await conn.rows_queue.get()
            while not conn.rows_queue.empty():  # merge what queued up meanwhile
                rows = rows + conn.rows_queue.get_nowait()
            try:
                acked = await self._ingest(conn.station, conn.epoch, rows)
            except Exception as exc:  # the disk is full, the file went read-only …
                # nothing was acked; drop the link so the station resends after a backoff
                log.error("cannot store rows of %s (%s); closing its link", conn.station, exc)
                await conn.channel.close()
                return
            if acked != last_acked:
                last_acked = acked
                with contextlib.suppress(ConnectionError, OSError):
                    await conn.channel.send({"t": "ack", "seq": acked})

    async def _ingest(self, station: str, epoch: str, rows: list[dict[str, Any]]) -> int:
        """Group commit: batches from every station waiting meanwhile share one transaction."""
        fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending.append((station, epoch, rows, fut))
        if not self._flushing:
            self._flushing = True
            self._spawn(self._flush())
        return await fut

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    result = await self.dbw.run(
                        store.ingest, [(s, e, r) for s, e, r, _ in batch], self.clock.now()
                    )
                except Exception as exc:
                    log.exception("storing rows failed")
                    for *_, fut in batch:
                        if not fut.done():
                            fut.set_exception(exc)
                    continue
                for s, e, _, fut in batch:
                    if not fut.done():
                        fut.set_result(result[(s, e)])
        finally:
            self._flushing = False

    async def _on_status(self, conn: StationConn, status: dict[str, Any]) -> None:
        conn.status = dict(status)
        await self.dbw.run(
            store.save_status, conn.station, conn.epoch, conn.address, conn.status, self.clock.now()
        )

    async def _send_state(self, conn: StationConn) -> None:
        """Everything a (re)connecting station must have: plans, config, shows, lexicon."""
        for plan in await self.dbw.run(store.load_plans):
            await conn.channel.send(_plan_msg(plan))
        published = await self.dbw.run(store.load_published)
        for kind, (item_id, data) in sorted(published.items()):
            if kind == "config":
                await conn.channel.send({"t": "config", "id": item_id, "config": data})
            elif kind == "lexicon":
                if conn.status.get("lexicon_sha256") != data["lexicon_sha256"]:
                    self._spawn(self._send_lexicon(conn, item_id, data))
            else:
                await conn.channel.send({"t": "show", "id": item_id, "kind": kind, "data": data})

    async def _send_lexicon(self, conn: StationConn, item_id: str, info: dict[str, Any]) -> None:
        path = Path(info["path"])
        try:
            async with conn.sender:
                await conn.channel.send(
                    {
                        "t": "lexicon_begin",
                        "id": item_id,
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
        sent = []
        for conn in list(self.conns.values()):
            try:
                await asyncio.wait_for(conn.channel.send(msg), SEND_TIMEOUT)
                sent.append(conn.station)
            except (ConnectionError, OSError, TimeoutError) as exc:
                log.info("could not send %s to %s: %s", msg["t"], conn.station, exc)
        return sent

    # -- API for the dashboard and the control socket --------------------------------------
    async def stations(self) -> list[dict[str, Any]]:
        rows = await self.dbw.run(store.load_stations)
        for row in rows:
            row["connected"] = row["station_id"] in self.conns
        return rows

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
    ) -> dict[str, Any]:
        """Plan round ``number`` to start at ``at`` (hub time) or ``lead`` seconds from now."""
        if number < 1:
            raise ValueError("round numbers start at 1")
        if warning_seconds >= basic_seconds:
            raise ValueError("the warning must come before the end of basic time")
        # Never on a clock guessed after a restart (hub.hubtime): every gong would be off.
        hubtime.require_confirmed(self.data_dir)
        old = await self.dbw.run(store.load_plan, number)
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
            raise ValueError(f"round {number} has not been planned")
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
        """``kind``: config (tables, limits …), pairings or standings."""
        if kind not in ("config", "pairings", "standings"):
            raise ValueError(f"cannot publish {kind!r}")
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
        item = f"{kind}:{int(self.clock.now() * 1000)}:{digest}"
        await self.dbw.run(store.save_published, kind, item, data, self.clock.now())
        if kind == "config":
            msg: dict[str, Any] = {"t": "config", "id": item, "config": data}
        else:
            msg = {"t": "show", "id": item, "kind": kind, "data": data}
        return {"id": item, "sent_to": await self._broadcast(msg)}

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
        item = f"lexicon:{info.sha256[:16]}"
        await self.dbw.run(store.save_published, "lexicon", item, record, self.clock.now())
        sent = []
        for conn in list(self.conns.values()):
            if conn.status.get("lexicon_sha256") != info.sha256:
                self._spawn(self._send_lexicon(conn, item, record))
                sent.append(conn.station)
        return {"id": item, "sent_to": sent}

    async def deliveries(self, item_id: str) -> dict[str, dict[str, Any]]:
        return await self.dbw.run(store.load_deliveries, item_id)


def _plan_msg(plan: RoundPlan) -> dict[str, Any]:
    return {"t": "plan", "id": f"plan:{plan.number}:{plan.revision}", "plan": plan.to_dict()}


def _local_ipv4_addresses() -> list[str]:
    """Addresses to advertise when listening on all interfaces (ifaddr comes with zeroconf)."""
    import ifaddr

    found = {
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if ip.is_IPv4 and not str(ip.ip).startswith("127.")
    }
    return sorted(found) or ["127.0.0.1"]

"""A standby hub: a second machine that keeps a recent, consistent copy of the primary.

This module owns the standby link and the standby's copy (``<data>/standby/hub.db``).

* **The primary** (``hub serve``) listens for standbys on its station port + 1
  (:data:`STANDBY_PORT_OFFSET`; ``--standby-port``). A standby proves the hall secret in the
  station link's own handshake (``shared.protocol``), as the peer :data:`PEER`, whose key
  only a holder of ``tournament.key`` can derive — a station's key cannot. Bounded like
  every peer: at most :data:`MAX_PEERS` standbys at once, each handshake within the
  protocol's 5 s, one copy at a time per peer and none sooner than :data:`MIN_INTERVAL`
  after the last, frames of at most :data:`CHUNK` bytes.
* **A copy** is one consistent snapshot of the primary's database (the backup API, as
  :mod:`hub.backup` takes them): ``copy_begin`` (signed by the hub: size, SHA-256, the
  primary's time of the snapshot and what it holds), ``copy_chunk`` … ``copy_end``. The
  standby checks size, SHA-256 and SQLite's integrity check, then replaces its copy in one
  rename: its copy is always a whole snapshot, never half of one.
* **The standby** (``hub standby --primary ADDRESS``) asks for a copy every
  :data:`EVERY` seconds and prints how far behind it is (seconds since the primary's
  snapshot, and its station records and results). The primary lists its standbys in
  ``hub stations``.
* **Takeover** (``hub takeover``, the referee's decision, never automatic) makes the
  standby's newest copy this machine's hub database (an existing one kept beside it); then
  ``hub serve`` runs the hall from it. Stations accept it (it holds the hall key) and send
  it everything the copy lacks: they keep every row until a hub acknowledges it.

* **The handover** (:func:`take_over`): the standby's database gets a new hub id and a
  pending handover; its first ``hub serve`` publishes it (``show`` kind ``handover``,
  signed, newer versions only: ``{"hub": new id, "retired": [old ids]}``). A station that
  has it refuses every retired hub after the welcome (station/sync.py) and says why in its
  status (:data:`HANDED_OVER`); the retired hub shows ``warn.replaced``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.shared import protocol
from samoobsluha.shared.i18n import Phrase, reason
from samoobsluha.shared.protocol import HallKeys, ProtocolError
from samoobsluha.shared.storage import NotADatabase, check_file, open_watch, snapshot_into

log = logging.getLogger("hub.standby")

# a station tells a retired hub why it refuses it (its status' last_error starts so);
# the same text as station.sync.HANDED_OVER, which the hub does not import
HANDED_OVER = "handed over to hub"
# a station that follows another seat (hub/seat.py) tells a hub so: "follows the hub at
# ADDRESS (seat S) …"; the same text as station.sync.FOLLOWS
FOLLOWS = "follows the hub at"
PEER = "~standby"  # the standby's name in the handshake: not a valid station name
STANDBY_PORT_OFFSET = 1
MAX_PEERS = 2
MIN_INTERVAL = 2.0  # seconds between two copies for one standby
EVERY = 5.0  # the standby asks this often
CHUNK = 512 * 1024
MAX_COPY = 4 << 30  # a copy larger than this is refused (a hub.db of a day is a few MB)
READ_TIMEOUT = 60.0


def copy_path(data: Path) -> Path:
    return data / "standby" / "hub.db"


@dataclass(frozen=True)
class StandbySettings:
    """``[standby]`` in ``<data>/hub.toml`` (the hub card's configuration: provisioning
    writes it, hub/provision/generator.py)::

        [standby]
        port = 47821                      # the primary: hub serve opens the standby link
        primary = "192.168.8.2:47821"     # a standby card: hub standby follows this hub
        tournament = "t-…"                # (the standby's first copy needs it)

    ``hub serve --standby-port`` and ``hub standby --primary/--tournament`` override it."""

    port: int | None = None
    primary: str | None = None
    tournament: str | None = None


def load_settings(data: Path) -> StandbySettings:
    """The ``[standby]`` section of ``data/hub.toml`` (absent: all None); ValueError names
    what is wrong."""
    import tomllib

    path = data / "hub.toml"
    if not path.exists():
        return StandbySettings()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(Phrase("config.err.toml", path=str(path), error=reason(exc))) from None
    section = raw.get("standby", {})
    if not isinstance(section, dict):
        raise ValueError(Phrase("config.err.table", path=str(path), name="standby"))
    unknown = sorted(set(section) - {"port", "primary", "tournament"})
    if unknown:
        raise ValueError(Phrase("standby.err.unknown", path=str(path), keys=", ".join(unknown)))
    port = section.get("port")
    if port is not None and (type(port) is not int or not 0 < port < 65536):
        raise ValueError(Phrase("standby.err.port", path=str(path)))
    for key in ("primary", "tournament"):
        value = section.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ValueError(Phrase("standby.err.text", path=str(path), key=key))
    return StandbySettings(port, section.get("primary"), section.get("tournament"))


def is_standby_card(data: Path) -> bool:
    """This machine is configured to follow a primary (``[standby] primary``) and has not
    taken over (no hub database of its own yet: ``hub takeover`` makes one). The hub
    card's units start ``hub standby`` or ``hub serve`` by it (``hub standby --configured``)."""
    try:
        settings = load_settings(data)
    except ValueError:
        return False  # hub serve then starts and says what is wrong with hub.toml
    return settings.primary is not None and not (data / "hub.db").exists()


@dataclass
class StandbyPeer:
    address: str
    connected_at: float
    last_copy_at: float | None = None
    copies: int = 0
    bytes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "address": self.address,
            "connected_at": self.connected_at,
            "last_copy_at": self.last_copy_at,
            "copies": self.copies,
            "bytes": self.bytes,
        }


@dataclass
class StandbyListener:
    """The primary's side: serves copies of ``db_path`` to authenticated standbys."""

    db_path: Path
    keys: HallKeys
    tournament: str
    hub_id: str
    peers: dict[int, StandbyPeer] = field(default_factory=dict)
    _server: asyncio.Server | None = None
    _ids: int = 0
    _channels: dict[int, protocol.Channel] = field(default_factory=dict)

    async def start(self, host: str, port: int) -> int:
        self._server = await asyncio.start_server(self._handle, host, port)
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for channel in list(self._channels.values()):  # ends each peer's handler
                channel.writer.transport.abort()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2.0):
                    await self._server.wait_closed()
            self._server = None

    def list(self) -> list[dict[str, Any]]:
        return [p.to_dict() for p in self.peers.values()]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer_address = str((writer.get_extra_info("peername") or ("?",))[0])
        if len(self.peers) >= MAX_PEERS:
            writer.transport.abort()
            return

        def key_for(station: str, key_id: int) -> bytes | None:
            # key id 0 only: `hub key station ~standby` issues ids from the clock, so no
            # key file the hub ever wrote for a station opens this link
            if station != PEER or key_id != 0:
                return None
            return self.keys.station_key(PEER, 0)

        self._ids += 1
        number = self._ids
        try:
            channel, _hello = await protocol.server_handshake(
                reader,
                writer,
                self.keys,
                tournament=self.tournament,
                hub=self.hub_id,
                acked_for=lambda station, epoch: (0, b""),
                key_for=key_for,
            )
        except (ProtocolError, TimeoutError, ConnectionError, OSError, ValueError) as exc:
            log.info("standby link from %s refused: %s", peer_address, exc)
            writer.transport.abort()
            return
        peer = StandbyPeer(peer_address, time.time())
        self.peers[number] = peer
        self._channels[number] = channel
        log.info("standby %s connected", peer_address)
        try:
            last = 0.0
            while True:
                async with asyncio.timeout(READ_TIMEOUT):
                    msg = await channel.recv()
                if msg["t"] != "copy_req":
                    raise ProtocolError(f"a standby may not send {msg['t']!r}")
                wait = last + MIN_INTERVAL - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                last = time.monotonic()
                await self._send_copy(channel, peer)
        except (ProtocolError, TimeoutError, ConnectionError, OSError, NotADatabase) as exc:
            log.info("standby %s: link closed (%s)", peer_address, exc)
        finally:
            self.peers.pop(number, None)
            self._channels.pop(number, None)
            await channel.close()

    async def _send_copy(self, channel: protocol.Channel, peer: StandbyPeer) -> None:
        part = self.db_path.with_name(f".standby-{secrets.token_hex(4)}.db")
        try:
            at = time.time()
            info = await asyncio.to_thread(_snapshot, self.db_path, part, at)
            size = part.stat().st_size
            item = f"copy:{int(at * 1000)}"
            await channel.send(
                {"t": "copy_begin", "id": item, "size": size, "sha256": info["sha256"],
                 "at": at, "rows": info["rows"], "results": info["results"]}
            )  # fmt: skip
            with open(part, "rb") as fh:
                offset = 0
                while chunk := fh.read(CHUNK):
                    await channel.send(
                        {"t": "copy_chunk", "id": item, "offset": offset, "data": chunk}
                    )
                    offset += len(chunk)
            await channel.send({"t": "copy_end", "id": item})
            peer.last_copy_at, peer.copies, peer.bytes = at, peer.copies + 1, size
        finally:
            part.unlink(missing_ok=True)


def _snapshot(db_path: Path, part: Path, at: float) -> dict[str, Any]:
    from samoobsluha.hub.backup import projector_token_of, stamp

    token = projector_token_of(db_path.parent)  # the projector keeps its address
    source = open_watch(db_path)
    try:  # the copy says when it was taken, as a backup does (hub takeover shows it)
        snapshot_into(source, part, lambda copy: stamp(copy, at, "standby", token))
        rows = _count(source, "SELECT COUNT(*) FROM inbox")
        results = _count(source, "SELECT COUNT(*) FROM tour_results")
    finally:
        source.close()
    digest = hashlib.sha256()
    with open(part, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return {"sha256": digest.hexdigest(), "rows": rows, "results": results}


def _count(conn: Any, sql: str) -> int:
    try:
        return int(conn.execute(sql).fetchone()[0])
    except Exception:
        return 0


@dataclass
class Copied:
    at: float  # the primary's time of the snapshot
    rows: int
    results: int
    size: int


async def fetch_copy(host: str, port: int, keys: HallKeys, tournament: str, target: Path) -> Copied:
    """One copy from the primary at ``host:port`` into ``target`` (replaced whole)."""
    reader, writer = await asyncio.open_connection(host, port, limit=protocol.MAX_FRAME + 64)
    creds = keys.credentials(PEER, 0)
    channel, _welcome = await protocol.client_handshake(
        reader, writer, creds, tournament=tournament, station=PEER, epoch="standby"
    )
    try:
        return await _receive(channel, target)
    finally:
        await channel.close()


async def follow(
    host: str,
    port: int,
    keys: HallKeys,
    tournament: str,
    target: Path,
    *,
    every: float = EVERY,
    on_copy: Any = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Keep ``target`` a recent copy of the primary until ``stop``; reconnects after a
    failure. ``on_copy(Copied | Exception)`` is told of every copy or failure."""
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(
                host, port, limit=protocol.MAX_FRAME + 64
            )
            channel, _ = await protocol.client_handshake(
                reader, writer, keys.credentials(PEER, 0), tournament=tournament,
                station=PEER, epoch="standby",
            )  # fmt: skip
            try:
                while not stop.is_set():
                    copied = await _receive(channel, target)
                    if on_copy is not None:
                        on_copy(copied)
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(every):
                            await stop.wait()
            finally:
                await channel.close()
        except (ProtocolError, TimeoutError, ConnectionError, OSError, NotADatabase) as exc:
            if on_copy is not None:
                on_copy(exc)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(every):
                    await stop.wait()


async def _receive(channel: protocol.Channel, target: Path) -> Copied:
    await channel.send({"t": "copy_req"})
    async with asyncio.timeout(READ_TIMEOUT):
        begin = await channel.recv()
    if begin["t"] != "copy_begin":
        raise ProtocolError(f"expected copy_begin, got {begin['t']!r}")
    size = int(begin["size"])
    if not 0 < size <= MAX_COPY:
        raise ProtocolError(f"a copy of {size} bytes is refused")
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f".{target.name}.part")
    digest = hashlib.sha256()
    try:
        with open(part, "wb") as fh:
            offset = 0
            while True:
                async with asyncio.timeout(READ_TIMEOUT):
                    msg = await channel.recv()
                if msg["t"] == "copy_end":
                    break
                if msg["t"] != "copy_chunk" or msg["offset"] != offset:
                    raise ProtocolError("copy chunks out of order")
                offset += len(msg["data"])
                if offset > size:
                    raise ProtocolError("a copy longer than announced")
                digest.update(msg["data"])
                fh.write(msg["data"])
            fh.flush()
            os.fsync(fh.fileno())
        if offset != size or digest.hexdigest() != begin["sha256"]:
            raise ProtocolError("the copy's size or SHA-256 differs from what was announced")
        await asyncio.to_thread(lambda: check_file(part).close())
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    return Copied(float(begin["at"]), int(begin["rows"]), int(begin["results"]), size)


def take_over(data: Path, now: float) -> tuple[Any, str, list[str]]:
    """Make the standby's newest copy this machine's hub database (an existing one kept
    beside it), under a new hub id, with the handover pending: the next ``hub serve``
    publishes it signed, naming this hub and this machine's seat (hub/seat.py) and
    retiring the old one (and with it any copy of its data, which carries its id). Without
    a standby copy (the disk-died path: ``hub restore`` of a backup on the spare, then
    ``hub takeover``) the hub database here is taken over in place. Returns (what the
    database holds, new id, retired ids)."""
    import json
    import socket

    from samoobsluha.hub import backup, store
    from samoobsluha.shared.storage import open_db

    if copy_path(data).exists():
        info = backup.restore(copy_path(data), data / "hub.db", force=True, now=now)
    else:
        info = backup.describe(data / "hub.db")  # refuses a damaged or missing one
    db = open_db(data / "hub.db", store.migrations)
    try:
        retired = json.loads(store.get_meta(db, "retired_hubs") or "[]")
        old = store.get_meta(db, "hub_id")
        if old and old not in retired:
            retired.append(old)
        new = f"{socket.gethostname()}-{secrets.token_hex(3)}"
        store.set_meta(db, "hub_id", new)
        store.set_meta(db, "retired_hubs", json.dumps(retired))
        store.set_meta(db, "handover_pending", json.dumps(retired))
    finally:
        db.close()
    return info, new, retired

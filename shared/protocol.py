"""The station ↔ hub wire protocol: authenticated msgpack frames over TCP.

See ``docs/protocol.md`` for the full description. In short:

* A frame is a 4-byte big-endian length followed by that many bytes; the length is at
  most :data:`MAX_FRAME` (anything larger is refused before it is read).
* The station opens with a ``hello`` frame carrying a fresh 16-byte random nonce; the
  hub answers ``welcome`` with its own nonce. From then on every frame body is
  ``HMAC-SHA256(session_key, direction ‖ counter ‖ payload)[:32] ‖ payload``, where
  ``session_key = HMAC-SHA256(psk, "samoobsluha/1" ‖ station_nonce ‖ hub_nonce)`` and
  ``counter`` counts frames per direction from 0. A frame recorded on one connection
  therefore fails on any other (different nonces), and a frame replayed, dropped or
  reordered within a connection fails its counter.
* ``hello`` itself is MAC'd too (direction ``H``, counter 0, key derived with an empty
  hub nonce) so a station with the wrong key is refused before anything else happens.
* Any failed check raises :class:`ProtocolError`; the caller closes that one connection
  and logs the reason. Nothing received before the failure is trusted beyond its frame.

The payload is a msgpack map with a string ``t`` (the message type); :func:`check_message`
validates the fields of every type both sides understand.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import secrets
import struct
from typing import Any

import msgpack

PROTOCOL_VERSION = 1
SERVICE_TYPE = "_samoobsluha._tcp.local."
DEFAULT_PORT = 47820
MAX_FRAME = 1 << 20  # 1 MiB: a lexicon chunk plus headroom; nothing else comes close
LEXICON_CHUNK = 256 * 1024
NONCE_BYTES = 16
MAC_BYTES = 32
HANDSHAKE_TIMEOUT = 5.0

_LEN = struct.Struct(">I")
_COUNTER = struct.Struct(">Q")
TO_HUB = b"S"  # station → hub
TO_STATION = b"H"  # hub → station
HELLO = b"0"


class ProtocolError(Exception):
    """A frame or message failed a check; the connection must be closed."""


# -- keys ---------------------------------------------------------------------------------


def new_psk() -> bytes:
    return secrets.token_bytes(32)


def parse_psk(text: str) -> bytes:
    """A pre-shared key as written in a key file: 64 hex digits (whitespace ignored)."""
    cleaned = "".join(text.split())
    try:
        key = bytes.fromhex(cleaned)
    except ValueError:
        raise ValueError("the tournament key must be 64 hexadecimal digits") from None
    if len(key) != 32:
        raise ValueError("the tournament key must be 64 hexadecimal digits (32 bytes)")
    return key


def _derive(psk: bytes, station_nonce: bytes, hub_nonce: bytes) -> bytes:
    return hmac.new(psk, b"samoobsluha/1" + station_nonce + hub_nonce, hashlib.sha256).digest()


# -- messages -----------------------------------------------------------------------------

# type -> {field: accepted python types}; every listed field is required, extras are allowed
# (a newer peer may add fields) but never trusted.
_NUM = (int, float)
SCHEMAS: dict[str, dict[str, tuple[type, ...]]] = {
    # station → hub
    "hello": {
        "v": (int,),
        "tournament": (str,),
        "station": (str,),
        "epoch": (str,),
        "nonce": (bytes,),
    },
    "rows": {"rows": (list,)},
    "status": {"status": (dict,)},
    "time_req": {"id": (int,), "t1": _NUM},
    "done": {"id": (str,), "ok": (bool,)},
    # hub → station
    "welcome": {
        "v": (int,),
        "tournament": (str,),
        "hub": (str,),
        "nonce": (bytes,),
        "acked": (int,),
    },
    "ack": {"seq": (int,)},
    "time_rep": {"id": (int,), "t1": _NUM, "t2": _NUM, "t3": _NUM},
    "plan": {"id": (str,), "plan": (dict,)},
    "gong": {"id": (str,), "signal": (str,), "at": _NUM},
    "config": {"id": (str,), "config": (dict,)},
    "show": {"id": (str,), "kind": (str,), "data": (dict, list)},
    "lexicon_begin": {"id": (str,), "name": (str,), "size": (int,), "sha256": (str,)},
    "lexicon_chunk": {"id": (str,), "offset": (int,), "data": (bytes,)},
    "lexicon_end": {"id": (str,)},
    "bye": {"reason": (str,)},
}
MAX_ROWS_PER_FRAME = 1000
# the C scanner behind json.loads, without its per-call Python layers: the hub checks
# every row's payload, and at tens of thousands of rows a second that adds up
_SCAN_JSON = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def check_message(msg: Any, expected: str | None = None) -> dict[str, Any]:
    """Validate a decoded payload; return it or raise :class:`ProtocolError`."""
    if not isinstance(msg, dict):
        raise ProtocolError("message is not a map")
    kind = msg.get("t")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise ProtocolError(f"unknown message type {kind!r}")
    if expected is not None and kind != expected:
        raise ProtocolError(f"expected {expected!r}, got {kind!r}")
    _check_fields(msg, SCHEMAS[kind], kind)
    if kind == "rows":
        check_rows(msg["rows"])
    return msg


def check_rows(rows: list[Any]) -> None:
    """Outbox rows travel as ``[seq, kind, payload, created_at]``: payload is the JSON text
    of an object, exactly as the station's outbox stores it (the hub stores it as is)."""
    if len(rows) > MAX_ROWS_PER_FRAME:
        raise ProtocolError("too many rows in one frame")
    scan = _SCAN_JSON
    for row in rows:
        if type(row) is not list or len(row) != 4:
            raise ProtocolError("a row must be [seq, kind, payload, created_at]")
        seq, kind, payload, created = row
        if type(seq) is not int or seq < 1:
            raise ProtocolError("row seq must be a positive integer")
        if type(kind) is not str or type(payload) is not str:
            raise ProtocolError("row kind and payload must be strings")
        if type(created) not in (int, float):
            raise ProtocolError("row created_at must be a number")
        try:
            value, end = scan(payload, 0)
        except (StopIteration, ValueError):
            raise ProtocolError("row payload is not valid JSON") from None
        if end != len(payload) or type(value) is not dict:
            raise ProtocolError("row payload must be one JSON object")


def _check_fields(msg: dict[str, Any], schema: dict[str, tuple[type, ...]], what: str) -> None:
    for name, types in schema.items():
        value = msg.get(name)
        # bool is an int subclass; never accept it where a number is meant
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ProtocolError(f"{what}: field {name!r} missing or of the wrong type")


def pack(msg: dict[str, Any]) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)


def unpack(payload: bytes) -> Any:
    try:
        return msgpack.unpackb(payload, raw=False, strict_map_key=True, max_bin_len=MAX_FRAME)
    except Exception as exc:  # msgpack raises several unrelated types
        raise ProtocolError(f"payload is not valid msgpack ({type(exc).__name__})") from None


# -- frames -------------------------------------------------------------------------------


def encode_frame(body: bytes) -> bytes:
    if len(body) > MAX_FRAME:
        raise ProtocolError(f"frame of {len(body)} bytes exceeds {MAX_FRAME}")
    return _LEN.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader, max_frame: int = MAX_FRAME) -> bytes:
    """One frame body. Raises :class:`ProtocolError` on a bad length or a cut-off frame,
    :class:`ConnectionError` when the peer closed cleanly between frames."""
    try:
        head = await reader.readexactly(_LEN.size)
    except asyncio.IncompleteReadError as exc:
        if exc.partial:
            raise ProtocolError("truncated frame header") from None
        raise ConnectionResetError("peer closed the connection") from None
    (length,) = _LEN.unpack(head)
    if length > max_frame:
        raise ProtocolError(f"frame of {length} bytes exceeds the limit of {max_frame}")
    if length < MAC_BYTES + 1:
        raise ProtocolError(f"frame of {length} bytes is too short")
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError as exc:
        raise ProtocolError(f"truncated frame ({len(exc.partial)} of {length} bytes)") from None


class Session:
    """Seals and opens frames for one connection, in one role."""

    def __init__(self, psk: bytes, station_nonce: bytes, hub_nonce: bytes, *, is_hub: bool):
        self._key = _derive(psk, station_nonce, hub_nonce)
        self._send_dir = TO_STATION if is_hub else TO_HUB
        self._recv_dir = TO_HUB if is_hub else TO_STATION
        self._send_counter = 0
        self._recv_counter = 0

    def _mac(self, direction: bytes, counter: int, payload: bytes) -> bytes:
        return hmac.new(
            self._key, direction + _COUNTER.pack(counter) + payload, hashlib.sha256
        ).digest()

    def seal(self, msg: dict[str, Any]) -> bytes:
        payload = pack(msg)
        mac = self._mac(self._send_dir, self._send_counter, payload)
        self._send_counter += 1
        return encode_frame(mac + payload)

    def open(self, body: bytes) -> dict[str, Any]:
        mac, payload = body[:MAC_BYTES], body[MAC_BYTES:]
        expected = self._mac(self._recv_dir, self._recv_counter, payload)
        if not hmac.compare_digest(mac, expected):
            raise ProtocolError("bad MAC (wrong key, replayed, reordered or altered frame)")
        self._recv_counter += 1
        return check_message(unpack(payload))


def seal_hello(psk: bytes, msg: dict[str, Any]) -> bytes:
    payload = pack(msg)
    mac = hmac.new(_derive(psk, msg["nonce"], b""), HELLO + payload, hashlib.sha256).digest()
    return encode_frame(mac + payload)


def open_hello(psk: bytes, body: bytes) -> dict[str, Any]:
    mac, payload = body[:MAC_BYTES], body[MAC_BYTES:]
    msg = check_message(unpack(payload), "hello")
    if len(msg["nonce"]) != NONCE_BYTES:
        raise ProtocolError("hello nonce has the wrong length")
    expected = hmac.new(_derive(psk, msg["nonce"], b""), HELLO + payload, hashlib.sha256)
    if not hmac.compare_digest(mac, expected.digest()):
        raise ProtocolError("bad MAC on hello (wrong tournament key?)")
    if msg["v"] != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {msg['v']} is not {PROTOCOL_VERSION}")
    return msg


class Channel:
    """An authenticated connection: ``await send(msg)``, ``await recv()``."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        session: Session,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.session = session
        self._lock = asyncio.Lock()

    async def send(self, msg: dict[str, Any]) -> None:
        async with self._lock:
            self.writer.write(self.session.seal(msg))
            await self.writer.drain()

    def send_nowait(self, msg: dict[str, Any]) -> None:
        """Queue a frame without waiting for the socket (counters stay in order because
        the event loop runs one coroutine at a time)."""
        self.writer.write(self.session.seal(msg))

    async def recv(self) -> dict[str, Any]:
        return self.session.open(await read_frame(self.reader))

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()


async def client_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    psk: bytes,
    *,
    tournament: str,
    station: str,
    epoch: str,
    extra: dict[str, Any] | None = None,
) -> tuple[Channel, dict[str, Any]]:
    """Station side: send hello, verify welcome. Returns the channel and the welcome."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    hello = {
        "t": "hello",
        "v": PROTOCOL_VERSION,
        "tournament": tournament,
        "station": station,
        "epoch": epoch,
        "nonce": nonce,
        **(extra or {}),
    }
    writer.write(seal_hello(psk, hello))
    await writer.drain()
    body = await asyncio.wait_for(read_frame(reader), HANDSHAKE_TIMEOUT)
    # the welcome carries the hub nonce the session key needs: read it before verifying
    unverified = check_message(unpack(body[MAC_BYTES:]), "welcome")
    hub_nonce = unverified["nonce"]
    if len(hub_nonce) != NONCE_BYTES:
        raise ProtocolError("welcome nonce has the wrong length")
    session = Session(psk, nonce, hub_nonce, is_hub=False)
    welcome = session.open(body)
    if welcome["t"] != "welcome":
        raise ProtocolError("expected welcome")
    if welcome["v"] != PROTOCOL_VERSION:
        raise ProtocolError(f"hub speaks protocol {welcome['v']}, not {PROTOCOL_VERSION}")
    if welcome["tournament"] != tournament:
        raise ProtocolError(f"hub belongs to tournament {welcome['tournament']!r}")
    return Channel(reader, writer, session), welcome


async def server_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    psk: bytes,
    *,
    tournament: str,
    hub: str,
    acked_for: Any,
) -> tuple[Channel, dict[str, Any]]:
    """Hub side: verify hello, answer welcome. ``acked_for(station, epoch)`` returns (or is
    an awaitable returning) the highest contiguous seq stored for that station."""
    body = await asyncio.wait_for(read_frame(reader), HANDSHAKE_TIMEOUT)
    hello = open_hello(psk, body)
    if hello["tournament"] != tournament:
        raise ProtocolError(f"station belongs to tournament {hello['tournament']!r}")
    acked = acked_for(hello["station"], hello["epoch"])
    if asyncio.iscoroutine(acked):
        acked = await acked
    hub_nonce = secrets.token_bytes(NONCE_BYTES)
    session = Session(psk, hello["nonce"], hub_nonce, is_hub=True)
    channel = Channel(reader, writer, session)
    await channel.send(
        {
            "t": "welcome",
            "v": PROTOCOL_VERSION,
            "tournament": tournament,
            "hub": hub,
            "nonce": hub_nonce,
            "acked": int(acked),
        }
    )
    return channel, hello

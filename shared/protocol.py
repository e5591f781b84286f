"""The station ↔ hub wire protocol: authenticated msgpack frames over TCP.

See ``docs/protocol.md`` for the full description. In short:

* A frame is a 4-byte big-endian length followed by that many bytes; the length is at
  most :data:`MAX_FRAME` (anything larger is refused before it is read).
* Keys per peer: the hub holds the hall secret; each station holds only a key derived for
  it (:class:`StationKey`) and the hub's Ed25519 public key, pinned at provisioning.
* The handshake is fixed-layout, bounded and authenticated before anything is decoded:
  the station's ``hello`` (≤ :data:`MAX_HELLO` bytes) carries its id, epoch, key id and a
  fresh nonce under an HMAC with its station key; the hub's ``welcome`` (≤
  :data:`MAX_WELCOME`) carries the hub's nonce and the sync position under the same MAC
  and the hub's signature. No msgpack is parsed before a MAC holds.
* From then on every frame body is ``HMAC-SHA256(session_key, direction ‖ counter ‖
  payload) ‖ payload`` with ``session_key = HMAC-SHA256(station_key, "samoobsluha/2" ‖
  Ns ‖ Nh)``; the MAC is checked before the payload is unpacked. A frame recorded on one
  connection fails on any other, one replayed, dropped or reordered fails its counter.
* Every hub → station message that changes judging or timing (plans, gongs, config,
  pushed items, lexicons, acks, clock replies …: all but :data:`UNSIGNED`) carries the
  hub's Ed25519 signature: a copied station card cannot act as the hub.
* Any failed check raises :class:`ProtocolError`; the caller closes that one connection
  and logs the reason. Nothing received before the failure is trusted beyond its frame.

The payload is a msgpack map with a string ``t`` (the message type); :func:`check_message`
validates the fields of every type both sides understand.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

PROTOCOL_VERSION = 2
SERVICE_TYPE = "_samoobsluha._tcp.local."
DEFAULT_PORT = 47820
MAX_FRAME = 1 << 20  # 1 MiB: a lexicon chunk plus headroom; nothing else comes close
LEXICON_CHUNK = 256 * 1024
NONCE_BYTES = 16
MAC_BYTES = 32
HANDSHAKE_TIMEOUT = 5.0
CLOSE_TIMEOUT = 2.0  # a closing connection's unsent frames wait this long for the peer

_LEN = struct.Struct(">I")
_COUNTER = struct.Struct(">Q")
TO_HUB = b"S"  # station → hub
TO_STATION = b"H"  # hub → station
HELLO = b"0"


class ProtocolError(Exception):
    """A frame or message failed a check; the connection must be closed."""


class PeerLog:
    """At most one log line per key (a peer's address or name) per ``every`` seconds;
    the lines held back are counted in the next one. Bounded: forgets everything past
    ``keep`` keys. What a flood of junk connections costs the journal: one line a minute."""

    def __init__(self, logger: logging.Logger, every: float = 60.0, keep: int = 4096):
        self.logger = logger
        self.every = every
        self.keep = keep
        self._last: dict[str, tuple[float, int]] = {}

    def log(self, level: int, key: str, fmt: str, *args: Any, exc_info: bool = False) -> bool:
        now = time.monotonic()
        last = self._last.get(key)
        if last is not None and now - last[0] < self.every:
            self._last[key] = (last[0], last[1] + 1)
            return False
        if len(self._last) >= self.keep:
            self._last.clear()
        held = last[1] if last else 0
        suffix = f" ({held} more like it since the last line)" if held else ""
        self.logger.log(level, fmt + "%s", *args, suffix, exc_info=exc_info)
        self._last[key] = (now, 0)
        return True

    def warning(self, key: str, fmt: str, *args: Any) -> bool:
        return self.log(logging.WARNING, key, fmt, *args)


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
    return hmac.new(psk, b"samoobsluha/2" + station_nonce + hub_nonce, hashlib.sha256).digest()


# -- messages -----------------------------------------------------------------------------

# type -> {field: accepted python types}; every listed field is required, extras are allowed
# (a newer peer may add fields) but never trusted.
_NUM = (int, float)
SCHEMAS: dict[str, dict[str, tuple[type, ...]]] = {
    # station → hub
    "rows": {"rows": (list,)},
    "status": {"status": (dict,)},
    "time_req": {"id": (int,), "t1": _NUM},
    "done": {"id": (str,), "ok": (bool,)},
    # hub → station
    "ack": {"seq": (int,)},
    "time_rep": {"id": (int,), "t1": _NUM, "t2": _NUM, "t3": _NUM},
    "plan": {"id": (str,), "plan": (dict,)},
    "gong": {"id": (str,), "signal": (str,), "at": _NUM},
    # ver: the item's version (grows with every publication of its kind); a station keeps
    # only a newer one, so a relay cannot replay an older signed item
    "config": {"id": (str,), "ver": (int,), "config": (dict,)},
    "show": {"id": (str,), "ver": (int,), "kind": (str,), "data": (dict, list)},
    "lexicon_begin": {
        "id": (str,),
        "ver": (int,),
        "name": (str,),
        "size": (int,),
        "sha256": (str,),
    },
    "lexicon_chunk": {"id": (str,), "offset": (int,), "data": (bytes,)},
    "lexicon_end": {"id": (str,)},
    "bye": {"reason": (str,)},
    # standby ↔ primary hub (hub/standby.py): a consistent copy of the hub's database
    "copy_req": {},
    "copy_begin": {
        "id": (str,),
        "size": (int,),
        "sha256": (str,),
        "at": _NUM,
        "rows": (int,),
        "results": (int,),
    },
    "copy_chunk": {"id": (str,), "offset": (int,), "data": (bytes,)},
    "copy_end": {"id": (str,)},
}
MAX_ROWS_PER_FRAME = 1000
# Sizes the hub holds a station to (docs/network.md, "Limits per peer"). A row's kind is
# one of a handful of short words and its payload a record of a few hundred bytes (the
# largest a station can make, every list full, is ~20 KiB): a longer one is refused as
# a row (kept aside, only its first REJECTED_KEEP characters). An item id is the hub's
# own ("plan:3:0", "pairings:<ms>:<digest>"); a ``done`` detail is an error message.
MAX_KIND = 32
MAX_ROW_BYTES = 32 * 1024
REJECTED_KEEP = 1024
MAX_ITEM_ID = 128
MAX_DETAIL = 500


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
    elif kind == "done" and len(msg["id"]) > MAX_ITEM_ID:
        raise ProtocolError(f"done: an item id is at most {MAX_ITEM_ID} characters")
    return msg


def check_rows(rows: list[Any]) -> None:
    """Outbox rows travel as ``[seq, kind, payload, created_at]``: payload is the JSON text
    of an object, exactly as the station's outbox stores it (the hub stores it as is).

    Only the frame's shape is checked here; each payload is decoded and checked against
    its record once, as the hub receives it (``hub.store.receive``): a bad payload is one
    refused row, kept aside and reported, and never blocks the rows after it."""
    if len(rows) > MAX_ROWS_PER_FRAME:
        raise ProtocolError("too many rows in one frame")
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


# -- keys: one hall secret on the hub, one derived key per station, one signing key -------


@dataclass(frozen=True)
class StationKey:
    """What a station's card carries: a key derived for this one station (``station``;
    None when derived on the fly from the hall secret, as the hub's own demo kiosk does),
    the id it was issued under (``key_id``, seconds since the epoch: the hub refuses every
    key of a station issued at or before its revocation) and the hub's pinned public key."""

    station: str | None
    key_id: int
    key: bytes = field(repr=False)  # never in a log line or a traceback's repr
    hub_public: bytes

    def to_text(self) -> str:
        """The key file (TOML) that provisioning writes onto a station's card."""
        return (
            "# Samoobsluha station key: valid for this one station only. Keep it private.\n"
            f'station = "{self.station or ""}"\n'
            f"key_id = {self.key_id}\n"
            f'key = "{self.key.hex()}"\n'
            f'hub_public_key = "{self.hub_public.hex()}"\n'
        )

    @classmethod
    def from_text(cls, text: str) -> StationKey:
        import tomllib

        try:
            data = tomllib.loads(text)
            key = bytes.fromhex(str(data["key"]))
            public = bytes.fromhex(str(data["hub_public_key"]))
            key_id = int(data.get("key_id", 0))
            station = str(data.get("station") or "") or None
        except (tomllib.TOMLDecodeError, KeyError, ValueError, TypeError):
            raise ValueError(
                "not a station key file (station, key_id, key, hub_public_key)"
            ) from None
        if len(key) != 32 or len(public) != 32 or not 0 <= key_id < 1 << 63:
            raise ValueError("station key file: key and hub_public_key must be 64 hex digits")
        return cls(station, key_id, key, public)


class HallKeys:
    """Everything the hub derives from the hall secret (``tournament.key``, 32 random
    bytes that never leave the hub): each station's key and the hub's Ed25519 signing key.
    Derivation is HMAC-SHA256 keyed with the secret (a PRF, as in HKDF-Expand)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) != 32:
            raise ValueError("the hall secret must be 32 bytes")
        self._secret = secret
        from nacl.signing import SigningKey

        seed = hmac.new(secret, b"samoobsluha/hub-signing-key/2", hashlib.sha256).digest()
        self.signing_key = SigningKey(seed)
        self.public_key: bytes = bytes(self.signing_key.verify_key)

    def station_key(self, station: str, key_id: int) -> bytes:
        label = b"samoobsluha/station-key/2\0" + station.encode() + b"\0" + str(key_id).encode()
        return hmac.new(self._secret, label, hashlib.sha256).digest()

    def credentials(self, station: str, key_id: int | None = None) -> StationKey:
        """A station key (``key_id`` defaults to now: newer than any revocation so far)."""
        if key_id is None:
            key_id = int(time.time())
        return StationKey(station, key_id, self.station_key(station, key_id), self.public_key)

    def sign(self, data: bytes) -> bytes:
        return bytes(self.signing_key.sign(data).signature)


def verify_signature(public: bytes, data: bytes, signature: bytes) -> None:
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey

    try:
        VerifyKey(public).verify(data, signature)
    except (BadSignatureError, ValueError, TypeError):
        raise ProtocolError("bad hub signature (not the hub this station was given)") from None


# Hub → station messages not signed: the welcome has its own signature, lexicon chunks are
# checked against the SHA-256 in the signed lexicon_begin, and bye only closes. A standby's
# copy chunks likewise against the signed copy_begin; copy_req goes to the hub.
UNSIGNED = frozenset(
    {"welcome", "bye", "lexicon_chunk", "lexicon_end", "copy_req", "copy_chunk", "copy_end"}
)
SIG_BYTES = 64


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _canonical(value[k]) for k in sorted(value, key=lambda k: (str(type(k)), k))}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _item_bytes(tournament: str, msg: dict[str, Any]) -> bytes:
    body = {k: v for k, v in msg.items() if k != "sig"}
    try:
        packed = pack(_canonical(body))
    except (TypeError, ValueError):
        raise ProtocolError("message cannot be put in canonical form") from None
    return b"samoobsluha/item/2\0" + tournament.encode() + b"\0" + packed


def sign_item(keys: HallKeys, tournament: str, msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` with ``sig``: the hub's Ed25519 signature over its canonical msgpack form."""
    return {**msg, "sig": keys.sign(_item_bytes(tournament, msg))}


def verify_item(public: bytes, tournament: str, msg: dict[str, Any]) -> None:
    sig = msg.get("sig")
    if type(sig) is not bytes or len(sig) != SIG_BYTES:
        raise ProtocolError(f"{msg.get('t')!r} from the hub is not signed")
    verify_signature(public, _item_bytes(tournament, msg), sig)


# -- hello and welcome: fixed layout, checked before anything is decoded --------------------
#
# hello   = "SMH" v(1) key_id(u64) Ns(16) [station] [epoch] [tournament] MAC(32)
# welcome = "SMW" v(1) Nh(16) acked(u64) digest(16) [hub] [tournament] [seat] SIG(64) MAC(32)
# where [x] is one length byte (1..64) and that many UTF-8 bytes. The hello's MAC is
# HMAC-SHA256(station key, "hello" ‖ everything before it); the welcome's is
# HMAC-SHA256(station key, "welcome" ‖ Ns ‖ everything before it) and its SIG the hub's
# Ed25519 signature of "samoobsluha/welcome/2" ‖ Ns ‖ everything before SIG. The seat
# names the machine the hub runs on (hub/seat.py): a copy of the hub's data elsewhere has
# the hub's id and keys but another seat, and stations follow one seat (station/sync.py).

HELLO_MAGIC = b"SMH"
WELCOME_MAGIC = b"SMW"
MAX_NAME = 64
_U64 = struct.Struct(">Q")
DIGEST_BYTES = 16
MAX_HELLO = 3 + 1 + 8 + NONCE_BYTES + 3 * (1 + MAX_NAME) + MAC_BYTES
MAX_WELCOME = 3 + 1 + NONCE_BYTES + 8 + DIGEST_BYTES + 3 * (1 + MAX_NAME) + SIG_BYTES + MAC_BYTES


def _field(text: str, what: str) -> bytes:
    data = text.encode()
    if not 1 <= len(data) <= MAX_NAME:
        raise ProtocolError(f"{what} must be 1 to {MAX_NAME} bytes")
    return bytes([len(data)]) + data


class _Cursor:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data, self.pos = data, pos

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise ProtocolError("handshake frame too short")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def name(self, what: str) -> str:
        n = self.take(1)[0]
        if not 1 <= n <= MAX_NAME:
            raise ProtocolError(f"{what} has a bad length")
        try:
            text = self.take(n).decode()
        except UnicodeDecodeError:
            raise ProtocolError(f"{what} is not UTF-8") from None
        if not text.isprintable():
            raise ProtocolError(f"{what} contains control characters")
        return text


@dataclass(frozen=True)
class Hello:
    station: str
    epoch: str
    tournament: str
    nonce: bytes
    key_id: int


def seal_hello(key: bytes, hello: Hello) -> bytes:
    head = (
        HELLO_MAGIC
        + bytes([PROTOCOL_VERSION])
        + _U64.pack(hello.key_id)
        + hello.nonce
        + _field(hello.station, "station id")
        + _field(hello.epoch, "epoch")
        + _field(hello.tournament, "tournament id")
    )
    return encode_frame(head + hmac.new(key, b"hello" + head, hashlib.sha256).digest())


def parse_hello(body: bytes) -> tuple[Hello, bytes, bytes]:
    """Split a hello body by its fixed layout (slicing only): (hello, signed part, MAC)."""
    if len(body) > MAX_HELLO:
        raise ProtocolError("hello too long")
    if body[:3] != HELLO_MAGIC:
        raise ProtocolError("not a hello")
    if body[3] != PROTOCOL_VERSION:
        raise ProtocolError(f"protocol version {body[3]} is not {PROTOCOL_VERSION}")
    cur = _Cursor(body, 4)
    (key_id,) = _U64.unpack(cur.take(8))
    nonce = cur.take(NONCE_BYTES)
    station = cur.name("station id")
    epoch = cur.name("epoch")
    tournament = cur.name("tournament id")
    head_end = cur.pos
    mac = cur.take(MAC_BYTES)
    if cur.pos != len(body):
        raise ProtocolError("hello has trailing bytes")
    return Hello(station, epoch, tournament, nonce, key_id), body[:head_end], mac


def open_hello(body: bytes, key_for: Callable[[str, int], bytes | None]) -> Hello:
    """Check a hello: layout, then the MAC with ``key_for(station, key_id)`` (None: that
    key is revoked). Nothing is decoded beyond slicing until the MAC holds."""
    hello, head, mac = parse_hello(body)
    key = key_for(hello.station, hello.key_id)
    if key is None:
        raise ProtocolError(f"the key of station {hello.station!r} is revoked")
    expected = hmac.new(key, b"hello" + head, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, expected):
        raise ProtocolError("bad MAC on hello (wrong key for this station?)")
    return hello


def seal_welcome(
    keys: HallKeys,
    station_key: bytes,
    station_nonce: bytes,
    *,
    hub_nonce: bytes,
    acked: int,
    digest: bytes,
    hub: str,
    tournament: str,
    seat: str,
) -> bytes:
    head = (
        WELCOME_MAGIC
        + bytes([PROTOCOL_VERSION])
        + hub_nonce
        + _U64.pack(acked)
        + digest.ljust(DIGEST_BYTES, b"\0")[:DIGEST_BYTES]
        + _field(hub, "hub id")
        + _field(tournament, "tournament id")
        + _field(seat, "hub seat")
    )
    sig = keys.sign(b"samoobsluha/welcome/2" + station_nonce + head)
    mac = hmac.new(station_key, b"welcome" + station_nonce + head + sig, hashlib.sha256).digest()
    return encode_frame(head + sig + mac)


def open_welcome(creds: StationKey, station_nonce: bytes, body: bytes) -> dict[str, Any]:
    """Check a welcome: size, MAC (cheap), then the pinned hub's signature, then parse."""
    if len(body) > MAX_WELCOME or len(body) < 4 + MAC_BYTES + SIG_BYTES:
        raise ProtocolError("welcome has a bad size")
    signed, mac = body[:-MAC_BYTES], body[-MAC_BYTES:]
    expected = hmac.new(creds.key, b"welcome" + station_nonce + signed, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, expected):
        raise ProtocolError("bad MAC on welcome (not our hub, or a wrong key)")
    head, sig = signed[:-SIG_BYTES], signed[-SIG_BYTES:]
    verify_signature(creds.hub_public, b"samoobsluha/welcome/2" + station_nonce + head, sig)
    if head[:3] != WELCOME_MAGIC or head[3] != PROTOCOL_VERSION:
        raise ProtocolError("not a welcome of this protocol version")
    cur = _Cursor(head, 4)
    hub_nonce = cur.take(NONCE_BYTES)
    (acked,) = _U64.unpack(cur.take(8))
    digest = cur.take(DIGEST_BYTES)
    hub = cur.name("hub id")
    tournament = cur.name("tournament id")
    seat = cur.name("hub seat")
    if cur.pos != len(head):
        raise ProtocolError("welcome has trailing bytes")
    return {
        "t": "welcome",
        "v": PROTOCOL_VERSION,
        "hub": hub,
        "tournament": tournament,
        "seat": seat,
        "nonce": hub_nonce,
        "acked": acked,
        "digest": digest,
    }


def row_digest(kind: str, payload: str) -> bytes:
    """What the hub and the station compare to agree on one stored outbox row."""
    return hashlib.sha256(kind.encode() + b"\0" + payload.encode()).digest()[:DIGEST_BYTES]


class Channel:
    """An authenticated connection: ``await send(msg)``, ``await recv()``.

    On the hub, ``sign = (keys, tournament)`` signs every message a station must verify
    (all but :data:`UNSIGNED`; a message that already carries ``sig`` — a broadcast signed
    once for every station — is sent as it is). On a station, ``verify = (hub public key,
    tournament)`` refuses every such message without the pinned hub's signature."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        session: Session,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.session = session
        self.sign: tuple[HallKeys, str] | None = None
        self.verify: tuple[bytes, str] | None = None
        # when set, recv() stamps received_at with it as soon as a frame has arrived
        # (before MAC and signature checks: the clock exchange must not count them)
        self.stamp: Callable[[], float] | None = None
        self.received_at: float | None = None
        self._lock = asyncio.Lock()

    def _signed(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.sign is not None and msg["t"] not in UNSIGNED and "sig" not in msg:
            return sign_item(self.sign[0], self.sign[1], msg)
        return msg

    async def send(self, msg: dict[str, Any]) -> None:
        msg = self._signed(msg)
        async with self._lock:
            self.writer.write(self.session.seal(msg))
            await self.writer.drain()

    def send_nowait(self, msg: dict[str, Any]) -> None:
        """Queue a frame without waiting for the socket (counters stay in order because
        the event loop runs one coroutine at a time)."""
        self.writer.write(self.session.seal(self._signed(msg)))

    async def recv(self) -> dict[str, Any]:
        body = await read_frame(self.reader)
        if self.stamp is not None:
            self.received_at = self.stamp()
        msg = self.session.open(body)
        if self.verify is not None and msg["t"] not in UNSIGNED:
            verify_item(self.verify[0], self.verify[1], msg)
        return msg

    async def close(self) -> None:
        """Close the connection; never waits long: a peer that stopped reading would keep
        unsent frames (and so the close) pending forever, so after
        :data:`CLOSE_TIMEOUT` the socket is dropped without them."""
        self.writer.close()
        try:
            async with asyncio.timeout(CLOSE_TIMEOUT):
                await self.writer.wait_closed()
        except TimeoutError:
            self.writer.transport.abort()
        except (ConnectionError, OSError):
            pass


async def client_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    creds: StationKey,
    *,
    tournament: str,
    station: str,
    epoch: str,
) -> tuple[Channel, dict[str, Any]]:
    """Station side: send hello, verify welcome. Returns the channel and the welcome."""
    nonce = secrets.token_bytes(NONCE_BYTES)
    writer.write(seal_hello(creds.key, Hello(station, epoch, tournament, nonce, creds.key_id)))
    await writer.drain()
    async with asyncio.timeout(HANDSHAKE_TIMEOUT):
        body = await read_frame(reader, MAX_WELCOME)
    welcome = open_welcome(creds, nonce, body)
    if welcome["tournament"] != tournament:
        raise ProtocolError(f"hub belongs to tournament {welcome['tournament']!r}")
    session = Session(creds.key, nonce, welcome["nonce"], is_hub=False)
    channel = Channel(reader, writer, session)
    channel.verify = (creds.hub_public, tournament)
    return channel, welcome


async def server_handshake(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    keys: HallKeys,
    *,
    tournament: str,
    hub: str,
    acked_for: Any,
    key_for: Callable[[str, int], bytes | None] | None = None,
    seat: str = "-",
) -> tuple[Channel, Hello]:
    """Hub side: verify hello, answer welcome. ``acked_for(station, epoch)`` returns (or is
    an awaitable returning) ``(contiguous seq, digest of that row)``; ``key_for(station,
    key_id)`` the station's key or None when revoked (default: derive, never revoked);
    ``seat`` the machine this hub runs on (hub/seat.py; a standby link says ``-``)."""
    async with asyncio.timeout(HANDSHAKE_TIMEOUT):
        body = await read_frame(reader, MAX_HELLO)
    derive = key_for or keys.station_key
    hello = open_hello(body, derive)
    if hello.tournament != tournament:
        raise ProtocolError(f"station belongs to tournament {hello.tournament!r}")
    station_key = derive(hello.station, hello.key_id)
    assert station_key is not None
    acked = acked_for(hello.station, hello.epoch)
    if asyncio.iscoroutine(acked):
        acked = await acked
    seq, digest = acked if isinstance(acked, tuple) else (acked, b"")
    hub_nonce = secrets.token_bytes(NONCE_BYTES)
    writer.write(
        seal_welcome(
            keys,
            station_key,
            hello.nonce,
            hub_nonce=hub_nonce,
            acked=int(seq),
            digest=digest,
            hub=hub,
            tournament=tournament,
            seat=seat,
        )
    )
    await writer.drain()
    session = Session(station_key, hello.nonce, hub_nonce, is_hub=True)
    channel = Channel(reader, writer, session)
    channel.sign = (keys, tournament)
    return channel, hello

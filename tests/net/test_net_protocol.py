"""Frames, sessions and the clock maths, in one process."""

from __future__ import annotations

import asyncio
import os
import struct

import msgpack
import pytest

from samoobsluha.shared import protocol
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.protocol import ProtocolError, Session
from samoobsluha.station.sync import HubClock, OffsetEstimator, SkewedClock, SyncStatus

KEY = bytes(range(32))


def _pair(key_a: bytes = KEY, key_b: bytes = KEY) -> tuple[Session, Session]:
    ns, nh = os.urandom(16), os.urandom(16)
    return Session(key_a, ns, nh, is_hub=False), Session(key_b, ns, nh, is_hub=True)


def _body(frame: bytes) -> bytes:
    (length,) = struct.unpack(">I", frame[:4])
    assert length == len(frame) - 4
    return frame[4:]


def test_round_trip_both_directions() -> None:
    station, hub = _pair()
    for i in range(3):
        msg = {"t": "time_req", "id": i, "t1": 1.5}
        assert hub.open(_body(station.seal(msg))) == msg
    reply = {"t": "ack", "seq": 7}
    assert station.open(_body(hub.seal(reply))) == reply


def test_wrong_key_fails() -> None:
    station, hub = _pair(KEY, bytes(32))
    with pytest.raises(ProtocolError, match="bad MAC"):
        hub.open(_body(station.seal({"t": "ack", "seq": 1})))


def test_replay_into_another_connection_fails() -> None:
    station_a, _ = _pair()
    _, hub_b = _pair()  # same key, other nonces
    with pytest.raises(ProtocolError, match="bad MAC"):
        hub_b.open(_body(station_a.seal({"t": "status", "status": {}})))


def test_replay_and_reorder_within_a_connection_fail() -> None:
    station, hub = _pair()
    f0 = _body(station.seal({"t": "status", "status": {}}))
    f1 = _body(station.seal({"t": "status", "status": {"x": 1}}))
    with pytest.raises(ProtocolError):
        hub.open(f1)  # counter 1 before 0
    hub.open(f0)
    with pytest.raises(ProtocolError):
        hub.open(f0)  # the same frame again


def test_reflection_fails() -> None:
    """A station's own frame bounced back to it is not a hub frame (direction byte)."""
    station, _ = _pair()
    with pytest.raises(ProtocolError):
        station.open(_body(station.seal({"t": "ack", "seq": 1})))


@pytest.mark.parametrize(
    "msg",
    [
        [1, 2],
        {"t": "nonsense"},
        {"t": "ack"},
        {"t": "ack", "seq": "3"},
        {"t": "ack", "seq": True},
        {"t": "rows", "rows": [[0, "x", "{}", 1.0]]},
        {"t": "rows", "rows": [[1, "x", "no", 1.0]]},
        {"t": "rows", "rows": [[1, "x", "{not json", 1.0]]},
        {"t": "rows", "rows": [[1, "x", '{"a": 1} ', 1.0]]},
        {"t": "rows", "rows": [[1, "x", '{"a": 1}{}', 1.0]]},
        {"t": "rows", "rows": [[1, "x", "[1]", 1.0]]},
        {"t": "rows", "rows": [[1, "x", "", 1.0]]},
        {"t": "rows", "rows": [[1, "x", {}, 1.0]]},
        {"t": "rows", "rows": [[1, "x", "{}", "yesterday"]]},
        {"t": "rows", "rows": [[True, "x", "{}", 1.0]]},
        {"t": "rows", "rows": [[1, "x", "{}"]]},
        {"t": "rows", "rows": ["row"]},
        {"t": "rows", "rows": [[i, "x", "{}", 1.0] for i in range(1, 1002)]},
    ],
)
def test_malformed_messages_refused(msg: object) -> None:
    with pytest.raises(ProtocolError):
        protocol.check_message(msg)


def test_good_rows_accepted() -> None:
    rows = [[1, "challenge", '{"words": ["čáp"], "valid": true}', 1.5], [2, "x", "{}", 2]]
    protocol.check_message({"t": "rows", "rows": rows})


def test_not_msgpack_refused() -> None:
    with pytest.raises(ProtocolError, match="msgpack"):
        protocol.unpack(b"\xc1\xc1\xc1")
    with pytest.raises(ProtocolError):
        protocol.check_message(protocol.unpack(msgpack.packb(12)))


async def _read(data: bytes, eof: bool = True) -> bytes:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return await protocol.read_frame(reader)


async def test_read_frame_checks_length_and_truncation() -> None:
    with pytest.raises(ProtocolError, match="exceeds"):
        await _read(struct.pack(">I", protocol.MAX_FRAME + 1), eof=False)
    with pytest.raises(ProtocolError, match="too short"):
        await _read(struct.pack(">I", 3) + b"abc")
    with pytest.raises(ProtocolError, match="truncated frame"):
        await _read(struct.pack(">I", 100) + b"x" * 50)
    with pytest.raises(ProtocolError, match="truncated frame header"):
        await _read(b"\x00\x01")
    with pytest.raises(ConnectionError):
        await _read(b"")
    assert await _read(struct.pack(">I", 40) + b"y" * 40) == b"y" * 40


def test_hello_checks() -> None:
    hello = {
        "t": "hello",
        "v": protocol.PROTOCOL_VERSION,
        "tournament": "t-1",
        "station": "s",
        "epoch": "e",
        "nonce": os.urandom(16),
    }
    body = _body(protocol.seal_hello(KEY, hello))
    assert protocol.open_hello(KEY, body)["station"] == "s"
    with pytest.raises(ProtocolError, match="wrong tournament key"):
        protocol.open_hello(bytes(32), body)
    old = {**hello, "v": 0}
    with pytest.raises(ProtocolError, match="version"):
        protocol.open_hello(KEY, _body(protocol.seal_hello(KEY, old)))


def test_parse_psk() -> None:
    assert protocol.parse_psk(KEY.hex() + "\n") == KEY
    for bad in ("zz", "ab" * 16):
        with pytest.raises(ValueError):
            protocol.parse_psk(bad)


def test_estimator_prefers_the_quickest_exchange() -> None:
    est = OffsetEstimator(keep=4)
    # true offset 100 s; a slow exchange with asymmetric delay misleads by 0.2 s
    est.add(0.0, 100.3, 100.3, 0.4, 0)  # there 0.3, back 0.1 -> offset 100.1
    est.add(1.0, 101.005, 101.006, 1.011, 1)  # 5 ms each way -> offset 100.0
    best = est.best()
    assert best is not None
    assert best.offset == pytest.approx(100.0, abs=1e-9)
    assert best.delay == pytest.approx(0.010)
    for i in range(4):  # the quick one ages out of the window of 4
        est.add(10.0 + i, 110.3 + i, 110.3 + i, 10.4 + i, 10 + i)
    assert est.best().offset == pytest.approx(100.1)


def test_estimator_refuses_slow_samples() -> None:
    est = OffsetEstimator(max_delay=0.5)
    est.add(0.0, 50.0, 50.0, 2.0, 0)
    assert est.best() is None


def test_hub_clock_follows_monotonic_not_wall() -> None:
    local = FakeClock(start=1000.0)
    clock = HubClock(local)
    assert not clock.synced and clock.now() == 1000.0
    clock.set_offset(5000.0 - local.monotonic(), 0.001)  # hub says 5000 now
    assert clock.synced and clock.now() == pytest.approx(5000.0)
    local.set_wall(0.0)  # the station's wall clock jumps: hub time does not care
    local.advance(2.0)
    assert clock.now() == pytest.approx(5002.0)


def test_skewed_clock() -> None:
    base = FakeClock(start=10.0)
    skewed = SkewedClock(-600.0, base)
    assert skewed.now() == -590.0
    assert skewed.monotonic() == base.monotonic() - 600.0


def test_status_summary_speaks_the_station_language() -> None:
    status = SyncStatus()
    assert status.summary("cs") == ["Bez spojení s rozhodčím", "Hodiny nejsou seřízené"]
    status.connected, status.clock_synced, status.backlog = True, True, 4
    assert status.summary("en") == ["Linked to the referee's hub", "Waiting to be sent: 4"]

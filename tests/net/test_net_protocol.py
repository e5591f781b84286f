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
from samoobsluha.station.link.clock import HubClock, OffsetEstimator, SkewedClock
from samoobsluha.station.sync import SyncStatus

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
    keys = protocol.HallKeys(KEY)
    hello = protocol.Hello("s", "e", "t-1", os.urandom(16), 7)
    body = _body(protocol.seal_hello(keys.station_key("s", 7), hello))
    assert protocol.open_hello(body, keys.station_key) == hello
    # another station's key, a wrong hall secret, a revoked key: all fail on the MAC check
    for key_for in (
        lambda s, k: keys.station_key("other", k),
        protocol.HallKeys(bytes(32)).station_key,
    ):
        with pytest.raises(ProtocolError, match="bad MAC on hello"):
            protocol.open_hello(body, key_for)
    with pytest.raises(ProtocolError, match="revoked"):
        protocol.open_hello(body, lambda s, k: None)
    old = bytearray(body)
    old[3] = 1  # protocol version 1
    with pytest.raises(ProtocolError, match="version"):
        protocol.open_hello(bytes(old), keys.station_key)
    for junk in (b"", body[:20], body + b"x", msgpack.packb([[]] * 60)):
        with pytest.raises(ProtocolError):
            protocol.open_hello(junk, keys.station_key)


def test_hello_is_checked_without_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Junk handshakes die on their fixed layout or MAC: msgpack never sees them."""
    calls = []
    real = msgpack.unpackb
    monkeypatch.setattr(msgpack, "unpackb", lambda *a, **k: calls.append(1) or real(*a, **k))
    keys = protocol.HallKeys(KEY)
    nested = msgpack.packb([[]] * 200)  # what the 1 MiB flood sent, in small
    for junk in (nested, b"SMH\x02" + nested[:200], os.urandom(200)):
        with pytest.raises(ProtocolError):
            protocol.open_hello(junk, keys.station_key)
    creds = keys.credentials("s", 1)
    for junk in (nested, os.urandom(250)):
        with pytest.raises(ProtocolError):
            protocol.open_welcome(creds, os.urandom(16), junk)
    assert calls == []


def test_welcome_is_the_pinned_hubs() -> None:
    keys = protocol.HallKeys(KEY)
    creds = keys.credentials("s", 5)
    ns = os.urandom(16)
    args = {
        "hub_nonce": os.urandom(16),
        "acked": 9,
        "digest": b"d" * 16,
        "hub": "h",
        "tournament": "t",
        "seat": "5eat",
    }
    body = _body(protocol.seal_welcome(keys, creds.key, ns, **args))
    welcome = protocol.open_welcome(creds, ns, body)
    assert (welcome["acked"], welcome["hub"], welcome["digest"]) == (9, "h", b"d" * 16)
    assert welcome["seat"] == "5eat"  # signed with the rest: a relay cannot change it
    # a copied station key acting as a hub: the MAC holds, the signature does not
    rogue = protocol.HallKeys(os.urandom(32))
    forged = _body(protocol.seal_welcome(rogue, creds.key, ns, **args))
    with pytest.raises(ProtocolError, match="signature"):
        protocol.open_welcome(creds, ns, forged)
    with pytest.raises(ProtocolError, match="bad MAC"):
        protocol.open_welcome(creds, os.urandom(16), body)  # another hello's welcome


def test_items_are_signed_by_the_hub() -> None:
    keys = protocol.HallKeys(KEY)
    gong = {"t": "gong", "id": "gong:1", "signal": "start", "at": 12.5}
    signed = protocol.sign_item(keys, "t-1", gong)
    # key order does not matter (the signature covers the canonical form)
    protocol.verify_item(keys.public_key, "t-1", dict(reversed(list(signed.items()))))
    for bad in (
        gong,  # unsigned
        {**signed, "at": 13.0},  # altered
        protocol.sign_item(protocol.HallKeys(os.urandom(32)), "t-1", gong),  # not our hub
    ):
        with pytest.raises(ProtocolError):
            protocol.verify_item(keys.public_key, "t-1", bad)
    with pytest.raises(ProtocolError):
        protocol.verify_item(keys.public_key, "t-2", signed)  # another tournament


def test_station_key_file_round_trip() -> None:
    creds = protocol.HallKeys(KEY).credentials("stul-07", 1767262800)
    assert protocol.StationKey.from_text(creds.to_text()) == creds
    assert KEY.hex() not in creds.to_text()  # the hall secret is not on the card
    with pytest.raises(ValueError):
        protocol.StationKey.from_text("key = 'abc'")


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
    # slow exchanges while the quick one is recent: rejected, never used
    for i in range(4):
        est.add(10.0 + i, 110.3 + i, 110.3 + i, 10.4 + i, 10 + i)
    assert est.rejected == 4 and est.best().offset == pytest.approx(100.0)
    # the path really got slower: once the quick round trip is history, they count again
    for i in range(16):
        est.add(20.0 + i, 120.3 + i, 120.3 + i, 20.4 + i, 20 + i)
    assert est.best().offset == pytest.approx(100.1)


def test_a_delayed_leg_does_not_move_the_clock() -> None:
    """400 ms added on one leg (no key needed to do that) once the clock is known: the
    sample is rejected, the offset stays, and the clock still says synced."""
    local = FakeClock(start=0.0)
    clock = HubClock(local)
    est = OffsetEstimator()
    base = local.monotonic() - 10.0
    for i in range(6):  # 1 ms each way, true offset 50 s
        t1 = base + i
        est.add(t1, t1 + 50.001, t1 + 50.001, t1 + 0.002, t1)
    t1 = base + 10.0
    est.add(t1, t1 + 50.401, t1 + 50.401, t1 + 0.402, t1)  # 400 ms on the way there
    best = est.best()
    assert best is not None and best.offset == pytest.approx(50.0)
    clock.set_offset(best.offset, best.delay, best.taken_at)
    assert clock.precise and clock.uncertainty == pytest.approx(0.001 + 10.0 * 100e-6)


def test_synced_only_within_the_bound() -> None:
    """A station that only ever had slow exchanges rings on its best estimate but does not
    call its clock synced: the error bound is half the round trip."""
    local = FakeClock(start=0.0)
    clock = HubClock(local)
    est = OffsetEstimator()
    for i in range(6):  # 400 ms one way, 1 ms back: every sample asymmetric
        t1 = local.monotonic() + i
        est.add(t1, t1 + 50.4, t1 + 50.4, t1 + 0.401, t1)
    best = est.best()
    assert best is not None
    clock.set_offset(best.offset, best.delay, best.taken_at)
    assert clock.synced and not clock.precise
    assert clock.uncertainty is not None and clock.uncertainty > 0.2
    status = SyncStatus(connected=True, clock_known=True, clock_uncertainty=clock.uncertainty)
    assert status.summary("cs")[1].startswith("Hodiny seřízené jen na ±")


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


def test_the_documented_handshake_limits_are_the_code_s() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    assert f"`MAX_HELLO`\n  = {protocol.MAX_HELLO} bytes" in doc
    assert f"`MAX_WELCOME` = {protocol.MAX_WELCOME}," in doc
    assert f"hello ≤ {protocol.MAX_HELLO} B, welcome ≤ {protocol.MAX_WELCOME} B" in doc


def test_no_secret_in_a_repr() -> None:
    keys = protocol.HallKeys(KEY)
    creds = keys.credentials("s", 1)
    assert creds.key.hex() not in repr(creds) and str(creds.key) not in repr(creds)
    assert KEY.hex() not in repr(keys) and str(KEY) not in repr(vars(keys).get("signing_key"))

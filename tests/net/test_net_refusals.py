"""A running hub refuses every frame that fails a check, stores nothing from it, and keeps
serving an honest station meanwhile (real hub and station processes, raw sockets)."""

from __future__ import annotations

import asyncio
import json
import os
import struct
from pathlib import Path

from net_procs import Hub, Station, check_payload, running, wait_for

from samoobsluha.hub import control
from samoobsluha.shared import protocol
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox


async def _closed_by_hub(reader: asyncio.StreamReader) -> bool:
    """The hub hung up on us (EOF, maybe after a welcome it sent before the failure)."""
    try:
        while True:
            data = await asyncio.wait_for(reader.read(65536), 8)
            if not data:
                return True
    except ConnectionError:
        return True


async def _raw(port: int, payload: bytes) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(payload)
    await writer.drain()
    closed = await _closed_by_hub(reader)
    writer.close()
    return closed


def _rows(start: int, n: int) -> list[dict]:
    return [
        [i, "challenge", json.dumps(check_payload(i, "eve")), 1.0] for i in range(start, start + n)
    ]


# what a station reports first (the hub checks it: an empty status is refused)
STATUS = {
    "name": "eve",
    "version": "0",
    "lexicon_sha256": None,
    "clock_synced": False,
    "clock_offset": 0.0,
    "clock_delay": None,
    "backlog": 0,
    "acked_seq": 0,
    "last_signal": None,
    "local_time": 1.0,
}


class Recorder:
    """A StreamWriter stand-in that keeps what was written, for replaying it later."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.frames: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.frames.append(data)
        self.writer.write(data)

    def __getattr__(self, name: str):
        return getattr(self.writer, name)


async def _attacks(hub: Hub, keys: protocol.HallKeys) -> None:
    port = hub.port
    tid = hub.tournament
    wrong_key = protocol.HallKeys(protocol.new_psk()).credentials("mallory", 0)
    good_key = keys.credentials("eve", 0)

    # 1. wrong key: the hello's MAC fails; no welcome, closed
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await protocol.client_handshake(
            reader, writer, wrong_key, tournament=tid, station="mallory", epoch="e1"
        )
        raise AssertionError("a wrong key got a welcome")
    except (ConnectionError, asyncio.IncompleteReadError, protocol.ProtocolError):
        pass
    writer.close()

    # 2. record an honest session of "eve" (right key), then replay it on a new connection
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    rec = Recorder(writer)
    channel, welcome = await protocol.client_handshake(
        reader, rec, good_key, tournament=tid, station="eve", epoch="e1"
    )
    channel.writer = rec
    await channel.send({"t": "status", "status": STATUS})
    await channel.send({"t": "rows", "rows": _rows(1, 3)})
    ack = await channel.recv()
    while ack["t"] != "ack":
        ack = await channel.recv()
    assert ack["seq"] == 3
    await channel.close()
    recorded = rec.frames
    assert len(recorded) == 3  # hello, status, rows
    # replay: the hub answers the old hello with a new nonce, so the old status fails
    assert await _raw(port, b"".join(recorded))
    # replay the rows frame alone into a fresh honest connection: its counter/nonce is wrong
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    channel, welcome = await protocol.client_handshake(
        reader, writer, good_key, tournament=tid, station="eve", epoch="e1"
    )
    assert welcome["acked"] == 3
    await channel.send({"t": "status", "status": STATUS})
    writer.write(recorded[2])
    assert await _closed_by_hub(reader)

    # 3. reordered frames within one connection: counter 1 sent before counter 0
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    channel, _ = await protocol.client_handshake(
        reader, writer, good_key, tournament=tid, station="eve", epoch="e1"
    )
    first = channel.session.seal({"t": "status", "status": STATUS})
    second = channel.session.seal({"t": "rows", "rows": _rows(4, 2)})
    writer.write(second + first)
    assert await _closed_by_hub(reader)

    # 3b. right key, but a status that is not a station's status: refused, nothing stored
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    channel, _ = await protocol.client_handshake(
        reader, writer, good_key, tournament=tid, station="eve", epoch="e1"
    )
    await channel.send({"t": "status", "status": STATUS | {"backlog": "lots"}})
    assert await _closed_by_hub(reader)

    # 4. a frame altered in flight (one bit of the payload flipped)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    channel, _ = await protocol.client_handshake(
        reader, writer, good_key, tournament=tid, station="eve", epoch="e1"
    )
    await channel.send({"t": "status", "status": STATUS})
    frame = bytearray(channel.session.seal({"t": "rows", "rows": _rows(4, 2)}))
    frame[-3] ^= 0x01
    writer.write(bytes(frame))
    assert await _closed_by_hub(reader)

    # 5. truncated frame: a length promising more than ever comes, then EOF
    hello = protocol.seal_hello(
        good_key.key, protocol.Hello("eve", "e1", tid, os.urandom(16), good_key.key_id)
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(hello[: len(hello) // 2])
    writer.write_eof()
    assert await _closed_by_hub(reader)

    # 6. oversized hello: refused from its length alone, nothing more is read
    assert await _raw(port, struct.pack(">I", protocol.MAX_HELLO + 1) + b"x" * 1000)

    # 7. random bytes, and a wrong tournament with the right key
    for _ in range(5):
        assert await _raw(port, os.urandom(300))
        # random bytes behind a plausible length: neither the layout nor the MAC survive
        assert await _raw(port, struct.pack(">I", 200) + os.urandom(200))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await protocol.client_handshake(
            reader, writer, good_key, tournament="t-other", station="eve", epoch="e1"
        )
        raise AssertionError("a foreign tournament got a welcome")
    except (ConnectionError, asyncio.IncompleteReadError, protocol.ProtocolError):
        pass
    writer.close()


def test_hub_refuses_bad_frames_and_keeps_serving(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    honest = Station(tmp_path / "honest", hub, "honest")
    honest.enqueue(50)
    with running(hub, honest):
        honest.start()
        wait_for(lambda: hub.count("honest") == 50, 15, "honest station's first rows")
        keys = protocol.HallKeys(protocol.parse_psk(hub.key_file.read_text()))
        before = control.request("info", path=hub.data / "hub.sock")["refused"]
        asyncio.run(_attacks(hub, keys))
        after = control.request("info", path=hub.data / "hub.sock")["refused"]
        # the honest station was never disturbed: its new rows keep arriving
        honest.enqueue(25, start=50)
        wait_for(lambda: hub.count("honest") == 75, 15, "honest station's later rows")
        assert hub.proc is not None and hub.proc.poll() is None
        # nothing but eve's three honest rows and the honest station's rows was stored
        stations = {r["station_id"] for r in hub.rows()}
        assert stations == {"honest", "eve"}
        assert hub.count("eve") == 3
        assert "mallory" not in hub.ctl("stations")
        # every attack was refused, but one misbehaving address costs one log line a
        # minute, not one per attempt (the journal of a Pi keeps 32 MB in RAM)
        assert after - before >= 16
        log = hub.log()
        assert "refused 127.0.0.1:" in log and "bad MAC on hello" in log, log[-3000:]
        assert log.count("refused 127.0.0.1:") == 1, log[-3000:]


def test_bad_rows_from_a_station_are_kept_aside_and_never_hold_back_the_rest(
    tmp_path: Path,
) -> None:
    """Real processes: a station's outbox with a row that is not JSON and a check missing
    its fields between good rows. The hub checks each row as its frame arrives, stores the
    good ones, keeps the bad ones aside with their reasons (``hub rejected``) and acks past
    them: the station's backlog empties, and rows written later still arrive."""
    hub = Hub(tmp_path / "hub").start()
    st = Station(tmp_path / "st", hub, "st")
    st.enqueue(3)
    db = open_db(st.db_path, outbox.migrations)
    with db.atomic():
        db.execute(
            "INSERT INTO outbox (kind, payload, created_at) VALUES"
            " ('challenge', '{not json', 1.0), ('challenge', '{\"id\": 4}', 1.0)"
        )
    db.close()
    st.enqueue(3, start=5)
    with running(hub, st):
        st.start()
        wait_for(lambda: hub.count("st") == 6, 15, "the good rows")
        rejected = json.loads(hub.ctl("rejected", "--json"))
        # key_id is optional (the receipt's key: rows of older stations have none)
        required = sorted(set(check_payload(0)) - {"id", "key_id"})
        assert [(int(r["key"].rsplit("/", 1)[1]), r["error"]) for r in rejected] == [
            (4, "not JSON"),
            (5, "challenge: missing fields " + str(required)),
        ]
        wait_for(lambda: st.backlog() == 0, 15, "the station's backlog emptied")
        st.enqueue(2, start=8)
        wait_for(lambda: hub.count("st") == 8, 15, "later rows")

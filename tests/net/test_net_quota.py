"""What one peer may cost the hub (hub/quota.py), against an in-process hub on loopback
with a peer that speaks the real protocol but breaks the rules: it does not wait for
acks, it sends past its budget, it sends 1 MB notes and done details, it floods status
frames, it holds handshake slots. Each test asserts the behaviour — cut off, flagged,
what is stored, what the log says, what the referee's commands answer — never a time.
The figures (latency, memory, hub.db growth) are bench/hostile.py's."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from net_procs import (
    CopiedCard,
    Hub,
    Station,
    check_payload,
    loopback_hub,
    running,
    silent_slots,
    station_status,
    wait_for,
)
from testkit import until

from samoobsluha.hub import quota, store
from samoobsluha.shared import protocol
from samoobsluha.shared.protocol import HallKeys, StationKey, new_psk
from samoobsluha.shared.storage import open_db


class Peer:
    """A station reduced to its wire, holding a real station key."""

    def __init__(self, hub: Any, psk: bytes, name: str, source: str = "127.0.0.1") -> None:
        self.hub, self.name, self.source = hub, name, source
        self.creds = HallKeys(psk).credentials(name)
        self.got: list[dict[str, Any]] = []
        self.closed = asyncio.Event()

    async def connect(self, epoch: str = "e1") -> Peer:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.hub.port, local_addr=(self.source, 0)
        )
        self.channel, _ = await protocol.client_handshake(
            self.reader, self.writer, self.creds, tournament=self.hub.tournament,
            station=self.name, epoch=epoch,
        )  # fmt: skip
        await self.channel.send({"t": "status", "status": station_status(self.name)})
        self.task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            while True:
                self.got.append(await self.channel.recv())
        except (ConnectionError, OSError, protocol.ProtocolError, asyncio.IncompleteReadError):
            self.closed.set()

    def acked(self) -> int:
        return max((m["seq"] for m in self.got if m["t"] == "ack"), default=0)

    async def send_rows(self, first: int, rows: list[tuple[str, str]]) -> None:
        frame = [[first + i, kind, payload, 1.0] for i, (kind, payload) in enumerate(rows)]
        await self.channel.send({"t": "rows", "rows": frame})

    async def close(self) -> None:
        self.writer.close()
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def _check(i: int, name: str, note: str = "") -> str:
    return json.dumps({**check_payload(i, name), "note": note})


def _stored(hub: Any, station: str) -> tuple[int, int]:
    """(rows, characters of kind + payload) held for ``station``, accepted or refused."""
    return hub.dbw.call(store.usage_since, station, 0.0)


def _row(rows: list[dict[str, Any]], station: str) -> dict[str, Any]:
    return next(r for r in rows if r["station_id"] == station)


async def test_a_peer_that_does_not_wait_for_acks_is_cut_off_flagged_and_kept_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A copied card streaming 1,000-row frames of junk without waiting for acks: cut
    off once past the window, flagged for the referee, refused for the cooldown; what
    it got stored is bounded by its budget; a few log lines in all."""
    psk = new_psk()
    caplog.set_level(logging.INFO)
    budget = quota.Budget(rows=3_000, bytes=8 << 20)
    async with loopback_hub(tmp_path / "hub.db", psk, budget=budget) as hub:
        evil = await Peer(hub, psk, "evil").connect()
        junk = [("junk", "x" * 100)] * 1000
        seq = 1
        with pytest.raises((ConnectionError, OSError)):
            for _ in range(200):  # never waits for an ack
                await evil.send_rows(seq, junk)
                seq += 1000
                await asyncio.sleep(0)
        await until(lambda: "evil" not in hub.conns)
        await evil.close()
        rows = await hub.stations()
        cut = _row(rows, "evil")
        assert cut["cut_off"] and "without waiting" in cut["cut_off"]
        assert cut["over_budget"]
        assert cut["budget"]["rows"] == 3_000 and cut["budget"]["held"] > 0
        # its budget bounds what it got stored, and nothing of it was ever data
        assert _stored(hub, "evil")[0] == 3_000
        assert hub.dbw.call(store.inbox_rows) == []
        # it comes back at once: refused after its hello for the cooldown
        again = Peer(hub, psk, "evil")
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError, protocol.ProtocolError)):
            await again.connect()
            await asyncio.wait_for(again.closed.wait(), 10)
            raise ConnectionResetError("closed")
        # the refused rows: one line (the first), not one per row
        lines = [r.getMessage() for r in caplog.records]
        assert sum("refused row" in line for line in lines) == 1, lines[:20]
        assert sum("cut off:" in line for line in lines) == 1
        assert len(lines) < 30, lines


async def test_the_cut_off_ends_with_the_cooldown(tmp_path: Path) -> None:
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        hub.cutoff_cooldown = 0.2
        evil = await Peer(hub, psk, "evil").connect()
        # a status flood: frames beyond the burst and the steady rate
        with contextlib.suppress(ConnectionError, OSError):
            for _ in range(quota.FRAME_BURST * 4):
                await evil.channel.send({"t": "status", "status": station_status("evil")})
        await asyncio.wait_for(evil.closed.wait(), 20)
        await evil.close()
        rows = await hub.stations()
        assert "frames a second" in _row(rows, "evil")["cut_off"]

        async def back() -> bool:
            peer = Peer(hub, psk, "evil")
            try:
                await peer.connect()
            except (ConnectionError, asyncio.IncompleteReadError, protocol.ProtocolError):
                return False
            await until(lambda: "evil" in hub.conns or peer.closed.is_set())
            await peer.close()
            return not peer.closed.is_set()

        for _ in range(200):
            if await back():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("still refused after the cooldown")


async def test_an_honest_station_over_budget_keeps_its_rows_until_the_next_round(
    tmp_path: Path,
) -> None:
    """Rows past the budget are neither stored nor acknowledged: the station keeps them,
    is flagged, and is not cut off while it waits for acks; the next round's budget takes
    them."""
    psk = new_psk()
    budget = quota.Budget(rows=50, bytes=1 << 20)
    async with loopback_hub(tmp_path / "hub.db", psk, budget=budget) as hub:
        st = await Peer(hub, psk, "st").connect()
        await st.send_rows(1, [("challenge", _check(i, "st")) for i in range(80)])
        await until(lambda: st.acked() == 50)
        rows = await hub.stations()
        row = _row(rows, "st")
        assert row["over_budget"] and row["budget"]["held"] == 30 and not row["cut_off"]
        assert "st" in hub.conns
        assert len(hub.dbw.call(store.inbox_rows)) == 50
        # a new round: a new budget, and the station's link is renewed so it resends
        await hub.start_round(1, lead=0.0)
        await asyncio.wait_for(st.closed.wait(), 20)
        await st.close()
        st = await Peer(hub, psk, "st").connect()
        await st.send_rows(51, [("challenge", _check(i, "st")) for i in range(50, 80)])
        await until(lambda: st.acked() == 80)
        assert len(hub.dbw.call(store.inbox_rows)) == 80
        assert not _row(await hub.stations(), "st")["over_budget"]
        await st.close()


async def test_the_referees_lane_does_not_wait_for_the_stations_database_thread(
    tmp_path: Path,
) -> None:
    """With the ingest thread held up (a long commit, a flood of rows), the referee's
    commands still answer and a round plan still reaches a connecting station: they go
    through the hub's other database lane."""
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        st = await Peer(hub, psk, "st").connect()
        await until(lambda: "st" in hub.conns)
        release = threading.Event()
        held = asyncio.ensure_future(hub.dbw.run(lambda db: release.wait(60)))
        try:
            rows = await asyncio.wait_for(hub.stations(), 20)
            assert [r["station_id"] for r in rows] == ["st"]
            started = await asyncio.wait_for(hub.start_round(1, lead=600.0), 20)
            assert started["sent_to"] == ["st"]
            await until(lambda: any(m["t"] == "plan" for m in st.got))
            late = await Peer(hub, psk, "late").connect()
            await until(lambda: any(m["t"] == "plan" for m in late.got))
            assert not held.done()  # all of it while the ingest thread was busy
        finally:
            release.set()
            await held
        await st.close()
        await late.close()


async def test_a_replayed_hello_holds_at_most_two_connections(tmp_path: Path) -> None:
    """A hello recorded off the air passes its MAC again (it proves nothing until the
    first sealed frame): the hub keeps at most two such connections per station."""
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        creds = HallKeys(psk).credentials("st")
        hello = protocol.seal_hello(
            creds.key, protocol.Hello("st", "e1", hub.tournament, b"n" * 16, creds.key_id)
        )
        conns = []
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", hub.port)
            writer.write(hello)
            await protocol.read_frame(reader, protocol.MAX_WELCOME)  # welcomed
            conns.append((reader, writer))
        assert len(hub._proving["st"]) == hub.max_proving == 2
        for reader, _ in conns[:3]:  # the older ones were dropped
            assert await asyncio.wait_for(reader.read(), 10) == b""
        for _, writer in conns:
            writer.close()


def test_a_budget_period_is_a_round_or_an_hour() -> None:
    from samoobsluha.shared.rounds import RoundPlan

    hour = 3600.0
    assert quota.budget_period([], 10 * hour + 5, hour) == ((0, 10), 10 * hour)
    plans = [RoundPlan(1, 1000.0), RoundPlan(2, 5000.0), RoundPlan(3, 9000.0).cancelled_plan()]
    assert quota.budget_period(plans, 999.0, hour)[0] == (0, 0)  # before round 1
    assert quota.budget_period(plans, 1000.0, hour) == ((1, 0), 1000.0)
    assert quota.budget_period(plans, 4999.0, hour) == ((1, 1), 4600.0)  # round 1, 2nd hour
    assert quota.budget_period(plans, 9500.0, hour) == ((2, 1), 8600.0)  # 3 was cancelled


async def test_notes_and_done_details_are_bounded(tmp_path: Path) -> None:
    """A 1 MB note is a refused row of which 1 KiB is kept; a 1 MB done detail is kept
    to 500 characters, and only for an item the hub sent on that link."""
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        await hub.start_round(1, lead=600.0)
        st = await Peer(hub, psk, "st").connect()
        await until(lambda: any(m["t"] == "plan" for m in st.got))
        plan_id = next(m["id"] for m in st.got if m["t"] == "plan")
        big = "n" * ((1 << 20) - 2048)
        await st.send_rows(1, [("challenge", _check(0, "st", note=big[:1500]))])
        await st.send_rows(2, [("challenge", _check(1, "st", note=big))])
        await until(lambda: st.acked() == 2)
        await st.channel.send({"t": "done", "id": plan_id, "ok": False, "detail": big})
        await st.channel.send({"t": "done", "id": "plan:99:0", "ok": True, "detail": big})
        for i in range(3):  # items never sent: nothing stored for them
            await st.channel.send({"t": "done", "id": f"x{i}", "ok": True, "detail": "d"})
        await until(lambda: bool(hub.dbw.call(store.load_deliveries, plan_id)))
        # the frames after it are handled too (one connection, in order)
        await st.send_rows(3, [("challenge", _check(2, "st"))])
        await until(lambda: st.acked() == 3)
        detail = hub.dbw.call(store.load_deliveries, plan_id)["st"]["detail"]
        assert len(detail) == protocol.MAX_DETAIL
        assert hub.dbw.call(store.load_deliveries, "plan:99:0") == {}
        assert hub.dbw.call(store.load_deliveries, "x0") == {}
        assert [r["payload"]["id"] for r in hub.dbw.call(store.inbox_rows)] == [0, 2]
        (refused,) = hub.dbw.call(store.rejected_rows)
        assert len(refused["payload"]) == protocol.REJECTED_KEEP
        assert "exceeds the limits" in refused["error"]
        assert _stored(hub, "st")[1] < 20_000
        await st.close()


async def _silent(source: str, port: int) -> asyncio.StreamWriter | None:
    """A connection that never says anything."""
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    except OSError:
        return None
    return writer


async def test_silent_connections_give_way_to_a_station(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight addresses holding every handshake slot with silent connections: a station
    still gets in at once, from its own address or from one of theirs, and the log has
    a line per address, not per connection."""
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        sources = [f"127.0.0.{i}" for i in range(2, 10)]
        # twice as many as there are slots
        held = [await _silent(src, hub.port) for _ in range(16) for src in sources]
        await until(lambda: len(hub.slots) == hub.slots.total)
        # one address holds at most its share
        assert max(len(v) for v in hub.slots.by_address.values()) <= 8
        for source in ("127.0.0.1", "127.0.0.5"):
            st = await Peer(hub, psk, f"st{source[-1]}", source).connect()
            await until(lambda st=st: st.name in hub.conns)
            await st.close()
        assert hub.slots.evicted >= 64
        dropped = [r for r in caplog.records if "dropped a handshake" in r.getMessage()]
        assert 1 <= len(dropped) <= len(sources), [r.getMessage() for r in dropped]
        for writer in held:
            if writer is not None:
                writer.close()


# -- real processes: hub serve, three station daemons, a copied card ------------------------


def _stations(hub: Hub) -> list[dict[str, Any]]:
    return list(json.loads(hub.ctl("stations", "--json")))


def _connected(hub: Hub, names: set[str]) -> bool:
    return names <= {r["station_id"] for r in _stations(hub) if r["connected"]}


def _cut_off(hub: Hub, name: str) -> bool:
    return any(r["station_id"] == name and r["cut_off"] for r in _stations(hub))


def test_a_copied_card_flooding_rows_stops_no_round_and_no_command(tmp_path: Path) -> None:
    """The issue's attack: a copied card streaming 1,000-row frames without waiting for
    acks, reconnecting whenever it is dropped, against hub serve and three station
    daemons. Meanwhile: the referee's commands answer, a round starts on every honest
    station, an honest station's rows arrive, a restarted station comes back; after it:
    the card is flagged, what it got stored is within one budget, the log is short."""
    hub = Hub(tmp_path / "hub").start()
    stations = [Station(tmp_path / f"st{i}", hub, f"st{i}") for i in range(3)]
    creds = StationKey.from_text(hub.issue_key("copied", tmp_path / "copied.key").read_text())
    honest = {"st0", "st1", "st2"}
    with running(hub, *stations):
        for st in stations:
            st.start()
        wait_for(lambda: _connected(hub, honest), 30, "three stations")
        with CopiedCard(hub.port, creds, hub.tournament) as card:
            wait_for(
                lambda: _cut_off(hub, "copied") and card.attempts > card.connections,
                30,
                "the card cut off and trying again",
            )
            # the referee's commands answer during the attack
            assert {r["station_id"] for r in _stations(hub)} >= honest | {"copied"}
            started = json.loads(
                hub.ctl(
                    "round", "start", "--json", "1", "--in", "3", "--basic", "8", "--warning", "2"
                )
            )
            assert honest <= set(started["sent_to"])
            wait_for(lambda: all(st.rings() for st in stations), 30, "the start everywhere")
            stations[1].enqueue(20)
            wait_for(lambda: hub.count("st1") >= 20, 30, "an honest station's rows")
            # a station restarted during the attack comes back
            stations[2].stop()
            stations[2].start()
            wait_for(lambda: _connected(hub, {"st2"}), 30, "the restarted station")
            rows = {r["station_id"]: r for r in _stations(hub)}
            assert rows["copied"]["cut_off"], rows["copied"]
            text = hub.ctl("stations")
            gong = json.loads(hub.ctl("gong", "end", "--json"))
            assert honest <= set(gong["sent_to"])
        for st in stations[:2]:
            assert [r["signal"] for r in st.rings()][:1] == ["start"]
            assert "missed" not in st.log(), st.log()[-2000:]
        assert "CUT OFF" in text or "ODPOJENA" in text, text
        wait_for(lambda: len(stations[0].rings()) >= 2, 30, "the manual gong")
    # the card streamed past the flow-control window (how far past depends on how fast
    # the hub cut it, and its cooldown keeps it out for the rest of the test)
    assert card.frames * card.per_frame > quota.MAX_UNACKED_ROWS
    # what the card got stored is bounded by one station's budget
    db = open_db(hub.db_path, store.migrations)
    try:
        rows_stored, size = store.usage_since(db, "copied", 0.0)
    finally:
        db.close()
    assert 0 < rows_stored <= quota.BUDGET.rows and size <= quota.BUDGET.bytes
    lines = hub.log().splitlines()
    assert sum("refused row" in line for line in lines) <= 2, lines[:40]
    assert len(lines) < 300, "\n".join(lines[-60:])


def test_silent_slots_and_megabyte_texts_stop_no_station(tmp_path: Path) -> None:
    """Silent connections from 8 addresses churning through every handshake slot, and a
    copied card sending 1 MB notes and 1 MB done details, against hub serve and three
    station daemons: a restarted station gets back in, a round starts everywhere, the
    card's megabytes are not stored, the log is short."""
    hub = Hub(tmp_path / "hub").start()
    stations = [Station(tmp_path / f"st{i}", hub, f"st{i}") for i in range(3)]
    creds = StationKey.from_text(hub.issue_key("copied", tmp_path / "copied.key").read_text())
    honest = {"st0", "st1", "st2"}
    big = "n" * ((1 << 20) - 4096)

    async def dones(channel: protocol.Channel) -> None:
        for i in range(5):
            await channel.send({"t": "done", "id": f"plan:1:{i}", "ok": False, "detail": big})

    note = json.dumps({**check_payload(1, "copied"), "note": big[: (1 << 20) - 8192]})
    card = CopiedCard(
        hub.port, creds, hub.tournament, kind="challenge", payload=note, per_frame=1, extra=dones
    )
    with running(hub, *stations):
        for st in stations:
            st.start()
        wait_for(lambda: _connected(hub, honest), 30, "three stations")
        with silent_slots(hub.port) as opened, card:
            wait_for(lambda: opened[0] > 500 and card.frames > 20, 30, "both attacks")
            stations[2].stop()
            stations[2].start()
            wait_for(lambda: _connected(hub, {"st2"}), 30, "the restarted station")
            started = json.loads(
                hub.ctl(
                    "round", "start", "--json", "1", "--in", "3", "--basic", "8", "--warning", "2"
                )
            )
            assert honest <= set(started["sent_to"])
            wait_for(lambda: all(st.rings() for st in stations), 30, "the start everywhere")
        for st in stations:
            assert st.rings()[0]["signal"] == "start"
    db = open_db(hub.db_path, store.migrations)
    try:
        rows_stored, size = store.usage_since(db, "copied", 0.0)
        details = [d for (d,) in db.execute("SELECT detail FROM deliveries")]
    finally:
        db.close()
    assert rows_stored > 0 and size <= rows_stored * (protocol.REJECTED_KEEP + 64)
    assert all(len(d) <= protocol.MAX_DETAIL for d in details)
    lines = hub.log().splitlines()
    assert len(lines) < 300, "\n".join(lines[-60:])

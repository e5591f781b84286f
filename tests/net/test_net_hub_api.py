"""The hub's API end to end with a real station link (one process, real sockets and
SQLite files): rounds, changes, manual gong, published items, lexicon push, control socket."""

from __future__ import annotations

import asyncio
import hashlib
import random
from pathlib import Path
from typing import Any

import pytest
from net_procs import enqueue_checks, loopback_hub, start_sync, station_status, stop_sync
from testkit import until

from samoobsluha.hub import control, store
from samoobsluha.hub.server import HubServer
from samoobsluha.shared import protocol
from samoobsluha.shared.i18n import error_text
from samoobsluha.shared.lexicon import Lexicon, build_from_wordlist, read_info
from samoobsluha.shared.protocol import new_psk
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station.rounds import load_plans
from samoobsluha.station.sync import NetworkConfig, StationSync, load_item


@pytest.fixture
async def link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "hubdata"))
    psk = new_psk()
    hub = HubServer(tmp_path / "hub.db", psk, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    net = NetworkConfig(tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id="s1")
    events: dict[str, list[Any]] = {}
    sync = StationSync(
        tmp_path / "station.db", net, psk=psk, lexicon_path=tmp_path / "st" / "cs.lex"
    )
    for name in ("plan", "gong", "config", "show", "lexicon"):
        sync.on(name, lambda *a, _n=name: events.setdefault(_n, []).append(a))
    task = asyncio.create_task(sync.run())
    await until(lambda: "s1" in hub.conns and sync.clock.synced)
    yield hub, sync, events, tmp_path
    await stop_sync(sync, task)
    await hub.close()


async def test_round_changes_reach_the_station_and_are_confirmed(link) -> None:
    hub, sync, events, _ = link
    started = await hub.start_round(3, lead=60, basic_seconds=600, warning_seconds=60)
    assert started["sent_to"] == ["s1"]
    await until(lambda: len(events.get("plan", [])) == 1)
    for action, seconds in (("delay", 30), ("extend", 120), ("pause", 0), ("resume", 0)):
        await hub.change_round(3, action, seconds)
    await hub.change_round(3, "cancel")
    await until(lambda: len(events.get("plan", [])) == 6)
    plans = sync.plans()
    assert len(plans) == 1 and plans[0].revision == 5 and plans[0].cancelled
    assert plans[0].start_at == pytest.approx(started["plan"]["start_at"] + 30)
    await until(lambda: len(hub.dbw.call(store.load_deliveries, "plan:3:5")) == 1)
    assert (await hub.deliveries("plan:3:5"))["s1"]["ok"] is True
    with pytest.raises(ValueError):
        await hub.change_round(9, "delay", 5)


async def test_manual_gong_carries_an_instant_ahead(link) -> None:
    hub, sync, events, _ = link
    result = await hub.gong("end")
    await until(lambda: "gong" in events)
    signal, at = events["gong"][0]
    assert signal == "end" and at == result["at"]
    assert at > sync.clock.now()  # arrives before it is due: every station rings together


async def test_published_items_are_stored_on_the_station(link) -> None:
    hub, sync, events, _ = link
    await hub.publish("config", {"tables": [1, 2], "max_words": 6})
    await hub.publish("pairings", {"round": 2, "tables": [[1, "Novák", "Dvořák"]]})
    await until(lambda: len(events.get("config", [])) == 1 and "show" in events)
    assert sync.dbw.call(load_item, "config")["tables"] == [1, 2]
    assert sync.dbw.call(load_item, "pairings")["tables"][0][1] == "Novák"
    with pytest.raises(ValueError):
        await hub.publish("passwords", {})
    with pytest.raises(ValueError, match="JSON object"):
        await hub.publish("config", ["tables"])
    with pytest.raises(ValueError, match="“limits” cannot be set for the whole hall"):
        await hub.publish("config", {"tables": [1, 2], "limits": {"words": 6}})
    with pytest.raises(ValueError, match="too large"):
        await hub.publish("standings", ["x" * 1000] * 2000)
    assert hub.conns["s1"].channel is not None  # the link survived the refusals


async def test_referee_pin_from_the_hub_is_the_kiosk_pin(link) -> None:
    """hub pin set / the dashboard: one hash per station, each with its own salt, rides
    the hub link; a station gets only its own (never another card's), and the kiosk's PIN
    lookup (same station database) uses it. A station the PIN is not for gets nothing."""
    import hashlib as _hashlib

    from samoobsluha.shared.pin import hash_pin, hash_pin_for, verify_pin
    from samoobsluha.station.log import KioskStore

    hub, sync, _, tmp = link
    hashes = hash_pin_for("86429753", ["s1", "s2"])
    result = await hub.publish("referee_pin", {"hashes": hashes})
    assert result["sent_to"] == ["s1"] and result["stations"] == ["s1", "s2"]
    await until(lambda: sync.dbw.call(load_item, "referee_pin") is not None)
    assert sync.dbw.call(load_item, "referee_pin") == {"hash": hashes["s1"]}
    kiosk = KioskStore.open(tmp / "station.db", "s1")
    try:
        assert kiosk.referee_pin() == hashes["s1"]
        assert verify_pin("86429753", kiosk.referee_pin())
    finally:
        kiosk.close()
    # the same for a station it is not for: nothing is sent to it
    only_s2 = {"hashes": {"s2": hashes["s2"]}}
    assert (await hub.publish("referee_pin", only_s2))["sent_to"] == []

    salt = bytes(16)
    old = _hashlib.scrypt(b"4711", salt=salt, n=2**14, r=8, p=1, dklen=32).hex()
    outdated = f"scrypt${2**14}$8$1${salt.hex()}${old}"
    one = hash_pin("86429753", salt=salt)
    for bad, why in (
        ({"hash": hashes["s1"]}, "hashes"),  # one hash for every station: one salt
        ({"hashes": {}}, "hashes"),
        ({"hashes": {"s1": "1234"}}, "not a current"),
        ({"hashes": {"s1": outdated}}, "not a current"),  # the old policy
        ({"hashes": {"s1": one, "s2": one}}, "own salt"),
        (["scrypt$"], "hashes"),
    ):
        with pytest.raises(ValueError, match=why):
            await hub.publish("referee_pin", bad)
    assert sync.dbw.call(load_item, "referee_pin") == {"hash": hashes["s1"]}


async def test_lexicon_push_is_verified_and_swapped_in(link, monkeypatch) -> None:
    hub, sync, events, tmp = link
    monkeypatch.setattr(protocol, "LEXICON_CHUNK", 4096)  # many chunks from a small file
    words = tmp / "words.txt"
    # big enough for several chunks
    rnd = random.Random(5)
    words.write_text("\n".join("".join(rnd.choices("abcdeilmnoprstuvz", k=9)) for _ in range(5000)))
    lex = tmp / "test.lex"
    build_from_wordlist(words, lex, language="cs", variant="TEST")
    assert lex.stat().st_size > 3 * 4096
    info = read_info(lex)
    result = await hub.push_lexicon(lex)
    assert result["sent_to"] == ["s1"]
    await until(lambda: "lexicon" in events, 20)
    target = events["lexicon"][0][0]
    assert target == tmp / "st" / "cs.lex"
    assert hashlib.sha256(target.read_bytes()).digest() == hashlib.sha256(lex.read_bytes()).digest()
    assert Lexicon.open(target).info.sha256 == info.sha256
    assert sync.status.lexicon_sha256 == info.sha256
    # with the hub's signature beside it: the key the station pins trusts it
    from samoobsluha.shared.lextrust import Trust, decide

    assert decide(read_info(target), target, sync.credentials.hub_public) is Trust.HUB
    await until(lambda: "s1" in hub.dbw.call(store.load_deliveries, result["id"]))
    # the hub now knows the station has it and does not push it again
    await until(lambda: hub.conns["s1"].status.get("lexicon_sha256") == info.sha256)
    assert (await hub.push_lexicon(lex))["sent_to"] == []
    with pytest.raises(Exception):  # noqa: B017 - whatever read_info raises for junk
        await hub.push_lexicon(words)


def test_finish_lexicon_refuses_a_wrong_digest(tmp_path: Path) -> None:
    tmp = tmp_path / ".x.incoming"
    fh = tmp.open("wb")
    fh.write(b"not what was announced")
    rx = {
        "fh": fh,
        "tmp": tmp,
        "target": tmp_path / "x.lex",
        "offset": 22,
        "size": 22,
        "sha": hashlib.sha256(b"not what was announced"),
        "expect_sha": "0" * 64,
    }
    ok, detail = StationSync._finish_lexicon(rx)
    assert not ok and "mismatch" in detail
    assert not (tmp_path / "x.lex").exists() and not tmp.exists()


async def test_control_socket_drives_the_server(link) -> None:
    hub, _sync, _events, tmp = link
    path = tmp / "ctl.sock"
    srv = await control.start_control(hub, path)
    try:
        info = await asyncio.to_thread(control.request, "info", path)
        assert info["tournament"] == hub.tournament and info["connected"] == ["s1"]
        result = await asyncio.to_thread(
            control.request, "start_round", path, number=1, lead=30, basic_seconds=100,
            warning_seconds=10,
        )  # fmt: skip
        assert RoundPlan.from_dict(result["plan"]).basic_seconds == 100
        stations = await asyncio.to_thread(control.request, "stations", path)
        assert stations[0]["station_id"] == "s1" and stations[0]["connected"]
        with pytest.raises(control.ControlError, match="round 5 is not planned"):
            await asyncio.to_thread(control.request, "change_round", path, number=5, action="pause")
        with pytest.raises(control.ControlError, match="unknown operation"):
            await asyncio.to_thread(control.request, "drop_tables", path)
        # a file that is no lexicon: refused with its reason, the socket still answering
        junk = tmp / "junk.lex"
        junk.write_bytes(b"not a lexicon at all")
        with pytest.raises(control.ControlError) as refused:
            await asyncio.to_thread(control.request, "push_lexicon", path, file=str(junk))
        assert error_text(refused.value, "pl") == f"{junk}: to nie jest słownik Samoobsluhy " + (
            "(błędny początek pliku)"
        )
        assert (await asyncio.to_thread(control.request, "info", path))["connected"] == ["s1"]
    finally:
        srv.close()
    with pytest.raises(control.ControlError, match="not running"):
        control.request("info", tmp / "nothing.sock")


async def test_station_catches_up_on_connect(tmp_path: Path) -> None:
    """Plans and published items made while a station was away reach it when it joins."""
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        await hub.start_round(1, lead=100)
        await hub.publish("standings", [{"name": "Nováková", "points": 3}])
        net = NetworkConfig(
            tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id="late"
        )
        sync = StationSync(tmp_path / "st.db", net, psk=psk)
        task = asyncio.create_task(sync.run())
        await until(lambda: sync.dbw.call(load_item, "standings") is not None)
        await until(lambda: len(sync.plans()) == 1)
        await stop_sync(sync, task)


async def test_two_machines_with_one_name_do_not_knock_each_other_off(tmp_path: Path) -> None:
    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        first, t1 = await start_sync(hub, psk, tmp_path / "a.db", "raspberrypi")
        await until(lambda: first.status.connected)
        second, t2 = await start_sync(hub, psk, tmp_path / "b.db", "raspberrypi")
        await until(lambda: second.status.last_error is not None)
        await asyncio.sleep(0.3)
        assert first.status.connected and not second.status.connected
        assert hub.conns["raspberrypi"].epoch == first.epoch
        await stop_sync(second, t2)
        await stop_sync(first, t1)


async def test_skewed_station_reads_hub_time(tmp_path: Path) -> None:
    """A station whose clock is 7 minutes fast reads hub time within a few ms."""
    import time

    from samoobsluha.station.link.clock import SkewedClock

    psk = new_psk()
    async with loopback_hub(tmp_path / "hub.db", psk) as hub:
        sync, task = await start_sync(
            hub, psk, tmp_path / "s.db", "s", local_clock=SkewedClock(420.0)
        )
        assert not sync.clock.synced
        await until(lambda: sync.clock.synced)
        await asyncio.sleep(0.4)  # the burst of six exchanges
        # hub time, not the station's 7 minutes; how close is bench/sync.py's figure
        assert abs(sync.clock.now() - time.time()) < 0.5
        assert sync.clock.offset == pytest.approx(-420.0, abs=0.5)
        assert len(sync.estimator.samples) >= 3
        await until(lambda: hub.conns["s"].status.get("clock_synced") is True)
        await stop_sync(sync, task)


async def test_the_kiosk_loop_never_waits_for_a_missing_hub(tmp_path: Path) -> None:
    """No hub listening: the link retries in the background and the loop stays free."""
    from net_procs import free_port

    net = NetworkConfig(tournament_id="t-x", hub=f"127.0.0.1:{free_port()}", station_id="k")
    sync = StationSync(tmp_path / "k.db", net, psk=new_psk())
    task = asyncio.create_task(sync.run())
    loop = asyncio.get_running_loop()
    worst = 0.0
    for _ in range(100):  # 2 s of a kiosk ticking every 20 ms
        before = loop.time()
        await asyncio.sleep(0.02)
        worst = max(worst, loop.time() - before - 0.02)
    # a blocked loop would stall for a whole connect timeout (seconds), not a tick
    assert worst < 1.0
    assert not sync.status.connected and "failed" in (sync.status.last_error or "").lower()
    await stop_sync(sync, task)


async def test_a_station_with_the_wrong_key_says_so(tmp_path: Path) -> None:
    async with loopback_hub(tmp_path / "hub.db", new_psk()) as hub:
        sync, task = await start_sync(hub, new_psk(), tmp_path / "s.db", "s")
        await until(lambda: sync.status.last_error is not None)
        assert "hung up during the handshake" in sync.status.last_error
        assert not sync.status.connected and hub.conns == {}
        await stop_sync(sync, task)
        assert await hub.stations() == []


async def test_a_failed_commit_drops_the_link_and_the_rows_come_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    psk = new_psk()
    hub = HubServer(tmp_path / "hub.db", psk, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    real_store = store.store_received
    failures = {"left": 1}

    def flaky_store(db, received):
        if failures["left"]:
            failures["left"] -= 1
            raise OSError("disk I/O error")
        return real_store(db, received)

    monkeypatch.setattr(store, "store_received", flaky_store)
    try:
        sync, task = await start_sync(hub, psk, tmp_path / "s.db", "s")
        await until(lambda: sync.status.connected)
        enqueue_checks(tmp_path / "s.db", "s", 10)
        sync.nudge()
        await until(lambda: sync.status.acked_seq == 10, 15)
        assert failures["left"] == 0
        assert len(hub.dbw.call(store.inbox_rows)) == 10
        await stop_sync(sync, task)
    finally:
        await hub.close()


def test_plans_are_kept_per_tournament(tmp_path: Path) -> None:
    from samoobsluha.shared.storage import open_db
    from samoobsluha.station import outbox
    from samoobsluha.station.sync import _store_plan, migrations

    db = open_db(tmp_path / "s.db", outbox.migrations, migrations)
    old = RoundPlan(1, 1000.0, revision=4)
    assert _store_plan(db, "t-spring", old, 1.0)
    assert not _store_plan(db, "t-spring", RoundPlan(1, 1000.0, revision=2), 2.0)
    # the next tournament's round 1, revision 0, is news despite the old revision 4
    assert _store_plan(db, "t-autumn", RoundPlan(1, 5000.0), 3.0)
    assert load_plans(db, "t-autumn")[0].start_at == 5000.0
    assert load_plans(db, "t-spring")[0].revision == 4


async def test_a_station_whose_backlog_does_not_shrink_is_stalled(tmp_path: Path) -> None:
    """The hub shows a connected station whose backlog has not shrunk for a minute (its
    sync is stuck); progress clears it. Hub time is a fake clock: no waiting."""
    from samoobsluha.shared import protocol
    from samoobsluha.shared.clock import FakeClock

    clock = FakeClock()
    secret = new_psk()
    async with loopback_hub(tmp_path / "hub.db", secret, clock=clock) as hub:
        reader, writer = await asyncio.open_connection("127.0.0.1", hub.port)
        creds = protocol.HallKeys(secret).credentials("s", 1)
        channel, _ = await protocol.client_handshake(
            reader, writer, creds, tournament=hub.tournament, station="s", epoch="e"
        )
        await channel.send({"t": "status", "status": station_status(backlog=5)})
        await until(lambda: "s" in hub.conns)

        async def stalled() -> bool:
            (row,) = await hub.stations()
            return bool(row["stalled"])

        assert not await stalled()
        clock.advance(hub.stall_after + 1)
        assert await stalled()
        await channel.send({"t": "status", "status": station_status(backlog=5)})  # no progress
        await until(lambda: hub.conns["s"].status.get("backlog") == 5)
        assert await stalled()
        await channel.send({"t": "status", "status": station_status(backlog=3)})  # it moves again
        await until(lambda: hub.conns["s"].status.get("backlog") == 3)
        assert not await stalled()
        await channel.close()


async def test_a_local_pin_dated_in_the_future_loses_to_the_hub_pin(link) -> None:
    """A copied card given a local PIN "set" far in the future (9e9): the hub's PIN, sent
    over the real link afterwards, is the one in force; a local PIN set honestly after the
    hub's arrived still wins until the next ``hub pin set``."""
    import time

    from samoobsluha.shared.pin import hash_pin, hash_pin_for, verify_pin
    from samoobsluha.station.log import KioskStore

    hub, sync, _, tmp = link
    kiosk = KioskStore.open(tmp / "station.db", "s1")
    try:
        kiosk.set_referee_pin(hash_pin("111111"), 9e9)  # the thief's, dated year 2255
        assert verify_pin("111111", kiosk.referee_pin())  # no hub PIN yet: it is the only one
        hashes = hash_pin_for("86429753", ["s1"])
        await hub.publish("referee_pin", {"hashes": hashes})
        await until(lambda: sync.dbw.call(load_item, "referee_pin") is not None)
        assert kiosk.referee_pin() == hashes["s1"]
        assert not verify_pin("111111", kiosk.referee_pin())
        # the referee changes the PIN at the station itself, after the hub's: it wins ...
        received = sync.dbw.call(
            lambda db: db.execute(
                "SELECT received_at FROM hub_items WHERE kind = 'referee_pin'"
            ).fetchone()[0]
        )
        kiosk.set_referee_pin(hash_pin("222222"), received + 1e-6)
        assert verify_pin("222222", kiosk.referee_pin(now=time.time()))
        # ... until the hub sets one again
        again = hash_pin_for("97531864", ["s1"])
        await hub.publish("referee_pin", {"hashes": again})
        await until(lambda: kiosk.referee_pin() == again["s1"])
    finally:
        kiosk.close()

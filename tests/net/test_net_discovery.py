"""Discovery on 127.0.0.1: two hubs of different tournaments, each station finds its own;
rogue announcers cannot capture a station; address-less fakes cannot slow the search."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
from pathlib import Path

import pytest
from net_procs import Hub, Station, running, wait_for
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from samoobsluha.hub.server import HubServer
from samoobsluha.shared import protocol
from samoobsluha.station.link.discovery import Candidate, discover, discover_hub
from samoobsluha.station.sync import NetworkConfig, StationSync


async def test_two_tournaments_on_one_lan(tmp_path: Path) -> None:
    hub1 = Hub(tmp_path / "hub1", mdns=True).start()
    hub2 = Hub(tmp_path / "hub2", mdns=True).start()
    assert hub1.tournament != hub2.tournament
    with running(hub1, hub2):
        found1 = await discover_hub(hub1.tournament, interfaces=["127.0.0.1"])
        found2 = await discover_hub(hub2.tournament, interfaces=["127.0.0.1"])
        assert {(h, p) for h, p, _ in found1} == {("127.0.0.1", hub1.port)}
        assert {(h, p) for h, p, _ in found2} == {("127.0.0.1", hub2.port)}
        assert await discover_hub("t-nobody", interfaces=["127.0.0.1"], timeout=1.0) == []

        # a station of tournament 2 joins hub 2 by mDNS alone (no address configured)
        st = Station(tmp_path / "st", hub2, "s2", use_mdns=True)
        st.enqueue(5)
        with running(st):
            st.start()
            wait_for(lambda: hub2.count("s2") == 5, 20, "rows at hub 2")
        assert hub1.count() == 0
        assert json.loads(hub1.ctl("stations", "--json")) == []


class _Rogue:
    """A TCP server on 127.0.0.1 that either never says a word or hangs up at once."""

    def __init__(self, silent: bool) -> None:
        self.silent = silent
        self.accepted = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        async def handle(_r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            self.accepted += 1
            if self.silent:
                self.writers.append(w)  # held open, never answered
            else:
                w.close()

        self.server = await asyncio.start_server(handle, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    def close(self) -> None:
        for w in self.writers:
            w.close()
        self.server.close()


async def _announce(
    azc: AsyncZeroconf, name: str, port: int, tournament: str, key: bytes | None = None
) -> AsyncServiceInfo:
    props = {"tournament": tournament, "hub": name, "v": str(protocol.PROTOCOL_VERSION)}
    if key is not None:
        props["key"] = key.hex()
    info = AsyncServiceInfo(
        protocol.SERVICE_TYPE,
        f"{name}.{protocol.SERVICE_TYPE}",
        addresses=[socket.inet_aton("127.0.0.1")],
        port=port,
        properties=props,
    )
    await azc.async_register_service(info)
    return info


async def test_rogue_announcers_cannot_capture_a_station(tmp_path: Path) -> None:
    """Two key-less devices announce the station's tournament by mDNS, one silent, one
    refusing: the station tries every candidate and syncs with the real hub."""
    hub = Hub(tmp_path / "hub", mdns=True).start()
    silent, refusing = _Rogue(silent=True), _Rogue(silent=False)
    ports = [await silent.start(), await refusing.start()]
    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        for i, port in enumerate(ports):
            await _announce(azc, f"rogue-{i}", port, hub.tournament)
        # discovery does not stop at the first answer: all three become candidates
        seen: set[int] = set()
        for _ in range(5):
            found = await discover_hub(hub.tournament, interfaces=["127.0.0.1"])
            seen |= {p for _, p, _ in found}
            if seen == {hub.port, *ports}:
                break
        assert seen == {hub.port, *ports}
        st = Station(tmp_path / "st", hub, "s1", use_mdns=True)
        st.enqueue(5)
        with running(hub, st):
            st.start()
            await asyncio.to_thread(wait_for, lambda: hub.count("s1") == 5, 30, "rows at the hub")
    finally:
        await azc.async_close()
        silent.close()
        refusing.close()


async def test_every_candidate_is_tried_and_none_holds_the_station(tmp_path: Path) -> None:
    """A silent address first, a refusing one second, the hub last: the station connects to
    the hub, having tried both rogues, and keeps no connection to them."""
    secret = protocol.new_psk()
    hub = HubServer(tmp_path / "hub.db", secret, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    silent, refusing = _Rogue(silent=True), _Rogue(silent=False)
    targets = [("127.0.0.1", await silent.start()), ("127.0.0.1", await refusing.start())]
    net = NetworkConfig(tournament_id=hub.tournament, station_id="s1")
    sync = StationSync(tmp_path / "st.db", net, psk=secret)
    try:
        writer, _, welcome, target = await sync._connect([*targets, ("127.0.0.1", hub.port)])
        assert target == ("127.0.0.1", hub.port) and welcome["hub"] == hub.hub_id
        assert silent.accepted == 1 and refusing.accepted == 1
        writer.close()
    finally:
        sync.close()
        silent.close()
        refusing.close()
        await hub.close()


async def _announce_fakes(azc: AsyncZeroconf, tournament: str, count: int) -> None:
    """``count`` services of our type and tournament whose answers carry no address (SRV
    and TXT only): what a phone announcing junk on the hall LAN looks like."""
    infos = [
        AsyncServiceInfo(
            protocol.SERVICE_TYPE,
            f"fake-{tournament}-{i}.{protocol.SERVICE_TYPE}",
            addresses=[],
            port=4000 + i,
            server=f"fake-{tournament}-{i}.local.",
            properties={"tournament": tournament, "hub": f"fake{i}", "v": "2"},
        )
        for i in range(count)
    ]
    await asyncio.gather(*(azc.async_register_service(info) for info in infos))


async def test_fakes_without_addresses_are_resolved_side_by_side(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """30 address-less fakes and one hub: each fake takes the whole resolve timeout (1 s),
    so resolved one after another they would need 30 s; the search's budget is 5 s, and
    every one of them is still given its full chance (and refused) within it, because they
    are resolved at the same time. The fakes themselves are no candidates."""
    caplog.set_level(logging.INFO, logger="station.link")
    tournament = f"t-fake{os.getpid() % 100000}"
    key = protocol.HallKeys(protocol.new_psk()).public_key
    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        await _announce_fakes(azc, tournament, 30)
        await _announce(azc, "the-hub", 47999, tournament, key=key)
        found = await discover(
            tournament,
            interfaces=["127.0.0.1"],
            pinned_key=None,  # no early end: every fake is waited for
            resolve_timeout=1.0,
            timeout=5.0,
            settle=4.0,
        )
        assert [(c.host, c.port, c.hub_id) for c in found] == [("127.0.0.1", 47999, "the-hub")]
        ignored = [r.getMessage() for r in caplog.records if "gave no address" in r.getMessage()]
        # every fake had its full resolve time within the budget (another test's services
        # may add to the count, never take from it)
        assert ignored and int(ignored[0].split()[1]) >= 30, ignored
    finally:
        await azc.async_close()


async def test_the_pinned_hub_ends_the_search_and_comes_first() -> None:
    """A rogue with an address announces the same tournament beside the hub and 30
    address-less fakes: the service announcing the station's pinned public key comes first
    and ends the search at once (a budget of ten minutes is not waited out)."""
    tournament = f"t-pin{os.getpid() % 100000}"
    key = protocol.HallKeys(protocol.new_psk()).public_key
    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        await _announce_fakes(azc, tournament, 30)
        await _announce(azc, "rogue", 47001, tournament)
        await _announce(azc, "the-hub", 47002, tournament, key=key)
        found = await asyncio.wait_for(
            discover(tournament, interfaces=["127.0.0.1"], pinned_key=key, timeout=600, settle=600),
            60,
        )
        assert found[0] == Candidate("127.0.0.1", 47002, "the-hub", True)
        assert all(c.hub_id != "rogue" or not c.pinned for c in found)
    finally:
        await azc.async_close()


async def test_a_station_finds_its_hub_among_fake_services(tmp_path: Path) -> None:
    """A real ``hub serve`` (which announces its public key) and a station daemon that
    finds it by mDNS alone while 30 address-less fakes announce the same tournament."""
    hub = Hub(tmp_path / "hub", mdns=True).start()
    azc = AsyncZeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        await _announce_fakes(azc, hub.tournament, 30)
        st = Station(tmp_path / "st", hub, "s1", use_mdns=True)
        st.enqueue(3)
        with running(hub, st):
            st.start()
            await asyncio.to_thread(wait_for, lambda: hub.count("s1") == 3, 30, "rows at the hub")
    finally:
        await azc.async_close()

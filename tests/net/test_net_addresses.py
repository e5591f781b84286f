"""Hub addresses as an operator writes them: ``host:port``, ``1.2.3.4:port`` and IPv6
literals in brackets (``[::1]:47820``), in ``[network] hub`` and ``--hub``; and a station
that reaches its hub over IPv6 loopback."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from net_procs import stop_sync
from testkit import until

from samoobsluha.shared import protocol
from samoobsluha.station.config import ConfigError
from samoobsluha.station.link.discovery import format_hostport, parse_hostport
from samoobsluha.station.sync import NetworkConfig, StationSync


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("hub.local:47820", ("hub.local", 47820)),
        ("192.168.8.1:47820", ("192.168.8.1", 47820)),
        ("[::1]:47820", ("::1", 47820)),
        ("[fe80::2%wlan0]:47820", ("fe80::2%wlan0", 47820)),
        ("[::ffff:192.168.8.1]:1", ("::ffff:192.168.8.1", 1)),
        (" [2001:db8::7]:65535 ", ("2001:db8::7", 65535)),
    ],
)
def test_hub_addresses_parse_and_print_back(text: str, expected: tuple[str, int]) -> None:
    assert parse_hostport(text) == expected
    assert parse_hostport(format_hostport(*expected)) == expected


@pytest.mark.parametrize(
    "text",
    ["::1:47820", "[::1]47820", "[::1]:", "[hub]:47820", "hub", "hub:0", "hub:70000", ":47820",
     "[::1]:x", "fe80::2%wlan0:47820"],
)  # fmt: skip
def test_bad_hub_addresses_are_refused_with_the_form_to_use(text: str) -> None:
    with pytest.raises(ConfigError, match=r"host:port|IPv6"):
        parse_hostport(text)


def test_a_bad_hub_address_is_refused_when_the_link_is_made(tmp_path: Path) -> None:
    net = NetworkConfig(tournament_id="t-x", hub="::1:47820", station_id="s1")
    with pytest.raises(ConfigError, match=r"\[::1\]:47820"):
        StationSync(tmp_path / "st.db", net, psk=protocol.new_psk())


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
async def test_a_station_links_to_its_hub_over_ipv6(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from samoobsluha.hub.server import HubServer

    psk = protocol.new_psk()
    hub = HubServer(tmp_path / "hub.db", psk, host="::1", port=0, advertise=False)
    with caplog.at_level("INFO", logger="hub"):
        await hub.start()
    # the hub says where it listens as an operator would write it for --hub
    assert f"on [::1]:{hub.port}" in caplog.text
    try:
        net = NetworkConfig(tournament_id=hub.tournament, hub=f"[::1]:{hub.port}", station_id="s6")
        sync = StationSync(tmp_path / "st.db", net, psk=psk)
        task = asyncio.create_task(sync.run())
        await until(lambda: sync.status.connected, 30)
        assert sync.status.hub_address == f"[::1]:{hub.port}"
        await stop_sync(sync, task)
    finally:
        await hub.close()


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
async def test_a_hub_on_an_ipv6_address_is_found_by_mdns(tmp_path: Path) -> None:
    """``hub serve --host ::1`` announced its address with inet_aton and did not start;
    it now announces the IPv6 address over the stations' IPv4 mDNS, and they find it."""
    from samoobsluha.hub.server import HubServer
    from samoobsluha.station.link.discovery import discover

    hub = HubServer(tmp_path / "hub.db", protocol.new_psk(), host="::1", port=0, advertise=True)
    await hub.start()
    try:
        found = []
        for _ in range(5):  # mDNS on a machine shared with other tests: a few tries
            found = await discover(
                hub.tournament, interfaces=["127.0.0.1"], pinned_key=hub.keys.public_key
            )
            if found:
                break
        assert found and (found[0].host, found[0].port) == ("::1", hub.port)
        assert found[0].pinned
    finally:
        await hub.close()

"""The hall screen under a hostile hall LAN: one device cannot hold more than its share of
connections or live pages, a request head that never completes is cut off, and the
projector is served whatever everyone else holds. Real aiohttp server and raw TCP clients
on loopback; each client binds its own 127.0.0.x address to play a different device."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import logging
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from screen_testkit import seed_tournament
from testkit import until

from samoobsluha.hub.service import HubService
from samoobsluha.hub.web.config import ScreenConfigError, WebLimits, load
from samoobsluha.hub.web.descriptors import DescriptorErrorThrottle
from samoobsluha.hub.web.limits import address_key
from samoobsluha.hub.web.server import ScreenServer
from samoobsluha.shared.clock import FakeClock

PROJECTOR = "127.0.0.1"
PHONE = "127.0.0.2"
ATTACKER = "127.0.0.3"


@pytest.fixture
async def screen(data_dir: Path, clock: FakeClock) -> AsyncIterator[ScreenServer]:
    service = HubService(data_dir, clock=clock)
    seed_tournament(service, players=8)
    limits = WebLimits(
        max_connections=12,
        per_address=4,
        streams_per_address=2,
        max_streams=5,
        header_timeout=0.5,
        projector=(PROJECTOR,),
        reserved=3,
    )
    server = ScreenServer(service, host="127.0.0.1", port=0, limits=limits)
    await server.start()
    yield server
    await server.close()


async def connect(
    screen: ScreenServer, source: str
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", screen.port, local_addr=(source, 0))


async def get(screen: ScreenServer, source: str, path: str) -> int:
    """A whole GET from ``source``; its status, or 0 when the server closed the
    connection without an answer."""
    reader, writer = await connect(screen, source)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 20)
    except ConnectionError:
        return 0
    finally:
        writer.close()
    return int(line.split()[1]) if line else 0


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """True once the server has closed the connection (EOF or reset)."""
    try:
        return await asyncio.wait_for(reader.read(65536), 20) == b""
    except ConnectionError:
        return True


async def half_requests(
    screen: ScreenServer, source: str, count: int
) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """Slowloris: ``count`` connections, each with a request head that never ends."""
    held = []
    for _ in range(count):
        reader, writer = await connect(screen, source)
        writer.write(b"GET / HTTP/1.1\r\nHost: hub\r\nX-a: b\r\n")
        await writer.drain()
        held.append((reader, writer))
    return held


async def open_stream(screen: ScreenServer, source: str) -> tuple[int, asyncio.StreamWriter]:
    reader, writer = await connect(screen, source)
    writer.write(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 20)
    return (int(line.split()[1]) if line else 0), writer


async def test_one_address_gets_its_share_and_the_next_connection_takes_the_oldest_place(
    screen: ScreenServer,
) -> None:
    held = await half_requests(screen, ATTACKER, 4)
    await until(lambda: screen.connections.held[ATTACKER] == 4)
    reader, writer = await connect(screen, ATTACKER)
    # the 5th takes the place of the oldest (its request line was read: it had its turn):
    # that one is closed, the count stays at 4
    assert await closed_by_server(held[0][0])
    assert screen.connections.held[ATTACKER] == 4 and screen.connections.replaced == 1
    writer.write(b"GET / HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n")
    assert (await asyncio.wait_for(reader.readline(), 20)).split()[1] == b"200"
    writer.close()
    # everyone else is served: a phone and the projector
    assert await get(screen, PHONE, "/") == 200
    assert await get(screen, PROJECTOR, "/projector") == 200
    for _, w in held:
        w.close()


async def test_a_connection_has_its_first_moments_to_send_its_request_line(
    screen: ScreenServer,
) -> None:
    """Connections that have sent nothing yet are not pushed out within 0.25 s of their
    accept (the projector's may be among them, its request line on the way): the
    newcomer is refused instead; past that they go, oldest first."""
    held = [await connect(screen, ATTACKER) for _ in range(4)]
    await until(lambda: screen.connections.held[ATTACKER] == 4)
    reader, writer = await connect(screen, ATTACKER)
    assert await closed_by_server(reader)
    writer.close()
    assert screen.connections.refused == 1 and screen.connections.replaced == 0
    clock = [screen.connections.now() + 0.3]  # a moment later
    screen.connections.now = lambda: clock[0]
    reader, writer = await connect(screen, ATTACKER)
    assert await closed_by_server(held[0][0])
    assert screen.connections.replaced == 1
    writer.close()
    for _, w in held:
        w.close()


async def test_a_full_server_still_serves_the_projector(screen: ScreenServer) -> None:
    held = []
    for n in range(3):  # 12 connections from three addresses: the total cap
        held += await half_requests(screen, f"127.0.0.{10 + n}", 4)
    await until(lambda: screen.connections.total == 12)
    assert await get(screen, PROJECTOR, "/projector") == 200  # its reserve
    # a phone takes the place of the oldest connection of an address holding the most
    assert await get(screen, PHONE, "/") == 200
    assert screen.connections.replaced == 1 and screen.connections.refused == 0
    assert await closed_by_server(held[0][0])
    for _, w in held:
        w.close()
    await until(lambda: screen.connections.total == 0)
    assert await get(screen, PHONE, "/") == 200  # places come back when they close


async def test_a_full_server_with_nothing_movable_refuses(screen: ScreenServer) -> None:
    """Only the projector's own connections (its token on the request line) are never
    pushed out: when they are all an address holds, the next one is refused."""
    screen.connections.token = b"TOKEN0123456789abc"
    held = []
    for _ in range(screen.limits.per_address + screen.limits.reserved):
        reader, writer = await connect(screen, PROJECTOR)
        writer.write(b"GET /projector?k=TOKEN0123456789abc HTTP/1.1\r\nHost: hub\r\nX-a: b\r\n")
        await writer.drain()
        held.append((reader, writer))
    await until(lambda: screen.connections.held[PROJECTOR] == 7)
    assert await get(screen, PROJECTOR, "/") == 0
    assert screen.connections.refused == 1 and screen.connections.replaced == 0
    for _, w in held:
        w.close()


async def test_an_unfinished_request_head_is_cut_off(screen: ScreenServer) -> None:
    [(reader, writer)] = await half_requests(screen, ATTACKER, 1)
    # trickling more header lines does not extend the deadline
    writer.write(b"X-b: c\r\n")
    await writer.drain()
    assert await closed_by_server(reader)
    writer.close()
    await until(lambda: screen.connections.total == 0)


async def test_live_pages_per_address_and_the_projectors_reserve(screen: ScreenServer) -> None:
    writers = []
    for _ in range(2):
        status, w = await open_stream(screen, ATTACKER)
        assert status == 200
        writers.append(w)
    status, w = await open_stream(screen, ATTACKER)
    assert status == 503  # a third live page from the same phone
    w.close()
    for source in ("127.0.0.20", "127.0.0.21", "127.0.0.22"):  # fills the total of 5
        status, w = await open_stream(screen, source)
        assert status == 200
        writers.append(w)
    await until(lambda: screen.streams.total == 5)
    status, w = await open_stream(screen, PHONE)
    assert status == 503
    w.close()
    status, w = await open_stream(screen, PROJECTOR)
    assert status == 200  # the projector's live page, beyond the total
    writers.append(w)
    for w in writers:
        w.close()
    await until(lambda: screen.streams.total == 0 and not screen.clients)


async def test_refusals_are_logged_once_a_minute_per_address(
    screen: ScreenServer, caplog: pytest.LogCaptureFixture
) -> None:
    held = await half_requests(screen, ATTACKER, 4)
    caplog.set_level(logging.WARNING, logger="hub.web")
    for _ in range(30):  # each takes the place of the oldest
        held += await half_requests(screen, ATTACKER, 1)
        assert await closed_by_server(held[-5][0])
    assert screen.connections.replaced == 30
    lines = [r for r in caplog.records if "closed for a newer one" in r.getMessage()]
    assert len(lines) == 1 and ATTACKER in lines[0].getMessage()
    for _, w in held:
        w.close()


def test_descriptor_errors_reach_the_log_once_a_minute() -> None:
    now = [0.0]
    throttle = DescriptorErrorThrottle(every=60.0, clock=lambda: now[0])
    err = OSError(24, "Too many open files")

    def record() -> logging.LogRecord:
        return logging.LogRecord(
            "asyncio",
            logging.ERROR,
            __file__,
            1,
            "socket.accept() out of system resource",
            None,
            (OSError, err, None),
        )

    passed = [throttle.filter(record()) for _ in range(5000)]
    assert passed.count(True) == 1
    now[0] = 61.0
    again = record()
    assert throttle.filter(again)
    assert "4999 more" in again.getMessage()
    other = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "other", None, None)
    assert throttle.filter(other)  # anything else is untouched


def test_ipv6_addresses_count_per_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.168.8.7") == "192.168.8.7"
    assert address_key("192.168.8.7") == "192.168.8.7"


def test_screen_limits_from_hub_toml(tmp_path: Path) -> None:
    (tmp_path / "hub.toml").write_text(
        "[screen]\nconnections_per_address = 8\npages_per_address = 3\n"
        'header_timeout = 5\nprojector = ["192.168.8.20", "10.1.0.0/24"]\n'
    )
    limits = load(tmp_path).limits
    assert (limits.per_address, limits.streams_per_address, limits.header_timeout) == (8, 3, 5.0)
    assert "192.168.8.20" in limits.projector and "127.0.0.1" in limits.projector
    (tmp_path / "hub.toml").write_text('[screen]\nprojector = ["beamer"]\n')
    with pytest.raises(ScreenConfigError, match="projector"):
        load(tmp_path)
    (tmp_path / "hub.toml").write_text("[screen]\nheader_timeout = 0\n")
    with pytest.raises(ScreenConfigError, match="header_timeout"):
        load(tmp_path)


def test_slowloris_cannot_take_a_real_hub_down(tmp_path: Path) -> None:
    """``hub serve`` with 256 descriptors (the unit has 4,096; fewer makes the attack cheap)
    and 300 unfinished requests from one address held open: more than the hub has
    descriptors. The hub holds 16 of them (each newcomer closes the oldest); ``stations``
    is answered on hub.sock, the projector and a phone get their pages, and the log has a
    line, not a flood."""
    from samoobsluha.hub import control

    bin_dir = Path(sys.executable).parent
    data = tmp_path / "hub"
    data.mkdir()
    port_file = data / "port"
    limit = 256

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    log_path = data / "hub.log"
    with log_path.open("wb") as log_fh:
        proc = subprocess.Popen(
            [str(bin_dir / "hub"), "serve", "--host", "127.0.0.1", "--port", "0",
             "--port-file", str(port_file), "--screen-port", "0", "--no-mdns"],
            env={**os.environ, "SAMOOBSLUHA_DATA": str(data)},
            stdout=subprocess.DEVNULL, stderr=log_fh, preexec_fn=low_limit,
        )  # fmt: skip
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while not port_file.exists():
            assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.05)
        sock_path = data / "hub.sock"
        url = control.request("info", path=sock_path)["screen"][0]
        screen_port = int(url.rsplit(":", 1)[1].strip("/"))
        for _ in range(300):
            s = socket.create_connection(
                ("127.0.0.1", screen_port), timeout=10, source_address=(ATTACKER, 0)
            )
            with contextlib.suppress(OSError):  # the hub may have closed it already
                s.sendall(b"GET / HTTP/1.1\r\nHost: hub\r\nX-a: b\r\n")
            held.append(s)
        # while the attacker holds everything it could
        assert control.request("stations", path=sock_path) == []
        for source, path in ((PROJECTOR, "/projector"), (PHONE, "/")):
            conn = http.client.HTTPConnection(
                "127.0.0.1", screen_port, timeout=20, source_address=(source, 0)
            )
            conn.request("GET", path)
            assert conn.getresponse().status == 200
            conn.close()
        assert len(os.listdir(f"/proc/{proc.pid}/fd")) < 64
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(20)
    text = log_path.read_text()
    assert "Too many open files" not in text
    # once a minute per address, not once per attempt: each newcomer took the place of
    # the attacker's oldest connection (or, while all were younger than 0.25 s, was refused)
    assert text.count("closed for a newer one") <= 1 and text.count("refused") <= 1
    assert 1 <= text.count("hall screen: ") - text.count("hall screen on") <= 2


async def test_a_live_page_that_stops_reading_is_dropped(data_dir: Path, clock: FakeClock) -> None:
    """A phone that opens the live page and never reads: once its socket buffers are full
    the next write waits, and after the write timeout the hub drops it — without the
    timeout it would hold its place (and a descriptor) for ever. (The loop below gives up
    after 30 s of updates, about a gigabyte, far more than any socket buffer.)"""
    service = HubService(data_dir, clock=clock)
    seed_tournament(service, players=8)
    limits = WebLimits(write_timeout=0.3, projector=(PROJECTOR,))
    server = ScreenServer(service, host="127.0.0.1", port=0, limits=limits)
    await server.start()
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((PHONE, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
        sock.send(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")
        await until(lambda: server.streams.total == 1)
        # never read, while the page gets 32 kB updates: the socket buffers fill
        big = b"event: patch\ndata: " + b"x" * 32768 + b"\n\n"
        for _ in range(3000):
            if server.streams.total == 0:
                break
            server._broadcast(big)
            await asyncio.sleep(0.01)
        assert server.streams.total == 0
        assert not server.clients
        sock.close()
    finally:
        await server.close()


async def test_the_projectors_token_has_live_pages_of_its_own(screen: ScreenServer) -> None:
    """Streams from the projector's own address fill its share and its reserve; the page
    with the token still gets its live stream, a wrong token does not, and the reserve's
    newest takes the oldest's place (a projector reconnecting always gets in)."""
    screen.projector_token = "TOKEN0123456789abc"
    screen.connections.token = b"TOKEN0123456789abc"
    writers = []
    for _ in range(screen.limits.streams_per_address + screen.limits.reserved):
        status, w = await open_stream(screen, PROJECTOR)
        assert status == 200
        writers.append(w)
    status, w = await open_stream(screen, PROJECTOR)
    assert status == 503  # the address (and its reserve) is full
    w.close()
    reader, w = await connect(screen, PROJECTOR)
    w.write(b"GET /events?k=TOKEN0123456789abX HTTP/1.1\r\nHost: hub\r\n\r\n")
    assert (await asyncio.wait_for(reader.readline(), 20)).split()[1] == b"503"
    w.close()
    own = []
    for _ in range(screen.limits.reserved + 1):
        reader, w = await connect(screen, PROJECTOR)
        w.write(b"GET /events?k=TOKEN0123456789abc HTTP/1.1\r\nHost: hub\r\n\r\n")
        assert (await asyncio.wait_for(reader.readline(), 20)).split()[1] == b"200"
        own.append((reader, w))
    # not counted against the address or the total: they are the projector's own
    assert screen.streams.held[PROJECTOR] == 5 and len(screen.projector_streams.held) == 3
    assert screen.projector_streams.replaced == 1
    # the oldest made way for the newest: its stream ends
    async with asyncio.timeout(20):
        while await own[0][0].read(65536):
            pass
    for w in writers + [w for _, w in own]:
        w.close()
    await until(lambda: not screen.projector_streams.held and screen.streams.total == 0)


def test_the_projector_token_is_made_once_and_kept(tmp_path: Path) -> None:
    from samoobsluha.hub.web.config import projector_token

    first = projector_token(tmp_path)
    assert len(first) >= 16 and (tmp_path / "projector.token").stat().st_mode & 0o777 == 0o600
    assert projector_token(tmp_path) == first == load(tmp_path).projector_token
    (tmp_path / "projector.token").write_text("short\n")  # damaged: a new one is made
    assert projector_token(tmp_path) not in ("short", first)

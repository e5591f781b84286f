"""The projector holds against one client's 2,000 live pages, with real processes: a real
``hub serve`` and a flooding client (tests/net/stream_flood.py) on 127.0.0.1 — the
projector's own address (loopback is a projector address by default: the hub's machine
drives the projector over HDMI), the hardest case: a device behind the same NAT, or on the
hub's own machine. The projector is recognised by the token in its address, which
``hub serve`` prints; the path ``/projector`` and the address alone are not enough.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from net_procs import Hub, wait_for
from stream_flood import LiveStream, get

pytestmark = pytest.mark.timeout(240)

PROJECTOR = "127.0.0.1"
FLOOD = Path(__file__).with_name("stream_flood.py")


def _reset() -> int:
    raise ConnectionResetError("closed without an answer")


def like_a_browser(connect: Callable[[], Any], tries: int = 10) -> Any:
    """Connect as the projector's browser does: a connection the hub closed at accept
    (the flood's burst held every place of the address then) is tried again 0.5 s later
    (EventSource retries by itself)."""
    for _ in range(tries - 1):
        try:
            return connect()
        except ConnectionError:
            time.sleep(0.5)
    return connect()


def test_the_projector_keeps_its_page_and_updates_under_one_clients_2000_streams(
    tmp_path: Path,
) -> None:
    hub = Hub(tmp_path / "hub").start()
    flood: subprocess.Popen[str] | None = None
    streams: list[LiveStream] = []
    try:
        info = hub.info()
        [projector_url] = info["projector"]
        parts = urlsplit(projector_url)
        port, token = int(parts.port or 0), parts.query.removeprefix("k=")
        assert parts.path == "/projector" and len(token) >= 16
        flood = subprocess.Popen(
            [sys.executable, str(FLOOD), str(port), PROJECTOR, "2000", "120"],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert flood.stdout is not None
        assert flood.stdout.readline().strip() == "flooding"

        # the flood holds every place its address has: a live page without the token
        # (the path and the address alone) is turned away
        def shut_out() -> bool:
            s = LiveStream(port, "/events", PROJECTOR) if get(port, "/", PROJECTOR) else None
            if s is None:
                return True
            s.close()
            return s.status != 200

        wait_for(shut_out, 60, "the flood to hold the address's live pages")

        # the projector, with its token: the page, then its live stream
        assert (
            like_a_browser(lambda: get(port, f"/projector?k={token}", PROJECTOR) or _reset()) == 200
        )
        live = like_a_browser(lambda: LiveStream(port, f"/events?k={token}", PROJECTOR))
        streams.append(live)
        assert live.status == 200
        wait_for(lambda: any(n == "snap" for _, n, _ in live.events), 30, "the first snap")

        # a round starts: the projector's page gets the new plan
        started = time.monotonic()
        hub.ctl("round", "start", "1", "--in", "5", "--basic", "30", "--warning", "10")
        wait_for(lambda: live.patches("plans", started), 30, "the round's plan on the projector")
        took = live.patches("plans", started)[0] - started
        assert not live.closed
        # a second projector screen (or the same one reconnecting) gets in too
        other = like_a_browser(lambda: LiveStream(port, f"/events?k={token}", PROJECTOR))
        streams.append(other)
        assert other.status == 200
        wait_for(lambda: any(n == "snap" for _, n, _ in other.events), 30, "its first snap")
        print(f"projector update {took * 1000:.0f} ms after the round start (under the flood)")
        assert flood.poll() is None  # the flood went on the whole time
        # the hub's log says so in a line a minute, with no traceback per pushed-out page
        text = hub.log()
        assert "Traceback" not in text and "Error handling request" not in text
        lines = [x for x in text.splitlines() if "hall screen: " in x and " from 127.0.0.1 " in x]
        assert 1 <= len(lines) <= 6, lines  # refusals and make-way: each once a minute
    finally:
        for s in streams:
            s.close()
        if flood is not None:
            flood.terminate()
            flood.wait(30)
        hub.stop()

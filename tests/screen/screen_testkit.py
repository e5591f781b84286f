"""What the hall screen's tests share (imported by name; the fixtures are in conftest.py): a
real hub (HubServer + the screen's aiohttp server) on loopback in a thread of its own, a
sample tournament, and Debian's headless Chromium driven through its chromedriver. Kept out
of conftest.py so that ``pytest tests/screen tests/dash`` imports the right one."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from samoobsluha.hub import control
from samoobsluha.hub.sample import sample_csv
from samoobsluha.hub.server import HubServer
from samoobsluha.hub.service import HubService
from samoobsluha.hub.web import start_for_hub
from samoobsluha.hub.web.server import ScreenServer
from samoobsluha.shared.clock import FakeClock

T0 = 1_767_258_000.0  # 2026-01-01 09:00 UTC
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
PHONE = (412, 915)  # a common Android phone's CSS viewport
PROJECTOR = (1920, 1080)


class LiveHub:
    """``hub serve`` in miniature: the station server and the hall screen in one event
    loop on a thread, so the (blocking) browser driver can run in the test's thread."""

    def __init__(self, data: Path, clock: FakeClock) -> None:
        self.data = data
        self.clock = clock
        self.service = HubService(data, clock=clock)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server: HubServer = self.call(self._start_server)
        self.control = self.call(
            lambda: control.start_control(self.server, self.service.control_path)
        )
        screen = self.call(lambda: start_for_hub(self.server, data, host="127.0.0.1", port=0))
        assert screen is not None
        self.screen: ScreenServer = screen
        self.url = self.screen.urls()[0]

    async def _start_server(self) -> HubServer:
        server = HubServer(
            self.service.db_path,
            b"k" * 32,
            host="127.0.0.1",
            port=0,
            advertise=False,
            clock=self.clock,
        )
        await server.start()
        return server

    def call(self, fn: Callable[[], Coroutine[Any, Any, Any]], timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(fn(), self.loop).result(timeout)

    def publish_round(self, round_no: int) -> None:
        """What ``hub publish-round N`` does: pairings and standings to the stations."""
        pairings, standings = self.service.station_payloads(round_no)
        self.call(lambda: self.server.publish("pairings", pairings))
        self.call(lambda: self.server.publish("standings", standings))

    def restart_screen(self) -> None:
        """Stop the web server and start a new one on the same port (a hub restart, as
        the pages see it)."""
        port = self.screen.port
        self.call(self.screen.close)
        screen = self.call(
            lambda: start_for_hub(self.server, self.data, host="127.0.0.1", port=port)
        )
        assert screen is not None
        self.screen = screen

    def stop_screen(self) -> None:
        self.call(self.screen.close)

    def close(self) -> None:
        self.control.close()
        self.call(self.screen.close)
        self.call(self.server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def seed_tournament(service: HubService, players: int = 32) -> None:
    """A sample tournament (Czech and Slovak names), everyone checked in, round 1 paired."""
    service.prepare()
    with service._tour() as tour:
        tour.configure(name="Mistrovství sálu", rules="cas", rounds=5)
        tour.import_players_csv(sample_csv(players, 2026))
        for p in tour.players():
            tour.check_in(p.id)
        tour.pair(1, seed=1)


def make_browser(size: tuple[int, int]) -> Any:
    """Headless Chromium (Debian's package) through its own chromedriver: no download."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="hscr-chromium")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",  # tests run as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    # the page's own viewport, whatever the window's decorations take
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 800},
    )
    driver._screen_profile = profile
    return driver

"""The hall screen's address on the dashboard: F1 (Stations) shows it when ``hub run``
runs the server, Q shows it as a QR code, Esc goes back."""

from __future__ import annotations

from pathlib import Path

from screen_testkit import seed_tournament

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.screens.qr import QrScreen
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False, "screen_port": 0}


async def settle(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(4):
        await pilot.pause()  # type: ignore[attr-defined]
        await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def test_f1_shows_the_address_and_q_its_qr_code(
    data_dir: Path, clock: FakeClock, tmp_path: Path
) -> None:
    service = HubService(data_dir, clock=clock)  # data_dir is short enough for AF_UNIX
    seed_tournament(service, 8)
    app = HubApp(service, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        app.action_reload()
        await settle(pilot)
        assert app._screen is not None
        url = app._screen.urls()[0]
        assert url.startswith("http://127.0.0.1:")
        label = str(app.screen.query_one("#screen-address").render())
        # and the projector's address with its token, for the operator to open there
        [projector] = app._screen.projector_urls()
        assert projector.startswith(f"{url}projector?k=") and len(projector) > len(url) + 26
        assert label == f"Stránka pro sál: {url} · Q = QR kód\nProjektor: {projector}"
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, QrScreen)
        assert str(app.screen.query_one("#qr-url").render()) == url
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, QrScreen)
        await pilot.press("ctrl+q")


async def test_f1_says_nothing_of_the_screen_without_a_server(
    data_dir: Path, clock: FakeClock
) -> None:
    service = HubService(data_dir, clock=clock, control_path=data_dir / "none.sock")
    seed_tournament(service, 8)
    app = HubApp(service, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#screen-address").display is False
        await pilot.press("q")  # nothing to show: stays on F1
        await settle(pilot)
        assert not isinstance(app.screen, QrScreen)

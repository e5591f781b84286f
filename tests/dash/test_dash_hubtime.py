"""The dashboard after a hub restart: „čas hubu nepotvrzen“ until the operator confirms the
clock (Ctrl+T), and no round starts before that (hub.hubtime)."""

from __future__ import annotations

import json
import time

from dash_testkit import label_text, settle

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False}


async def test_round_waits_for_the_operator_to_confirm_the_hub_time(
    served: HubService, clock: FakeClock
) -> None:
    served.boot_id = "boot-after-power-cut"
    # what samoobsluha-time restore writes at boot when it set the clock from the saved time
    (served.data / "time-boot.json").write_text(
        json.dumps(
            {"boot_id": "boot-after-power-cut", "source": "saved", "restored_to": clock.now()}
        )
    )
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK)
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        top = label_text(app.screen, "#topbar")
        # first on the line, with the time to compare against a watch
        shown = time.strftime("%H:%M:%S", time.localtime(clock.now()))
        assert top.startswith(f"ČAS HUBU NEPOTVRZEN: {shown}")
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("s")  # start round 1: refused
        await settle(pilot)
        assert served.plan(1) is None
        assert "čas hubu po restartu není potvrzen" in label_text(app.screen, "#message")
        assert "ČAS HUBU NEPOTVRZEN" in label_text(app.screen, "#topbar")

        clock.advance(30)
        await pilot.press("ctrl+t")
        await settle(pilot)
        status = served.time_status()
        assert status.confirmed and status.confirmed_at == clock.now()
        assert "NEPOTVRZEN" not in label_text(app.screen, "#topbar")
        await pilot.press("s")
        await settle(pilot)
        plan = served.plan(1)
        assert plan is not None and plan.start_at == clock.now() + 5

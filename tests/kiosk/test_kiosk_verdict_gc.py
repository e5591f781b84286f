"""No garbage collection between F10 and the painted verdict (a full one was the tail
of confirm → verdict); a full collection runs while the verdict is read instead."""

from __future__ import annotations

import asyncio
import gc

from fuzz_typing import type_raw
from kiosk_pilot import settle

from samoobsluha.station.screens.verdict import VerdictScreen


async def test_the_collector_waits_for_the_verdict_then_runs(make_app) -> None:
    app = make_app()
    full: list[int] = []

    def callback(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(2)

    enabled_when_committed: list[bool] = []
    original = app.show_verdict

    def show_verdict(*args, **kwargs):
        enabled_when_committed.append(gc.isenabled())
        return original(*args, **kwargs)

    app.show_verdict = show_verdict  # type: ignore[method-assign]
    was = gc.isenabled()
    gc.enable()
    gc.callbacks.append(callback)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await type_raw(pilot, "4\r1\rpes")
            await settle(pilot)
            full.clear()
            await type_raw(pilot, "", "f10")
            await settle(pilot)
            assert isinstance(app.screen, VerdictScreen)
            assert enabled_when_committed == [False]  # held from F10 to the paint
            for _ in range(1000):  # the collection follows the paint by a moment
                if full:
                    break
                await asyncio.sleep(0.01)
            assert full and gc.isenabled()
    finally:
        gc.callbacks.remove(callback)
        if not was:
            gc.disable()

"""Helpers for driving the kiosk with Textual's Pilot."""

from __future__ import annotations

from textual.pilot import Pilot


async def settle(pilot: Pilot) -> None:
    """Let typed keys be handled, workers finish and their results reach the screen."""
    await pilot.app.keys_delivered()  # type: ignore[attr-defined]
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    await pilot.press(*["space" if ch == " " else ch for ch in text])


async def start_check(pilot: Pilot, table: str, count: str) -> None:
    await type_text(pilot, table)
    await pilot.press("enter")
    await settle(pilot)
    await type_text(pilot, count)
    await pilot.press("enter")
    await pilot.pause()

"""Snapshots of the screens a player and the referee see, at 80×24 (the Linux console).
Update with ``pytest tests/kiosk/test_kiosk_snapshots.py --snapshot-update`` and look at
the report before committing."""

from __future__ import annotations

from kiosk_pilot import settle, start_check, type_text

from samoobsluha.shared.checks import hash_pin
from samoobsluha.shared.rounds import RoundPlan

SIZE = (80, 24)


def test_idle_screen(snap_compare, make_app, clock):
    plan = RoundPlan(number=3, start_at=clock.now() - 600)
    app = make_app(
        tournament="Velká cena Brna 2026",
        round_status=lambda: plan.status(clock.now()),
        hub_status=lambda: True,
    )
    app.pin_hash = "set"
    assert snap_compare(app, terminal_size=SIZE)


def test_typing_screen(snap_compare, make_app):
    async def run_before(pilot) -> None:
        await start_check(pilot, "12", "3")
        await type_text(pilot, "c+a-p kočka rec(e)se")
        await pilot.press("enter")  # the review prompt for the opponent
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_verdict_valid_screen(snap_compare, make_app):
    async def run_before(pilot) -> None:
        await start_check(pilot, "12", "2")
        await type_text(pilot, "čáp kočka")
        await pilot.press("enter", "f10")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_verdict_invalid_screen(snap_compare, make_app):
    async def run_before(pilot) -> None:
        await start_check(pilot, "7", "2")
        await type_text(pilot, "čáp xyzq")
        await pilot.press("enter", "f10")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_referee_screen(snap_compare, make_app, store):
    store.set_setting("referee_pin_hash", hash_pin("471147"))

    async def run_before(pilot) -> None:
        await pilot.press("f12")
        await settle(pilot)
        await type_text(pilot, "471147")
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)

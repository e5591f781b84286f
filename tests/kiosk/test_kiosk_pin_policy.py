"""The kiosk under the PIN policy (shared/pin.py): a hash made under the old, weaker
policy opens nothing — the PIN screen says a new PIN must be set, and even the right old
PIN is not tried (nor counted as a failure); a new PIN from the hub opens it again; a new
PIN chosen on the referee screen must have six characters."""

from __future__ import annotations

import hashlib
import os

from kiosk_pilot import settle, type_text
from textual.widgets import Input, Label

from samoobsluha.shared.pin import hash_pin, verify_pin
from samoobsluha.station.screens.referee import PinScreen, RefereeScreen

SIZE = (80, 24)


def old_policy_hash(pin: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return f"scrypt${2**14}$8$1${salt.hex()}${digest.hex()}"


def screen_text(app) -> str:
    return " ".join(str(label.content) for label in app.screen.query(Label))


async def test_an_outdated_pin_hash_asks_for_a_new_pin(make_app, store):
    store.set_referee_pin(old_policy_hash("4711"), 1.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await settle(pilot)
        assert isinstance(app.screen, PinScreen)
        assert app.screen.query_one("#pin", Input).disabled
        assert "podle starých pravidel" in screen_text(app)
        await type_text(pilot, "4711")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PinScreen)  # the old PIN opens nothing
        await pilot.press("escape")
        await settle(pilot)
        # the hub's new PIN (newer than the old one) opens it again at once
        store.set_referee_pin(hash_pin("86429753"), 2.0)
        await pilot.press("f12")
        await settle(pilot)
        assert not app.screen.query_one("#pin", Input).disabled
        await type_text(pilot, "86429753")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
    failures, _ = store.pin_failures()
    assert failures == 0


async def test_a_new_pin_on_the_referee_screen_needs_six_characters(make_app, store):
    store.set_referee_pin(hash_pin("86429753"), 1.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await settle(pilot)
        await type_text(pilot, "86429753")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
        await pilot.press("6")
        await settle(pilot)
        assert "alespoň 6 znaků" in screen_text(app)  # the prompt says how long
        await type_text(pilot, "4711")
        await pilot.press("enter")
        await settle(pilot)
        assert "PIN musí mít alespoň 6 znaků" in screen_text(app)
        for _ in range(2):
            await type_text(pilot, "135713")
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
    assert verify_pin("135713", store.referee_pin())

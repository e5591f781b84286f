"""The kiosk's start-up without the garbage collector.

Importing Textual, sqlite-utils, gpiozero and asyncio allocates hundreds of thousands of
objects that all live as long as the process, and the collector walks them again and
again meanwhile (about a tenth of ``station run``'s time to the idle screen). ``station
run`` holds it off from its first line; the kiosk releases it once the idle screen is
painted and the verdict prepared, freezing what exists by then (``gc.freeze``: never
scanned again), so later collections walk only what checks create.

Only a hold taken here is released here: a collector switched off by someone else (the
bell thread's window before a signal) stays off."""

from __future__ import annotations

import gc

_held = False


def hold_collector() -> None:
    """Switch the collector off for start-up (if it is on)."""
    global _held
    if gc.isenabled():
        gc.disable()
        _held = True


def release_collector() -> None:
    """If :func:`hold_collector` switched the collector off: freeze what start-up
    created and switch it on again. (Without a hold — a kiosk in a test run — nothing is
    frozen: freezing would keep every earlier test's garbage for good.)"""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()

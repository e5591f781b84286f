"""The kiosk's start-up without the garbage collector.

Importing Textual, sqlite-utils, gpiozero and asyncio allocates hundreds of thousands of
objects that all live as long as the process, and the collector walks them again and
again meanwhile (about a tenth of ``station run``'s time to the idle screen). ``station
run`` holds it off from its first line; the kiosk releases it once the idle screen is
painted and the verdict prepared, freezing what exists by then (``gc.freeze``: never
scanned again), so later collections walk only what checks create.

The hold is one of station/collector.py's: the signal runner's window before a signal
is another, and the collector runs again only when both are over."""

from __future__ import annotations

from samoobsluha.station import collector

HOLD = "start-up"


def hold_collector() -> None:
    """Switch the collector off for start-up (if it is on)."""
    collector.hold(HOLD)


def release_collector() -> None:
    """If :func:`hold_collector` switched the collector off: freeze what start-up
    created and switch it on again (unless another hold, the signal runner's window, is
    still taken). Without a hold — a kiosk in a test run — nothing is frozen: freezing
    would keep every earlier test's garbage for good."""
    collector.release(HOLD, freeze=True)

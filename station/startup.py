"""The kiosk's start-up without the garbage collector, and without the modules it never runs.

Importing Textual, sqlite-utils, gpiozero and asyncio allocates hundreds of thousands of
objects that all live as long as the process, and the collector walks them again and
again meanwhile (about a tenth of ``station run``'s time to the idle screen). ``station
run`` holds it off from its first line; the kiosk releases it once the idle screen is
painted and the verdict prepared, freezing what exists by then (``gc.freeze``: never
scanned again), so later collections walk only what checks create.

The hold is one of station/collector.py's: the signal runner's window before a signal
is another, and the collector runs again only when both are over.

**Deferred modules.** sqlite-utils imports, at its own import, a module only its
``convert`` recipes use: ``sqlite_utils.recipes``, which imports ``dateutil.parser`` and
its time zones. The kiosk never calls them, yet importing them was about a quarter of
sqlite-utils' import, on the way to the idle screen (``click`` it needs at import: its
plugin hooks name ``click.Group``).
:func:`defer_unused_imports` makes them lazy (``importlib.util.LazyLoader``): the module
object exists at once and is executed at its first attribute access, so nothing changes
for code that does use them — only when they load. What the store does (open, migrate,
``BEGIN IMMEDIATE`` … ``COMMIT`` with ``synchronous=FULL``) is untouched.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType

from samoobsluha.station import collector

HOLD = "start-up"

#: Imported by libraries at their own import, used only by what the kiosk never runs.
UNUSED_AT_START = ("sqlite_utils.recipes",)


class _LazyFinder:
    """A meta path finder (duck-typed: ``importlib.abc`` would import
    ``importlib.resources`` for nothing): finds ``names`` as the normal finders do, then
    hands them a lazy loader."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = set(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        self.names.discard(fullname)  # once: the real import below must not find us again
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def defer_unused_imports(names: Iterable[str] = UNUSED_AT_START) -> None:
    """Make ``names`` load at their first use instead of their import (the kiosk's
    process only; call it before anything imports them)."""
    todo = [n for n in names if n not in sys.modules]
    if todo:
        sys.meta_path.insert(0, _LazyFinder(todo))


def hold_collector() -> None:
    """Switch the collector off for start-up (if it is on)."""
    collector.hold(HOLD)


def release_collector() -> None:
    """If :func:`hold_collector` switched the collector off: freeze what start-up
    created and switch it on again (unless another hold, the signal runner's window, is
    still taken). Without a hold — a kiosk in a test run — nothing is frozen: freezing
    would keep every earlier test's garbage for good."""
    collector.release(HOLD, freeze=True)

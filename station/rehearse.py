"""The station's side of ``hub rehearse``: the hall check before the players arrive.

The hub sends a ``show`` item of kind ``rehearse`` (see :mod:`hub.rehearse`) with a
rehearsal id, the hub-clock instant ``at`` of the test stroke and what to ask. The
station then

* rings one short test stroke on its bell at ``at`` (hub time) and measures, in hub time
  on its own clock estimate, when the bell output actually switched on;
* asks the person at the station to type the test line :data:`TEST_LETTERS` — in the
  kiosk (a prompt screen) or, on a station without a screen, with ``station rehearse
  type`` — and reports the letters that did not arrive (dead keys are the classic failure
  of a Czech hall);
* waits for a press of the referee button when one is fitted;
* reports what it knows about itself: referee PIN set, table range, free space on the
  data partition, read-only root, watchdog armed;

and writes one outbox row of kind ``rehearse`` with all of it, so the answer reaches the
hub through the same idempotent sync as every check and result (a dropped link only
delays it).

**During a round it is quiet.** When the request says ``quiet`` (the operator ran the
rehearsal during round N on purpose) or the station's own clock shows a round under way
or in its play-out, the station rings nothing, shows no prompt over the player's screen
and waits for no button: it reports only the facts, with ``gong``, ``keyboard`` and
``button`` each ``{"skipped": true, "round": N}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shutil
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.pin import PinHashState, pin_hash_state
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox

log = logging.getLogger("station.rehearse")

KIND = "rehearse"
TEST_LETTERS = "ěščřžýáíéúůďťň"
TEST_STROKE = 0.2  # seconds the bell sounds for the test
MIN_FREE_BYTES = 200 * 1024 * 1024  # below this the data partition is a no-go
POLL = 0.2

migrations = Migrations("station.rehearse")


@migrations()
def m001_rehearse(db: sqlite_utils.Database) -> None:
    # what the hub asked (so ``station rehearse type`` knows which request it answers)
    db.table("rehearse_requests").create(
        {"id": str, "asked_at": float, "letters": str, "wait": float}, pk="id"
    )
    # what the person typed, by request
    db.table("rehearse_typed").create({"id": str, "text": str, "at": float}, pk="id")


# (letters, seconds to wait, whether the button is asked for too) → the typed line or None
KeyboardPrompt = Callable[[str, float, bool], Awaitable[str | None]]


def missing_letters(expected: str, typed: str) -> str:
    """The letters of ``expected`` (case-insensitive) that are not in ``typed``."""
    got = set(typed.lower())
    return "".join(ch for ch in expected if ch.lower() not in got)


# -- facts about the station ----------------------------------------------------------------


def free_bytes(path: Path) -> int | None:
    with contextlib.suppress(OSError):
        return shutil.disk_usage(path).free
    return None


def root_read_only(mounts: Path = Path("/proc/mounts")) -> bool | None:
    """True when / is mounted read-only or is an overlay (Raspberry Pi OS's overlay file
    system keeps the card read-only under a RAM layer); None when unknown."""
    try:
        lines = mounts.read_text().splitlines()
    except OSError:
        return None
    root = None
    for line in lines:
        parts = line.split()
        if len(parts) >= 4 and parts[1] == "/":
            root = parts  # the last mount on / wins
    if root is None:
        return None
    return root[2] == "overlay" or "ro" in root[3].split(",")


def watchdog_armed(sys_class: Path = Path("/sys/class/watchdog")) -> bool | None:
    """True when a hardware watchdog is active (systemd's RuntimeWatchdogSec opened it);
    False when there is one and it is not; None when the machine has none."""
    try:
        devices = sorted(sys_class.iterdir())
    except OSError:
        return None
    if not devices:
        return None
    for dev in devices:
        with contextlib.suppress(OSError):
            if (dev / "state").read_text().strip() == "active":
                return True
    return False


def pin_state(db_path: Path, configured_hash: str) -> PinHashState:
    """The referee PIN in force on this station — the record the kiosk verifies against
    (set on the station, sent by the hub, or in the config file) — and whether it works
    under the current PIN policy (an outdated hash opens nothing)."""
    import sqlite3

    from samoobsluha.station.log import referee_pin_in_force

    stored = configured_hash
    with contextlib.suppress(sqlite3.Error):
        db = open_db(db_path)
        try:
            stored = referee_pin_in_force(db, configured_hash)
        finally:
            db.close()
    return pin_hash_state(stored)


def pin_set(db_path: Path, configured_hash: str) -> bool:
    """Whether the station has a referee PIN that opens its referee screen."""
    return pin_state(db_path, configured_hash) is PinHashState.OK


# -- the responder ----------------------------------------------------------------------------


class Rehearsal:
    """Answers the hub's rehearsal requests on one station (daemon or kiosk).

    ``sync``: the station's :class:`~station.sync.StationSync`; ``outputs``: its
    :class:`~station.gong.GongOutputs`; ``keyboard``: the kiosk's prompt (None on a
    station without a screen: ``station rehearse type`` answers instead)."""

    def __init__(
        self,
        sync: Any,
        outputs: Any,
        db_path: Path,
        *,
        tables: str = "",
        configured_pin_hash: str = "",
        keyboard: KeyboardPrompt | None = None,
        data_dir: Path | None = None,
        round_on: Callable[[], int | None] | None = None,
    ) -> None:
        self.sync = sync
        self.outputs = outputs
        self.db_path = Path(db_path)
        self.tables = tables
        self.configured_pin_hash = configured_pin_hash
        self.keyboard = keyboard
        self.data_dir = data_dir or self.db_path.parent
        # the round this station's clock shows under way (or in its play-out), if any
        self.round_on = round_on
        self.db = open_db(self.db_path, outbox.migrations, migrations)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seen: set[str] = set()
        self._pressed: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self) -> Rehearsal:
        """Listen for the hub's requests; route referee-button presses to the rehearsal
        while it waits for one (a press then answers the check and does not start a round
        or ring), to the button's own action otherwise. Call inside the station's loop."""
        self.sync.on("show", self.on_show)
        button = getattr(self.outputs, "button", None)
        if button is not None:
            self._loop = asyncio.get_running_loop()
            for attr in ("on_short", "on_long"):
                setattr(button, attr, self._intercept(getattr(button, attr, None)))
        return self

    def _intercept(self, previous: Callable[[], None] | None) -> Callable[[], None]:
        def pressed() -> None:  # on the GPIO thread
            event, loop = self._pressed, self._loop
            if event is not None and loop is not None:
                loop.call_soon_threadsafe(event.set)
                return
            if previous is not None:
                previous()

        return pressed

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.db.close()

    def on_show(self, kind: str, data: Any) -> None:
        if kind != KIND or not isinstance(data, dict):
            return
        rid = str(data.get("id", ""))
        if not rid or rid in self._seen:
            return  # the hub resends nothing, but a reconnect must not ring twice
        self._seen.add(rid)
        task = asyncio.ensure_future(self.respond(data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _quiet(self, request: dict[str, Any]) -> int | str | None:
        """The round that makes this answer quiet: the hub's word, else the station's own
        clock (a request that does not say so, or a round the hub did not know of)."""
        asked = request.get("quiet")
        if asked:
            return asked if isinstance(asked, int | str) else str(asked)
        if self.round_on is not None:
            try:
                return self.round_on()
            except Exception:  # never ring because the look at the clock failed
                log.exception("rehearsal: cannot read the round clock; staying quiet")
                return "?"
        return None

    async def respond(self, request: dict[str, Any]) -> dict[str, Any]:
        rid = str(request["id"])
        quiet = self._quiet(request)
        if quiet is not None:
            # a round is being played: no bell, no prompt over the player's screen, no
            # button wait (a press keeps its own meaning) — only the facts
            report: dict[str, Any] = {
                "id": rid,
                "station": self.sync.station_id,
                **self.facts(),
                # (inside the measured parts: the record's fields stay as the hub knows them)
                "gong": {"skipped": True, "round": quiet},
                "keyboard": {"skipped": True, "round": quiet},
                "button": {"skipped": True, "round": quiet},
            }
            log.warning("rehearsal %s during round %s: answered without bell or prompt", rid, quiet)
            self._send(report)
            return report
        wait = float(request.get("wait", 60.0))
        letters = str(request.get("letters") or TEST_LETTERS)
        asked = self.sync.clock.now()
        gong = asyncio.ensure_future(self.test_stroke(float(request.get("at", asked))))
        checks: list[Awaitable[Any]] = [gong]
        ask_keyboard = bool(request.get("keyboard", True))
        ask_button = bool(request.get("button", True)) and bool(
            getattr(self.outputs, "button", None)
        )
        if ask_keyboard:
            self._store_request(rid, asked, letters, wait)
            checks.append(self.ask_keyboard(rid, letters, wait, ask_button))
        if ask_button:
            checks.append(self.wait_button(wait))
        results = await asyncio.gather(*checks, return_exceptions=True)
        report = {"id": rid, "station": self.sync.station_id, **self.facts()}
        report["gong"] = _ok_or_error(results[0])
        if ask_keyboard:
            typed = results[1]
            if isinstance(typed, BaseException):
                report["keyboard"] = {"error": str(typed)}
            elif typed is None:
                report["keyboard"] = {"answered": False, "letters": letters}
            else:
                report["keyboard"] = {
                    "answered": True,
                    "letters": letters,
                    "typed": typed,
                    "missing": missing_letters(letters, typed),
                }
        if len(results) > (2 if ask_keyboard else 1):
            report["button"] = {"pressed": results[-1] is True}
        else:
            report["button"] = {"fitted": getattr(self.outputs, "button", None) is not None}
        self._send(report)
        return report

    def facts(self) -> dict[str, Any]:
        lamp = getattr(self.outputs, "lamp", None)
        bell = getattr(self.outputs, "bell", None)
        sound = getattr(self.outputs, "sound", None)
        return {
            "bell": str(bell.pin) if bell is not None else None,
            "sound": type(sound).__name__ if sound is not None else None,
            "lamp": str(lamp.pin) if lamp is not None else None,
            "simulated": bool(getattr(self.outputs, "simulated", False)),
            "pin_set": (pin := pin_state(self.db_path, self.configured_pin_hash))
            is PinHashState.OK,
            "pin_state": str(pin),
            "tables": self.tables,
            "free_bytes": free_bytes(self.data_dir),
            "min_free_bytes": MIN_FREE_BYTES,
            "root_read_only": root_read_only(),
            "watchdog": watchdog_armed(),
            "clock_synced": bool(self.sync.clock.synced),
            "clock_offset": float(self.sync.clock.offset),
            "clock_delay": self.sync.clock.delay,
        }

    async def test_stroke(self, at: float) -> dict[str, Any]:
        """One short stroke at hub time ``at``; when did the output switch (hub time)?"""
        clock = self.sync.clock
        delay = at - clock.now()
        if delay > 0:
            await asyncio.sleep(delay)
        bell = getattr(self.outputs, "bell", None)
        if bell is not None:
            bell.on()
            switched = clock.now()  # the GPIO write has returned: the relay has its level
            try:
                await asyncio.sleep(TEST_STROKE)
            finally:
                bell.off()
            output = "bell"
        elif getattr(self.outputs, "sound", None) is not None:
            switched = clock.now()
            await self.outputs.sound.ring("warning")
            output = "sound"
        else:
            return {"at": at, "switched_at": None, "output": None}
        return {"at": at, "switched_at": switched, "late": switched - at, "output": output}

    async def ask_keyboard(
        self, rid: str, letters: str, wait: float, button: bool = False
    ) -> str | None:
        """The typed test line: from the kiosk's prompt, else from ``station rehearse
        type`` (polled in the station database); None when nobody typed in time."""
        if self.keyboard is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    return await self.keyboard(letters, wait, button)
            return None
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            row = await asyncio.to_thread(self._typed, rid)
            if row is not None:
                return row
            await asyncio.sleep(POLL)
        return None

    async def wait_button(self, wait: float) -> bool:
        self._pressed = asyncio.Event()
        try:
            async with asyncio.timeout(wait):
                await self._pressed.wait()
            return True
        except TimeoutError:
            return False
        finally:
            self._pressed = None

    # -- storage ------------------------------------------------------------------------------
    def _store_request(self, rid: str, asked: float, letters: str, wait: float) -> None:
        with self.db.atomic():
            self.db.table("rehearse_requests").upsert(
                {"id": rid, "asked_at": asked, "letters": letters, "wait": wait}, pk="id"
            )

    def _typed(self, rid: str) -> str | None:
        db = open_db(self.db_path, outbox.migrations, migrations)
        try:
            row = db.execute("SELECT text FROM rehearse_typed WHERE id = ?", [rid]).fetchone()
        finally:
            db.close()
        return None if row is None else str(row[0])

    def _send(self, report: dict[str, Any]) -> None:
        try:
            with self.db.atomic():
                outbox.enqueue(self.db, KIND, report, at=self.sync.clock.now())
        except Exception as exc:  # a full disk is itself a finding: say it in the log
            log.error("cannot store the rehearsal answer: %s", exc)
            return
        self.sync.nudge()
        log.info("rehearsal %s answered: %s", report["id"], json.dumps(report, ensure_ascii=False))


def _ok_or_error(value: Any) -> dict[str, Any]:
    if isinstance(value, BaseException):
        return {"error": f"{type(value).__name__}: {value}"}
    return dict(value)


# -- ``station rehearse type`` --------------------------------------------------------------------


def pending_request(db_path: Path) -> dict[str, Any] | None:
    """The newest rehearsal request not answered yet, if it is still open."""
    db = open_db(db_path, outbox.migrations, migrations)
    try:
        row = db.execute(
            "SELECT r.id, r.asked_at, r.letters, r.wait FROM rehearse_requests r"
            " LEFT JOIN rehearse_typed t ON t.id = r.id WHERE t.id IS NULL"
            " ORDER BY r.asked_at DESC LIMIT 1"
        ).fetchone()
    finally:
        db.close()
    if row is None:
        return None
    return {"id": row[0], "asked_at": row[1], "letters": row[2], "wait": row[3]}


def store_typed(db_path: Path, rid: str, text: str, at: float | None = None) -> None:
    db = open_db(db_path, outbox.migrations, migrations)
    try:
        with db.atomic():
            db.table("rehearse_typed").upsert(
                {"id": rid, "text": text, "at": at if at is not None else time.time()}, pk="id"
            )
    finally:
        db.close()


def wait_for_request(db_path: Path, timeout: float) -> dict[str, Any] | None:
    deadline = time.monotonic() + timeout
    while True:
        req = pending_request(db_path)
        if req is not None or time.monotonic() >= deadline:
            return req
        time.sleep(POLL)


def attach(
    sync: Any,
    outputs: Any,
    cfg: Any,
    db_path: Path,
    keyboard: KeyboardPrompt | None = None,
    round_on: Callable[[], int | None] | None = None,
) -> Rehearsal:
    """Hook the responder into a running station (``station daemon``, the linked kiosk).
    ``round_on``: the round the station's clock shows being played (quiet answers)."""
    from samoobsluha.shared.checks import DEFAULT_TABLES

    kiosk = cfg.section("kiosk")
    return Rehearsal(
        sync,
        outputs,
        db_path,
        tables=str(kiosk.get("tables", DEFAULT_TABLES)),
        configured_pin_hash=str(kiosk.get("referee_pin_hash", "") or ""),
        keyboard=keyboard,
        data_dir=Path(os.environ.get("SAMOOBSLUHA_DATA") or db_path.parent),
        round_on=round_on,
    ).attach()


def round_in_play(schedule: Any, now: float) -> int | None:
    """The round ``schedule`` (:class:`~station.rounds.RoundSchedule`) shows being played
    at hub time ``now``: under way, paused, or in its play-out; None when idle."""
    from samoobsluha.shared.rounds import Phase

    status = schedule.status(now)
    if status is None or status.phase in (Phase.SCHEDULED, Phase.CANCELLED, Phase.IDLE):
        return None
    return int(status.number)

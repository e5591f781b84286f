"""INTERIM signal firing for ``station daemon`` — to be replaced by the real runner.

The gong work (``station/rounds.py``: persistent ``RoundSchedule`` + ``SignalRunner``)
was not on a branch this one could merge when the network layer was finished, so this
is the smallest thing that rings a plan's signals at their instant in hub time and tells
the hub: it keeps plans in memory (the sync layer stores them in ``hub_plans``), fires
each ``RoundPlan.signal_times()`` entry once on the injected clock, and queues an outbox
row of kind ``signal`` (in its own transaction) so the hub learns when each station rang.
A signal overdue by more than :data:`GRACE` seconds is skipped, not rung late.

Lead: swap in ``station.rounds.SignalRunner`` by feeding it the plans from
``StationSync.on("plan", ...)`` and running it on ``StationSync.clock``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.clock import Clock
from shared.dbworker import DbWorker
from shared.rounds import RoundPlan
from station import outbox

log = logging.getLogger("station.signals")

GRACE = 5.0
SPIN = 0.003  # the last few ms are awaited in small steps for a tight start


def _already_fired(db: Any, number: int, signal: str, due_at: float) -> bool:
    row = db.execute(
        "SELECT 1 FROM outbox WHERE kind = 'signal' AND json_extract(payload, '$.round') = ?"
        " AND json_extract(payload, '$.signal') = ?"
        " AND abs(json_extract(payload, '$.due_at') - ?) < 0.0005",
        [number, signal, due_at],
    ).fetchone()
    return row is not None


def _record(db: Any, payload: dict[str, Any]) -> None:
    with db.atomic():
        outbox.enqueue(db, "signal", payload)


class MinimalSignalFirer:
    def __init__(
        self,
        db_path: Path | str,
        clock: Clock,
        *,
        ring: Callable[[str], Any] | None = None,
        on_fired: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.clock = clock
        self.dbw = DbWorker(db_path, outbox.migrations)
        self.ring = ring or (lambda name: log.info("GONG %s", name))
        self.on_fired = on_fired
        self.plans: dict[int, RoundPlan] = {}
        self.manual: list[tuple[str, float]] = []
        self.fired: set[tuple[int, str, float]] = set()
        self.checked: set[tuple[int, str, float]] = set()
        self._wake = asyncio.Event()
        self._stopped = False

    def apply(self, plan: RoundPlan) -> None:
        old = self.plans.get(plan.number)
        if old is None or plan.revision > old.revision:
            self.plans[plan.number] = plan
            self._wake.set()

    def gong_now(self, signal: str, at: float) -> None:
        self.manual.append((signal, at))
        self._wake.set()

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()

    def close(self) -> None:
        self.dbw.close()

    def _next(self, now: float) -> tuple[float, int, str] | None:
        best: tuple[float, int, str] | None = None
        for number, plan in self.plans.items():
            for sig, at in plan.signal_times().items():
                key = (number, str(sig), round(at, 3))
                if key in self.fired or at < now - GRACE:
                    continue
                if best is None or at < best[0]:
                    best = (at, number, str(sig))
        for sig, at in self.manual:
            fresh = (0, sig, round(at, 3)) not in self.fired and at >= now - GRACE
            if fresh and (best is None or at < best[0]):
                best = (at, 0, sig)
        return best

    async def run(self) -> None:
        while not self._stopped:
            now = self.clock.now()
            nxt = self._next(now)
            if nxt is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            at, number, sig = nxt
            key = (number, sig, round(at, 3))
            if number and key not in self.checked:
                self.checked.add(key)
                if await self.dbw.run(_already_fired, number, sig, at):
                    self.fired.add(key)  # rang before a restart
                    continue
                continue  # the check took time: recompute the wait
            wait = at - now
            if wait > SPIN:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), wait - SPIN)
                    continue  # something changed: recompute
                except TimeoutError:
                    pass
            while self.clock.now() < at:
                await asyncio.sleep(0)
            await self._fire(number, sig, at)

    async def _fire(self, number: int, sig: str, due: float) -> None:
        key = (number, sig, round(due, 3))
        self.fired.add(key)
        fired_at = self.clock.now()
        local = getattr(self.clock, "local", self.clock).now()
        try:
            self.ring(sig)
        except Exception:
            log.exception("gong failed")
        synced = bool(getattr(self.clock, "synced", True))
        payload = {
            "round": number,
            "signal": sig,
            "due_at": due,
            "fired_at": fired_at,
            "local_time": local,
            "clock_synced": synced,
        }
        await self.dbw.run(_record, payload)
        if self.on_fired:
            self.on_fired(payload)

"""Rounds on the stations: their plans and phases, starting one (refused while the hub's own
clock is unconfirmed after a restart, :mod:`hub.hubtime`), the guard before starting one
again, pause/resume/extend/cancel and the gong, which stations confirmed a plan, and the
day's timetable (basic time and warning included) kept in ``dash_settings``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from samoobsluha.hub import hubtime
from samoobsluha.hub import store as sync_store
from samoobsluha.hub.officiating import Slot, day_schedule
from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.rounds import RoundPlan


@dataclass
class RoundRow:
    number: int
    phase: str
    remaining: float
    start_at: float
    end_at: float
    paused: bool
    revision: int
    item_id: str
    confirmed: list[str] = field(default_factory=list)
    unconfirmed: list[str] = field(default_factory=list)
    warning_seconds: float = 600.0


@dataclass
class RoundGuard:
    """A round as the referee must see it before starting it again or cancelling it."""

    number: int
    phase: str  # idle | scheduled | running | warning | ended | cancelled
    begun: bool  # its start has passed (and it was not cancelled)
    results: int  # tables with a result in the tournament
    end_at: float | None
    remaining: float = 0.0

    @property
    def played(self) -> bool:
        """Ended or has results: never cancelled (the hub refuses it too)."""
        return self.phase == "ended" or self.results > 0

    @property
    def needs_confirmation(self) -> bool:
        """Starting it again would restart a round that has begun or has results; a round
        never planned (``idle``) is a first start and never asks, whatever results the
        kiosks already took (the hub decides the same: hub.server.played_reason)."""
        if self.phase == "idle":
            return False
        return self.begun or self.results > 0


class RoundsArea(ServiceCore):
    """Rounds, the gong and the timetable."""

    # -- the hub's own clock after a restart (hub.hubtime) --------------------------------
    def time_status(self) -> hubtime.TimeStatus:
        return hubtime.status(self.data, self.boot_id)

    def confirm_time(self) -> hubtime.TimeStatus:
        """The operator checked the hub's clock against a watch: rounds may start."""
        return hubtime.confirm(self.data, self.clock, self.who, self.boot_id)

    # -- rounds on the stations --------------------------------------------------------------
    def rounds(self) -> list[RoundRow]:
        """Every planned round with its phase now and which stations confirmed its plan."""
        now = self.clock.now()
        with self._db() as db:
            plans = sync_store.load_plans(db)
            stations = [r["station_id"] for r in sync_store.load_stations(db)]
            out = []
            for plan in plans:
                status = plan.status(now)
                item = f"plan:{plan.number}:{plan.revision}"
                done = sync_store.load_deliveries(db, item)
                out.append(
                    RoundRow(
                        plan.number,
                        str(status.phase),
                        status.remaining,
                        status.start_at,
                        status.end_at,
                        status.paused,
                        plan.revision,
                        item,
                        sorted(s for s, d in done.items() if d["ok"]),
                        sorted(s for s in stations if s not in done or not done[s]["ok"]),
                        plan.warning_seconds,
                    )
                )
        return out

    def plan(self, number: int) -> RoundPlan | None:
        with self._db() as db:
            return sync_store.load_plan(db, number)

    def start_round(
        self,
        number: int,
        *,
        at: float | None = None,
        lead: float = 5.0,
        basic_seconds: float | None = None,
        warning_seconds: float | None = None,
        force: bool = False,
    ) -> dict[str, Any]:
        """Plan round ``number`` on every station, ``lead`` seconds from now or ``at``.
        Basic time and warning default to the day's settings (40 and 10 minutes). A round
        that has begun or has results starts again only with ``force`` (the referee
        confirmed it, see :meth:`round_guard`). Refused while the hub's time is unconfirmed
        after a restart (:mod:`hub.hubtime`)."""
        if not self.time_status().confirmed:
            raise ServiceError(Phrase("hubtime.refused"))
        settings = self.schedule_settings()
        if basic_seconds is None:
            basic_seconds = float(settings["basic_minutes"]) * 60
        if warning_seconds is None:
            warning_seconds = float(settings["warning_minutes"]) * 60
        args: dict[str, Any] = {
            "number": number,
            "lead": lead,
            "basic_seconds": basic_seconds,
            "warning_seconds": warning_seconds,
        }
        if at is not None:
            args["at"] = at
        if force:
            args["force"] = True
        return self.control("start_round", **args)

    def round_guard(self, number: int) -> RoundGuard:
        """What the referee must know before starting round ``number`` again or cancelling
        it: whether it has begun or ended, and how many results it has."""
        now = self.clock.now()
        with self._db() as db:
            plan = sync_store.load_plan(db, number)
            results = sync_store.round_results_count(db, number)
        if plan is None:
            return RoundGuard(number, "idle", False, results, None)
        status = plan.status(now)
        begun = not plan.cancelled and now >= plan.start_at
        return RoundGuard(
            number, str(status.phase), begun, results, status.end_at, status.remaining
        )

    def change_round(self, number: int, action: str, seconds: float = 0.0) -> dict[str, Any]:
        return self.control("change_round", number=number, action=action, seconds=seconds)

    def gong(self, signal: str = "start") -> dict[str, Any]:
        return self.control("gong", signal=signal)

    def deliveries(self, item_id: str) -> dict[str, dict[str, Any]]:
        with self._db() as db:
            return sync_store.load_deliveries(db, item_id)

    # -- the day's timetable -------------------------------------------------------------------
    def schedule_settings(self) -> dict[str, Any]:
        defaults: dict[str, Any] = {
            "first_start": "09:00",
            "rounds": 9,
            "slot_minutes": 45,
            "break_minutes": 10,
            "lunch_after": 4,
            "lunch_minutes": 60,
            "refreshment_after": 7,
            "refreshment_minutes": 20,
            "basic_minutes": 40,  # ČAS 4.1
            "warning_minutes": 10,  # ČAS 6.1
        }
        with self._db() as db:
            row = db.execute("SELECT value FROM dash_settings WHERE key = 'schedule'").fetchone()
        if row:
            defaults.update(json.loads(row[0]))
        return defaults

    def set_schedule(self, **settings: Any) -> list[Slot]:
        merged = self.schedule_settings()
        unknown = set(settings) - set(merged)
        if unknown:
            raise ServiceError(Phrase("err.schedule.unknown", names=sorted(unknown)))
        merged.update({k: v for k, v in settings.items() if v is not None})
        slots = self._slots(merged)  # validates
        if not 0 < float(merged["warning_minutes"]) < float(merged["basic_minutes"]):
            raise ServiceError(Phrase("err.schedule.warning"))
        with self._db() as db, db.atomic():
            db.table("dash_settings").upsert(
                {"key": "schedule", "value": json.dumps(merged)}, pk="key"
            )
        return slots

    def schedule(self, day: datetime | None = None) -> list[Slot]:
        return self._slots(self.schedule_settings(), day)

    def _slots(self, s: dict[str, Any], day: datetime | None = None) -> list[Slot]:
        try:
            hh, mm = (int(x) for x in str(s["first_start"]).split(":"))
            base = day or datetime.fromtimestamp(self.clock.now())
            start = base.replace(hour=hh, minute=mm, second=0, microsecond=0)
            return day_schedule(
                start,
                rounds=int(s["rounds"]),
                slot_minutes=int(s["slot_minutes"]),
                break_minutes=int(s["break_minutes"]),
                lunch_after=s["lunch_after"],
                lunch_minutes=int(s["lunch_minutes"]),
                refreshment_after=s["refreshment_after"],
                refreshment_minutes=int(s["refreshment_minutes"]),
            )
        except (ValueError, TypeError) as exc:
            raise ServiceError(Phrase("err.schedule.bad", error=str(exc))) from exc

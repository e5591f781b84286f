"""The station's round clock: which rounds are planned, which signals were given, and
the runner that rings them on time.

Two pieces, both in **hub time** (the clock domain of :class:`shared.rounds.RoundPlan`):

:class:`RoundSchedule`
    The plans this station knows (newest revision per round) and every signal it gave
    or missed, in the station's SQLite file. Nothing lives only in memory, so a station
    restarted mid-round shows the right phase and time left at once, and never rings a
    signal twice. Every given/missed signal is also queued in the outbox (kind
    ``"signal"``) in the same transaction, so the hub learns of it.

:class:`SignalRunner`
    An asyncio task that sleeps until the next due signal, rings it on the gong, and
    records it. A signal found overdue by more than the grace (default 5 s: a late gong
    confuses the hall, ČAS 4.1/6.1) is logged as *missed* and not rung.

The kiosk and the headless daemon use the same small API::

    schedule = RoundSchedule.open(clock=clock)          # station DB, migrations applied
    runner = SignalRunner(schedule, clock, gong)        # gong: anything with async ring(name)
    task = asyncio.create_task(runner.run())
    schedule.apply(plan)                                # from the hub: wakes the runner
    schedule.status(clock.now())                        # -> RoundStatus | None (None = idle)
    runner.stop(); await task

``clock.now()`` must be hub time: the network layer passes a clock that adds the
estimated hub offset; a standalone station passes its own :class:`~shared.clock.SystemClock`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.rounds import (
    BASIC_SECONDS,
    PLAYOUT_DISPLAY_SECONDS,
    WARNING_SECONDS,
    Phase,
    RoundPlan,
    RoundStatus,
    Signal,
)
from samoobsluha.shared.storage import MigrationSet, open_db
from samoobsluha.station import collector, outbox

if TYPE_CHECKING:
    import sqlite_utils

log = logging.getLogger(__name__)

GRACE_SECONDS = 5.0
SPIN_SECONDS = 0.010  # the runner wakes this early and waits out the rest exactly
SIGNAL_ORDER = {Signal.START: 0, Signal.WARNING: 1, Signal.END: 2}

SOURCE_HUB = "hub"
SOURCE_LOCAL = "local"

GIVEN = "given"
MISSED = "missed"

migrations = MigrationSet("station.rounds")


@migrations()
def m001_rounds(db: sqlite_utils.Database) -> None:
    # The newest revision of each round's plan (what the station acts on) …
    db.table("round_plans").create(
        {"number": int, "revision": int, "source": str, "plan": str, "applied_at": float},
        pk="number",
        not_null={"revision", "source", "plan", "applied_at"},
    )
    # … every revision ever applied (the referee's changes, for the record) …
    db.table("round_plan_history").create(
        {
            "id": int,
            "number": int,
            "revision": int,
            "source": str,
            "plan": str,
            "applied_at": float,
        },
        pk="id",
        not_null={"number", "revision", "source", "plan", "applied_at"},
    )
    # … and every signal given or missed: at most one row per (round, signal).
    db.table("round_signals").create(
        {
            "id": int,
            "number": int,
            "signal": str,
            "outcome": str,
            "scheduled_at": float,
            "actual_at": float,
            "revision": int,
            "local_at": float,
        },
        pk="id",
        not_null={"number", "signal", "outcome", "scheduled_at", "actual_at", "revision"},
    )
    db.table("round_signals").create_index(["number", "signal"], unique=True)


@migrations()
def m002_tournament(db: sqlite_utils.Database) -> None:
    # Scope everything by tournament ([network] tournament_id): round numbers start
    # again at 1 in the next tournament on the same station DB.
    for table in ("round_plans", "round_plan_history", "round_signals"):
        db.table(table).add_column("tournament", str, not_null_default="")
    db.table("round_plans").transform(pk=("tournament", "number"))
    db.execute("DROP INDEX IF EXISTS idx_round_signals_number_signal")
    db.table("round_signals").create_index(
        ["tournament", "number", "signal"], unique=True, index_name="round_signals_once"
    )


@migrations()
def m003_epoch(db: sqlite_utils.Database) -> None:
    # A signal is given once per *start* of a round (RoundPlan.epoch), not once per round:
    # a round the referee starts again rings its start again. Rows before this are epoch 0.
    db.table("round_signals").add_column("epoch", int, not_null_default=0)
    db.execute("DROP INDEX IF EXISTS round_signals_once")
    db.table("round_signals").create_index(
        ["tournament", "number", "epoch", "signal"], unique=True, index_name="round_signals_once"
    )


def store_plan(
    db: sqlite_utils.Database,
    tournament: str,
    plan: RoundPlan,
    *,
    source: str = SOURCE_HUB,
    now: float,
) -> bool:
    """Keep ``plan`` if it is news for its round; True when it changed anything.

    The one place round plans are stored on a station (the schedule and the hub link both
    call it). The newest revision of a round wins and a repeated or older one is ignored, so
    the network may deliver plans twice or out of order; a hub plan always replaces a local
    one (the hub takes over a round started standalone)."""
    if source not in (SOURCE_HUB, SOURCE_LOCAL):
        raise ValueError(f"unknown plan source {source!r}")
    with db.atomic():
        old = db.execute(
            "SELECT revision, source FROM round_plans WHERE tournament = ? AND number = ?",
            [tournament, plan.number],
        ).fetchone()
        if old is not None:
            takeover = source == SOURCE_HUB and old[1] == SOURCE_LOCAL
            if not takeover and plan.revision <= old[0]:
                return False
        row = {
            "tournament": tournament,
            "number": plan.number,
            "revision": plan.revision,
            "source": source,
            "plan": json.dumps(plan.to_dict(), sort_keys=True),
            "applied_at": now,
        }
        db.table("round_plans").upsert(row, pk=("tournament", "number"))
        db.table("round_plan_history").insert(row)
    return True


def load_plans(db: sqlite_utils.Database, tournament: str) -> list[RoundPlan]:
    """The newest plan of every round of ``tournament``, by round number."""
    return [
        RoundPlan.from_dict(json.loads(text))
        for (text,) in db.execute(
            "SELECT plan FROM round_plans WHERE tournament = ? ORDER BY number", [tournament]
        )
    ]


class RoundError(Exception):
    """A referee's change that cannot be made (the message says why, in English)."""


@dataclass(frozen=True)
class DueSignal:
    """A signal not yet given or missed."""

    number: int
    signal: Signal
    due: float
    revision: int
    epoch: int = 0  # which start of the round (RoundPlan.epoch)


@dataclass(frozen=True)
class SignalRecord:
    number: int
    signal: Signal
    outcome: str  # "given" | "missed"
    scheduled_at: float
    actual_at: float
    revision: int
    epoch: int = 0

    @property
    def late(self) -> float:
        return self.actual_at - self.scheduled_at


@dataclass(frozen=True)
class StoredPlan:
    plan: RoundPlan
    source: str
    applied_at: float


class RoundSchedule:
    """Round plans and given signals over the station DB (see the module docstring).

    ``tournament`` scopes everything (use ``[network] tournament_id``): the next
    tournament's round 1 is a new round on the same DB. ``grace`` is how late a signal
    may still be rung; ``playout_display`` how long an
    ended round (play-out, DOHRÁVKA) or a cancelled one stays on the clock before the
    station shows idle again. Use from one thread (the asyncio loop's): SQLite
    connections are bound to the thread that opened them.
    """

    def __init__(
        self,
        db: sqlite_utils.Database,
        clock: Clock | None = None,
        *,
        tournament: str = "",
        grace: float = GRACE_SECONDS,
        playout_display: float = PLAYOUT_DISPLAY_SECONDS,
    ) -> None:
        self.db = db
        self.tournament = tournament
        self.clock: Clock = clock or SystemClock()
        self.grace = float(grace)
        self.playout_display = float(playout_display)
        outbox.migrations.apply(db)
        migrations.apply(db)
        self._listeners: list[Callable[[], None]] = []
        self._cache: tuple[int, dict[int, StoredPlan], dict[tuple[int, int, Signal], SignalRecord]]
        self._cache_version = -1
        self._local_changes = 0

    @classmethod
    def open(
        cls, path: Path | str | None = None, clock: Clock | None = None, **kw: Any
    ) -> RoundSchedule:
        """Open the station DB (``station.config.station_db_path()`` by default)."""
        if path is None:
            from samoobsluha.station.config import station_db_path

            path = station_db_path()
        return cls(open_db(path, outbox.migrations, migrations, lazy=True), clock, **kw)

    def close(self) -> None:
        self.db.close()

    # -- change notification --------------------------------------------------------------
    def add_listener(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change made through this object (the runner
        uses it to re-plan at once). Changes by other processes are noticed through
        :meth:`changed_since`."""
        self._listeners.append(callback)

    def changed(self) -> None:
        """Another connection stored a plan (the hub link): re-plan now."""
        self._notify()

    def _notify(self) -> None:
        self._local_changes += 1
        for callback in list(self._listeners):
            callback()

    def version(self) -> int:
        """A number that changes whenever the rounds data may have changed (by this
        connection or, via ``PRAGMA data_version``, by another process)."""
        (data_version,) = self.db.execute("PRAGMA data_version").fetchone()
        return int(data_version) * 1_000_000 + self._local_changes

    def _load(
        self, recheck: bool = True
    ) -> tuple[dict[int, StoredPlan], dict[tuple[int, int, Signal], SignalRecord]]:
        if not recheck and self._cache_version >= 0:
            return self._cache[1], self._cache[2]
        version = self.version()
        if version != self._cache_version:
            plans = {}
            for number, source, plan, applied_at in self.db.execute(
                "SELECT number, source, plan, applied_at FROM round_plans WHERE tournament = ?",
                [self.tournament],
            ):
                plans[number] = StoredPlan(
                    RoundPlan.from_dict(json.loads(plan)), source, applied_at
                )
            records = {}
            for row in self.db.execute(
                "SELECT number, signal, outcome, scheduled_at, actual_at, revision, epoch "
                "FROM round_signals WHERE tournament = ?",
                [self.tournament],
            ):
                rec = SignalRecord(row[0], Signal(row[1]), *row[2:])
                records[(rec.number, rec.epoch, rec.signal)] = rec
            self._cache = (version, plans, records)
            self._cache_version = version
        return self._cache[1], self._cache[2]

    # -- plans ----------------------------------------------------------------------------
    def plans(self) -> list[StoredPlan]:
        """Every round's newest plan, by round number."""
        plans, _ = self._load()
        return [plans[n] for n in sorted(plans)]

    def plan(self, number: int) -> RoundPlan | None:
        stored = self._load()[0].get(number)
        return stored.plan if stored else None

    def apply(self, plan: RoundPlan, *, source: str = SOURCE_HUB) -> bool:
        """Store ``plan`` if it is news; return whether it changed anything.

        The newest revision of a round wins and a repeated or older one is ignored, so
        the network layer may deliver plans twice or out of order. A hub plan always
        replaces a local one (the hub takes over a round started standalone); a local
        change to a round the hub runs is refused with :class:`RoundError`.
        """
        if source == SOURCE_LOCAL:
            current = self._load()[0].get(plan.number)
            if current is not None and current.source == SOURCE_HUB:
                raise RoundError(Phrase("err.round.hub_runs", round=plan.number))
        if not store_plan(self.db, self.tournament, plan, source=source, now=self.clock.now()):
            return False
        log.info("round %d: plan revision %d from %s applied", plan.number, plan.revision, source)
        self._notify()
        return True

    # -- local (standalone / referee) changes ---------------------------------------------
    def next_number(self) -> int:
        plans = self._load()[0]
        return max(plans, default=0) + 1

    def start_local(
        self,
        *,
        number: int | None = None,
        lead: float = 0.0,
        basic_seconds: float = BASIC_SECONDS,
        warning_seconds: float = WARNING_SECONDS,
    ) -> RoundPlan:
        """Plan a round on this station's own authority, starting ``lead`` seconds from
        now. Refused while another round is scheduled or running."""
        now = self.clock.now()
        shown = self.status(now)
        if shown is not None and shown.phase in (Phase.SCHEDULED, Phase.RUNNING, Phase.WARNING):
            raise RoundError(Phrase("err.round.busy", round=shown.number, phase=shown.phase.value))
        if number is None:
            number = self.next_number()
        old = self.plan(number)
        if old is not None and not old.cancelled:
            raise RoundError(Phrase("err.round.planned", round=number))
        if warning_seconds >= basic_seconds:
            raise RoundError(Phrase("err.round.warning"))
        if old is not None:  # a cancelled round started again: a new epoch rings anew
            plan = old.restarted(
                now + lead, basic_seconds=basic_seconds, warning_seconds=warning_seconds
            )
        else:
            plan = RoundPlan(
                number, now + lead, basic_seconds=basic_seconds, warning_seconds=warning_seconds
            )
        self.apply(plan, source=SOURCE_LOCAL)
        return plan

    def change_local(
        self, change: Callable[[RoundPlan, float], RoundPlan], number: int | None = None
    ) -> RoundPlan:
        """Apply a referee's change (``change(plan, now) -> new plan``, e.g.
        ``lambda p, now: p.paused(now)``) to round ``number`` (default: the round on the
        clock) and store it as a local plan."""
        now = self.clock.now()
        if number is None:
            shown = self.current(now)
            if shown is None:
                raise RoundError(Phrase("err.round.none"))
            number = shown.number
        plan = self.plan(number)
        if plan is None:
            raise RoundError(Phrase("err.round.not_planned", round=number))
        new = change(plan, now)
        if new is plan:
            return plan
        self.apply(new, source=SOURCE_LOCAL)
        return new

    # -- what the clock shows -------------------------------------------------------------
    def current(self, now: float) -> RoundPlan | None:
        """The plan the clock shows at ``now``: a running round, else the next scheduled
        one, else a round ended (or cancelled) less than ``playout_display`` ago."""
        plans = self._load()[0]
        running, scheduled, ended = [], [], []
        for stored in plans.values():
            plan = stored.plan
            if plan.cancelled:
                if now - stored.applied_at < self.playout_display:
                    ended.append((stored.applied_at, plan))
                continue
            status = plan.status(now)
            if status.phase in (Phase.RUNNING, Phase.WARNING):
                running.append(plan)
            elif status.phase is Phase.SCHEDULED:
                scheduled.append(plan)
            elif now - status.end_at < self.playout_display:
                ended.append((status.end_at, plan))
        if running:
            return max(running, key=lambda p: p.number)
        if scheduled:
            return min(scheduled, key=lambda p: (p.start_at, p.number))
        if ended:
            return max(ended, key=lambda e: (e[0], e[1].number))[1]
        return None

    def status(self, now: float) -> RoundStatus | None:
        """What the kiosk's clock shows at hub time ``now``; ``None`` means idle."""
        plan = self.current(now)
        return plan.status(now) if plan is not None else None

    # -- signals --------------------------------------------------------------------------
    def due_signals(self, *, recheck: bool = True) -> list[DueSignal]:
        """Signals of current plans not yet given or missed in the plan's epoch (a round
        started again rings anew), soonest first. A paused round has no future signals; a
        cancelled one none at all. ``recheck=False``
        trusts the cache (no query: the runner's last moment before a signal)."""
        plans, records = self._load(recheck)
        due: list[DueSignal] = []
        for stored in plans.values():
            plan = stored.plan
            if plan.paused_at is not None and plan.paused_at <= plan.start_at:
                continue  # paused before it began: nothing may ring
            for signal, at in plan.signal_times().items():
                if (plan.number, plan.epoch, signal) not in records:
                    due.append(DueSignal(plan.number, signal, at, plan.revision, plan.epoch))
        due.sort(key=lambda d: (d.due, d.number, SIGNAL_ORDER[d.signal]))
        return due

    def signals(
        self, number: int | None = None, *, every_start: bool = False
    ) -> list[SignalRecord]:
        """Signals given or missed (of one round, or all), in order: those of each round's
        current start (its plan's epoch), or with ``every_start`` those of earlier starts
        of a restarted round too."""
        plans, records = self._load()
        chosen = [
            r
            for r in records.values()
            if (number is None or r.number == number)
            and (every_start or r.epoch == (plans[r.number].plan.epoch if r.number in plans else 0))
        ]
        return sorted(chosen, key=lambda r: (r.number, r.epoch, SIGNAL_ORDER[r.signal]))

    def record(self, due: DueSignal, outcome: str, actual_at: float) -> bool:
        """Store that ``due`` was given or missed, and queue it for the hub, in one
        transaction. Returns False if it was already recorded (nothing changes)."""
        if outcome not in (GIVEN, MISSED):
            raise ValueError(f"unknown outcome {outcome!r}")
        payload = {
            "tournament": self.tournament,
            "round": due.number,
            "signal": due.signal.value,
            "outcome": outcome,
            "scheduled_at": due.due,
            "actual_at": actual_at,
            "revision": due.revision,
        }
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO round_signals (tournament, number, signal, outcome, "
                "scheduled_at, actual_at, revision, local_at, epoch) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    self.tournament,
                    due.number,
                    due.signal.value,
                    outcome,
                    due.due,
                    actual_at,
                    due.revision,
                    time.time(),
                    due.epoch,
                ],
            )
            if cursor.rowcount == 0:
                return False
            outbox.enqueue(self.db, "signal", payload)
        # Keep the cache instead of reloading it: the runner looks again at once.
        fresh = self._cache_version == self.version()
        self._local_changes += 1
        if fresh:
            self._cache[2][(due.number, due.epoch, due.signal)] = SignalRecord(
                due.number, due.signal, outcome, due.due, actual_at, due.revision, due.epoch
            )
            self._cache_version = self.version()
            self._cache = (self._cache_version, self._cache[1], self._cache[2])
        return True


class Gong(Protocol):
    """Anything that can ring a named pattern ("start", "warning", "end")."""

    async def ring(self, name: str) -> None: ...


@dataclass(frozen=True)
class Fired:
    """One decision of the runner, for observers and benchmarks."""

    due: DueSignal
    outcome: str
    at: float  # hub time when rung (or found missed)


class SignalRunner:
    """Rings due signals of a :class:`RoundSchedule` on a :class:`Gong`.

    ``await runner.run()`` runs until :meth:`stop`; ``run(until=t)`` returns once hub
    time ``t`` is reached (tests, benchmarks). ``sleep`` is how the runner waits: by
    default a real asyncio wait that :meth:`wake` interrupts; tests pass a coroutine
    that advances a :class:`~shared.clock.FakeClock` instead, which plays a whole round
    in milliseconds. The runner never naps longer than ``max_nap`` so a change of the
    clock (a new hub offset, a plan written by another process) is noticed quickly.

    The bell's first stroke comes before the record is written (the write costs an
    fsync; the hall hears the bell on time); a pattern runs to its end before the next
    signal is considered, and when several signals of one round are due at once only
    the latest rings (the others are logged as missed).
    """

    def __init__(
        self,
        schedule: RoundSchedule,
        clock: Clock,
        gong: Gong,
        *,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        max_nap: float = 1.0,
        spin: float = SPIN_SECONDS,
        on_fired: Callable[[Fired], None] | None = None,
        gc_window: float = 0.0,
    ) -> None:
        self.schedule = schedule
        self.clock = clock
        self.gong = gong
        self.max_nap = max_nap
        self.spin = spin
        self.on_fired = on_fired
        # Seconds before a signal during which Python's cyclic garbage collector is held
        # off (process-wide): a full collection of a kiosk's heap holds the GIL for
        # hundreds of milliseconds (bench/gong.py). 0: never (the runner alone).
        self.gc_window = gc_window
        self._gc_hold = f"signal runner {id(self)}"
        self._sleep = sleep or self._real_nap
        self._event: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: int | None = None
        self._stopping = False
        schedule.add_listener(self.wake)

    # -- control --------------------------------------------------------------------------
    def wake(self) -> None:
        """Re-plan now (after a new plan). Safe to call from any thread."""
        loop, event = self._loop, self._event
        if loop is None or event is None:
            return
        if threading.get_ident() == self._thread:
            event.set()
        else:
            loop.call_soon_threadsafe(event.set)

    def stop(self) -> None:
        """Make :meth:`run` return after the pattern being rung (if any) is finished."""
        self._stopping = True
        self.wake()

    def _spin_until(self, instant: float) -> None:
        """Busy-wait (at most ``spin`` seconds) until hub time ``instant``."""
        if self._event is not None and self._event.is_set():
            return
        limit = time.monotonic() + self.spin
        while self.clock.now() < instant and time.monotonic() < limit:
            pass

    async def _real_nap(self, seconds: float) -> None:
        assert self._event is not None
        try:
            async with asyncio.timeout(seconds):
                await self._event.wait()
        except TimeoutError:
            pass

    # -- the loop -------------------------------------------------------------------------
    async def run(self, *, until: float | None = None) -> None:
        """Ring signals until :meth:`stop` (also if called before ``run`` began) or,
        with ``until``, until that hub time."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        self._event = asyncio.Event()
        log.info("signal runner started (grace %.1f s)", self.schedule.grace)
        try:
            recheck = True
            while not self._stopping:
                self._event.clear()
                next_due = await self.step(recheck=recheck)
                recheck = True
                now = self.clock.now()
                if until is not None and now >= until:
                    break
                nap = self.max_nap
                if next_due is not None:
                    nap = min(nap, max(0.0, next_due - now))
                if until is not None:
                    nap = min(nap, until - now)
                if self.gc_window > 0:
                    soon = next_due is not None and next_due - now <= self.gc_window
                    self._hold_gc(soon)
                    if next_due is not None and not soon and nap > next_due - now - self.gc_window:
                        await self._sleep(next_due - now - self.gc_window)
                        continue  # into the window: hold the collector, then as below
                if self._sleep == self._real_nap and next_due is not None and nap < self.max_nap:
                    # asyncio timers fire up to ~1 ms late (epoll's resolution):
                    # wake 10 ms early (a busy thread may hold the GIL for 5 ms) and
                    # wait out the last moment exactly.
                    await self._sleep(max(0.0, nap - self.spin))
                    self.schedule.due_signals()  # look for changes now, not at the instant
                    self._spin_until(next_due)
                    recheck = False
                elif nap > 0:
                    await self._sleep(nap)
                else:
                    await asyncio.sleep(0)
        finally:
            self._hold_gc(False)
            self._loop = None
            self._event = None
            self._stopping = False
            log.info("signal runner stopped")

    def _hold_gc(self, hold: bool) -> None:
        """Hold the garbage collector off (before a signal) or let it run again: a hold of
        station/collector.py, so start-up's own hold ending meanwhile cannot switch it on
        inside the window."""
        if hold:
            collector.hold(self._gc_hold)
        else:
            collector.release(self._gc_hold)

    async def step(self, *, recheck: bool = True) -> float | None:
        """Ring or log everything due now; return when the next signal is due."""
        while True:
            now = self.clock.now()
            pending = self.schedule.due_signals(recheck=recheck)
            recheck = True
            due_now = [d for d in pending if d.due <= now]
            if not due_now:
                return pending[0].due if pending else None
            await self._handle(due_now, now)

    async def _handle(self, due_now: Iterable[DueSignal], now: float) -> None:
        latest: dict[int, DueSignal] = {}
        for due in due_now:
            latest[due.number] = due  # sorted by time, so the last one wins
        for due in due_now:
            superseded = latest[due.number] is not due
            if superseded or now - due.due > self.schedule.grace:
                why = "superseded" if superseded else f"{now - due.due:.1f} s late"
                log.warning("round %d: %s signal missed (%s)", due.number, due.signal, why)
                if self.schedule.record(due, MISSED, now):
                    self._tell(Fired(due, MISSED, now))
                continue
            await self._ring(due)

    async def _ring(self, due: DueSignal) -> None:
        fired_at = self.clock.now()
        task = asyncio.ensure_future(self._safe_ring(due.signal.value))
        await asyncio.sleep(0)  # the gong's first stroke starts before the fsync
        self.schedule.record(due, GIVEN, fired_at)
        log.info(
            "round %d: %s signal given (%+.1f ms)",
            due.number,
            due.signal,
            (fired_at - due.due) * 1000,
        )
        self._tell(Fired(due, GIVEN, fired_at))
        await task

    async def _safe_ring(self, name: str) -> None:
        try:
            await self.gong.ring(name)
        except asyncio.CancelledError:
            raise
        except Exception:  # a broken output must not stop the clock
            log.exception("the gong failed to ring %s", name)

    def _tell(self, fired: Fired) -> None:
        if self.on_fired is not None:
            self.on_fired(fired)

"""One station, assembled in one place.

Every way of running a station — ``station run`` (the kiosk), ``station daemon`` (no
screen) and ``station gong run`` (the bell alone) — is this object with different options::

    config → round schedule → bell / lamp / button → signal runner
           → hub link (when the station belongs to a tournament) → kiosk (when it has a screen)

and the rules that must never differ between those modes live here, once:

* **No hub-scheduled ring before the hub clock is synced.** A linked station's own clock may
  be minutes off after a reboot; until the first good time exchange with the hub, the signal
  runner does not run and a "gong now" from the hub waits. The lamp blinks meanwhile.
* **Late gongs are not rung.** A signal or a manual gong found more than the grace period
  (``[gong] grace``, 5 s) late is logged as missed, never rung out of time.
* **The bell does not wait for the UI.** The signal runner is a
  :class:`~samoobsluha.station.bell.BellThread`: its own thread, asyncio loop and SQLite
  connection, ``SCHED_FIFO`` where permitted, a 1 ms GIL switch interval, no garbage
  collection in the last second before a signal, so a verdict being composed and painted
  in the kiosk's loop cannot hold a signal back. Every ring
  (signal, referee button, kiosk gong test, the hub's "gong now") sounds on that thread once
  it runs, so the outputs are driven from one place (bench/gong.py, docs/gong.md).
* **The idle screen comes first; no signal waits for the outputs.** ``station run``
  builds the gong's outputs (importing gpiozero, probing the pin factory, writing the
  sound files: about a tenth of the kiosk's CPU time to its idle screen) just after the
  kiosk's first paint, on a thread of their own, and starts the hub link once they exist
  (so nothing the hub sends — a "gong now", a rehearsal — arrives before them). A signal
  due within ``EAGER_OUTPUTS`` of the start has them built before the kiosk, as before;
  one rung before they exist (the paint delayed beyond all reason) builds them at that
  moment; and ``OUTPUTS_AT_LATEST`` after the start they are built whatever the kiosk
  does. A pin that cannot be used ends ``station run`` with its message, as before.
  ``station daemon`` and ``station gong run`` build them first, as always.
* **Every way out switches the bell off.** SIGTERM, SIGINT and SIGHUP (a lost terminal)
  end the kiosk and the runner in order; the outputs close with the bell off, and
  :func:`~samoobsluha.station.hardware.guard_outputs` covers an exit that skips all that.

The commands only parse their arguments into :class:`RuntimeOptions` and call
:meth:`StationRuntime.run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.station import config as station_config

if TYPE_CHECKING:
    from samoobsluha.station.app import KioskApp
    from samoobsluha.station.bell import BellThread
    from samoobsluha.station.gong import GongConfig, GongOutputs
    from samoobsluha.station.rounds import Fired, RoundSchedule
    from samoobsluha.station.sync import NetworkConfig, StationSync

log = logging.getLogger(__name__)

SWITCH_INTERVAL = 0.001  # seconds: a busy thread hands the GIL to the bell within 1 ms
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
EAGER_OUTPUTS = 10.0  # seconds: a signal due this soon after start: outputs before the kiosk
OUTPUTS_AT_LATEST = 2.0  # seconds after the start: outputs built even if nothing is painted
WARM_AFTER_PAINT = 1.0  # seconds after the first paint: sqlite-utils imported (a thread)


@dataclass
class RuntimeOptions:
    """What the commands may choose; everything else comes from the station config."""

    kiosk: bool = True  # the Textual kiosk on this terminal (station run)
    link: bool | None = None  # None: link to the hub when [network] tournament_id is set
    headless: bool = False  # Textual without a terminal (tests, benchmarks)
    lexicon: Path | None = None
    lexicon_lang: str = "cs"  # language of the default lexicon when none is configured
    hub: str | None = None  # HOST:PORT, skipping mDNS
    tournament: str | None = None
    psk_file: Path | None = None
    station_id: str | None = None
    mdns_interface: str | None = None
    clock_skew: float = 0.0  # pretend the local clock is off (tests, demos)
    report_rings: bool = False  # one JSON line per ring on stdout (tests, benchmarks)
    button: bool = True  # watch the referee button


def is_networked(cfg: station_config.StationConfig) -> bool:
    """A station of a tournament (``[network] tournament_id``, written by provisioning)
    links to its hub; without one it runs standalone on its own clock."""
    return bool(str(cfg.section("network").get("tournament_id", "")).strip())


def tournament_of(cfg: station_config.StationConfig) -> str:
    """Rounds are scoped by ``[network] tournament_id`` (empty when standalone)."""
    return str(cfg.section("network").get("tournament_id", ""))


class StationRuntime:
    """A station's parts and their lifetime. ``run()`` blocks until the station stops;
    ``await main()`` is the same inside a running event loop (tests)."""

    def __init__(
        self,
        cfg: station_config.StationConfig,
        options: RuntimeOptions | None = None,
        *,
        local_clock: Clock | None = None,
        pin_factory: Any = None,
        app_class: type | None = None,
        db_path: Path | None = None,
    ) -> None:
        from samoobsluha.station.gong import GongConfig

        self.cfg = cfg
        self.options = options or RuntimeOptions()
        self.gong_config: GongConfig = GongConfig.from_station(cfg)
        self.db_path = db_path or station_config.station_db_path()
        self.pin_factory = pin_factory
        self.app_class = app_class
        opts = self.options
        self.linked = opts.link if opts.link is not None else is_networked(cfg)
        if local_clock is None:
            if opts.clock_skew:
                from samoobsluha.station.link.clock import SkewedClock

                local_clock = SkewedClock(opts.clock_skew)
            else:
                local_clock = SystemClock()
        self.local_clock: Clock = local_clock
        self.net: NetworkConfig | None = self._network() if self.linked else None
        # Filled in by main():
        self.sync: StationSync | None = None
        self.schedule: RoundSchedule | None = None
        self.outputs: GongOutputs | None = None  # built by _build_outputs, once
        self._outputs_lock = threading.Lock()
        self._outputs_error: BaseException | None = None  # a pin that cannot be used
        self._outputs_thread: threading.Thread | None = None
        self._wired = False  # the outputs' button, lamp, rehearsal and the link are attached
        self.bell: BellThread | None = None  # the signal runner on its own thread
        self._loop: asyncio.AbstractEventLoop | None = None
        self.app: KioskApp | None = None
        self.ready = asyncio.Event()  # every part is up (tests wait for it)
        self.runner_started = False
        self._clock_known = asyncio.Event()  # set when the hub's clock is first known
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.rehearsal: Any = None

    # -- configuration ------------------------------------------------------------------
    def _network(self) -> NetworkConfig:
        from samoobsluha.station.sync import NetworkConfig

        opts = self.options
        net = NetworkConfig.from_config(self.cfg)
        if opts.hub:
            net.hub = opts.hub
        if opts.tournament:
            net.tournament_id = opts.tournament
        if opts.psk_file:
            net.psk_file = Path(opts.psk_file)
        if opts.mdns_interface:
            net.mdns_interfaces = [opts.mdns_interface]
        net.station_id = opts.station_id or net.station_id or self.cfg.name
        if not net.tournament_id and not opts.kiosk:
            from samoobsluha.shared.i18n import Phrase

            raise station_config.ConfigError(Phrase("config.err.no_tournament"))
        return net

    @property
    def clock(self) -> Clock:
        """The clock rounds run on: the hub's when linked, this machine's otherwise."""
        return self.sync.clock if self.sync is not None else self.local_clock

    @property
    def synced(self) -> bool:
        return self.sync is None or self.sync.clock.synced

    # -- running ------------------------------------------------------------------------
    def run(self) -> int:
        """Run until stopped (signal, kiosk quit); the process's exit code."""
        from samoobsluha.station.hardware import guard_outputs

        guard_outputs()
        sys.setswitchinterval(SWITCH_INTERVAL)
        return asyncio.run(self.main())

    def stop(self) -> None:
        """End the station in order (from the event loop's thread)."""
        if self._stop is not None:
            self._stop.set()
        if self.app is not None and self.app.is_running:
            self.app.exit()

    async def main(self) -> int:
        from samoobsluha.station.rounds import RoundSchedule

        loop = asyncio.get_running_loop()
        self._loop = loop
        self._stop = asyncio.Event()
        if self.linked:
            from samoobsluha.station.sync import StationSync

            assert self.net is not None
            self.sync = StationSync(
                self.db_path,
                self.net,
                local_clock=self.local_clock,
                lexicon_path=self.cfg.lexicon,
                station_name=self.cfg.name,
            )
        gong = self.gong_config
        self.schedule = RoundSchedule.open(
            self.db_path,
            clock=self.clock,
            tournament=self.net.tournament_id if self.net else tournament_of(self.cfg),
            grace=gong.grace,
            playout_display=gong.playout_display_minutes * 60,
        )
        installed: list[int] = []
        code = 0
        try:
            if not self._defer_outputs():
                self._build_outputs()  # a pin that cannot be used stops the start here
            for stop_signal in STOP_SIGNALS:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(stop_signal, self._on_signal, stop_signal)
                    installed.append(stop_signal)
            try:
                self._assemble(loop)
                code = await self._serve()
            finally:
                await self._stop_tasks()  # before the outputs close: no ring after
                if self.outputs is not None:
                    self.outputs.off()
        finally:
            for signum in installed:
                loop.remove_signal_handler(signum)
            self._close()
        if self._outputs_error is not None:  # found after the first paint: as before it
            raise self._outputs_error
        return code

    # -- the gong's outputs: after the first paint, never after a signal -------------------
    def _defer_outputs(self) -> bool:
        """Whether the outputs wait for the kiosk's first paint: only under a kiosk, and
        only when no signal of a stored plan is due within ``EAGER_OUTPUTS``."""
        if not self.options.kiosk:
            return False
        assert self.schedule is not None
        now = self.clock.now()
        for due in self.schedule.due_signals():
            if due.due - now <= EAGER_OUTPUTS:
                log.info("a signal is due in %.1f s: gong outputs before the kiosk", due.due - now)
                return False
        return True

    def _build_outputs(self) -> GongOutputs:
        """Open the outputs (any thread; once). Raises what :func:`build_gong` raises; the
        error is kept, so a second caller raises it too and ``main`` reports it."""
        with self._outputs_lock:
            if self.outputs is not None:
                return self.outputs
            if self._outputs_error is not None:
                raise self._outputs_error
            from samoobsluha.station.gong import build_gong
            from samoobsluha.station.hardware import HardwareError

            try:
                outputs = build_gong(
                    self.gong_config,
                    clock=self.clock,
                    pin_factory=self.pin_factory,
                    with_button=self.options.button,
                )
            except HardwareError as exc:
                self._outputs_error = exc
                raise
            self.outputs = outputs
            log.info("%s", outputs.summary())
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                self._wire_outputs()
            else:
                with contextlib.suppress(RuntimeError):  # the loop closed in between
                    loop.call_soon_threadsafe(self._wire_outputs)
        return outputs

    def _outputs_later(self) -> None:
        """Build the outputs on a thread of their own (the kiosk's loop keeps answering
        keys); called at the first paint and ``OUTPUTS_AT_LATEST`` after the start."""
        if self.outputs is not None or self._outputs_thread is not None:
            return
        if self._stop is not None and self._stop.is_set():
            return

        def build() -> None:
            from samoobsluha.station.hardware import HardwareError

            try:
                self._build_outputs()
            except HardwareError as exc:
                log.error("gong outputs: %s", exc)
                loop = self._loop
                if loop is not None and not loop.is_closed():
                    with contextlib.suppress(RuntimeError):
                        loop.call_soon_threadsafe(self.stop)

        self._outputs_thread = threading.Thread(target=build, name="outputs", daemon=True)
        self._outputs_thread.start()

    def _after_first_paint(self) -> None:
        """The idle screen is painted: the outputs now, and sqlite-utils for the kiosk's
        databases ``WARM_AFTER_PAINT`` later (nothing needs it sooner: it is not where
        the first paint's bytes, the outputs and the lexicon's hash compete for the
        interpreter), each on a thread of its own."""
        self._outputs_later()
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_later(WARM_AFTER_PAINT, self._warm_databases)

    def _warm_databases(self) -> None:
        """Import sqlite-utils, and the payloads every record's outbox row is checked
        against (station/log.py), on a thread of their own, then build the kiosk's and
        the schedule's :class:`~samoobsluha.shared.storage.LazyDatabase` ``full()``, so
        that the first result entered or round started does not wait for the import
        (shared/storage.py). The schedule's is built on the loop's thread, whose
        connection it is (a Python that checks the thread on ``conn.autocommit``)."""
        from samoobsluha.shared.storage import full_database

        loop = self._loop
        if loop is None or (self._stop is not None and self._stop.is_set()):
            return
        schedule, app = self.schedule, self.app

        def on_loop() -> None:
            if schedule is not None:
                full_database(schedule.db)

        def warm() -> None:
            try:
                import samoobsluha.shared._utilsdb  # sqlite-utils
                import samoobsluha.shared.payloads  # noqa: F401

                if app is not None:
                    full_database(app.store.db)  # its connection serves every thread
                if not loop.is_closed():
                    loop.call_soon_threadsafe(on_loop)
            except RuntimeError:  # pragma: no cover - the loop closed in between
                pass
            except Exception:  # pragma: no cover - then each is built at its first use
                log.exception("sqlite-utils for the station database")

        threading.Thread(target=warm, name="sqlite-utils", daemon=True).start()

    def _wire_outputs(self) -> None:
        """The outputs exist: attach the button, show the lamp, answer rehearsals and start
        the hub link (on the loop's thread; once)."""
        from samoobsluha.station.gong import RefereeActions, attach_button

        if self._wired or self.outputs is None or self.schedule is None or self._loop is None:
            return
        if self._stop is not None and self._stop.is_set():
            return
        self._wired = True
        outputs, sync, loop = self.outputs, self.sync, self._loop
        if outputs.button is not None:
            actions = RefereeActions(
                self.schedule, self.ring, config=self.gong_config, standalone=not self.linked
            )
            attach_button(outputs.button, actions, loop)
        if outputs.lamp is not None:
            outputs.lamp.show(synced=self.synced)
        if sync is not None:
            self._attach_rehearsal(sync, outputs)
            self._spawn(sync.run())
        self.ready.set()

    def _on_signal(self, signum: int) -> None:
        log.info("%s: stopping", signal.Signals(signum).name)
        if self.outputs is not None:
            self.outputs.off()  # the bell is off at once, whatever the shutdown takes
        self.stop()

    def _assemble(self, loop: asyncio.AbstractEventLoop) -> None:
        from samoobsluha.station.bell import BellThread

        assert self.schedule is not None
        sync = self.sync
        self.bell = BellThread(
            self._open_bell_schedule, self.clock, _Sounding(self), on_fired=self._fired
        )
        self.schedule.add_listener(self.bell.wake)  # a plan stored here: re-plan at once
        if sync is not None:
            sync.on("plan", self._plan_received)
            sync.on("gong", self._gong_now)
            sync.on("clock", self._clock_changed)
            sync.on("show", self._show)
        if self.outputs is not None:
            self._wire_outputs()  # the link starts here, or once the outputs exist
        else:
            loop.call_later(OUTPUTS_AT_LATEST, self._outputs_later)
        if sync is None:
            self._start_runner()
        else:
            if sync.clock.synced:  # kept from before a restart (StationSync._resume_clock)
                self._clock_changed(sync.status)
                log.info("signals ring on the hub clock kept from before this start")
            else:
                log.info("signals wait for the hub clock")
        if self.options.kiosk:
            self.app = self._build_kiosk()
            self.app.after_first_paint = self._after_first_paint
            if sync is not None:
                self._attach_lexicon(sync, self.app)
                self._attach_settings(sync, self.app)
            if sync is not None:  # the pairings the hub published before this start
                from samoobsluha.station.sync import load_item

                self._show("pairings", sync.dbw.call(load_item, "pairings"))

    def _attach_lexicon(self, sync: StationSync, app: KioskApp) -> None:
        """A lexicon the hub pushes goes into use at the kiosk's next idle moment. The
        link receives and verifies the file where the kiosk's lexicon lives; the kiosk's
        owner of the lexicon in use (station/lexicons.py) opens it and swaps it in; the
        link reports both SHA-256s (on disk, in use) and is told at once of a swap."""
        from samoobsluha.station.sync import lexicon_sha

        lexicons = app.lexicons
        if sync.lexicon_path != lexicons.current.path:  # `station run --lexicon FILE`
            sync.lexicon_path = lexicons.current.path
            sync.status.lexicon_sha256 = lexicon_sha(sync.lexicon_path)  # verified
        sync.lexicon_in_use = lambda: lexicons.in_use_sha256
        sync.lexicon_trust = lambda: lexicons.trust.value if lexicons.trust else None
        sync.rows_lost = lambda: app.rows_lost
        lexicons.add_listener(lambda _lexicon: sync.status_changed())
        lexicons.add_trust_listener(lambda _trust: sync.status_changed())  # the hub may resend
        sync.on("lexicon", lexicons.offer)

    def _attach_settings(self, sync: StationSync, app: KioskApp) -> None:
        """A hall configuration the hub publishes goes into use at the kiosk's next idle
        moment (station/settings.py owns the settings in use); the link reports which
        one is in use and is told at once of a change; the rehearsal reports the tables."""
        from samoobsluha.shared.checks import format_tables

        owner = app.settings_in_use
        sync.config_in_use = lambda: owner.in_use_version
        sync.on("config", owner.offer)

        def changed(_effective: Any) -> None:
            sync.status_changed()
            if self.rehearsal is not None:
                self.rehearsal.tables = format_tables(app.tables)

        owner.add_listener(changed)
        changed(None)

    def _open_bell_schedule(self) -> RoundSchedule:
        """The bell thread's own connection to the rounds (called on that thread)."""
        from samoobsluha.station.rounds import RoundSchedule

        gong = self.gong_config
        return RoundSchedule.open(
            self.db_path,
            clock=self.clock,
            tournament=self.net.tournament_id if self.net else tournament_of(self.cfg),
            grace=gong.grace,
            playout_display=gong.playout_display_minutes * 60,
        )

    def _attach_rehearsal(self, sync: StationSync, outputs: GongOutputs) -> None:
        """``hub rehearse``: the station's answers (station/rehearse.py); the kiosk asks
        for the keyboard test line when there is one."""
        from samoobsluha.station import rehearse

        keyboard = None
        if self.options.kiosk:
            from samoobsluha.station.screens.rehearse import ask

            keyboard = lambda text, wait, button: ask(self.app, text, wait, button)  # noqa: E731
        schedule = self.schedule

        def round_on() -> int | None:  # quiet during a round (station/rehearse.py)
            if schedule is None:
                return None
            return rehearse.round_in_play(schedule, self.clock.now())

        self.rehearsal = rehearse.attach(
            sync, outputs, self.cfg, self.db_path, keyboard, round_on=round_on
        )

    def _start_runner(self) -> None:
        if self.runner_started or self.bell is None:
            return
        self.runner_started = True
        self.bell.start()  # returns once its runner runs (opening the DB: milliseconds)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("station task failed", exc_info=task.exception())

    async def _serve(self) -> int:
        assert self._stop is not None
        if self.app is None:
            await self._stop.wait()
            return 0
        code = await self.app.run_async(headless=self.options.headless)
        return int(code or 0)

    async def _stop_tasks(self) -> None:
        if self.sync is not None:
            self.sync.stop()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._outputs_thread is not None:  # a build under way ends before they close
            await asyncio.to_thread(self._outputs_thread.join)
        if self.bell is not None and self.bell.running:
            # after the pattern being rung, if any; before the outputs close
            await asyncio.to_thread(self.bell.stop)

    def _close(self) -> None:
        if self.rehearsal is not None:
            self.rehearsal.close()
        if self.outputs is not None:
            self.outputs.close()  # off first (main), then released
        if self.app is not None:
            self.app.store.close()
        if self.schedule is not None:
            self.schedule.close()
        if self.sync is not None:
            self.sync.close()

    # -- the gong -----------------------------------------------------------------------
    async def ring(self, name: str) -> None:
        """Ring ``name`` on every output (what the button, the kiosk's gong test and the
        hub's "gong now" call), on the bell thread once it runs."""
        bell = self.bell
        if bell is not None and bell.running and threading.get_ident() != bell.ident:
            await bell.ring(name)
        else:
            await self._sound(name)

    async def _sound(self, name: str) -> None:
        """Sound ``name`` now (on the loop that calls it); reported to the hub's status
        and, with ``report_rings``, on stdout. Outputs not built yet are built now."""
        outputs = self.outputs or self._build_outputs()
        clock = self.clock
        hub, local = clock.now(), self.local_clock.now()
        task = asyncio.ensure_future(outputs.ring(name))
        event = {"signal": name, "hub_time": hub, "local_time": local, "synced": self.synced}
        if self.sync is not None:
            self.sync.note_signal(event)
        if self.options.report_rings:
            print(json.dumps({"event": "ring", **event}), flush=True)
        await task

    def _fired(self, fired: Fired) -> None:
        """A signal given or missed (called on the bell thread)."""
        sync, loop = self.sync, self._loop
        if sync is not None and loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                loop.call_soon_threadsafe(sync.nudge)  # the signal row goes to the hub now

    def _gong_now(self, name: str, at: float) -> None:
        """The hub rang a gong for ``at`` (hub time): ring then, once the clock is known;
        a gong that can only be rung more than the grace period late is dropped."""

        async def ring_at() -> None:
            await self._clock_known.wait()
            delay = at - self.clock.now()
            if delay < -self.gong_config.grace:
                log.warning("gong %s dropped: %.1f s late", name, -delay)
                return
            await asyncio.sleep(max(0.0, delay))
            await self.ring(name)

        self._spawn(ring_at())

    def _clock_changed(self, status: Any) -> None:
        # the lamp is steady only within the stated bound (clock_synced, ±10 ms); signals
        # may ring as soon as the hub's clock is known at all (clock_known)
        if self.outputs is not None and self.outputs.lamp is not None:
            self.outputs.lamp.show(synced=bool(status.clock_synced))
        if status.clock_known:
            self._clock_known.set()
            self._start_runner()

    def _plan_received(self, plan: Any) -> None:
        """The link stored a new plan in the schedule's table: re-plan now."""
        if self.schedule is not None:
            self.schedule.changed()

    def _show(self, kind: str, data: Any) -> None:
        if kind == "withdrawals" and self.app is not None:  # the hub's word: at idle
            self.app.withdrawals_changed()
        if kind == "pairings" and self.app is not None and isinstance(data, dict):
            from samoobsluha.station.log import pairings_divisions, pairings_rows

            if "tables" in data:
                round_no, rows = pairings_rows(data)
                self.app.store.replace_pairings(
                    round_no, rows, at=self.clock.now(), divisions=pairings_divisions(data)
                )

    # -- the kiosk ----------------------------------------------------------------------
    def _pinned_key(self) -> bytes | None:
        """The hub key the kiosk's lexicon must be signed with (shared/lextrust.py): the
        one pinned in the station's key file; ``b""`` when this station of a tournament
        cannot read it (it then judges nothing unless the referee accepts the lexicon);
        None for a standalone station, which pins none."""
        if self.net is None:
            return None
        if self.sync is not None:  # the key the link verifies the hub with, as loaded
            return self.sync.credentials.hub_public
        from samoobsluha.shared.protocol import HallKeys

        try:
            key = self.net.psk()
        except station_config.ConfigError as exc:
            log.error("no pinned hub key for the lexicon: %s", exc)
            return b""
        if isinstance(key, bytes):  # the hall secret itself (the hub's own demo kiosk)
            return HallKeys(key).public_key
        return key.hub_public

    def _build_kiosk(self) -> KioskApp:
        schedule = self.schedule
        assert schedule is not None
        sync = self.sync
        app = build_kiosk(
            self.cfg,
            lexicon=self.options.lexicon,
            lexicon_lang=self.options.lexicon_lang,
            clock=self.clock,
            db_path=self.db_path,
            station_id=self.net.station_id if self.net is not None else None,
            round_status=lambda: schedule.status(self.clock.now()),
            hub_status=(lambda: sync.status.connected) if sync is not None else None,
            gong_test=lambda: self.ring("start"),
            app_class=self.app_class,
            hub_public=self._pinned_key(),
        )
        if sync is not None:
            app.store.receipts = sync.receipt_key()
        return app


class _Sounding:
    """What the bell thread's runner rings: the runtime's outputs, reported."""

    def __init__(self, runtime: StationRuntime) -> None:
        self.runtime = runtime

    async def ring(self, name: str) -> None:
        await self.runtime._sound(name)


def build_kiosk(
    cfg: station_config.StationConfig,
    *,
    lexicon: Path | None = None,
    lexicon_lang: str = "cs",
    clock: Clock | None = None,
    db_path: Path | None = None,
    station_id: str | None = None,
    round_status: Callable[[], Any] | None = None,
    hub_status: Callable[[], Any] | None = None,
    gong_test: Callable[[], Any] | None = None,
    app_class: type | None = None,
    hub_public: bytes | None = None,
) -> KioskApp:
    """The kiosk app over the station database. ``station_id`` is the name the hub knows
    the station by (``[network] station_id``, else the station's name). ``hub_public``:
    the pinned hub key its lexicon must be signed with (None: the station pins none;
    shared/lextrust.py)."""
    from samoobsluha.shared.checks import KioskSettings
    from samoobsluha.shared.i18n import LANGUAGES
    from samoobsluha.shared.lexicon import ensure_default_lexicon
    from samoobsluha.station import outbox
    from samoobsluha.station.app import KioskApp
    from samoobsluha.station.lexicons import LexiconInUse, open_lexicon
    from samoobsluha.station.log import KioskStore
    from samoobsluha.station.settings import SettingsInUse, read_access, read_state

    section = cfg.section("kiosk")
    base = KioskSettings.from_section(section)  # a bad [kiosk] stops the start, as always
    lexicon_path = lexicon or cfg.lexicon
    if lexicon_path is None:
        lexicon_path = ensure_default_lexicon(
            lexicon_lang, log=lambda msg: print(msg, file=sys.stderr)
        )
    # Its content hash is checked in a thread the kiosk starts once its idle screen is
    # painted, at every start; the first lookup waits for it (a tampered or rotted file
    # never judges). station/lexicons.py owns the lexicon in use from here on.
    lex = open_lexicon(lexicon_path, verify="background", start_check=False)
    station_id = station_id or cfg.name
    store = KioskStore.open(db_path or station_config.station_db_path(), station_id)
    with store._lock:
        if outbox.meta(store.db, "station_id") != station_id:
            outbox.set_station_id(store.db, station_id)
        # the hall configuration the hub published last (offline too), the referee's
        # table range on this station: station/settings.py owns them from here on
        published, local = read_state(store.db)
        access = read_access(store.db)  # the referee's large print / spoken verdict
    # Whose word the lexicon is, decided after the first paint (shared/lextrust.py): the
    # pinned hub key and the SHA-256s the referee accepted on this station.
    lexicons = LexiconInUse(lex, hub_public=hub_public, accepted=store.accepted_lexicons())
    settings = SettingsInUse(
        base, set(section), published=published, local=local, access=access, file_path=cfg.path
    )
    lang = cfg.ui_language  # the [kiosk] ui_language (file or hall) wins in the app
    cls = app_class or KioskApp
    app: KioskApp = cls(
        lexicon=lex,
        lexicons=lexicons,
        store=store,
        settings_in_use=settings,
        station_name=cfg.name,
        ui_language=lang if lang in LANGUAGES else "cs",
        clock=clock or SystemClock(),
        round_status=round_status,
        hub_status=hub_status,
        gong_test=gong_test,
    )
    return app

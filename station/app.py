"""The station kiosk: the Textual app a player walks up to after a word challenge.

Screens live in :mod:`station.screens`; the rules (limits, PIN, table numbers) in
:mod:`shared.checks`; the records in :mod:`station.log`. The app itself owns what every
screen shares: the lexicon, the store, the settings, the clock, the current language, and
the worker threads that touch SQLite (the UI never waits on the disk).

The app cannot be quit from the keyboard: no inherited bindings (no Ctrl+Q, no Ctrl+C),
no command palette; only the hidden referee key plus the referee's PIN leads to "quit" —
and with no PIN provisioned, sent by the hub or set at the console, the key opens nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App
from textual.screen import Screen

from samoobsluha.shared.checks import (
    KioskSettings,
    RateDecision,
    boot_id,
    rate_decision,
)
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.i18n import LANGUAGES, t
from samoobsluha.shared.lexicon import Lexicon, LexiconError, Verdict
from samoobsluha.shared.normalize import Word
from samoobsluha.shared.rounds import Phase, RoundStatus
from samoobsluha.station import collector
from samoobsluha.station.lexicons import LexiconRefused
from samoobsluha.station.log import SETTING_PIN, CheckRecord, KioskStore
from samoobsluha.station.settings import SETTING_TABLES, Effective, SettingsInUse

if TYPE_CHECKING:
    from samoobsluha.station.lexicons import LexiconInUse

__all__ = ["SETTING_PIN", "SETTING_TABLES", "KioskApp"]

log = logging.getLogger(__name__)

RoundSource = Callable[[], RoundStatus | None]
HubSource = Callable[[], bool | None]

VERDICT_HOLD = "verdict"  # the collector's hold from F10 until the verdict is painted


def _release_render_caches() -> None:
    """Let the widgets of closed screens go. Textual memoises ``StylesCache.
    get_inner_outer`` with ``functools.lru_cache`` on an instance method, so up to 1,024
    discarded widgets' line caches (every Strip they drew) stay reachable (Textual issue
    #6665): each check's screens would add ~4,500 live objects and every full garbage
    collection would take longer. The cache holds two Style objects per colour pair;
    refilling it costs microseconds."""
    from textual._styles_cache import StylesCache

    clear = getattr(StylesCache.get_inner_outer, "cache_clear", None)
    if clear is not None:  # absent once Textual stops memoising it that way
        clear()


def _no_round() -> RoundStatus | None:
    return None


def _no_hub() -> bool | None:
    return None


class KioskApp(App[int], inherit_bindings=False):
    """The kiosk. ``round_status`` and ``hub_status`` are callables the station wires to
    its round schedule and network client; by default there is no round and no hub."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "Samoobsluha"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = []  # noqa: RUF012 - the referee key is bound per settings in __init__

    def __init__(
        self,
        *,
        lexicon: Lexicon,
        store: KioskStore,
        lexicons: LexiconInUse | None = None,
        settings: KioskSettings | None = None,
        settings_in_use: SettingsInUse | None = None,
        station_name: str = "",
        ui_language: str = "cs",
        clock: Clock | None = None,
        round_status: RoundSource | None = None,
        hub_status: HubSource | None = None,
        gong_test: Callable[[], Any] | None = None,
    ) -> None:
        super().__init__()
        from samoobsluha.station.lexicons import LexiconInUse

        # The lexicon's one owner (station/lexicons.py): the runtime's, when the station
        # can receive a pushed one; else one for this app alone.
        self.lexicons: LexiconInUse = lexicons or LexiconInUse(lexicon)
        self.store = store
        # The settings' one owner (station/settings.py): the file's [kiosk], the hall
        # configuration the hub published, the referee's table range on this station.
        # Read here, before the event loop runs (the UI thread never waits on SQLite
        # later); it replaces them only at an idle moment (idle_moment).
        if settings_in_use is None:
            from samoobsluha.station.settings import read_access, read_state

            with store._lock:
                published, local = read_state(store.db)
                access = read_access(store.db)
            settings_in_use = SettingsInUse(
                settings, published=published, local=local, access=access
            )
        self.settings_in_use = settings_in_use
        self.settings: KioskSettings = settings_in_use.settings
        self.tables = self.settings.tables
        settings_in_use.add_listener(self._settings_changed)
        self.station_name = station_name or store.station_id
        self.clock: Clock = clock or SystemClock()
        self.round_source: RoundSource = round_status or _no_round
        self.hub_source: HubSource = hub_status or _no_hub
        self.gong_test = gong_test
        self._station_language = ui_language  # [station] ui_language
        lang = self.settings.ui_language or ui_language
        self.default_language = lang if lang in LANGUAGES else "cs"
        self.lang = self.default_language
        # The PIN in force is looked up again at each press of the referee key (the hub
        # may have sent a new one); "" = none: the referee key then opens nothing.
        self.pin_hash = store.referee_pin(self.settings.referee_pin_hash, now=self.clock.now())
        self.boot = boot_id()  # the PIN lockout counts on this boot's monotonic clock
        # Confirmed rows the station's database lacks at start (its WAL lost: station/
        # log.py, the confirmed-rows counter); the idle screen says so for the referee.
        self.rows_lost = store.rows_lost
        # The hub's refusals of this station's withdrawals nobody has looked at yet
        # (station/log.py): the idle screen says so; read again at an idle moment after
        # the hub's word came (withdrawals_changed), and once at start.
        self.refusals: list[tuple[int, int]] = []
        self._refusals_stale = True
        self.last_activity = self.clock.monotonic()
        self.backlog = 0
        self.verdict_painted_at: float | None = None  # for bench/kiosk.py
        # Called once the idle screen is painted (the runtime builds the gong's outputs
        # then: station/runtime.py); never raises into the kiosk.
        self.after_first_paint: Callable[[], None] | None = None
        self._verdict_screen: Any = None  # VerdictScreen, prepared after the first paint
        self._filled_verdict: Any = None  # the prepared one, filled in during a commit
        self._prefilled: tuple[Any, ...] | None = None  # see prefill_verdict
        self._bindings.bind(self.settings.referee_key, "referee", show=False, priority=True)
        # The key gate (see _deliver_keys): keys not yet routed, the task routing them,
        # the screen known to be mounted and resumed, and a wait a screen change ends.
        self._keys: deque[events.Key] = deque()
        self._key_task: asyncio.Task[None] | None = None
        self._ready_screen: Screen[Any] | None = None
        self._key_wait: asyncio.Future[Any] | None = None

    # -- screens -------------------------------------------------------------------------
    def get_default_screen(self) -> Screen[Any]:
        from samoobsluha.station.screens.idle import IdleScreen

        return IdleScreen()

    def on_mount(self) -> None:
        self.set_class(self.settings.large_print, "-large-print")  # a class: no loading
        self.screen_change_signal.subscribe(self, self._screen_changed, immediate=True)
        self.set_interval(0.1, self._tick)
        self._refresh_backlog()
        self.call_after_refresh(self._started)

    def _started(self) -> None:
        """The idle screen is painted: prepare the verdict, then end start-up. Under
        `station run` the collector, held off since its first line, runs again from here,
        with what exists now frozen (it lives as long as the kiosk; never scanned again, a
        full collection walks only what checks create — milliseconds rather than the
        20–300 ms pauses, the GIL held, that would land on a verdict or a gong);
        station/startup.py."""
        from samoobsluha.station.startup import release_collector

        try:
            self.lexicons.current.start_check()  # its hash, kept off the way to this paint
            self._lexicon_trust_known()  # signed by the pinned hub key? (shared/lextrust.py)
            if self.after_first_paint is not None:
                try:
                    self.after_first_paint()
                except Exception:  # pragma: no cover - the runtime logs its own errors
                    log.exception("after the first paint")
            self.prepare_verdict()
        finally:
            release_collector()

    def prepare_verdict(self) -> None:
        """Compose and style the verdict screen once, off the stack, while the kiosk is
        idle: confirm → verdict then only fills it in and swaps it in (bench/kiosk.py).
        Uses Textual's own way of mounting a screen before it is first shown; if that
        ever fails, verdicts are built when needed, as any other screen."""
        from samoobsluha.station.screens.verdict import VerdictScreen

        if self._verdict_screen is not None or not self.is_running:
            return
        screen = VerdictScreen()
        try:
            self._get_screen(screen)  # registers it: compose and mount run now
            self._load_screen_css(screen)
        except Exception:  # pragma: no cover - a Textual change; not fatal
            log.exception("cannot prepare the verdict screen; building it per check")
            return
        self._verdict_screen = screen

    # -- keys: in order, to the screen that is there when their turn comes ---------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.last_activity = self.clock.monotonic()
            self._keys.append(event)
            if self._key_task is None or self._key_task.done():
                self._key_task = asyncio.create_task(self._deliver_keys())
            return
        await super().on_event(event)

    async def _deliver_keys(self) -> None:
        """The key gate. Textual hands a key to whatever has the focus the moment the key
        arrives and queues it there; a key typed while a screen is being pushed would go
        to a screen that is not mounted yet (no focused field: dropped) or to a field of
        the screen being left. Here each key waits until the key before it has been
        handled — by the focused widget and every parent it bubbled to, bindings
        included — and until the screen now current has mounted and resumed; only then is
        it routed, exactly as Textual routes it (priority bindings, then the focused
        widget or the screen). So „13⏎1⏎pes F10“ typed in one burst from the idle
        screen reaches the check form whole, whatever the machine's speed."""
        try:
            while self._keys and self.is_running:
                await self._until_screen_ready()
                if not self._keys or not self.is_running:
                    break
                event = self._keys.popleft()
                target = self.focused or self.screen
                try:
                    await super().on_event(event)
                except Exception as exc:  # as Textual does for a failing handler
                    self._handle_exception(exc)
                    return
                if event.is_forwarded:
                    try:
                        await self._until_handled(event, target)
                    except Exception:  # never let one key stop the keys after it
                        log.exception("key gate: waiting for %s failed", event.key)
        finally:
            if not self.is_running:
                self._keys.clear()

    async def keys_delivered(self) -> None:
        """Until every key typed so far has been routed and handled (Pilot tests)."""
        while self._key_task is not None and not self._key_task.done():
            await asyncio.wait((self._key_task,))

    def _screen_changed(self, _screen: Screen[Any]) -> None:
        waiting, self._key_wait = self._key_wait, None
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    async def _until_screen_ready(self) -> None:
        """Until the current screen has processed its mount and the resume Textual posted
        when it became current (its fields exist and one has the focus). A callback
        queued behind them on the screen's own queue says so."""
        loop = asyncio.get_running_loop()
        while self.is_running:
            if not self.screen_stack:  # before the first screen (start-up): soon there
                await asyncio.sleep(0.01)
                continue
            screen = self.screen
            if screen is self._ready_screen:
                return
            ready = loop.create_future()
            self._key_wait = ready  # a screen change wakes the wait: check again

            def resumed(screen: Screen[Any] = screen, ready: asyncio.Future[Any] = ready) -> None:
                if self.screen is screen:
                    self._ready_screen = screen
                if not ready.done():
                    ready.set_result(None)

            if not screen.call_later(resumed):
                return  # a screen closing: nothing will answer; route as Textual would
            await self._wait_on(ready, screen)

    async def _until_handled(self, event: events.Key, target: Any) -> None:
        """Until ``event`` has been handled by ``target`` and by each parent it bubbled
        to (one callback queued behind it on each queue, in turn, up to the app)."""
        loop = asyncio.get_running_loop()
        node = target
        while node is not None and self.is_running:
            done = loop.create_future()
            if not node.call_later(lambda done=done: done.done() or done.set_result(None)):
                return
            await self._wait_on(done, node)
            if event._stop_propagation or node is self:
                return
            node = node._parent

    @staticmethod
    async def _wait_on(future: asyncio.Future[Any], node: Any) -> None:
        """Wait for ``future``, or for ``node``'s message loop to end (a removed widget
        answers nothing)."""
        task = getattr(node, "_task", None)
        if task is None or task.done() or task is asyncio.current_task():
            await future
            return
        await asyncio.wait((future, task), return_when=asyncio.FIRST_COMPLETED)

    #: How often the outbox counter is re-read (the hub's acknowledgements arrive on the
    #: sync's own connection, so the count is read, not told).
    BACKLOG_EVERY = 2.0
    _backlog_read_at = float("-inf")

    def _tick(self) -> None:
        # Run on the screen's own message loop: a screen that closes itself from the
        # App's timer callback would wait on the App's busy queue.
        if not self.screen_stack or not self.is_running:
            return
        now = self.clock.monotonic()
        if now - self._backlog_read_at >= self.BACKLOG_EVERY:
            self._backlog_read_at = now
            self._refresh_backlog()
        screen = self.screen
        tick = getattr(screen, "tick", None)
        if tick is not None:
            screen.call_later(tick, self.clock.monotonic())

    def tr(self, key: str, /, **values: Any) -> str:
        return t(key, self.lang, **values)

    # -- the lexicon ---------------------------------------------------------------------
    @property
    def lexicon(self) -> Lexicon:
        """The lexicon in use. It changes only in :meth:`idle_moment`, so one check is
        judged, previewed and logged with one lexicon from its first key to its verdict."""
        return self.lexicons.current

    def lexicon_refused(self) -> bool:
        """The lexicon in use is decided and may not judge (the idle screen says so)."""
        trust = self.lexicons.trust
        return trust is not None and not trust.judges

    def _lexicon_trust_known(self) -> None:
        from samoobsluha.station.screens.idle import IdleScreen

        try:
            self.lexicons.check_trust()
        except Exception:  # pragma: no cover - decide() reads files and catches their errors
            log.exception("lexicon trust")
        if self.screen_stack and isinstance(self.screen, IdleScreen):
            self.screen.refresh_texts()

    def show_lexicon_refused(self) -> None:
        """The clear screen for a player at a lexicon the station may not judge with:
        no verdict, call the referee (who can accept it with the PIN)."""
        from samoobsluha.station.screens.verdict import ErrorScreen

        self.reset_to_idle()
        self.push_screen(ErrorScreen(self.tr("kiosk.lexicon.refused")))

    def accept_lexicon(self, done: Callable[[], None]) -> None:
        """The referee (PIN verified) accepts the lexicon in use: logged with the time
        and its SHA-256 (and sent to the hub) before it judges; ``done`` on the UI
        thread afterwards."""
        self._accept_lexicon(self.lexicons.current.info, done)

    @work(thread=True, exit_on_error=False, group="db")
    def _accept_lexicon(self, info: Any, done: Callable[[], None]) -> None:
        try:
            trust = self.lexicons.trust
            self.store.accept_lexicon(
                info, at=self.clock.now(), trust_before=trust.value if trust else ""
            )
        except Exception as exc:
            log.exception("could not log the lexicon acceptance")
            self.call_from_thread(self.storage_failed, exc)
            return
        self.call_from_thread(self._lexicon_accepted, info.sha256, done)

    def _lexicon_accepted(self, sha256: str, done: Callable[[], None]) -> None:
        self.lexicons.accept(sha256)
        done()

    def idle_moment(self) -> None:
        """The idle screen is current (no check under way): a lexicon pushed meanwhile
        goes into use now (station/lexicons.py), and so does a hall configuration the hub
        published meanwhile (station/settings.py)."""
        if self.lexicons.pending is not None and self.lexicons.take_pending() is not None:
            self._prefilled = None  # judged with the old one: never shown
        if self.settings_in_use.pending is not None:
            self.settings_in_use.take_pending()  # _settings_changed applies it
        if self._refusals_stale:  # the hub's word on a withdrawal came (or at start)
            self._refusals_stale = False
            refusals = self.store.unseen_refusals()
            if refusals != self.refusals:
                from samoobsluha.station.screens.idle import IdleScreen

                self.refusals = refusals
                if self.screen_stack and isinstance(self.screen, IdleScreen):
                    self.screen.refresh_texts()

    def withdrawals_changed(self) -> None:
        """The hub's word on this station's withdrawals came, or the players looked at a
        refused one: the idle screen reads them again at its next idle moment."""
        self._refusals_stale = True

    def _settings_changed(self, effective: Effective) -> None:
        """The owner changed the settings in use (at an idle moment, or the referee's
        table range): what every screen reads from now on."""
        from samoobsluha.station.screens.idle import IdleScreen

        self.settings = effective.settings
        self.tables = effective.settings.tables
        self._prefilled = None
        self.set_class(self.settings.large_print, "-large-print")
        lang = self.settings.ui_language or self._station_language
        lang = lang if lang in LANGUAGES else "cs"
        if lang != self.default_language:
            self.default_language = lang
            if self.screen_stack and isinstance(self.screen, IdleScreen):
                self.lang = lang  # idle: the next player finds the hall's language
        if self.is_running and self.screen_stack and isinstance(self.screen, IdleScreen):
            self.screen.refresh_texts()  # the tournament's name, the language

    def touch(self) -> None:
        """Restart the inactivity timer (a screen was just shown)."""
        self.last_activity = self.clock.monotonic()

    def reset_to_idle(self) -> None:
        """Back to the idle screen with nothing of the last flow left on screen, and the
        station's own language again (a visitor's language choice lasts one flow)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.lang = self.default_language  # the idle screen re-reads it when resumed
        collector.release(VERDICT_HOLD)  # whatever happened to the last verdict
        self._refresh_backlog()
        _release_render_caches()

    def action_referee(self) -> None:
        from samoobsluha.station.screens.referee import PinScreen, RefereeScreen

        if any(isinstance(s, PinScreen | RefereeScreen) for s in self.screen_stack):
            return
        self._look_up_pin()

    @work(thread=True, exclusive=True, exit_on_error=False, group="pin")
    def _look_up_pin(self) -> None:
        stored = self.store.referee_pin(self.settings.referee_pin_hash, now=self.clock.now())
        self.call_from_thread(self._open_referee, stored)

    def _open_referee(self, stored: str) -> None:
        """Without a PIN (none provisioned, none sent by the hub, none set with ``station
        pin set``) the referee key does nothing at all: no player can choose one."""
        from samoobsluha.station.screens.referee import PinScreen, RefereeScreen

        self.pin_hash = stored
        if not stored or any(isinstance(s, PinScreen | RefereeScreen) for s in self.screen_stack):
            return
        self.reset_to_idle()
        self.push_screen(PinScreen())

    # -- round and hub -------------------------------------------------------------------
    def round_status(self) -> RoundStatus | None:
        try:
            return self.round_source()
        except Exception:  # a broken source must not take the kiosk down
            log.exception("round status source failed")
            return None

    def round_number(self) -> int | None:
        """The round a check belongs to. Before a round starts, players still playing out
        the previous round are in round N-1."""
        status = self.round_status()
        if status is None or status.phase in (Phase.IDLE, Phase.CANCELLED):
            return None
        if status.phase is Phase.SCHEDULED:
            return status.number - 1 if status.number > 1 else None
        return status.number

    def hub_connected(self) -> bool | None:
        try:
            return self.hub_source()
        except Exception:
            log.exception("hub status source failed")
            return None

    # -- workers (SQLite off the UI thread) ----------------------------------------------
    @work(thread=True, exit_on_error=False, group="db")
    def _refresh_backlog(self) -> None:
        self.backlog = self.store.backlog()

    # The round sources (the station's RoundSchedule) belong to the UI thread: the round
    # is read there and handed to the workers.
    def check_rate(self, table_no: int, done: Callable[[int, RateDecision], None]) -> None:
        """Decide whether ``table_no`` may check now; a refusal is logged (and the referee
        requested) before ``done`` is called on the UI thread."""
        self._check_rate(table_no, self.round_number(), done)

    @work(thread=True, exit_on_error=False, group="db")
    def _check_rate(
        self, table_no: int, round_no: int | None, done: Callable[[int, RateDecision], None]
    ) -> None:
        now = self.clock.now()
        try:
            state = self.store.rate_states(
                table_no, round_no, now=now, cap_window=self.settings.cap_window
            )
            decision = rate_decision(self.settings, now=now, state=state)
            if not decision.allowed and decision.limit is not None:
                self.store.record_refusal(
                    table_no=table_no,
                    round_no=round_no,
                    reason=decision.limit.value,
                    at=now,
                    ui_language=self.lang,
                    lexicon=self.lexicon.info,
                )
        except Exception as exc:
            log.exception("rate check failed")
            self.call_from_thread(self.storage_failed, exc)
            return
        self.call_from_thread(done, table_no, decision)

    def judge_and_log(
        self,
        table_no: int,
        words: tuple[Word, ...],
        *,
        instance: str = "first",
        note: str = "",
    ) -> None:
        """Judge one play, commit its log row, and only then show the verdict.

        The judging itself takes microseconds and is done here, so the prepared verdict
        screen is filled in while the worker commits (an fsync); it is shown only once
        the commit is done."""
        from samoobsluha.station.screens.verdict import ErrorScreen

        # No garbage collection from here until the verdict is painted: a full one (tens
        # of ms on a Pi, more on a busy machine) was the tail of F10 → verdict; it runs
        # while the verdict is read instead (verdict_shown).
        collector.hold(VERDICT_HOLD)
        round_no = self.round_number()
        prefilled, self._prefilled = self._prefilled, None
        if (
            prefilled is not None
            and prefilled[:4] == (table_no, words, round_no, instance)
            and prefilled[5] is self._verdict_screen
            and prefilled[5].verdict is prefilled[4]
        ):
            # Judged and filled in when the last word was entered: only commit and show.
            verdict, screen = prefilled[4], prefilled[5]
            self._verdict_screen = None
            self._log_check(table_no, verdict, round_no, instance, note)
            self._filled_verdict = screen
            return
        try:
            verdict = self.lexicons.judge(words)
        except LexiconRefused:  # not signed by the hub, nor accepted by the referee
            collector.release(VERDICT_HOLD)
            self.show_lexicon_refused()
            return
        except LexiconError as exc:  # its content hash failed: it judges nothing
            log.error("%s", exc)
            collector.release(VERDICT_HOLD)
            from samoobsluha.shared.i18n import reason

            self.push_screen(ErrorScreen(self.tr("lexicon.unusable", error=reason(exc))))
            return
        # The commit (an fsync) starts first; the screen is filled in meanwhile.
        # (A thread worker starts at the loop's next step: the filling waits for it.)
        self._log_check(table_no, verdict, round_no, instance, note)
        screen = self._verdict_screen
        self._verdict_screen = None  # one use: the next is prepared while it is read
        if screen is not None:
            self.call_later(self._fill_verdict, screen, verdict, table_no, round_no, instance)

    def prefill_verdict(self, table_no: int, words: tuple[Word, ...]) -> None:
        """The player has entered every word (the opponent is about to confirm): judge
        them and fill in the prepared verdict screen now, off the screen, so that
        confirming only commits and swaps it in. Nothing is shown or logged here; a
        changed word or table makes :meth:`judge_and_log` judge again."""
        screen = self._verdict_screen
        if screen is None or not screen.is_mounted or screen in self.screen_stack:
            return
        round_no = self.round_number()
        try:
            verdict = self.lexicons.judge(words)
            screen.show(verdict, table_no, round_no)
        except Exception as exc:  # a failed hash is reported at confirm, not here
            log.debug("verdict not prefilled: %s", exc)
            return
        # The screen stays the prepared one: a changed play fills it in again.
        self._prefilled = (table_no, words, round_no, "first", verdict, screen)

    def _fill_verdict(
        self, screen: Any, verdict: Verdict, table_no: int, round_no: int | None, instance: str
    ) -> None:
        try:
            if not screen.is_mounted or screen in self.screen_stack:
                raise LookupError("not ready")
            screen.show(verdict, table_no, round_no, appeal=instance == "appeal")
        except Exception as exc:
            log.warning("prepared verdict screen unusable (%s); building one", exc)
        else:
            self._filled_verdict = screen

    @work(thread=True, exit_on_error=False, group="db")
    def _log_check(
        self,
        table_no: int,
        verdict: Verdict,
        round_no: int | None,
        instance: str,
        note: str,
    ) -> None:
        try:
            record = self.store.record_check(
                verdict,
                self.lexicon.info,
                table_no=table_no,
                round_no=round_no,
                at=self.clock.now(),
                ui_language=self.lang,
                instance=instance,
                note=note,
            )
        except Exception as exc:
            log.exception("could not log the check")
            self.call_from_thread(self.storage_failed, exc)
            return
        self.call_from_thread(self.show_verdict, verdict, record, instance)

    # -- results of workers (UI thread) --------------------------------------------------
    def show_verdict(self, verdict: Verdict, record: CheckRecord, instance: str) -> None:
        """Show a committed check: the screen filled in beforehand, or a new one."""
        from samoobsluha.station.screens.verdict import VerdictScreen

        screen, self._filled_verdict = self._filled_verdict, None
        if screen is not None and screen.verdict is verdict and screen not in self.screen_stack:
            screen.set_record(record)
        else:
            screen = VerdictScreen(verdict, record, appeal=instance == "appeal")
        # Pushed on top (not switched): unmounting the check screen is left for the
        # return to idle, off the key-to-verdict path. It is hidden meanwhile.
        self.push_screen(screen)
        self._refresh_backlog()

    #: Seconds after a verdict is painted when the full collection runs: its bytes are on
    #: their way to the terminal (Textual's writer thread needs the GIL the collection
    #: holds), and the verdict still ignores keys (``verdict_lock``, 0.5 s by default).
    COLLECT_AFTER_VERDICT = 0.2

    def verdict_shown(self, status: str = "", table_no: int | None = None) -> None:
        """A verdict is on the screen: the collector may run again, and a full collection
        runs a moment later, while the verdict is read, rather than during a later check.
        With the spoken verdict on, it is said now (after the paint, never before)."""
        self.verdict_painted_at = self.clock.monotonic()
        if status and self.settings.speak_verdict:
            self.speak(status, table_no)
        if collector.release(VERDICT_HOLD):
            self.set_timer(self.COLLECT_AFTER_VERDICT, collector.collect)

    def speak(self, status: str, table_no: int | None) -> None:
        """Say the verdict (its status and the table, never a word) in the kiosk's
        language through espeak-ng (station/speech.py); returns at once."""
        from samoobsluha.station import speech

        key = "speech.no_table" if table_no is None else "speech.table"
        text = self.tr(key, table=table_no, verdict=self.tr(f"speech.{status}"))
        speech.say(text, self.lang)

    def show_refusal(self, table_no: int, decision: RateDecision) -> None:
        from samoobsluha.station.screens.verdict import RefusedScreen

        self.switch_screen(RefusedScreen(table_no, decision))
        self._refresh_backlog()

    def storage_failed(self, exc: BaseException) -> None:
        from samoobsluha.station.screens.verdict import ErrorScreen

        collector.release(VERDICT_HOLD)  # no verdict will be painted
        self.push_screen(ErrorScreen(self.tr("kiosk.error.storage", error=str(exc))))

"""The referee's side of the kiosk, behind the hidden key and the PIN.

PIN screen: wrong PINs are counted in the station database (pulling the plug does not
reset them); each wrong PIN delays the next try, and after ``pin_free_attempts`` the prompt
locks for ``pin_lockout`` seconds, doubling with each further wrong PIN (at most an hour),
timed on the monotonic clock (see :class:`shared.checks.PinLock`). With no PIN at all the
hidden key opens nothing (see :meth:`KioskApp._open_referee`).

Referee screen: appeal (re-check a play as the second instance, logged as such, with the
failed words shown to the referee), this station's recent log, the table range, a gong
test, result correction, a new PIN, and quitting the kiosk (both confirmed first)."""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import time
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, OptionList
from textual.widgets.option_list import Option

from samoobsluha.shared.checks import (
    PinGate,
    PinLock,
    StepError,
    TablesError,
    format_tables,
    parse_tables,
    pin_gate,
    validate_table,
)
from samoobsluha.shared.i18n import MESSAGES, refusal
from samoobsluha.shared.normalize import WordRefused, normalize_words
from samoobsluha.shared.pin import (
    PIN_MAX_LENGTH,
    PIN_MIN_LENGTH,
    PinError,
    PinHashState,
    check_new_pin,
    hash_pin,
    pin_hash_state,
    verify_pin,
)
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.settings import SETTING_TABLES, SETTING_TABLES_AT
from samoobsluha.station.widgets.word_input import FlowInput


class RefereeArea(KioskScreen):
    """Referee screens time out after ``referee_idle_seconds`` (a referee called away must
    not leave the station open)."""

    BINDINGS = [Binding("escape", "leave", show=False)]  # noqa: RUF012

    def inactivity_limit(self) -> float | None:
        return self.kiosk.settings.referee_idle_seconds

    def action_leave(self) -> None:
        self.app.pop_screen()


class PinScreen(KioskScreen):
    """Enter the PIN (``mode="enter"``), or choose a new one (``"change"``, from the
    referee screen: typed twice, then confirmed). There is no "choose a first PIN" here:
    a station without a PIN never shows this screen (no player can set one)."""

    BINDINGS = [Binding("escape", "leave", show=False)]  # noqa: RUF012

    def __init__(self, mode: str = "enter") -> None:
        super().__init__()
        self.mode = mode
        self.first_pin = ""
        self.gate = PinGate(True)
        self.pin_lock: PinLock | None = None  # loaded by a worker

    def compose(self) -> ComposeResult:
        with Vertical(id="pin-box"):
            yield Label("", id="pin-title")
            yield Label("", id="pin-prompt")
            yield FlowInput(id="pin", password=True, max_length=PIN_MAX_LENGTH)
            yield Label("", id="pin-message")

    def on_mount(self) -> None:
        self.query_one("#pin-title", Label).update(literal(self.tr("kiosk.pin.title")))
        if self.mode == "enter":
            self._prompt("kiosk.pin.prompt")
            self.query_one("#pin", Input).disabled = True
            if pin_hash_state(self.kiosk.pin_hash) is not PinHashState.OK:
                # made under the old policy (or not a hash at all): it verifies nothing,
                # so no try is offered — the referee sets a new PIN (docs/kiosk.md)
                self._message(self.tr("kiosk.pin.outdated"))
                return
            self._load_gate()
        else:
            self._prompt("kiosk.pin.new")
        self.query_one("#pin", Input).focus()

    def _prompt(self, key: str, **values: Any) -> None:
        self.query_one("#pin-prompt", Label).update(
            literal(self.tr(key, min=PIN_MIN_LENGTH, **values))
        )

    def _message(self, text: str) -> None:
        self.query_one("#pin-message", Label).update(literal(text))

    def action_leave(self) -> None:
        if self.mode == "change":
            self.app.pop_screen()
        else:
            self.kiosk.reset_to_idle()

    # -- the gate (on this boot's monotonic clock; see checks.PinLock) ---------------------
    @work(thread=True, exit_on_error=False, group="db")
    def _load_gate(self) -> None:
        lock = self.kiosk.store.pin_lock(self.kiosk.boot, self.kiosk.clock.monotonic())
        self.app.call_from_thread(self._gate_loaded, lock)

    def _gate_loaded(self, lock: PinLock) -> None:
        self.pin_lock = lock
        self._apply_gate()

    def _apply_gate(self) -> None:
        if self.mode != "enter" or self.pin_lock is None:
            return
        kiosk = self.kiosk
        self.gate = pin_gate(
            kiosk.settings, self.pin_lock, boot=kiosk.boot, mono=kiosk.clock.monotonic()
        )
        field = self.query_one("#pin", Input)
        failures = self.pin_lock.failures
        if self.gate.open:
            if field.disabled:
                field.disabled = False
                field.focus()
                if failures:
                    self._message(self.tr("kiosk.pin.wrong", n=failures))
        else:
            field.disabled = True
            key = "kiosk.pin.locked" if self.gate.locked_out else "kiosk.pin.wait"
            self._message(self.tr(key, n=failures, s=max(1, round(self.gate.wait))))

    def tick(self, now: float) -> None:
        super().tick(now)
        if self.is_current:
            self._apply_gate()

    # -- typing ----------------------------------------------------------------------------
    def flow_enter(self, field: Input) -> None:
        pin = field.value
        field.value = ""
        if self.mode == "enter":
            if self.pin_lock is None or not self.gate.open:
                return
            field.disabled = True
            self._verify(pin)
            return
        # choosing a new PIN: twice, the same, then confirmed
        if not self.first_pin:
            try:
                check_new_pin(pin)
            except PinError:
                self._message(self.tr("kiosk.pin.too_short", min=PIN_MIN_LENGTH))
                return
            self.first_pin = pin
            self._message("")
            self._prompt("kiosk.pin.repeat")
            return
        if pin != self.first_pin:
            self.first_pin = ""
            self._message(self.tr("kiosk.pin.mismatch"))
            self._prompt("kiosk.pin.new")
            return
        field.disabled = True

        def answered(yes: bool | None) -> None:
            if yes:
                self._save(pin)
            else:
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen("kiosk.confirm.pin"), answered)

    @work(thread=True, exit_on_error=False, group="db")
    def _verify(self, pin: str) -> None:
        kiosk = self.kiosk
        store = kiosk.store
        mono = kiosk.clock.monotonic()
        lock = store.pin_lock(kiosk.boot, mono)
        if not pin_gate(kiosk.settings, lock, boot=kiosk.boot, mono=mono).open:
            self.app.call_from_thread(self._gate_loaded, lock)
            return
        ok = verify_pin(pin, kiosk.pin_hash)
        lock = PinLock() if ok else lock.failed(kiosk.settings, kiosk.boot, mono)
        store.record_pin_attempt(ok, kiosk.clock.now(), lock=lock)
        self.app.call_from_thread(self._verified, ok, lock)

    def _verified(self, ok: bool, lock: PinLock) -> None:
        if ok:
            if self.mode == "enter" and self.kiosk.lexicon_refused():
                self._offer_lexicon()
                return
            self.app.switch_screen(RefereeScreen())
            return
        self.pin_lock = lock
        self.query_one("#pin", Input).disabled = True
        self._apply_gate()
        if self.gate.open:
            self._message(self.tr("kiosk.pin.wrong", n=lock.failures))

    def _offer_lexicon(self) -> None:
        """The PIN is right and the lexicon in use is refused (not signed by the hub this
        station pins): the referee may accept this very file (its SHA-256) here. The
        acceptance is logged and sent to the hub before the kiosk judges with it."""
        info = self.kiosk.lexicons.current.info

        def to_referee() -> None:
            if self in self.app.screen_stack:
                self.app.switch_screen(RefereeScreen(self.tr("kiosk.lexicon.accepted")))

        def answered(yes: bool | None) -> None:
            if yes:
                self.kiosk.accept_lexicon(to_referee)
            else:
                self.app.switch_screen(RefereeScreen())

        question = ConfirmScreen(
            "kiosk.lexicon.accept",
            sha=info.sha256[:16],
            language=info.language,
            variant=info.variant,
            words=info.words,
        )
        self.app.push_screen(question, answered)

    @work(thread=True, exit_on_error=False, group="db")
    def _save(self, pin: str) -> None:
        stored = hash_pin(pin)
        self.kiosk.store.set_referee_pin(stored, self.kiosk.clock.now())
        self.app.call_from_thread(self._saved, stored)

    def _saved(self, stored: str) -> None:
        self.kiosk.pin_hash = stored
        self.app.pop_screen()
        self.app.notify(self.tr("kiosk.pin.changed"), markup=False)


class ConfirmScreen(RefereeArea):
    """„Opravdu?“ before the referee quits the kiosk or changes the PIN: A (ano) or Y
    confirms; Esc, N or anything else does not."""

    BINDINGS = [Binding("escape", "no", show=False)]  # noqa: RUF012

    def __init__(self, question_key: str, **values: Any) -> None:
        super().__init__()
        self.question_key = question_key
        self.values = values

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Label("", id="confirm-question")
            yield Label("", id="confirm-hint")

    def on_mount(self) -> None:
        self.query_one("#confirm-question", Label).update(
            literal(self.tr(self.question_key, **self.values))
        )
        self.query_one("#confirm-hint", Label).update(literal(self.tr("kiosk.confirm.hint")))

    def on_key(self, event: Any) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss((event.character or "").lower() in ("a", "y", "t"))  # ano, yes, tak

    def action_no(self) -> None:
        self.dismiss(False)

    def timed_out(self) -> None:
        self.dismiss(False)


MENU = ("appeal", "log", "tables", "gong", "result", "pin", "quit", "large_print", "speech")
#: menu item -> the setting it switches on this kiosk (station/settings.py ACCESS_KEYS)
ACCESS_ITEMS = {"large_print": "large_print", "speech": "speak_verdict"}


class RefereeScreen(RefereeArea):
    def __init__(self, message: str = "") -> None:
        super().__init__()
        self.first_message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="referee-box"):
            yield Label("", id="referee-title")
            yield OptionList(id="referee-menu")
            yield Label("", id="referee-message")

    def on_mount(self) -> None:
        self.query_one("#referee-title", Label).update(
            literal(self.tr("kiosk.referee.title", station=self.kiosk.station_name))
        )
        menu = self.query_one("#referee-menu", OptionList)
        for n, item in enumerate(MENU, start=1):
            menu.add_option(Option(literal(f"{n}  {self.tr(f'kiosk.referee.{item}')}"), id=item))
        menu.highlighted = 0
        menu.focus()
        if self.first_message:
            self._message(self.first_message)

    def on_key(self, event: Any) -> None:
        if event.character and event.character.isdigit():
            n = int(event.character)
            if 1 <= n <= len(MENU):
                event.stop()
                self._choose(MENU[n - 1])

    def action_leave(self) -> None:
        self.kiosk.reset_to_idle()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option.id or "")

    def _choose(self, item: str) -> None:
        if item == "appeal":
            self.app.push_screen(AppealScreen())
        elif item == "log":
            self.app.push_screen(LogScreen())
        elif item == "tables":
            self.app.push_screen(TablesScreen())
        elif item == "gong":
            self._message(self.tr("kiosk.referee.gong_ringing"))
            self._ring()
        elif item == "result":
            from samoobsluha.station.screens.result import ResultScreen

            self.app.push_screen(ResultScreen(by_referee=True))
        elif item == "pin":
            self.app.push_screen(PinScreen("change"))
        elif item in ACCESS_ITEMS:
            key = ACCESS_ITEMS[item]
            self._switch(key, not getattr(self.kiosk.settings, key))
        elif item == "quit":

            def answered(yes: bool | None) -> None:
                if yes:
                    self.app.exit(0)

            self.app.push_screen(ConfirmScreen("kiosk.confirm.quit"), answered)

    def _message(self, text: str) -> None:
        self.query_one("#referee-message", Label).update(literal(text))

    @work(thread=True, exit_on_error=False, group="db")
    def _switch(self, key: str, on: bool) -> None:
        """Large print or the spoken verdict for this kiosk: stored, then in use at once."""
        self.kiosk.store.set_setting(key, "1" if on else "0")
        self.app.call_from_thread(self._switched, key, on)

    def _switched(self, key: str, on: bool) -> None:
        self.kiosk.settings_in_use.set_access(key, on)
        self._message(self.tr(f"kiosk.access.{key}.{'on' if on else 'off'}"))

    @work(exclusive=True, exit_on_error=False, group="gong")
    async def _ring(self) -> None:
        """The injected gong: a plain callable (run in a thread) or one returning an
        awaitable, e.g. ``lambda: gong.ring("start")`` (awaited on the UI loop)."""
        gong = self.kiosk.gong_test
        if gong is None:
            self.app.bell()
            self._message(self.tr("kiosk.referee.gong_none"))
            return
        try:
            if inspect.iscoroutinefunction(gong):
                await gong()
            else:
                result = await asyncio.to_thread(gong)
                if inspect.isawaitable(result):
                    await result
        except Exception as exc:
            self._message(self.tr("kiosk.referee.gong_failed", error=str(exc)))
            return
        self._message(self.tr("kiosk.referee.gong_done"))


class AppealScreen(RefereeArea):
    """Second instance (ČAS 9.5): the referee re-checks a play; no rate limit; the log row
    says "appeal" and the verdict shows which words failed."""

    def compose(self) -> ComposeResult:
        with Vertical(id="appeal-box"):
            yield Label("", id="appeal-title")
            with Horizontal(classes="field"):
                yield Label("", id="appeal-table-label", classes="prompt")
                yield FlowInput(id="appeal-table", restrict=r"[0-9]*", max_length=4)
            with Horizontal(classes="field"):
                yield Label("", id="appeal-words-label", classes="prompt")
                yield FlowInput(id="appeal-words", max_length=200)
            yield Label("", id="appeal-error")
            yield Label("", id="appeal-hint")

    def on_mount(self) -> None:
        self.query_one("#appeal-title", Label).update(literal(self.tr("kiosk.appeal.title")))
        self.query_one("#appeal-table-label", Label).update(
            literal(self.tr("kiosk.check.table_prompt"))
        )
        self.query_one("#appeal-words-label", Label).update(literal(self.tr("kiosk.appeal.words")))
        self.query_one("#appeal-hint", Label).update(literal(self.tr("kiosk.appeal.hint")))
        self.set_focus(self.query_one("#appeal-table", Input))

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        for field in self.query(Input):
            field.value = ""
            field.disabled = False
        self.query_one("#appeal-table", Input).focus()

    def flow_enter(self, widget: Input) -> None:
        if widget.id == "appeal-table":
            self.set_focus(self.query_one("#appeal-words", Input))
        else:
            self._words()

    def _words(self) -> None:
        error = self.query_one("#appeal-error", Label)
        try:
            table_no = validate_table(
                self.query_one("#appeal-table", Input).value, self.kiosk.tables
            )
        except StepError as exc:
            error.update(literal("! " + self.tr(f"kiosk.error.{exc.problem.value}", **exc.values)))
            self.query_one("#appeal-table", Input).focus()
            return
        try:
            words = normalize_words(
                self.query_one("#appeal-words", Input).value, self.kiosk.lexicon.alphabet
            )
        except WordRefused as exc:
            error.update(literal("! " + refusal(exc, self.kiosk.lang)))
            return
        error.update("")
        for field in self.query(Input):
            field.disabled = True
        self.kiosk.judge_and_log(table_no, tuple(words), instance="appeal")


class LogScreen(RefereeArea):
    def compose(self) -> ComposeResult:
        yield Label("", id="log-title")
        yield DataTable(id="log-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#log-title", Label).update(literal(self.tr("kiosk.log.title")))
        table = self.query_one("#log-table", DataTable)
        for key in ("time", "table", "round", "words", "verdict", "failed", "note"):
            table.add_column(literal(self.tr(f"kiosk.log.{key}")))
        table.focus()
        self._load()

    @work(thread=True, exit_on_error=False, group="db")
    def _load(self) -> None:
        rows = self.kiosk.store.recent(100)
        self.app.call_from_thread(self._fill, rows)

    def _fill(self, rows: list[dict[str, Any]]) -> None:
        table = self.query_one("#log-table", DataTable)
        if not rows:
            self.query_one("#log-title", Label).update(literal(self.tr("kiosk.log.empty")))
        for row in rows:
            when = dt.datetime.fromtimestamp(row["at"]).strftime("%H:%M:%S")
            reason = row["refused_reason"] or ""
            note = (
                self.tr(f"dash.reason.{reason}") if f"dash.reason.{reason}" in MESSAGES else reason
            )
            if row["instance"] == "appeal":
                note = self.tr("kiosk.log.appeal")
            table.add_row(
                literal(when),
                literal(str(row["table_no"])),
                literal("—" if row["round_no"] is None else str(row["round_no"])),
                literal(" ".join(row["words"])),
                literal(self.tr(f"kiosk.log.status_{row['status']}")),
                literal(" ".join(w.upper() for w in row["failed"])),
                literal(note),
            )


class TablesScreen(RefereeArea):
    def compose(self) -> ComposeResult:
        with Vertical(id="tables-box"):
            yield Label("", id="tables-title")
            yield Input(id="tables-input", max_length=200)
            yield Label("", id="tables-error")

    def on_mount(self) -> None:
        self.query_one("#tables-title", Label).update(literal(self.tr("kiosk.tables.prompt")))
        field = self.query_one("#tables-input", Input)
        field.value = format_tables(self.kiosk.tables)
        field.focus()

    @on(Input.Submitted, "#tables-input")
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            tables = parse_tables(event.value)
        except TablesError as exc:
            message = self.tr(exc.key, **exc.values)
            self.query_one("#tables-error", Label).update(literal(f"! {message}"))
            return
        event.input.disabled = True
        self._save(tables)

    @work(thread=True, exit_on_error=False, group="db")
    def _save(self, tables: frozenset[int]) -> None:
        # the range, then when it was set: the newer of it and the hall configuration's
        # tables wins (station/settings.py); cut off in between, the hall's wins
        at = time.time()
        self.kiosk.store.set_setting(SETTING_TABLES, format_tables(tables))
        self.kiosk.store.set_setting(SETTING_TABLES_AT, repr(at))
        self.app.call_from_thread(self._saved, tables, at)

    def _saved(self, tables: frozenset[int], at: float) -> None:
        self.kiosk.settings_in_use.set_local_tables(tables, at)  # kiosk.tables with it
        self.app.pop_screen()
        self.app.notify(self.tr("kiosk.tables.saved", range=format_tables(tables)), markup=False)

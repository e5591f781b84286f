"""Round control: start round N now or at its scheduled time, the countdown and phase,
manual gong, delay, add minutes, pause/resume, cancel — each pushed to every station and
confirmed per station — and the day's timetable (the SSS model: 9 rounds, breaks).

The *Kolo* field follows the tournament: the round under way, else the last paired one; a
number the operator typed stays until the tournament moves on. Starting again (or at
another time) a round that has begun or has results asks first, naming its state, and
goes ahead only when the operator types the round's number (the dashboard's ``--force``:
:class:`~hub.screens.typed.TypedConfirm`); a round never started starts at once. ``x``
(add minutes) and ``d`` (delay) ask how many minutes (5 unless typed otherwise); a round
that has begun is never delayed (its start signal has been given: start it again
instead). A round that has been played is never cancelled (the hub refuses it as
well). Escape leaves a field; the shortcut keys work again."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Input, Label

from samoobsluha.hub.officiating import Slot, today_at
from samoobsluha.hub.screens.base import DashScreen, fill_table, int_or_none
from samoobsluha.hub.screens.typed import MinutesDialog, TypedConfirm
from samoobsluha.hub.service import RoundGuard, RoundRow, ServiceError
from samoobsluha.shared.countdown import countdown
from samoobsluha.shared.i18n import error_text
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.shared.textsafe import literal


@dataclass
class RoundsData:
    rounds: list[RoundRow]
    schedule: list[Slot]
    current: int
    gong: dict[str, Any] | None = None  # confirmations of the last manual gong


ROUND_COLUMNS = ("round", "phase", "start", "end", "left", "confirmed")
PHASES = ("idle", "scheduled", "running", "warning", "ended", "cancelled")


class RoundsScreen(DashScreen):
    TITLE_KEY = "dash.tab.rounds"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "dash.act.start"),
        Binding("t", "start_scheduled", "dash.act.start_at"),
        Binding("g", "gong", "dash.act.gong"),
        Binding("d", "delay", "dash.act.delay"),
        Binding("x", "extend", "dash.act.extend"),
        Binding("p", "pause", "dash.act.pause"),
        Binding("c", "cancel", "dash.act.cancel"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: RoundsData | None = None
        self._cancel_armed: tuple[int, float] | None = None
        self.gong_item: str | None = None
        self._suggested: int | None = None  # the round the field last followed

    def compose_body(self) -> ComposeResult:
        yield Label("", id="round-big")
        with Horizontal(id="round-controls"):
            yield Label(literal(self.tr("dash.rounds.round")), classes="prompt")
            yield Input(id="round-no", restrict=r"[0-9]*", max_length=3)
            yield Label(literal(self.tr("dash.rounds.at")), classes="prompt")
            yield Input(id="at", placeholder="HH:MM", restrict=r"[0-9:]*", max_length=5)
        with Horizontal(id="round-buttons"):
            for action, key in (
                ("start", "dash.act.start"),
                ("start_scheduled", "dash.act.start_at"),
                ("gong", "dash.act.gong"),
                ("delay", "dash.act.delay"),
                ("extend", "dash.act.extend"),
                ("pause", "dash.act.pause"),
                ("cancel", "dash.act.cancel"),
            ):
                yield Button(literal(self.tr(key)), id=f"btn-{action}", compact=True)
        yield Label("", id="deliveries")
        with Horizontal(id="round-tables"):
            with Vertical():
                yield DataTable(id="rounds", cursor_type="row", zebra_stripes=True)
            with Vertical():
                yield DataTable(id="schedule", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#rounds", DataTable).focus()

    def fetch(self) -> RoundsData:
        gong = self.service.deliveries(self.gong_item) if self.gong_item else None
        return RoundsData(
            self.service.rounds(), self.service.schedule(), self.service.current_round(), gong
        )

    def show(self, data: RoundsData) -> None:
        self.data = data
        self._follow(data)
        phases = [self.tr(f"dash.phase.{p}") for p in PHASES]
        longest_phase = max(len(p) for p in phases)  # the tick moves through them
        fill_table(
            self.query_one("#rounds", DataTable),
            [(key, self.tr(f"dash.col.{key}")) for key in ROUND_COLUMNS],
            [
                [
                    str(r.number),
                    self._phase(r),
                    _hm(r.start_at),
                    _hm(r.end_at),
                    countdown(self._remaining(r)),
                    f"{len(r.confirmed)}/{len(r.confirmed) + len(r.unconfirmed)}",
                ]
                for r in data.rounds
            ],
            keys=[str(r.number) for r in data.rounds],
            min_widths={"phase": longest_phase, "left": 7},  # the tick rewrites these
        )
        fill_table(
            self.query_one("#schedule", DataTable),
            [(key, self.tr(f"dash.col.{key}")) for key in ("what", "start", "end")],
            [
                [
                    self.tr("dash.round", n=slot.round_no)
                    if slot.is_round
                    else self.tr(f"dash.schedule.{slot.label}"),
                    slot.start.strftime("%H:%M"),
                    slot.end.strftime("%H:%M"),
                ]
                for slot in data.schedule
            ],
        )
        self._show_deliveries()

    def _follow(self, data: RoundsData) -> None:
        """Point the *Kolo* field at the tournament's round: the last planned round still
        to be played or under way, else the last paired round. Typed numbers stay until
        that suggestion changes (round 1 ended and round 2 was paired: the field says 2)."""
        active = [
            r.number
            for r in data.rounds
            if self._phase_now(r) not in ("ended", "cancelled") and r.number >= data.current
        ]
        suggested = max(active) if active else max(data.current, 1)
        if suggested == self._suggested:
            return
        field = self.query_one("#round-no", Input)
        if field.value and self._suggested is not None and field.value != str(suggested):
            self.say(self.tr("dash.rounds.followed", n=suggested))
        self._suggested = suggested
        field.value = str(suggested)

    def _show_deliveries(self) -> None:
        row = self._selected_round()
        label = self.query_one("#deliveries", Label)
        if row is None:
            label.update("")
            return
        waiting = ", ".join(row.unconfirmed) or "—"
        done = ", ".join(row.confirmed) or "—"
        text = (
            f"{self.tr('dash.round', n=row.number)} (rev. {row.revision}): "
            f"{self.tr('dash.col.confirmed')}: {done}  ·  ✗ {waiting}"
        )
        if self.data is not None and self.data.gong is not None:
            rang = ", ".join(sorted(s for s, d in self.data.gong.items() if d["ok"])) or "—"
            text += f"\n{self.tr('dash.act.gong')}: {self.tr('dash.col.confirmed')}: {rang}"
        label.update(literal(text))

    def _phase(self, r: RoundRow) -> str:
        text = self.tr(f"dash.phase.{self._phase_now(r)}")
        return f"{text} · {self.tr('dash.paused')}" if r.paused else text

    def _phase_now(self, r: RoundRow) -> str:
        if r.phase == "cancelled" or r.paused:
            return r.phase
        now = self.service.clock.now()
        if now < r.start_at:
            return "scheduled"
        if now >= r.end_at:
            return "ended"
        return "warning" if r.end_at - now <= r.warning_seconds else "running"

    def _remaining(self, r: RoundRow) -> float:
        if r.paused or r.phase == "cancelled":
            return r.remaining
        now = self.service.clock.now()
        return r.start_at - now if now < r.start_at else max(0.0, r.end_at - now)

    def _selected_round(self) -> RoundRow | None:
        if self.data is None:
            return None
        number = int_or_none(self.query_one("#round-no", Input).value)
        for r in self.data.rounds:
            if r.number == number:
                return r
        return None

    def tick(self) -> None:
        super().tick()
        if not self.is_mounted or self.data is None:
            return
        big = self.query_one("#round-big", Label)
        row = self._selected_round()
        number = int_or_none(self.query_one("#round-no", Input).value)
        if row is None:
            big.update(
                literal(f"{self.tr('dash.round', n=number or '?')} · {self.tr('dash.phase.idle')}")
            )
            big.set_classes("")
            return
        phase = self._phase_now(row)
        big.update(
            literal(
                f"{self.tr('dash.round', n=row.number)} · {self._phase(row)} · "
                f"{countdown(self._remaining(row))}"
            )
        )
        big.set_classes(f"phase-{phase}")
        rounds = self.query_one("#rounds", DataTable)
        for r in self.data.rounds:
            if str(r.number) in rounds.rows:
                rounds.update_cell(str(r.number), "phase", self._phase(r))
                rounds.update_cell(str(r.number), "left", countdown(self._remaining(r)))

    @on(Input.Changed, "#round-no")
    def _round_changed(self) -> None:
        self._show_deliveries()
        self.tick()

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        action = (event.button.id or "").removeprefix("btn-")
        getattr(self, f"action_{action}")()

    # -- actions ---------------------------------------------------------------------------
    def _number(self) -> int | None:
        number = int_or_none(self.query_one("#round-no", Input).value)
        if not number:
            self.say(self.tr("dash.rounds.round") + "?", error=True)
        return number

    def _sent(self, result: dict[str, Any]) -> None:
        sent = result.get("sent_to") or []
        self.say(self.tr("dash.sent", stations=", ".join(sent) or self.tr("dash.nobody")))

    def _state_text(self, guard: RoundGuard) -> str:
        parts = []
        if guard.phase == "ended" and guard.end_at is not None:
            parts.append(self.tr("dash.guard.ended", n=guard.number, at=_hm(guard.end_at)))
        elif guard.begun:
            parts.append(
                self.tr("dash.guard.running", n=guard.number, left=countdown(guard.remaining))
            )
        if guard.results:
            parts.append(self.tr("dash.guard.results", n=guard.number, count=guard.results))
        return " ".join(parts)

    def _start(self, number: int, at: float | None = None) -> None:
        """Start round ``number`` (at ``at``): at once when it has never begun and has no
        results, else only after the operator types its number (then with ``force``: the
        hub asks for it too)."""
        self._start_guarded(number, at)

    @work(thread=True, group="act", exit_on_error=False)
    def _start_guarded(self, number: int, at: float | None) -> None:
        try:
            guard = self.service.round_guard(number)
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        if not guard.needs_confirmation:
            self.app.call_from_thread(
                self.act, lambda: self.service.start_round(number, at=at), self._sent
            )
            return
        self.app.call_from_thread(self._ask_restart, guard, at)

    def _ask_restart(self, guard: RoundGuard, at: float | None) -> None:
        number = guard.number
        when = self.tr("dash.typed.at", at=_hm(at)) if at is not None else ""
        # a round not begun yet (but with results in) is re-timed, not started "again"
        ask = "dash.confirm.restart" if guard.begun else "dash.confirm.retime"
        question = f"{self._state_text(guard)}\n{self.tr(ask, n=number)}{when}"

        def answered(yes: bool | None) -> None:
            if yes:
                self.act(lambda: self.service.start_round(number, at=at, force=True), self._sent)
            else:
                self.say(self.tr("dash.confirm.declined"))

        self.app.push_screen(TypedConfirm(question, str(number), self.lang), answered)

    def action_start(self) -> None:
        if number := self._number():
            self._start(number)

    def action_start_scheduled(self) -> None:
        """Start round N at the time typed in the *Čas* field, else at its time in the
        day's timetable."""
        number = self._number()
        if not number or self.data is None:
            return
        typed = self.query_one("#at", Input).value.strip()
        if typed:
            at = today_at(typed, self.service.clock.now())
            if at is None:
                self.say(self.tr("dash.at.bad", at=typed), error=True)
                return
        else:
            slots = [s for s in self.data.schedule if s.round_no == number]
            if not slots:
                self.say(self.tr("dash.schedule.none", n=number), error=True)
                return
            at = slots[0].start.timestamp()
        if at <= self.service.clock.now():
            self.say(self.tr("dash.at.past"), error=True)
            return
        self._start(number, at)

    def action_gong(self) -> None:
        def rung(result: dict[str, Any]) -> None:
            self.gong_item = result.get("id")
            self._sent(result)

        self.act(lambda: self.service.gong("start"), rung)

    def action_delay(self) -> None:
        """Move a round's start later by the minutes asked for; a round that has begun is
        not delayed (its start signal was given: start it again with ``s``/``t``)."""
        if number := self._number():
            self._delay_guarded(number)

    @work(thread=True, group="act", exit_on_error=False)
    def _delay_guarded(self, number: int) -> None:
        try:
            guard = self.service.round_guard(number)
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        self.app.call_from_thread(self._delay_decided, guard)

    def _delay_decided(self, guard: RoundGuard) -> None:
        number = guard.number
        if guard.phase in ("idle", "cancelled"):
            self.say(self.tr("dash.delay.not_planned", n=number), error=True)
            return
        if guard.begun:
            state = self._state_text(guard)
            self.say(f"{state} {self.tr('dash.delay.begun', n=number)}".strip(), error=True)
            return

        def chosen(minutes: int | None) -> None:
            if not minutes:
                self.say(self.tr("dash.confirm.declined"))
                return
            self.act(
                lambda: self.service.change_round(number, "delay", minutes * 60.0),
                lambda result: self._changed(result, "dash.delay.done", minutes),
            )

        self.app.push_screen(MinutesDialog(self.tr("dash.delay.ask", n=number), self.lang), chosen)

    def action_extend(self) -> None:
        """Add minutes to a round's basic time: how many is asked (5 unless typed)."""
        number = self._number()
        if not number:
            return
        row = self._selected_round()
        if row is None or row.phase == "cancelled":
            self.say(self.tr("dash.delay.not_planned", n=number), error=True)
            return
        end = _hm(row.end_at)

        def chosen(minutes: int | None) -> None:
            if not minutes:
                self.say(self.tr("dash.confirm.declined"))
                return
            self.act(
                lambda: self.service.change_round(number, "extend", minutes * 60.0),
                lambda result: self._changed(result, "dash.extend.done", minutes),
            )

        self.app.push_screen(
            MinutesDialog(self.tr("dash.extend.ask", n=number, end=end), self.lang), chosen
        )

    def _changed(self, result: dict[str, Any], key: str, minutes: int) -> None:
        """What the change did, in words: the round, the minutes, its new start or end."""
        plan = result.get("plan") or {}
        try:
            new = RoundPlan.from_dict(plan)
        except (TypeError, ValueError):
            self._sent(result)
            return
        sent = ", ".join(result.get("sent_to") or []) or self.tr("dash.nobody")
        self.say(
            self.tr(
                key,
                n=new.number,
                minutes=minutes,
                start=_hm(new.start_at),
                end=_hm(new.end_at()),
                stations=sent,
            )
        )

    def action_pause(self) -> None:
        number = self._number()
        if not number:
            return
        row = self._selected_round()
        action = "resume" if row is not None and row.paused else "pause"
        self.act(lambda: self.service.change_round(number, action), self._sent)

    def action_cancel(self) -> None:
        """Cancelling a round needs the key twice within 5 seconds; a round that has been
        played (ended, or with results) is never cancelled."""
        number = self._number()
        if not number:
            return
        self._cancel(number, time.monotonic())

    @work(thread=True, group="act", exit_on_error=False)
    def _cancel(self, number: int, pressed: float) -> None:
        try:
            guard = self.service.round_guard(number)
        except ServiceError as exc:
            self.app.call_from_thread(self.say, error_text(exc, self.lang), error=True)
            return
        self.app.call_from_thread(self._cancel_decided, guard, pressed)

    def _cancel_decided(self, guard: RoundGuard, pressed: float) -> None:
        number = guard.number
        if guard.played:
            self._cancel_armed = None
            self.say(
                f"{self._state_text(guard)} {self.tr('dash.cancel.played', n=number)}", error=True
            )
            return
        if (
            self._cancel_armed
            and self._cancel_armed[0] == number
            and (pressed - self._cancel_armed[1] < 5)
        ):
            self._cancel_armed = None
            self.act(lambda: self.service.change_round(number, "cancel"), self._sent)
            return
        self._cancel_armed = (number, pressed)
        state = self._state_text(guard)
        self.say(f"{state} {self.tr('dash.cancel.again', n=number)}".strip(), error=True)


def _hm(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))

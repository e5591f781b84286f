"""Result entry after a game: round, table, both scores, who started (ZH).

One player types the result and presses the confirm key; then the **second player
confirms it on the same screen** (the confirm key again; Esc: it is wrong, back to the
fields). Only a confirmed result is entered at the hub. When nobody confirms within
``form_inactivity_seconds`` the result is stored as a *one-sided* entry: queued for the
hub, which shows it to the operator as such and does not enter it; the players may enter
it again (and confirm it) later. A confirmed result can be changed only from the referee
screen (``by_referee``, no confirmation step), and every version is kept in
``result_history``. Names appear when the hub's pairings for that round and table are
known.

Once round and table are typed the screen shows **this station's entry** for that table
(scores, confirmed by both or one-sided, at the hub or still waiting to be sent). The
players may **withdraw** it (F8, then the opponent confirms with the confirm key, as for
an entry): stored as a tombstone in SQLite and queued before it is shown *asked*; the hub
takes the entry back until the round is published and refuses it (visibly to the
operator) after, and its answer comes back over the link: the entry's line then says
withdrawn or refused (the entry stands). Once the round's publication has reached the
station the kiosk refuses the withdrawal itself and stores nothing. The referee's own
entry is not the players' to withdraw."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label

from samoobsluha.shared.checks import StepError, validate_table
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.log import (
    REFUSED,
    TAKEN_BACK,
    NothingToWithdraw,
    Pairing,
    Result,
    ResultLocked,
    RoundPublished,
)
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.widgets.word_input import FlowInput

MAX_SCORE = 1500
FIELDS = ("res-round", "res-table", "res-score-a", "res-score-b", "res-starter")


class ResultScreen(KioskScreen):
    BINDINGS = [  # noqa: RUF012
        Binding("escape", "leave", show=False),
        Binding("f8", "withdraw", show=False),
    ]

    def __init__(self, *, by_referee: bool = False) -> None:
        super().__init__()
        self.by_referee = by_referee
        self.pairing: Pairing | None = None
        self.awaiting: Result | None = None  # typed, waiting for the second player
        self.locked: Result | None = None  # a confirmed result of the table looked up
        self.entry: Result | None = None  # this station's entry of the table looked up
        self.withdrawing: Result | None = None  # waiting for the second player's yes
        self.published = False  # the round's publication reached this station
        self._asked_at = 0.0

    def inactivity_limit(self) -> float | None:
        settings = self.kiosk.settings
        if self.by_referee:
            return settings.referee_idle_seconds
        return settings.form_inactivity_seconds  # players read their scoresheets

    def compose(self) -> ComposeResult:
        with Vertical(id="result-box"):
            yield Label("", id="result-title")
            for field_id in FIELDS:
                with Horizontal(classes="field"):
                    yield Label("", id=f"{field_id}-label", classes="prompt")
                    restrict = r"[aAbB12]?" if field_id == "res-starter" else r"[0-9]*"
                    yield FlowInput(id=field_id, restrict=restrict, max_length=4)
            yield Label("", id="result-names")
            yield Label("", id="result-entry")
            yield Label("", id="result-confirm")
            yield Label("", id="result-error")
            yield Label("", id="result-hint")

    def on_mount(self) -> None:
        title = "kiosk.result.title_referee" if self.by_referee else "kiosk.result.title"
        self.query_one("#result-title", Label).update(literal(self.tr(title)))
        labels = {
            "res-round": self.tr("kiosk.result.round"),
            "res-table": self.tr("kiosk.check.table_prompt"),
            "res-score-a": self.tr("kiosk.result.score_a"),
            "res-score-b": self.tr("kiosk.result.score_b"),
            "res-starter": self.tr("kiosk.result.starter"),
        }
        for field_id, text in labels.items():
            self.query_one(f"#{field_id}-label", Label).update(literal(text))
        self.query_one("#result-hint", Label).update(
            literal(self.tr("kiosk.result.hint", key=self.kiosk.settings.confirm_key.upper()))
        )
        round_no = self.kiosk.round_number()
        if round_no is not None:
            self.query_one("#res-round", Input).value = str(round_no)
            self.set_focus(self.query_one("#res-table", Input))
        else:
            self.set_focus(self.query_one("#res-round", Input))
        self._bindings.bind(self.kiosk.settings.confirm_key, "save", show=False)

    def action_leave(self) -> None:
        if self.awaiting is not None:  # the second player says it is wrong
            self._unconfirmed()
            return
        if self.withdrawing is not None:  # the second player does not agree
            self._withdraw_declined()
            return
        if self.by_referee:
            self.app.pop_screen()
        else:
            self.kiosk.reset_to_idle()

    def _error(self, text: str) -> None:
        self.query_one("#result-error", Label).update(literal(f"! {text}" if text else ""))

    def flow_enter(self, widget: Input) -> None:
        """Enter moves to the next field at once (keys typed ahead follow it)."""
        field_id = widget.id or ""
        if field_id in ("res-round", "res-table"):
            self._lookup()
        index = FIELDS.index(field_id) if field_id in FIELDS else -1
        if 0 <= index < len(FIELDS) - 1:
            self.set_focus(self.query_one(f"#{FIELDS[index + 1]}", Input))

    def _numbers(self) -> tuple[int | None, int | None]:
        def number(field_id: str) -> int | None:
            text = self.query_one(f"#{field_id}", Input).value.strip()
            return int(text) if text.isdigit() else None

        return number("res-round"), number("res-table")

    def _lookup(self) -> None:
        round_no, table_no = self._numbers()
        if round_no and table_no:
            self._load_pairing(round_no, table_no)

    @work(thread=True, exclusive=True, exit_on_error=False, group="result-lookup")
    def _load_pairing(self, round_no: int, table_no: int) -> None:
        store = self.kiosk.store
        pairing = store.pairing(round_no, table_no)
        existing = store.result(round_no, table_no)
        at_hub = store.at_hub(round_no, table_no)
        published = store.round_published(round_no, table_no)
        word = store.withdrawal_word(round_no, table_no)
        if word == REFUSED and not self.by_referee:  # the players see it: no idle notice more
            store.refusal_seen(round_no, table_no)
            self.kiosk.withdrawals_changed()
        self.app.call_from_thread(self._show_pairing, pairing, existing, at_hub, published, word)

    def _show_pairing(
        self,
        pairing: Pairing | None,
        existing: Result | None,
        at_hub: bool = False,
        published: bool = False,
        word: str | None = None,
    ) -> None:
        self.pairing = pairing
        self.published = published
        self._show_entry(existing, at_hub, word)
        # players learn at once that a confirmed result is stored (the store refuses it too)
        self.locked = (
            existing
            if existing is not None and not existing.one_sided and not existing.withdrawn
            else None
        )
        if not self.by_referee:
            existing = None
        names = self.query_one("#result-names", Label)
        if pairing is None:
            names.update(literal(self.tr("kiosk.result.no_pairing")))
        else:
            text = self.tr("kiosk.result.players", a=pairing.first, b=pairing.second)
            if pairing.division:  # a hall of several divisions: say whose table it is
                text = self.tr("kiosk.result.division", division=pairing.division) + "   " + text
            names.update(literal(text))
        if existing is not None:
            self.query_one("#res-score-a", Input).value = str(existing.score_first)
            self.query_one("#res-score-b", Input).value = str(existing.score_second)
            started = {"first": "A", "second": "B"}.get(existing.started, "")
            self.query_one("#res-starter", Input).value = started

    # -- this station's entry, and its withdrawal ---------------------------------------
    def _show_entry(self, entry: Result | None, at_hub: bool, word: str | None = None) -> None:
        self.entry = entry
        label = self.query_one("#result-entry", Label)
        if entry is None:
            label.update("")
            return
        if entry.withdrawn:  # what the hub made of it, as far as its word has come back
            how = self.tr(
                "kiosk.entry.withdrawn"
                if word == TAKEN_BACK
                else "kiosk.entry.withdraw_refused"
                if word == REFUSED
                else "kiosk.entry.withdraw_asked"
            )
        elif entry.entered_by == "referee":
            how = self.tr("kiosk.entry.referee")
        elif entry.one_sided:
            how = self.tr("kiosk.entry.one_sided")
        else:
            how = self.tr("kiosk.entry.confirmed")
        at_hub = at_hub or word in (TAKEN_BACK, REFUSED)  # its word came before its ack
        where = self.tr("kiosk.entry.at_hub" if at_hub else "kiosk.entry.queued")
        text = self.tr(
            "kiosk.entry.line",
            a=entry.score_first,
            b=entry.score_second,
            started="A" if entry.started == "first" else "B",
            how=how,
            where=where,
        )
        if not self.by_referee and not entry.withdrawn and entry.entered_by != "referee":
            if self.published:
                text += " " + self.tr("kiosk.entry.published", round=entry.round_no)
            else:
                text += " " + self.tr("kiosk.entry.withdraw_hint")
        label.update(literal(text))

    def action_withdraw(self) -> None:
        entry = self.entry
        if self.by_referee or self.awaiting is not None or self.withdrawing is not None:
            return
        if entry is None or entry.withdrawn:
            self._error(self.tr("kiosk.withdraw.nothing"))
            return
        if entry.entered_by == "referee":
            self._error(self.tr("kiosk.withdraw.referee"))
            return
        if self.published:  # the hub would refuse it: the players are told so, here
            self._error(self.tr("kiosk.withdraw.published", round=entry.round_no))
            return
        self.withdrawing = entry
        self._asked_at = self.kiosk.clock.monotonic()
        self._error("")
        for field in self.query(Input):
            field.disabled = True
        key = self.kiosk.settings.confirm_key.upper()
        box = self.query_one("#result-confirm", Label)
        box.update(
            literal(
                self.tr(
                    "kiosk.withdraw.confirm",
                    round=entry.round_no,
                    table=entry.table_no,
                    a=entry.score_first,
                    b=entry.score_second,
                    key=key,
                )
            )
        )
        box.add_class("-asking")
        self.query_one("#result-hint", Label).update(
            literal(self.tr("kiosk.withdraw.hint", key=key))
        )
        self.set_focus(None)

    def _withdraw_declined(self) -> None:
        self.withdrawing = None
        self._back_to_fields(self.tr("kiosk.withdraw.declined"), "#res-table")

    @work(thread=True, exit_on_error=False, group="db")
    def _withdraw(self, entry: Result) -> None:
        try:
            gone = self.kiosk.store.withdraw_result(
                entry.round_no, entry.table_no, at=self.kiosk.clock.now()
            )
        except NothingToWithdraw:
            self.app.call_from_thread(self._error, self.tr("kiosk.withdraw.nothing"))
            return
        except RoundPublished as exc:  # the publication came while the opponent was asked
            self.app.call_from_thread(self._refused_published, exc.round_no)
            return
        except Exception as exc:
            self.app.call_from_thread(self.kiosk.storage_failed, exc)
            return
        self.app.call_from_thread(self._withdrawn, gone)

    def _refused_published(self, round_no: int) -> None:
        self.published = True
        self._back_to_fields(self.tr("kiosk.withdraw.published", round=round_no), "#res-table")
        self._lookup()  # the entry's line says it is published now

    def _withdrawn(self, gone: Result) -> None:
        """Stored and queued: *asked* — the hub decides (the entry's line shows its word)."""
        from samoobsluha.station.screens.verdict import SavedScreen

        text = self.tr("kiosk.withdraw.asked", round=gone.round_no, table=gone.table_no)
        self.app.switch_screen(SavedScreen(text))

    def action_save(self) -> None:
        if self.withdrawing is not None:  # the second player agrees to the withdrawal
            if self.kiosk.clock.monotonic() - self._asked_at < self.kiosk.settings.verdict_lock:
                return
            entry, self.withdrawing = self.withdrawing, None
            self._withdraw(entry)
            return
        if self.awaiting is not None:  # the second player confirms
            # a confirm key typed twice by the player who entered it is not a confirmation
            if self.kiosk.clock.monotonic() - self._asked_at < self.kiosk.settings.verdict_lock:
                return
            result, self.awaiting = self.awaiting, None
            self._store(result, False)
            return
        round_no, table_no = self._numbers()
        if not round_no:
            self._error(self.tr("kiosk.result.bad_round"))
            return
        try:
            validate_table(self.query_one("#res-table", Input).value, self.kiosk.tables)
        except StepError as exc:
            self._error(self.tr(f"kiosk.error.{exc.problem.value}", **exc.values))
            return
        scores = []
        for field_id in ("res-score-a", "res-score-b"):
            text = self.query_one(f"#{field_id}", Input).value.strip()
            if not text.isdigit() or int(text) > MAX_SCORE:
                self._error(self.tr("kiosk.result.bad_score", max=MAX_SCORE))
                self.query_one(f"#{field_id}", Input).focus()
                return
            scores.append(int(text))
        started_text = self.query_one("#res-starter", Input).value.strip().lower()
        # the screen says A/B (or 1/2); the record says first/second
        started = {"a": "first", "1": "first", "b": "second", "2": "second"}.get(started_text)
        if started is None:
            self._error(self.tr("kiosk.result.bad_starter"))
            self.query_one("#res-starter", Input).focus()
            return
        locked = self.locked
        if (
            not self.by_referee
            and locked is not None
            and (locked.round_no, locked.table_no) == (round_no, table_no)
        ):
            self._locked(locked)
            return
        pairing = self.pairing
        result = Result(
            round_no,
            table_no or 0,
            scores[0],
            scores[1],
            started,
            pairing.first if pairing and pairing.table_no == table_no else "",
            pairing.second if pairing and pairing.table_no == table_no else "",
        )
        for field in self.query(Input):
            field.disabled = True
        if self.by_referee:
            self._store(result, False)
        else:
            self._ask_confirmation(result)

    # -- the second player's confirmation ----------------------------------------------
    def _ask_confirmation(self, result: Result) -> None:
        self.awaiting = result
        self._asked_at = self.kiosk.clock.monotonic()
        self._error("")
        started = "A" if result.started == "first" else "B"
        first = result.first or "A"
        second = result.second or "B"
        text = self.tr(
            "kiosk.result.confirm",
            a_name=first,
            b_name=second,
            a=result.score_first,
            b=result.score_second,
            started=started,
            key=self.kiosk.settings.confirm_key.upper(),
        )
        box = self.query_one("#result-confirm", Label)
        box.update(literal(text))
        box.add_class("-asking")
        key = self.kiosk.settings.confirm_key.upper()
        self.query_one("#result-hint", Label).update(
            literal(self.tr("kiosk.result.confirm_hint", key=key))
        )
        self.set_focus(None)

    def _unconfirmed(self) -> None:
        """Back to the fields: the second player did not agree."""
        self.awaiting = None
        self._back_to_fields(self.tr("kiosk.result.not_confirmed"), "#res-score-a")

    def _back_to_fields(self, error: str, focus: str) -> None:
        """The question closed unanswered yes: the fields again, with why."""
        box = self.query_one("#result-confirm", Label)
        box.update("")
        box.remove_class("-asking")
        self.query_one("#result-hint", Label).update(
            literal(self.tr("kiosk.result.hint", key=self.kiosk.settings.confirm_key.upper()))
        )
        for field in self.query(Input):
            field.disabled = False
        self._error(error)
        self.set_focus(self.query_one(focus, Input))

    def timed_out(self) -> None:
        """Nobody confirmed in time: the result is kept as a one-sided entry."""
        if self.awaiting is not None:
            result, self.awaiting = self.awaiting, None
            self.kiosk.touch()
            self._store(result, True)
            return
        self.withdrawing = None  # a withdrawal nobody confirmed is none: nothing stored
        super().timed_out()

    @work(thread=True, exit_on_error=False, group="db")
    def _store(self, result: Result, one_sided: bool) -> None:
        try:
            stored = self.kiosk.store.store_result(
                result,
                at=self.kiosk.clock.now(),
                by_referee=self.by_referee,
                one_sided=one_sided,
            )
        except ResultLocked as exc:
            self.app.call_from_thread(self._locked, exc.existing)
            return
        except Exception as exc:
            self.app.call_from_thread(self.kiosk.storage_failed, exc)
            return
        self.app.call_from_thread(self._stored, stored)

    def _locked(self, existing: Result) -> None:
        for field in self.query(Input):
            field.disabled = False
        self._error(
            self.tr(
                "kiosk.result.locked",
                round=existing.round_no,
                table=existing.table_no,
                a=existing.score_first,
                b=existing.score_second,
            )
        )

    def _stored(self, stored: Result) -> None:
        from samoobsluha.station.screens.verdict import SavedScreen

        text = self.tr(
            "kiosk.result.saved_one_sided" if stored.one_sided else "kiosk.result.saved",
            round=stored.round_no,
            table=stored.table_no,
            a=stored.score_first,
            b=stored.score_second,
        )
        if self.by_referee:
            self.app.pop_screen()
            self.app.notify(text, markup=False)
        else:
            self.app.switch_screen(SavedScreen(text))

"""The verdict: the whole screen says PLATNÉ or NEPLATNÉ, in words and in colour.

One verdict for the whole play; which word failed is shown only when the tournament
allows it (``show_failed_words``) or to the referee on an appeal. The screen ignores keys
for its first ``verdict_lock`` seconds (the player is still typing), then any key or
``verdict_seconds`` return to the idle screen with nothing of the check left."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Label

from samoobsluha.shared.lexicon import Status, Verdict
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.checks import Limit, RateDecision
from samoobsluha.station.log import CheckRecord
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.widgets.bigtext import BigText


class TimedMessageScreen(KioskScreen):
    """A full-screen answer that cannot be dismissed at once and goes away by itself."""

    def __init__(self, *, return_to_idle: bool = True) -> None:
        super().__init__()
        self.return_to_idle = return_to_idle
        self.shown_at: float | None = None  # set when mounted
        self._closed = False

    def inactivity_limit(self) -> float | None:
        return None

    def on_mount(self) -> None:
        self.shown_at = self.kiosk.clock.monotonic()

    def tick(self, now: float) -> None:
        if self.shown_at is not None and now - self.shown_at >= self.kiosk.settings.verdict_seconds:
            self.close()

    def on_key(self, event: Key) -> None:
        event.stop()
        event.prevent_default()
        if self.shown_at is None:
            return
        if self.kiosk.clock.monotonic() - self.shown_at >= self.kiosk.settings.verdict_lock:
            self.close()

    def close(self) -> None:
        if self._closed or not self.is_current:
            return
        self._closed = True
        if self.return_to_idle:
            self.kiosk.reset_to_idle()
        else:
            self.app.pop_screen()


class VerdictScreen(TimedMessageScreen):
    def __init__(self, verdict: Verdict, record: CheckRecord, *, appeal: bool = False) -> None:
        super().__init__(return_to_idle=not appeal)
        self.verdict = verdict
        self.record = record
        self.appeal = appeal

    def compose(self) -> ComposeResult:
        verdict = self.verdict
        status_class = {
            Status.VALID: "-valid",
            Status.INVALID: "-invalid",
            Status.REFEREE: "-referee",
        }[verdict.status]
        self.add_class(status_class)
        key = {
            Status.VALID: "verdict.valid",
            Status.INVALID: "verdict.invalid",
            Status.REFEREE: "verdict.referee",
        }[verdict.status]
        info = self.kiosk.lexicon.info
        with Vertical(id="verdict-box"):
            if self.appeal:
                yield Label(literal(self.tr("kiosk.appeal.banner")), id="verdict-appeal")
            yield BigText(self.tr(key), id="verdict-big")
            yield Label(literal(self.tr(key)), id="verdict-word")
            if verdict.status is Status.REFEREE:
                yield Label(
                    literal(self.tr("verdict.referee_long", max=info.max_length)),
                    id="verdict-reason",
                )
            words = " ".join(w.face for w in verdict.words)
            yield Label(literal(self.tr("kiosk.verdict.words", words=words)), id="verdict-words")
            if verdict.failed and (self.appeal or self.kiosk.settings.show_failed_words):
                failed = " ".join(w.face for w in verdict.words if w.text in verdict.failed)
                yield Label(
                    literal(self.tr("kiosk.verdict.failed", words=failed)), id="verdict-failed"
                )
            round_text = "—" if self.record.round_no is None else str(self.record.round_no)
            yield Label(
                literal(
                    self.tr(
                        "kiosk.verdict.details",
                        table=self.record.table_no,
                        round=round_text,
                        variant=info.variant,
                        language=info.language,
                    )
                ),
                id="verdict-details",
            )
            yield Label(literal(self.tr("kiosk.verdict.dismiss")), id="verdict-hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        self.kiosk.verdict_painted_at = self.kiosk.clock.monotonic()


class RefusedScreen(TimedMessageScreen):
    """A check refused by a rate limit: call the referee (the refusal is already logged)."""

    def __init__(self, table_no: int, decision: RateDecision) -> None:
        super().__init__()
        self.table_no = table_no
        self.decision = decision

    def compose(self) -> ComposeResult:
        self.add_class("-referee")
        settings = self.kiosk.settings
        limit = self.decision.limit
        if limit is Limit.CAP:
            reason = self.tr(
                "kiosk.refused.cap", table=self.table_no, max=settings.max_checks_per_round
            )
        elif limit is Limit.STATION_CAP:
            reason = self.tr("kiosk.refused.station_cap", max=settings.station_max_checks_per_round)
        else:
            reason = self.tr(
                "kiosk.refused.station_interval"
                if limit is Limit.STATION_INTERVAL
                else "kiosk.refused.interval",
                table=self.table_no,
                wait=max(1, round(self.decision.wait)),
            )
        with Vertical(id="verdict-box"):
            yield BigText(self.tr("verdict.referee"), id="verdict-big")
            yield Label(literal(self.tr("verdict.referee")), id="verdict-word")
            yield Label(literal(reason), id="verdict-reason")
            yield Label(literal(self.tr("kiosk.verdict.dismiss")), id="verdict-hint")


class ErrorScreen(TimedMessageScreen):
    """Something went wrong that a player cannot fix (e.g. the disk): no verdict."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        self.add_class("-referee")
        with Vertical(id="verdict-box"):
            yield BigText(self.tr("verdict.referee"), id="verdict-big")
            yield Label(literal(self.tr("verdict.referee")), id="verdict-word")
            yield Label(literal(self.text), id="verdict-reason")
            yield Label(literal(self.tr("kiosk.verdict.dismiss")), id="verdict-hint")


class SavedScreen(TimedMessageScreen):
    """A result was stored (and queued for the hub)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        self.add_class("-saved")
        with Vertical(id="verdict-box"):
            yield Label(literal(self.text), id="verdict-reason")
            yield Label(literal(self.tr("kiosk.verdict.dismiss")), id="verdict-hint")

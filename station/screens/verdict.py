"""The verdict: the whole screen says PLATNÉ or NEPLATNÉ, in words and in colour.

One verdict for the whole play; which word failed is shown only when the tournament
allows it (``show_failed_words``) or to the referee on an appeal. The screen ignores keys
for its first ``verdict_lock`` seconds (the player is still typing), then any key or
``verdict_seconds`` return to the idle screen with nothing of the check left."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key, ScreenResume
from textual.widgets import Label

from samoobsluha.shared.checks import Limit, RateDecision
from samoobsluha.shared.i18n import t
from samoobsluha.shared.lexicon import Status, Verdict
from samoobsluha.shared.receipt import format_code
from samoobsluha.shared.textsafe import literal
from samoobsluha.station.log import CheckRecord
from samoobsluha.station.screens.base import KioskScreen
from samoobsluha.station.widgets.bigtext import BigText


class TimedMessageScreen(KioskScreen):
    """A full-screen answer that cannot be dismissed at once and goes away by itself."""

    def __init__(self, *, return_to_idle: bool = True) -> None:
        super().__init__()
        self.return_to_idle = return_to_idle
        self.shown_at: float | None = None  # set when shown
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


_STATUS_CLASS = {Status.VALID: "-valid", Status.INVALID: "-invalid", Status.REFEREE: "-referee"}
_STATUS_KEY = {
    Status.VALID: "verdict.valid",
    Status.INVALID: "verdict.invalid",
    Status.REFEREE: "verdict.referee",
}


class VerdictScreen(TimedMessageScreen):
    """The verdict. While idle the kiosk prepares one (composed, styled, its block
    letters laid out, off the screen stack) and :meth:`show` only fills it in: confirm →
    verdict swaps a screen in rather than building one, on a Raspberry Pi too. Each is
    used once and removed when closed, so nothing of a check stays behind. Constructed
    with a verdict it is an ordinary screen (e.g. an appeal on top of a verdict)."""

    def __init__(
        self,
        verdict: Verdict | None = None,
        record: CheckRecord | None = None,
        *,
        appeal: bool = False,
    ) -> None:
        super().__init__(return_to_idle=not appeal)
        self.verdict: Verdict | None = verdict
        self.record: CheckRecord | None = record
        self.appeal = appeal
        self.table_no: int | None = record.table_no if record else None
        self.round_no: int | None = record.round_no if record else None
        self._lang = ""
        self._styles_fresh = False  # filled in off the screen: see on_screen_resume

    def compose(self) -> ComposeResult:
        with Vertical(id="verdict-box"):
            yield Label("", id="verdict-appeal")
            yield BigText("", id="verdict-big")
            yield Label("", id="verdict-word")
            yield Label("", id="verdict-reason")
            yield Label("", id="verdict-words")
            yield Label("", id="verdict-details")
            yield Label("", id="verdict-receipt")
            yield Label("", id="verdict-hint")

    def on_mount(self) -> None:
        if self.verdict is None:  # the kiosk's prepared screen: ready the block letters
            self.prepare(self.kiosk.default_language)
        self._fill()

    def prepare(self, lang: str) -> None:
        """Render the block letters of every verdict word in ``lang`` at the current
        width, so showing one costs no rendering of glyphs (done while idle)."""
        self._lang = lang
        big = self.query_one("#verdict-big", BigText)
        big.prepare([t(key, lang) for key in _STATUS_KEY.values()])

    def show(
        self, verdict: Verdict, table_no: int, round_no: int | None, *, appeal: bool = False
    ) -> None:
        """Fill in a verdict while its check is being committed (the kiosk pushes the
        screen once the commit is done and sets :attr:`record`)."""
        self.verdict, self.record, self.appeal = verdict, None, appeal
        self.table_no, self.round_no = table_no, round_no
        self.return_to_idle = not appeal
        self._closed = False
        self.shown_at = None
        if self.is_mounted:
            self._fill()
            # set_class restyled the screen at once (Textual's update_styles), and the
            # prepared screen is not on the stack: nothing else can change its styles.
            self._styles_fresh = self not in self.app.screen_stack

    def _fill(self) -> None:
        verdict = self.verdict
        if verdict is None:
            return
        for status, cls in _STATUS_CLASS.items():
            self.set_class(verdict.status is status, cls)
        key = _STATUS_KEY[verdict.status]
        info = self.kiosk.lexicon.info
        self._set("#verdict-appeal", self.tr("kiosk.appeal.banner") if self.appeal else "")
        self.query_one("#verdict-big", BigText).update(self.tr(key))
        self._set("#verdict-word", self.tr(key))
        self._set(
            "#verdict-reason",
            self.tr("verdict.referee_long", max=info.max_length)
            if verdict.status is Status.REFEREE
            else "",
        )
        words = " ".join(w.face for w in verdict.words)
        self._set("#verdict-words", self.tr("kiosk.verdict.words", words=words))
        failed = ""
        if verdict.failed and (self.appeal or self.kiosk.settings.show_failed_words):
            failed = " ".join(w.face for w in verdict.words if w.text in verdict.failed)
            failed = self.tr("kiosk.verdict.failed", words=failed)
        # Which word failed exists on the screen only when it may be shown at all.
        for old in self.query("#verdict-failed"):
            old.remove()
        if failed:
            self.query_one("#verdict-box").mount(
                Label(literal(failed), id="verdict-failed"),
                after=self.query_one("#verdict-words"),
            )
        round_text = "—" if self.round_no is None else str(self.round_no)
        details = self.tr(
            "kiosk.verdict.details",
            table=self.table_no,
            round=round_text,
            variant=info.variant,
            language=info.language,
        )
        # large print: the details line gives its room to the block letters
        self._set("#verdict-details", "" if self.kiosk.settings.large_print else details)
        self._show_receipt()
        self._set("#verdict-hint", self.tr("kiosk.verdict.dismiss"))

    def set_record(self, record: CheckRecord) -> None:
        """The committed check of the verdict filled in: its receipt code is shown."""
        self.record = record
        if self.is_mounted:
            self._show_receipt()

    def _show_receipt(self) -> None:
        """The receipt code (shared/receipt.py) the player may write on his scoresheet;
        none before the check is committed, nor on a kiosk without a station key."""
        code = self.record.receipt if self.record is not None else ""
        text = self.tr("kiosk.verdict.receipt", code=format_code(code)) if code else ""
        self._set("#verdict-receipt", text)

    def _set(self, selector: str, text: str) -> None:
        label = self.query_one(selector, Label)
        label.update(literal(text))
        label.display = bool(text)

    def on_screen_resume(self, event: ScreenResume | None = None) -> None:
        # Runs before Textual's own handler (Screen._on_screen_resume, later in the MRO),
        # which restyles every widget of a resumed screen. A screen filled in off the
        # stack was restyled then (before F10); repeating it would be F10's work.
        if self._styles_fresh and event is not None:
            event.refresh_styles = False
        self._styles_fresh = False
        super().on_screen_resume()
        self.shown_at = self.kiosk.clock.monotonic()
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        verdict = self.verdict
        self.kiosk.verdict_shown(verdict.status.value if verdict else "", self.table_no)
        # The next check's screen is prepared now, while this one is read (it takes no
        # keys), rather than while a player types on the check screen.
        self.kiosk.prepare_verdict()


class RefusedScreen(TimedMessageScreen):
    """A check refused by a rate limit (the refusal is already logged): a wait shows how
    many seconds; a used-up cap calls the referee."""

    def __init__(self, table_no: int, decision: RateDecision) -> None:
        super().__init__()
        self.table_no = table_no
        self.decision = decision

    def compose(self) -> ComposeResult:
        settings = self.kiosk.settings
        limit = self.decision.limit
        if limit in (Limit.INTERVAL, Limit.STATION_INTERVAL):
            # a wait, not a case for the referee: "wait N seconds" is the answer; the
            # referee is offered only to a player who cannot wait
            seconds = max(1, round(self.decision.wait))
            self.add_class("-wait")
            with Vertical(id="verdict-box"):
                yield BigText(self.tr("kiosk.refused.wait_title"), id="verdict-big")
                yield Label(literal(self.tr("kiosk.refused.wait", n=seconds)), id="verdict-word")
                yield Label(
                    literal(
                        self.tr(
                            "kiosk.refused.station_interval"
                            if limit is Limit.STATION_INTERVAL
                            else "kiosk.refused.interval",
                            table=self.table_no,
                            wait=seconds,
                        )
                    ),
                    id="verdict-reason",
                )
                yield Label(literal(self.tr("kiosk.verdict.dismiss")), id="verdict-hint")
            return
        self.add_class("-referee")
        if limit is Limit.CAP:
            reason = self.tr(
                "kiosk.refused.cap", table=self.table_no, max=settings.max_checks_per_round
            )
        elif limit is Limit.STATION_CAP:
            reason = self.tr("kiosk.refused.station_cap", max=settings.station_max_checks_per_round)
        else:  # a limit this screen does not know: the referee decides
            reason = ""
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

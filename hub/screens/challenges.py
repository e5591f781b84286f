"""Challenges: every check from every station as it arrives, filtered by round and table;
checks per table; referee calls flashing until acknowledged; appeals (second instance);
under SSS rules each player's unjustified challenges and the 20-point penalty from the
third one on.

The kiosk knows the table, not which of the two players challenged; the referee says so
here (1 = the table's first player, 2 = its second) when it matters for the SSS count.

The cursor stays on the check the operator chose while new checks arrive above it, and
every action on a check or a referee call first names it (time, station, round, table,
words, player) and waits for a yes.

``k`` is the referee's check for a player who cannot use the station (ČAS 13.17,
:mod:`hub.refcheck`): table and words typed here get the verdict a kiosk gives, logged as
that table's check; it appears in the log with station and instance „rozhodčí“."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from samoobsluha.hub.refcheck import REFEREE_STATION, CheckRefused, HubCheck, referee_check
from samoobsluha.hub.screens.base import (
    DashScreen,
    clock_text,
    fill_table,
    int_or_none,
    selected_key,
)
from samoobsluha.hub.service import CheckRow, RequestRow, ServiceError
from samoobsluha.shared.i18n import MESSAGES, Phrase, error_text, t
from samoobsluha.shared.normalize import split_words
from samoobsluha.shared.textsafe import literal


@dataclass
class ChallengesData:
    checks: list[CheckRow]
    requests: list[RequestRow]
    per_table: dict[int, int]
    penalties: list[dict[str, Any]]
    rules: str


CHECK_COLUMNS = (
    "time",
    "station",
    "round",
    "table",
    "words",
    "verdict",
    "variant",
    "instance",
    "challenger",
    "penalty",
)
SSS_COLUMNS = ("round", "table", "player", "unjustified", "penalty")


class ChallengesScreen(DashScreen):
    TITLE_KEY = "dash.tab.challenges"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "acknowledge", "dash.act.ack"),
        Binding("1", "mark(1)", "dash.act.mark1"),
        Binding("2", "mark(2)", "dash.act.mark2"),
        Binding("0", "mark(0)", "dash.act.unmark", show=False),
        Binding("v", "appeal('valid')", "dash.act.appeal_valid"),
        Binding("n", "appeal('invalid')", "dash.act.appeal_invalid"),
        Binding("k", "referee_check", "dash.act.refcheck"),
        Binding("o", "verify_receipt", "dash.act.receipt"),
        Binding("x", "sanction", "dash.act.sanction"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: ChallengesData | None = None
        self._flash = False

    def compose_body(self) -> ComposeResult:
        yield Label("", id="requests")
        with Horizontal(id="challenge-filters"):
            yield Label(literal(self.tr("dash.filter.round")), classes="prompt")
            yield Input(id="filter-round", restrict=r"[0-9]*", max_length=3)
            yield Label(literal(self.tr("dash.filter.table")), classes="prompt")
            yield Input(id="filter-table", restrict=r"[0-9]*", max_length=4)
        with Horizontal(id="challenge-body"):
            yield DataTable(id="checks", cursor_type="row", zebra_stripes=True)
            with Vertical(id="challenge-side"):
                yield Label(literal(self.tr("dash.per_table")), classes="side-title")
                yield DataTable(id="per-table", cursor_type="none", show_cursor=False)
                yield Label(
                    literal(self.tr("dash.sss.title")), id="sss-title", classes="side-title"
                )
                yield DataTable(id="sss", cursor_type="none", show_cursor=False)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#checks", DataTable).focus()
        if self.dash.tick_every:  # no clock ticking (tests, snapshots): no blinking either
            self.set_interval(0.5, self._blink)

    def fetch(self) -> ChallengesData:
        round_no = int_or_none(self.query_one("#filter-round", Input).value)
        table_no = int_or_none(self.query_one("#filter-table", Input).value)
        checks, per_table, penalties = self.service.challenge_board(round_no, table_no)
        return ChallengesData(
            checks,
            self.service.referee_requests(pending_only=True),
            per_table,
            penalties,
            str(self.dash.summary.get("rules") or self.service.info()["rules"]),
        )

    def show(self, data: ChallengesData) -> None:
        self.data = data
        checks = self.query_one("#checks", DataTable)
        rows = []
        for c in data.checks:
            verdict = (
                self.tr(f"dash.verdict.{c.verdict}")
                if c.verdict in ("valid", "invalid", "referee", "refused")
                else c.verdict
            )
            if c.appealed:
                verdict += f" → {self.tr(f'dash.verdict.{c.final}')}"
            by_referee = c.station == REFEREE_STATION
            instance = "referee" if by_referee and c.instance == "first" else c.instance
            rows.append(
                [
                    clock_text(c.at),
                    self.tr("dash.station.referee") if by_referee else c.station,
                    "" if c.round_no is None else str(c.round_no),
                    str(c.table_no),
                    ", ".join(c.words),
                    verdict,
                    c.variant,
                    self.tr(f"dash.instance.{instance}"),
                    c.challenger_name,
                    "−20" if c.penalised else "",
                ]
            )
        fill_table(
            checks,
            [(key, self.tr(f"dash.col.{key}")) for key in CHECK_COLUMNS],
            rows,
            keys=[c.key for c in data.checks],  # the cursor follows the chosen check
        )
        fill_table(
            self.query_one("#per-table", DataTable),
            [("table", self.tr("dash.col.table")), ("checks", self.tr("dash.col.checks"))],
            [[str(table), str(count)] for table, count in data.per_table.items()],
        )
        fill_table(
            self.query_one("#sss", DataTable),
            [(key, self.tr(f"dash.col.{key}")) for key in SSS_COLUMNS],
            [
                [
                    str(p["round"]),
                    str(p["table"]),
                    p["name"],
                    str(p["unjustified"]),
                    f"−{p['penalty']}" if p["penalty"] else "0",
                ]
                for p in data.penalties
            ],
        )
        show_sss = data.rules == "sss"
        self.query_one("#sss", DataTable).display = show_sss
        self.query_one("#sss-title").display = show_sss
        self._paint_requests()

    def _paint_requests(self) -> None:
        label = self.query_one("#requests", Label)
        if self.data is None or not self.data.requests:
            label.update(literal(self.tr("dash.requests.none")))
            label.set_classes("")
            return
        lines = [self.tr("dash.requests", n=len(self.data.requests))]
        for r in self.data.requests[:5]:
            reason = (
                self.tr(f"dash.reason.{r.reason}")
                if f"dash.reason.{r.reason}" in MESSAGES
                else r.reason
            )
            table = f"{self.tr('dash.col.table')} {r.table_no}" if r.table_no else ""
            lines.append(f"  {clock_text(r.at)}  {r.station}  {table}  {reason}")
        label.update(literal("\n".join(lines)))
        label.set_classes("flash" if self._flash else "alert")

    def _blink(self) -> None:
        self._flash = not self._flash
        if self.data is not None and self.data.requests:
            self._paint_requests()

    @on(Input.Changed, "#filter-round, #filter-table")
    def _filter(self) -> None:
        self.reload()

    def _selected(self) -> CheckRow | None:
        key = selected_key(self.query_one("#checks", DataTable))
        if key is None or self.data is None:
            return None
        return next((c for c in self.data.checks if c.key == key), None)

    def _check_text(self, c: CheckRow) -> str:
        """The check as the question names it: time, station, round, table, words."""
        round_text = self.tr("dash.round", n=c.round_no) if c.round_no is not None else ""
        return self.tr(
            "dash.confirm.check",
            time=clock_text(c.at),
            station=c.station,
            round=round_text,
            table=c.table_no,
            words=", ".join(c.words) or "—",
            verdict=self.tr(f"dash.verdict.{c.final}")
            if c.final in ("valid", "invalid", "referee", "refused")
            else c.final,
        )

    # -- actions ---------------------------------------------------------------------------
    def action_acknowledge(self) -> None:
        if self.data is None or not self.data.requests:
            return
        r = self.data.requests[0]  # the oldest call: the first line above the log
        question = self.tr(
            "dash.confirm.ack", time=clock_text(r.at), station=r.station, table=r.table_no or "—"
        )
        key = r.key
        self.confirm_then(lambda: question, lambda: self.service.acknowledge_request(key))

    def action_mark(self, which: int) -> None:
        check = self._selected()
        if check is None:
            return
        text = self._check_text(check)

        def prepare() -> str:
            if not which:
                return f"{text}\n{self.tr('dash.confirm.unmark')}"
            if check.round_no is None:
                raise ServiceError(self.tr("dash.mark.no_round"))
            players = self.service.table_players(check.round_no, check.table_no)
            player = players[0] if which == 1 else players[1]
            if player is None:
                raise ServiceError(self.tr("dash.mark.bye"))
            name = self.service.player_names().get(player, f"#{player}")
            return f"{text}\n{self.tr('dash.confirm.mark', name=name)}"

        key = check.key
        self.confirm_then(prepare, lambda: self.service.mark_challenger(key, which or None))

    def action_appeal(self, verdict: str) -> None:
        check = self._selected()
        if check is None:
            return
        question = (
            f"{self._check_text(check)}\n"
            f"{self.tr('dash.confirm.appeal', verdict=self.tr(f'dash.verdict.{verdict}'))}"
        )
        key = check.key
        self.confirm_then(lambda: question, lambda: self.service.record_appeal(key, verdict))

    def action_sanction(self) -> None:
        """The sanction the selected check suggests (a cross under ČAS, the SSS points, or
        taking back a cross an appeal reversed): named first, recorded on Enter."""
        check = self._selected()
        if check is None:
            return
        text, key = self._check_text(check), check.key

        def prepare() -> str:
            row = next((r for r in self.service.sanction_suggestions() if r.key == key), None)
            if row is None:
                raise ServiceError(Phrase("err.sanction.no_suggestion", key=key))
            if row.player is None:
                raise ServiceError(Phrase("err.sanction.challenger", key=key))
            what = self.tr(f"cli.sanction.suggest.{row.kind}", points=row.points, id=row.sanction)
            return f"{text}\n{self.tr('dash.confirm.sanction', name=row.name, what=what)}"

        def done(sanction: Any) -> None:
            status = self.tr(f"sanction.status.{sanction.status}")
            self.say(self.tr("dash.sanction.done", id=sanction.id, status=status))

        self.confirm_then(prepare, lambda: self.service.confirm_suggestion(key), done)

    def action_referee_check(self) -> None:
        """ČAS 13.17: the referee checks words for a player (see :mod:`hub.refcheck`)."""
        service, lang = self.service, self.lang

        def check(table: str, words: list[str]) -> HubCheck:
            return referee_check(service, table, words, lang=lang)

        def closed(made: int | None) -> None:
            if made:
                self.reload()

        self.app.push_screen(RefereeCheckDialog(check, lang), closed)

    def action_verify_receipt(self) -> None:
        """A disputed challenge: the receipt code from the scoresheet (hub/receipts.py)."""
        from samoobsluha.hub.screens.receipt import ReceiptDialog

        self.app.push_screen(ReceiptDialog(self.service, self.lang))


class RefereeCheckDialog(ModalScreen[int]):
    """Table and words, Enter: the kiosk's verdict, big; the words clear for the next play
    of the same table. Esc closes (with the number of checks made)."""

    DEFAULT_CSS = """
    RefereeCheckDialog { align: center middle; }
    RefereeCheckDialog > Vertical { width: 90%; max-width: 100; height: auto;
                                    border: thick $accent; padding: 1 2; background: $surface; }
    RefereeCheckDialog #refcheck-title { text-style: bold; width: 100%; }
    RefereeCheckDialog Horizontal { height: auto; }
    RefereeCheckDialog .prompt { width: auto; padding: 1 1 0 0; }
    RefereeCheckDialog #refcheck-verdict { width: 100%; text-style: bold; padding: 1 0 0 0; }
    RefereeCheckDialog #refcheck-verdict.valid { color: $success; }
    RefereeCheckDialog #refcheck-verdict.invalid { color: $error; }
    RefereeCheckDialog #refcheck-verdict.refused { color: $warning; }
    RefereeCheckDialog #refcheck-hint { width: 100%; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, check: Any, lang: str) -> None:
        super().__init__()
        self.check = check
        self.lang = lang
        self.made = 0
        self.busy = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(literal(t("dash.refcheck.title", self.lang)), id="refcheck-title")
            with Horizontal():
                yield Label(literal(t("dash.col.table", self.lang)), classes="prompt")
                yield Input(id="refcheck-table", restrict=r"[0-9]*", max_length=4)
                yield Label(literal(t("dash.col.words", self.lang)), classes="prompt")
                yield Input(id="refcheck-words", max_length=200)
            yield Label("", id="refcheck-verdict")
            yield Label(literal(t("dash.refcheck.hint", self.lang)), id="refcheck-hint")

    def on_mount(self) -> None:
        # the app's stylesheet sizes every Input for numbers; the words need the line
        self.query_one("#refcheck-words", Input).styles.width = "1fr"
        self.query_one("#refcheck-table", Input).focus()

    @on(Input.Submitted, "#refcheck-table")
    def _table_done(self, event: Input.Submitted) -> None:
        event.stop()
        self.query_one("#refcheck-words", Input).focus()

    @on(Input.Submitted, "#refcheck-words")
    def _words_done(self, event: Input.Submitted) -> None:
        event.stop()
        if self.busy:
            return
        table = self.query_one("#refcheck-table", Input).value.strip()
        words = split_words(event.value)
        self.busy = True
        self._run(table, words)

    @work(thread=True, exit_on_error=False, group="refcheck")
    def _run(self, table: str, words: list[str]) -> None:
        try:
            done: HubCheck | str = self.check(table, words)
        except (CheckRefused, ServiceError) as exc:
            done = error_text(exc, self.lang)
        except Exception as exc:  # storage: say it, never lose the dialog
            done = str(exc)
        self.app.call_from_thread(self._show, done)

    def _show(self, done: HubCheck | str) -> None:
        self.busy = False
        verdict = self.query_one("#refcheck-verdict", Label)
        if isinstance(done, str):
            verdict.update(literal(done))
            verdict.set_classes("refused")
            return
        self.made += 1
        verdict.update(literal(done.line(self.lang)))
        verdict.set_classes(done.status if done.status in ("valid", "invalid") else "refused")
        words = self.query_one("#refcheck-words", Input)
        words.value = ""
        words.focus()

    def action_close(self) -> None:
        self.dismiss(self.made)

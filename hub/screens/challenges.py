"""Challenges: every check from every station as it arrives, filtered by round and table;
checks per table; referee calls flashing until acknowledged; appeals (second instance);
under SSS rules each player's unjustified challenges and the 20-point penalty from the
third one on.

The kiosk knows the table, not which of the two players challenged; the referee says so
here (1 = the table's first player, 2 = its second) when it matters for the SSS count.

The cursor stays on the check the operator chose while new checks arrive above it, and
every action on a check or a referee call first names it (time, station, round, table,
words, player) and waits for a yes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label

from samoobsluha.hub.screens.base import (
    DashScreen,
    clock_text,
    fill_table,
    int_or_none,
    selected_key,
)
from samoobsluha.hub.service import CheckRow, RequestRow, ServiceError


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
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: ChallengesData | None = None
        self._flash = False

    def compose_body(self) -> ComposeResult:
        yield Label("", id="requests")
        with Horizontal(id="challenge-filters"):
            yield Label(self.tr("dash.filter.round"), classes="prompt")
            yield Input(id="filter-round", restrict=r"[0-9]*", max_length=3)
            yield Label(self.tr("dash.filter.table"), classes="prompt")
            yield Input(id="filter-table", restrict=r"[0-9]*", max_length=4)
        with Horizontal(id="challenge-body"):
            yield DataTable(id="checks", cursor_type="row", zebra_stripes=True)
            with Vertical(id="challenge-side"):
                yield Label(self.tr("dash.per_table"), classes="side-title")
                yield DataTable(id="per-table", cursor_type="none", show_cursor=False)
                yield Label(self.tr("dash.sss.title"), id="sss-title", classes="side-title")
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
            rows.append(
                [
                    clock_text(c.at),
                    c.station,
                    "" if c.round_no is None else str(c.round_no),
                    str(c.table_no),
                    ", ".join(c.words),
                    verdict,
                    c.variant,
                    self.tr(f"dash.instance.{c.instance}"),
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
            label.update(self.tr("dash.requests.none"))
            label.set_classes("")
            return
        lines = [self.tr("dash.requests", n=len(self.data.requests))]
        for r in self.data.requests[:5]:
            reason = (
                self.tr(f"dash.reason.{r.reason}")
                if r.reason in ("too_long", "rate_interval", "rate_cap")
                else r.reason
            )
            table = f"{self.tr('dash.col.table')} {r.table_no}" if r.table_no else ""
            lines.append(f"  {clock_text(r.at)}  {r.station}  {table}  {reason}")
        label.update("\n".join(lines))
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

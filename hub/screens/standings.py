"""Standings and pairings: both tables, pairing the next round, publishing pairings and
standings to the stations, printing (the engine's A4 HTML) and CSV, and the reasons for
any pair (``--explain``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label

from samoobsluha.hub.screens.base import DashScreen, fill_table, int_or_none
from samoobsluha.hub.service import ServiceError
from samoobsluha.shared.i18n import decimal
from samoobsluha.shared.textsafe import literal

_DECIMAL = re.compile(r"-?\d+\.\d+")


@dataclass
class StandingsData:
    round_no: int
    after: int
    columns: list[str]
    standings: list[dict[str, str]]
    pairing: list[dict[str, str]] | None
    notes: list[str]
    pending: list[dict[str, object]]  # tables the standings do not count yet


class StandingsScreen(DashScreen):
    TITLE_KEY = "dash.tab.standings"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "publish", "dash.act.publish"),
        Binding("n", "pair_next", "dash.act.pair"),
        Binding("h", "export('html')", "dash.act.html"),
        Binding("c", "export('csv')", "dash.act.csv"),
        Binding("e", "explain", "dash.act.explain"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.data: StandingsData | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="standings-head"):
            yield Label(literal(self.tr("dash.rounds.round")), classes="prompt")
            yield Input(id="standings-round", restrict=r"[0-9]*", max_length=3)
        with Horizontal(id="standings-body"):
            with Vertical():
                yield Label("", id="standings-title", classes="side-title")
                yield DataTable(id="standings", cursor_type="row", zebra_stripes=True)
            with Vertical():
                yield Label("", id="pairings-title", classes="side-title")
                yield DataTable(id="pairings", cursor_type="row", zebra_stripes=True)
        yield Label("", id="standings-pending")
        yield Label("", id="explain")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#pairings", DataTable).focus()

    def round_no(self) -> int:
        return int_or_none(self.query_one("#standings-round", Input).value) or 0

    def fetch(self) -> StandingsData:
        number = self.round_no() or self.service.current_round()
        # Standings with what round N has so far; before its first result, after N - 1.
        after = number if number and self.service.has_results(number) else max(number - 1, 0)
        columns, rows = self.service.standings_table(after_round=after)
        pairing: list[dict[str, str]] | None = None
        notes: list[str] = []
        if number:
            try:
                pairing, notes = self.service.pairing_table(number, self.lang)
            except ServiceError:
                pairing = None
        pending = self.service.unsettled(after)
        return StandingsData(number, after, columns, rows, pairing, notes, pending)

    def show(self, data: StandingsData) -> None:
        self.data = data
        field = self.query_one("#standings-round", Input)
        if not field.value and data.round_no:
            field.value = str(data.round_no)
        # the note (a player expelled from the event) only when somebody has one
        shown = [c for c in data.columns if c != "note" or any(r.get(c) for r in data.standings)]
        fill_table(
            self.query_one("#standings", DataTable),
            [(col, self._col(col)) for col in shown],
            [[self._cell(c, row[c]) for c in shown] for row in data.standings],
        )
        self.query_one("#standings-title", Label).update(
            literal(self.tr("dash.standings.after", n=data.after))
        )
        # a table missing or in conflict is pending, not a lost game: say so
        pending = self.query_one("#standings-pending", Label)
        pending.update(
            literal(
                self.tr(
                    "dash.standings.pending",
                    tables=", ".join(
                        self.tr(
                            "dash.standings.pending_table",
                            round=m["round"],
                            table=m["table"],
                            status=self.tr(f"dash.state.{m['status']}"),
                        )
                        for m in data.pending
                    ),
                )
                if data.pending
                else ""
            )
        )
        pending.display = bool(data.pending)
        title = self.query_one("#pairings-title", Label)
        pairing = data.pairing or []
        keys: tuple[str, ...] = ("table", "first", "second")
        if any("division" in row for row in pairing):  # a hall of several divisions
            keys = ("table", "division", "first", "second")
        columns = [(key, self.tr(f"dash.col.{key}")) for key in keys]
        fill_table(
            self.query_one("#pairings", DataTable),
            columns,
            [[row[key] for key in keys] for row in pairing],
        )
        if data.pairing is None:
            title.update(literal(self.tr("dash.no_pairing", n=data.round_no)))
        else:
            title.update(literal(self.tr("dash.pairings.of", n=data.round_no)))

    def _cell(self, col: str, cell: str) -> str:
        """A standings cell as the operator reads it: the machine note ``expelled`` in
        his language („vyloučen“), decimals in his form."""
        if col == "note":
            return self.tr("tour.expelled") if cell == "expelled" else cell
        return self._number(cell)

    def _number(self, cell: str) -> str:
        """Decimals in the operator's language: 1095.58 → 1 095,58 (cs, sk)."""
        if _DECIMAL.fullmatch(cell):
            digits = len(cell.partition(".")[2])
            return decimal(float(cell), self.lang, digits)
        return cell

    def _col(self, col: str) -> str:
        from samoobsluha.shared.i18n import MESSAGES

        key = f"tour.col.{col}"
        return self.tr(key) if key in MESSAGES else col

    @on(Input.Submitted, "#standings-round")
    def _round_changed(self) -> None:
        self.reload()

    # -- actions ---------------------------------------------------------------------------
    def action_explain(self) -> None:
        if self.data is None or not self.data.pairing:
            return
        pairings = self.query_one("#pairings", DataTable)
        index = pairings.cursor_row
        if not 0 <= index < len(self.data.pairing):
            return
        row = self.data.pairing[index]
        pair = f"{row['first']} – {row['second']}"
        lines = [self.tr("pair.explain.table", table=row["table"], why=pair)]
        lines += [f"  {clause}" for clause in row["reason"].splitlines()]
        lines += self.data.notes
        self.query_one("#explain", Label).update(literal("\n".join(lines)))

    def action_publish(self) -> None:
        if number := self.round_no():
            self.act(lambda: self.service.publish_to_stations(number), self._published)

    def _published(self, result: dict[str, Any]) -> None:
        sent = result["pairings"].get("sent_to") or []
        self.say(self.tr("dash.sent", stations=", ".join(sent) or self.tr("dash.nobody")))

    def action_pair_next(self) -> None:
        field = self.query_one("#standings-round", Input)

        asked: list[int] = []

        def question() -> str | None:
            # past the event's planned rounds: ask first, naming the round
            number = self.service.current_round() + 1
            planned = self.service.planned_rounds()
            if planned and number > planned:
                asked.append(number)
                return self.tr("dash.pair.beyond", round=number, rounds=planned)
            return None

        def pair() -> tuple[int, int]:
            number = asked[0] if asked else self.service.current_round() + 1
            return number, self.service.pair(number, beyond=bool(asked))

        def paired(result: tuple[int, int]) -> None:
            number, boards = result
            field.value = str(number)
            self.say(self.tr("dash.paired", n=number, boards=boards))

        self.confirm_then(question, pair, paired)

    def action_export(self, fmt: str) -> None:
        number = self.round_no()

        def export() -> list[str]:
            # a hall of several divisions: each division's standings, one file each
            divisions = self.service.divisions()
            groups: list[str | None] = list(divisions) if len(divisions) > 1 else [None]
            out = [
                str(self.service.export("standings", fmt, max(number - 1, 0), division=d))
                for d in groups
            ]
            if number:
                out.append(str(self.service.export("pairings", fmt, number)))
            return out

        self.act(export, lambda paths: self.say(self.tr("dash.saved", path=", ".join(paths))))

"""Categories and prizes (F12), read-only: the prize list — who wins which prize, ties
shared, a barred player (expelled) with the reason — and every category's standings, of one
division at a time (``d`` goes to the next when the hall has several). Everything comes
from :meth:`HubService.prizes_view`, i.e. the Tournament facade; nothing here writes
(``hub prize …`` and ``hub category …`` define them)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Label

from samoobsluha.hub.screens.base import DashScreen, fill_table
from samoobsluha.shared.textsafe import literal


class PrizesScreen(DashScreen):
    TITLE_KEY = "dash.tab.prizes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "next_division", "dash.act.next_division"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.division: str | None = None
        self.data: dict[str, Any] | None = None

    def compose_body(self) -> ComposeResult:
        yield Label("", id="prizes-state")
        yield Label("", id="prizes-title", classes="side-title")
        yield DataTable(id="prize-list", cursor_type="row", zebra_stripes=True)
        yield Label("", id="prizes-barred")
        yield Label("", id="categories-title", classes="side-title")
        yield DataTable(id="category-standings", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#prize-list", DataTable).focus()

    def fetch(self) -> dict[str, Any]:
        return self.service.prizes_view(self.division)

    def show(self, data: dict[str, Any]) -> None:
        self.data = data
        self.division = data["division"]
        self.refresh_bindings()
        several = len(data["divisions"]) > 1
        state = self.tr("dash.prizes.final") if data["over"] else self.tr("cli.prize.not_over")
        if several:
            state = self.tr(
                "dash.prizes.division",
                division=data["division"],
                divisions=", ".join(data["divisions"]),
                state=state,
            )
        self.query_one("#prizes-state", Label).update(literal(state))
        prizes = data["prizes"]
        # a column nobody has a value in (no tie: nobody's share) is left out
        cols = [
            c for c in data["prize_columns"] if c in ("award", "name") or any(r[c] for r in prizes)
        ]
        fill_table(
            self.query_one("#prize-list", DataTable),
            [(c, self.tr(f"tour.col.{c}")) for c in cols],
            [[row[c] for c in cols] for row in prizes],
        )
        # who may take no prize, and why: whole, even where the table is cut at 80 columns
        barred = [r for r in prizes if r["note"]]
        note = self.query_one("#prizes-barred", Label)
        note.update(literal("\n".join(f"{r['name']}: {r['award']} — {r['note']}" for r in barred)))
        note.display = bool(barred)
        self.query_one("#prizes-title", Label).update(
            literal(
                self.tr("dash.prizes.title", n=data["after"])
                if prizes
                else self.tr("dash.prizes.none")
            )
        )
        categories = data["categories"]
        ccols = data["category_columns"]
        fill_table(
            self.query_one("#category-standings", DataTable),
            [(c, self.tr(f"tour.col.{c}")) for c in ccols],
            [[row[c] for c in ccols] for row in categories],
        )
        self.query_one("#categories-title", Label).update(
            literal(
                self.tr("dash.prizes.categories")
                if categories
                else self.tr("dash.prizes.no_categories")
            )
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``d`` (the next division) only in a hall of several: hidden otherwise."""
        if action == "next_division":
            return self.data is not None and len(self.data["divisions"]) > 1
        return True

    def action_next_division(self) -> None:
        if self.data is None or len(self.data["divisions"]) < 2:
            return
        divisions = self.data["divisions"]
        self.division = divisions[(divisions.index(self.data["division"]) + 1) % len(divisions)]
        self.reload()

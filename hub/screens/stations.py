"""Stations: who is online, their clocks, lexicons, versions, backlogs and last signals,
and a warning when the hall has fewer stations than ČAS 15.8e requires."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Label

from samoobsluha.hub.screens.base import DashScreen, clock_text, fill_table
from samoobsluha.hub.service import StationReport

COLUMNS = ("station", "state", "seen", "offset", "lexicon", "version", "backlog", "signal")


class StationsScreen(DashScreen):
    TITLE_KEY = "dash.tab.stations"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("z", "rehearse", "rehearse.dash.key"),  # hub rehearse (hub/rehearse.py)
    ]

    def action_rehearse(self) -> None:
        from samoobsluha.hub.rehearse import rehearse_for_dashboard

        self.say(self.tr("rehearse.dash.running"))
        self.act(lambda: rehearse_for_dashboard(self.service, self.lang), self._rehearsed)

    def _rehearsed(self, done: dict[str, Any]) -> None:
        """The verdict under the table, one line per station, and the A4 page's path."""
        label = self.query_one("#rehearsal", Label)
        label.update("\n".join([*done["lines"], self.tr("dash.saved", path=done["path"])]))
        label.display = True
        self.say(done["verdict"], error=not done["go"])

    def compose_body(self) -> ComposeResult:
        yield Label("", id="stations-summary")
        yield Label("", id="stations-warnings")
        yield DataTable(id="stations", cursor_type="row", zebra_stripes=True)
        yield Label("", id="rehearsal")

    def on_mount(self) -> None:
        self.query_one("#rehearsal", Label).display = False
        super().on_mount()

    def fetch(self) -> StationReport:
        return self.service.stations()

    def show(self, report: StationReport) -> None:
        self.query_one("#stations-summary", Label).update(
            self.tr(
                "dash.stations.summary",
                players=report.players,
                required=report.required,
                online=report.online,
                total=len(report.rows),
            )
            if report.rows
            else self.tr("dash.stations.none")
        )
        warnings = self.query_one("#stations-warnings", Label)
        warnings.update("\n".join(f"⚠ {w}" for w in report.warnings))
        warnings.display = bool(report.warnings)
        rows = []
        for r in report.rows:
            lex = {True: "dash.lex.ok", False: "dash.lex.bad", None: "dash.lex.unknown"}[
                r.lexicon_ok
            ]
            seen = self.tr("dash.ago", s=int(r.seen_ago)) if r.seen_ago is not None else ""
            offset = f"{r.clock_offset:+.3f} s" + ("" if r.clock_synced else " ✗")
            rows.append(
                [
                    r.station_id,
                    self.tr("dash.online" if r.online else "dash.offline"),
                    f"{clock_text(r.last_seen)} ({seen})" if r.last_seen else "",
                    offset,
                    f"{self.tr(lex)} {(r.lexicon_sha256 or '')[:8]}",
                    r.version,
                    "" if r.backlog is None else str(r.backlog),
                    r.last_signal,
                ]
            )
        fill_table(
            self.query_one("#stations", DataTable),
            [(key, self.tr(f"dash.col.{key}")) for key in COLUMNS],
            rows,
            keys=[r.station_id for r in report.rows],
        )

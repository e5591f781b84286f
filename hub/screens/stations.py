"""Stations: who is online, their clocks, lexicons, versions, backlogs and last signals,
and a warning when the hall has fewer stations than ČAS 15.8e requires."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Label

from samoobsluha.hub.screens.base import DashScreen, clock_text, fill_table
from samoobsluha.hub.service import StationReport

COLUMNS = ("station", "state", "seen", "offset", "lexicon", "version", "backlog", "signal")


class StationsScreen(DashScreen):
    TITLE_KEY = "dash.tab.stations"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "qr", show=False)]
    screen_urls: list[str] | None = None  # the hall screen's addresses (None: no server)

    def compose_body(self) -> ComposeResult:
        yield Label("", id="stations-summary")
        yield Label("", id="screen-address")
        yield Label("", id="stations-warnings")
        yield DataTable(id="stations", cursor_type="row", zebra_stripes=True)

    def fetch(self) -> tuple[StationReport, list[str] | None]:
        from samoobsluha.hub.screen.qr import screen_urls

        return self.service.stations(), screen_urls(self.service)

    def show(self, data: tuple[StationReport, list[str] | None]) -> None:
        report, self.screen_urls = data
        address = self.query_one("#screen-address", Label)
        if self.screen_urls:
            address.update(
                self.tr("screen.address", url="  ".join(self.screen_urls))
                + " · "
                + self.tr("screen.address.qr_key")
            )
        else:
            address.update(self.tr("screen.address.off"))
        address.display = self.screen_urls is not None  # nothing to say without a server
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

    def action_qr(self) -> None:
        if self.screen_urls:
            from samoobsluha.hub.screens.qr import QrScreen

            self.app.push_screen(QrScreen(self.screen_urls[0], self.lang))

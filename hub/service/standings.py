"""Standings and pairings: the standings table and what it does not count yet, pairing a
round (Swiss) and its table with the reasons, what the stations show for a round and
publishing it to them, and the exports (CSV, A4 HTML, PDF) the director prints."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.hub.tournament import exports
from samoobsluha.shared.i18n import Phrase, localize


class StandingsArea(ServiceCore):
    """Standings, pairings, what the stations show, exports."""

    def standings_table(
        self, after_round: int | None = None
    ) -> tuple[list[str], list[dict[str, str]]]:
        with self._tour() as tour:
            rules = tour.rules
            table = tour.standings(after_round=after_round)
            return exports.standings_columns(rules), exports.standings_rows(table, rules)

    def unsettled(self, after_round: int | None = None) -> list[dict[str, Any]]:
        """Tables that standings after ``after_round`` do not count yet (missing, or in
        conflict): round, table, names, status — shown beside the standings."""
        with self._tour() as tour:
            return tour.unsettled(after_round)

    def pairing_table(
        self, round_no: int, lang: str | None = None
    ) -> tuple[list[dict[str, str]], list[str]]:
        """(rows with table/first/second/reason, notes) of a stored pairing; the reasons
        (one clause a line) and notes in ``lang`` (default: the service's)."""
        lang = lang or self.lang
        with self._tour() as tour:
            pairing = tour.pairing(round_no)
            names = {p.id: p.name for p in tour.players()}
        rows = [
            {
                "table": str(b.table),
                "first": names.get(b.first, f"#{b.first}"),
                "second": names.get(b.second, "") if b.second is not None else "—",
                "reason": "\n".join(localize(c, lang) for c in b.why),
            }
            for b in pairing.boards
        ]
        return rows, [localize(note, lang) for note in pairing.notes]

    def pair(
        self, round_no: int, *, seed: int | None = None, force: bool = False, beyond: bool = False
    ) -> int:
        with self._tour() as tour:
            return len(
                tour.pair(round_no, seed=seed, force=force, beyond=beyond, who=self.who).boards
            )

    def planned_rounds(self) -> int:
        """The rounds the event plans (0: not set); pairing past them asks first."""
        with self._tour() as tour:
            return int(tour.settings()["rounds"])

    def station_payloads(self, round_no: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """What the stations show for ``round_no``: (pairings, standings). The standings
        are those after the last *published* round before it, as on the hall screen:
        players never see results the operator has not published (a conflict there
        would silently be no game)."""
        with self._tour() as tour:
            pairing = tour.pairing(round_no)
            players = {p.id: p for p in tour.players()}
            after = max(
                (r for r in range(1, round_no) if tour.round_state(r)["published_at"] is not None),
                default=0,
            )
            table = tour.standings(after_round=after)
            rules = tour.rules
        pairings = exports.station_json(pairing, players, table)
        standings = {
            "round": after,
            "columns": exports.standings_columns(rules),
            "rows": exports.standings_rows(table, rules),
        }
        return pairings, standings

    def publish_to_stations(self, round_no: int) -> dict[str, Any]:
        """Publish round ``round_no``'s pairings: its pairings and the standings before it
        to every station (``hub publish-pairings N``, the standings screen's ``p``); the
        hall screen shows the pairing the stations have. Not the round's results: that is
        :meth:`publish_round`."""
        pairings, standings = self.station_payloads(round_no)
        return {
            "pairings": self.control("publish", kind="pairings", data=pairings),
            "standings": self.control("publish", kind="standings", data=standings),
        }

    def _print_link(self) -> exports.ScreenLink | None:
        """The hall screen's address, the players' Wi-Fi and their QR codes for the printed
        pairings ({} when no hub with the screen runs); the exports take them as data."""
        from samoobsluha.hub.web.qr import print_link

        return print_link(self)

    def export(
        self, what: str, fmt: str, round_no: int | None = None, lang: str | None = None
    ) -> Path:
        """Write standings, pairings or results as ``csv`` (for Excel, in ``lang``),
        ``html`` (A4) or ``pdf`` (the A4 page printed by headless Chromium) under
        ``<data>/exports`` (the same as ``hub export``); ``lang``: default the service's."""
        lang = lang or self.lang
        if what not in ("standings", "pairings", "results"):
            raise ServiceError(Phrase("err.export", what=what))
        pdf = fmt == "pdf"
        fmt = "html" if pdf else fmt
        with self._tour() as tour:
            last = round_no if round_no is not None else tour.last_round()
            try:
                link = self._print_link() if what == "pairings" and fmt == "html" else None
                day = datetime.fromtimestamp(self.clock.now()).date()  # the hub's day
                text = exports.render(tour, what, fmt, round_no=last, lang=lang, link=link, day=day)
            except ValueError as exc:
                raise ServiceError(str(exc)) from exc
        folder = self.data / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        if pdf:
            from samoobsluha.hub.printpdf import html_to_pdf

            return html_to_pdf(text, folder / f"{what}-{last}.pdf")
        path = folder / f"{what}-{last}.{fmt}"
        path.write_text(text, encoding="utf-8")
        return path

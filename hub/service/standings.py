"""Standings and pairings: the standings table and what it does not count yet, pairing a
round (Swiss) and its table with the reasons, what the stations show for a round and
publishing it to them, and the exports (CSV, A4 HTML, PDF) the director prints."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import TournamentError
from samoobsluha.shared.i18n import Phrase, localize


class StandingsArea(ServiceCore):
    """Standings, pairings, what the stations show, exports."""

    def standings_table(
        self, after_round: int | None = None
    ) -> tuple[list[str], list[dict[str, str]]]:
        with self._tour() as tour:
            rules = tour.rules
            if len(tour.divisions()) == 1:
                table = tour.standings(after_round=after_round)
                return exports.standings_columns(rules), exports.standings_rows(table, rules)
            # a hall of several divisions: each division's table after the other, ranks
            # its own, the division in the first column
            table = tour.hall_standings(after_round=after_round)
            rows = exports.division_rows(exports.standings_rows(table, rules), table)
            return ["division", *exports.standings_columns(rules)], rows

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
            divisions = tour.board_divisions(round_no) if len(tour.divisions()) > 1 else {}
        rows = [
            {
                "table": str(b.table),
                "first": names.get(b.first, f"#{b.first}"),
                "second": names.get(b.second, "") if b.second is not None else "—",
                "reason": "\n".join(localize(c, lang) for c in b.why),
            }
            for b in pairing.boards
        ]
        for row in rows if divisions else []:  # a hall of several: whose each table is
            row["division"] = divisions[int(row["table"])]
        return rows, [localize(note, lang) for note in pairing.notes]

    def pair(
        self, round_no: int, *, seed: int | None = None, force: bool = False, beyond: bool = False
    ) -> int:
        with self._tour() as tour:
            # the dashboard pairs the hall: every division, each on its own, tables across;
            # none is paired while another would be refused for its previous round
            if not force and round_no > 1:
                for d in tour.divisions():
                    if missing := tour.missing_results(round_no - 1, division=d):
                        tables = ", ".join(str(m["table"]) for m in missing)
                        raise TournamentError(
                            Phrase("err.tour.incomplete", round=round_no - 1, tables=tables)
                        )
            pairings = [
                tour.pair(round_no, seed=seed, force=force, beyond=beyond, division=d, who=self.who)
                for d in tour.divisions()
            ]
            return sum(len(p.boards) for p in pairings)

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
            many = len(tour.divisions()) > 1
            table = tour.hall_standings(after_round=after)
            rules = tour.rules
            published = tour.published_rounds()
        pairings = exports.station_json(pairing, players, table, divisions=many)
        rows = exports.standings_rows(table, rules)
        if many:  # ranks are per division: each row says whose
            rows = exports.division_rows(rows, table)
        standings = {
            "round": after,
            "columns": exports.standings_columns(rules),
            "rows": rows,
            "published": published,  # the rounds whose results stand (the kiosks' withdrawal)
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

    def divisions(self) -> list[str]:
        """The hall's divisions (one, ``A``, unless the director made several)."""
        with self._tour() as tour:
            return tour.divisions()

    def export(
        self,
        what: str,
        fmt: str,
        round_no: int | None = None,
        lang: str | None = None,
        division: str | None = None,
    ) -> Path:
        """Write standings, pairings or results as ``csv`` (for Excel, in ``lang``),
        ``html`` (A4) or ``pdf`` (the A4 page printed by headless Chromium) under
        ``<data>/exports`` (the same as ``hub export``); ``lang``: default the service's.
        ``division``: that division's (its name in the file's: ``standings-OPEN-3.html``)."""
        lang = lang or self.lang
        if what not in ("standings", "pairings", "results"):
            raise ServiceError(Phrase("err.export", what=what))
        pdf = fmt == "pdf"
        fmt = "html" if pdf else fmt
        with self._tour() as tour:
            last = round_no if round_no is not None else tour.last_round(division)
            try:
                link = self._print_link() if what == "pairings" and fmt == "html" else None
                day = datetime.fromtimestamp(self.clock.now()).date()  # the hub's day
                text = exports.render(
                    tour,
                    what,
                    fmt,
                    round_no=last,
                    lang=lang,
                    link=link,
                    day=day,
                    division=division,
                )
            except ValueError as exc:
                raise ServiceError(*exc.args) from exc  # a Phrase stays one
        folder = self.data / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        part = f"-{division}" if division else ""
        if pdf:
            from samoobsluha.hub.printpdf import html_to_pdf

            return html_to_pdf(text, folder / f"{what}{part}-{last}.pdf")
        path = folder / f"{what}{part}-{last}.{fmt}"
        path.write_text(text, encoding="utf-8")
        return path

    def prizes_view(self, division: str | None = None) -> dict[str, Any]:
        """What the dashboard's prizes screen shows of ``division`` (default: the first;
        in a hall of several each division is given the prize table on its own): the prize
        list (``exports.prize_rows`` in the service's language, barred players included),
        every category's standings (``exports.category_rows``), the divisions, and whether
        the event is over (before that the list follows the standings so far). Read-only:
        everything comes from the Tournament facade."""
        with self._tour() as tour:
            divisions = tour.divisions()
            chosen = division if division in divisions else divisions[0]
            rules = tour.rules
            players = {p.id: p for p in tour.players()}
            awards = tour.prize_list(division=chosen)
            categories = [
                (c.name, tour.category_standings(c.name, division=chosen))
                for c in tour.prize_book.categories()
            ]
            return {
                "divisions": divisions,
                "division": chosen,
                "over": tour.event_over(),
                "after": tour.last_scored_round(chosen),
                "prize_columns": exports.PRIZE_COLUMNS,
                "prizes": exports.prize_rows(awards, players, self.lang),
                "category_columns": ["category", "rank", "overall", "name", "wins"],
                "categories": [
                    {"category": name, **row}
                    for name, table in categories
                    for row in exports.category_rows(table, rules, self.lang)
                ],
            }

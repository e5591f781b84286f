"""Results of a round: fast entry of scoresheets, the
round's tables as the Results screen shows them, disputes (late entries differing from a
published result), publishing a round (its protest window and the standings after it to
every station) and approving it final."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.i18n import MESSAGES, Phrase, decimal, t


@dataclass
class TableRow:
    table: int
    first: int
    second: int | None
    first_name: str
    second_name: str
    state: str  # in | pending | one_sided | missing | conflict | dispute | bye
    score_first: int | None = None
    score_second: int | None = None
    sources: list[str] = field(default_factory=list)
    result_status: str = ""
    disputes: list[DisputeRow] = field(default_factory=list)


@dataclass
class DisputeRow:
    """A late entry that differs from a published result (hub/tournament/intake.py): the
    result stands until the operator keeps it or takes this entry."""

    id: int
    round_no: int
    table: int
    source: str
    who: str
    at: float
    score_first: int | None  # the entry's scores, in the pairing's order
    score_second: int | None
    result_first: int | None  # the result it disputes
    result_second: int | None
    first_name: str = ""
    second_name: str = ""

    @classmethod
    def of(cls, tour: Any, d: dict[str, Any], names: dict[int, str]) -> DisputeRow:
        """The row of dispute record ``d`` (``Tournament.disputes``), its table's names
        from ``names`` (player id → name)."""
        board = tour.book.board(d["round"], d["table_no"])
        result = d["result"] or {}
        return cls(
            d["id"],
            d["round"],
            d["table_no"],
            d["source"],
            d["who"],
            d["at"],
            d["s_first"],
            d["s_second"],
            result.get("s_first"),
            result.get("s_second"),
            names.get(board["first"], ""),
            names.get(board["second"], ""),
        )


@dataclass
class RoundResults:
    round_no: int
    tables: list[TableRow]
    published_at: float | None
    final_at: float | None
    protest_closes: float | None
    protests: int
    station_errors: list[str] = field(default_factory=list)
    disputes: list[DisputeRow] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(1 for t in self.tables if t.state == state)


@dataclass
class EntryEcho:
    """What fast entry echoes back: both names, the scores, the outcome, new totals."""

    round_no: int
    entry: Entry
    first_name: str
    second_name: str
    outcome: str
    warnings: list[str]
    totals: dict[str, tuple[float, int]]  # name -> (wins, spread) after the entry

    def line(self, lang: str = "cs") -> str:
        """The echo in ``lang``: the outcome in words, wins with the decimal comma."""
        totals = ", ".join(
            f"{name} {decimal(float(w), lang)} ({spread:+d})"
            for name, (w, spread) in self.totals.items()
        )
        key = f"dash.outcome.{self.outcome}"
        outcome = t(key, lang) if key in MESSAGES else self.outcome
        started = (
            " [" + t("dash.entry.started", lang, name=self.second_name) + "]"
            if self.entry.second_started
            else ""
        )
        return (
            f"{self.entry.table}: {self.first_name} {self.entry.score_first} – "
            f"{self.entry.score_second} {self.second_name}{started} · {outcome} · {totals}"
        )


class ResultsArea(ServiceCore):
    """Result entry, disputes, publication and approval."""

    @staticmethod
    def _board(tour: Tournament, round_no: int, table: int) -> tuple[int, int]:
        for b in tour.pairing(round_no).boards:
            if b.table == table:
                if b.second is None:
                    raise ServiceError(Phrase("err.tour.table_bye", round=round_no, table=table))
                return b.first, b.second
        raise ServiceError(Phrase("err.no_table", round=round_no, table=table))

    def has_results(self, round_no: int) -> bool:
        with self._db() as db:
            row = db.execute(
                "SELECT COUNT(*) FROM tour_results WHERE round = ?", [round_no]
            ).fetchone()
        return bool(row[0])

    def round_results(self, round_no: int) -> RoundResults:
        with self._tour() as tour:
            names = {p.id: p.name for p in tour.players()}
            pairing = tour.pairing(round_no)
            results = {r["table_no"]: r for r in tour.results(round_no)}
            state = tour.round_state(round_no)
            protest_minutes = tour.settings()["protest_minutes"]
            errors = [
                error for _, error in sync_store.result_intake(tour.db, round_no).values() if error
            ]
            disputes = self._disputes(tour, round_no)
            one_sided = tour.one_sided(round_no)
        by_table: dict[int, list[DisputeRow]] = {}
        for d in disputes:
            by_table.setdefault(d.table, []).append(d)
        tables = []
        for b in pairing.boards:
            r = results.get(b.table)
            row = TableRow(
                b.table,
                b.first,
                b.second,
                names.get(b.first, f"#{b.first}"),
                names.get(b.second, "") if b.second is not None else "",
                "missing",
            )
            if b.second is None:
                row.state = "bye"
            elif r is None and b.table in one_sided:
                # only one player confirmed it at the kiosk: shown, not entered
                value = one_sided[b.table]
                row.state = "one_sided"
                row.score_first, row.score_second = value["s_first"], value["s_second"]
                row.sources = ["station"]
            elif r is not None:
                row.score_first, row.score_second = r["s_first"], r["s_second"]
                row.sources = json.loads(r["sources"] or "[]")
                row.result_status = r["status"]
                if r["status"] == "conflict":
                    row.state = "conflict"
                elif r["status"] in ("confirmed", "final") or "operator" in row.sources:
                    row.state = "in"
                else:
                    row.state = "pending"  # a station's entry waiting for the scoresheet
                if b.table in by_table:
                    row.state = "dispute"  # the published result stands until resolved
                    row.disputes = by_table[b.table]
            tables.append(row)
        published = state["published_at"]
        return RoundResults(
            round_no,
            tables,
            published,
            state["final_at"],
            published + protest_minutes * 60 if published is not None else None,
            state["protests"],
            errors,
            disputes,
        )

    @staticmethod
    def _disputes(tour: Tournament, round_no: int | None) -> list[DisputeRow]:
        names = {p.id: p.name for p in tour.players()}
        return [DisputeRow.of(tour, d, names) for d in tour.disputes(round_no)]

    def disputes(self, round_no: int | None = None) -> list[DisputeRow]:
        """Open disputes (late entries differing from published results), oldest first."""
        with self._tour() as tour:
            return self._disputes(tour, round_no)

    def resolve_dispute(self, dispute_id: int, *, take: bool) -> str:
        """Keep the published result or take the disputed entry: one audited action.
        Returns the outcome (``unchanged`` or ``corrected``)."""
        with self._tour() as tour:
            return tour.resolve_dispute(dispute_id, take=take, who=self.who).status

    def enter_result(
        self, round_no: int, entry: Entry, *, correct: bool = False, confirm: bool = False
    ) -> EntryEcho:
        """Fast entry of one scoresheet (tsh ``a`` mode). An implausible entry (above the
        tournament's maximum score, a played 0:0) raises :class:`ConfirmationNeeded` unless
        ``confirm``."""
        with self._tour() as tour:
            first, second = self._board(tour, round_no, entry.table)
            outcome = tour.record_result(
                round_no,
                entry.table,
                first,
                second,
                entry.score_first,
                entry.score_second,
                second if entry.second_started else first,
                source="operator",
                who=self.who,
                correct=correct,
                confirm=confirm,
            )
            division = tour.table_division(round_no, entry.table)
            standings = {
                s.player.id: s for s in tour.standings(after_round=round_no, division=division)
            }
            names = {p.id: p.name for p in tour.players()}
        totals = {
            names[pid]: (standings[pid].wins, standings[pid].spread)
            for pid in (first, second)
            if pid in standings
        }
        return EntryEcho(
            round_no,
            entry,
            names[first],
            names[second],
            outcome.status,
            outcome.warnings,
            totals,
        )

    def publish_round(self, round_no: int) -> dict[str, Any]:
        """Publish round ``round_no``: ONE operation whichever key or command starts it
        (the dashboard's F6, ``hub publish-round N``, ``hub tournament publish N``).

        The round's results are published (refused while a table is missing or in
        conflict) and its protest window starts — once: publishing again keeps the
        window and only sends again; the standings after the round go to every station
        (through the running server, or stored for it to send when it runs); the hall
        screen shows them at once (it reads the same record)."""
        with self._tour() as tour:
            first = tour.publish(round_no, who=self.who)
            table = tour.hall_standings(after_round=round_no)
            many = len(tour.divisions()) > 1
            rules = tour.rules
            closes = tour.book.protest_closes(round_no)
            published = tour.published_rounds()
        rows = exports.standings_rows(table, rules)
        standings = {
            "round": round_no,
            "columns": exports.standings_columns(rules),
            "rows": exports.division_rows(rows, table) if many else rows,
            # the rounds whose results stand: a kiosk no longer offers their withdrawal
            "published": published,
        }
        return {
            "round": round_no,
            "published": first,
            "protest_closes": closes,
            "standings": self._send("standings", standings),
        }

    def publish_results(self, round_no: int) -> dict[str, Any]:
        """The same as :meth:`publish_round` (its older name)."""
        return self.publish_round(round_no)

    def _send(self, kind: str, data: Any) -> dict[str, Any]:
        """An item for the stations: through the running server, or — with none running —
        stored where the server sends it from to every station that connects."""
        if self.server_running():
            return dict(self.control("publish", kind=kind, data=data))
        with self._db() as db:
            digest = hashlib.sha256(repr(data).encode()).hexdigest()[:12]
            item = f"{kind}:{int(self.clock.now() * 1000)}:{digest}"
            sync_store.save_published(db, kind, item, data, self.clock.now())
        return {"id": item, "sent_to": [], "stored": True}

    def finalise(self, round_no: int, *, early: bool = False) -> int:
        with self._tour() as tour:
            return tour.finalise(round_no, early=early, who=self.who)

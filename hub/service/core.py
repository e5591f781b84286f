"""What the dashboard (and ``hub`` subcommands) do, in one facade with plain data out.

The screens never touch SQLite or the network: they call :class:`HubService` from thread
workers. The service reads the hub database (``data_dir()/hub.db``: the tournament tables
of :mod:`hub.tournament`, the sync tables of :mod:`hub.store`, and its own
``Migrations("hub.dashboard")`` below) and reaches the running ``hub serve`` through its
local control socket (:mod:`hub.control`) for everything that goes to the stations.

Every method is blocking and opens its own connection, so any thread may call any method.

The dashboard's own tables:

``dash_marks``    which player made a word challenge (the kiosk knows only the table)
``dash_appeals``  second-instance decisions the chief referee recorded on the hub
``dash_acks``     referee requests acknowledged on the hub
``dash_applied``  (no longer written: the hub server enters station results on receipt,
                  see ``result_intake`` in :mod:`hub.store`)
``dash_settings`` the day's timetable and other dashboard settings
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.entry import Entry
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament import store as tour_store
from samoobsluha.hub.tournament.facade import NeedsConfirmation, Tournament, TournamentError
from samoobsluha.hub.tournament.pairing import PairingError
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.i18n import MESSAGES, Phrase, decimal, localize, t
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.storage import Database, open_db

migrations = Migrations("hub.dashboard")


@migrations()
def m001_dashboard(db: sqlite_utils.Database) -> None:
    db.table("dash_marks").create(
        {"key": str, "challenger": int, "at": float, "who": str}, pk="key", not_null={"at"}
    )
    db.table("dash_appeals").create(
        {"id": int, "key": str, "verdict": str, "note": str, "at": float, "who": str},
        pk="id",
        not_null={"key", "verdict", "at"},
    )
    db.table("dash_acks").create({"key": str, "at": float, "who": str}, pk="key")
    db.table("dash_applied").create(
        {"key": str, "at": float, "outcome": str, "error": str}, pk="key", not_null={"at"}
    )
    db.table("dash_settings").create({"key": str, "value": str}, pk="key")


class ServiceError(Exception):
    """A request the hub refused or could not carry out; the message says why."""


class ConfirmationNeeded(ServiceError):
    """A result entry that is possible but implausible: the message says why; entered
    again with ``confirm=True`` it is stored."""


# -- plain data the screens show ------------------------------------------------------------


@dataclass
class TableRow:
    table: int
    first: int
    second: int | None
    first_name: str
    second_name: str
    state: str  # in | pending | missing | conflict | dispute | bye
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


# -- the facade -------------------------------------------------------------------------------


class ServiceCore:
    """What every area of :class:`hub.service.HubService` shares. ``data``: the data
    directory (default :func:`shared.paths.data_dir`); ``control_path``: the running
    server's control socket (default ``<data>/hub.sock``)."""

    def __init__(
        self,
        data: Path | str | None = None,
        *,
        clock: Clock | None = None,
        control_path: Path | str | None = None,
        who: str = "operator",
        boot_id: str | None = None,
        lang: str = "cs",
    ) -> None:
        self.data = Path(data) if data is not None else data_dir()
        self.boot_id = boot_id  # None: the kernel's (tests inject one)
        self.lang = lang
        self.db_path = self.data / "hub.db"
        self.control_path = Path(control_path) if control_path else self.data / "hub.sock"
        self.clock: Clock = clock or SystemClock()
        self.who = who

    # -- plumbing -------------------------------------------------------------------------
    def prepare(self) -> None:
        """Create the hub database and every table once, before threads and the server
        open it concurrently (two first-time migrations at once would collide)."""
        with self._db():
            pass

    @contextlib.contextmanager
    def _db(self) -> Iterator[Database]:
        db = open_db(self.db_path, tour_store.migrations, sync_store.migrations, migrations)
        try:
            yield db
        finally:
            db.close()

    @contextlib.contextmanager
    def _tour(self) -> Iterator[Tournament]:
        with self._db() as db:
            try:
                yield Tournament(db, self.clock)
            except NeedsConfirmation as exc:
                raise ConfirmationNeeded(*exc.args) from exc
            except (TournamentError, PairingError) as exc:
                raise ServiceError(*exc.args) from exc  # a Phrase stays one

    def control(self, op: str, timeout: float = 10.0, **args: Any) -> Any:
        """One request to the running ``hub serve``."""
        from samoobsluha.hub.control import ControlError, request

        try:
            return request(op, path=self.control_path, timeout=timeout, **args)
        except ControlError as exc:
            raise ServiceError(*exc.args) from exc
        except OSError as exc:
            raise ServiceError(Phrase("err.no_answer", error=str(exc))) from exc

    def server_running(self) -> bool:
        try:
            self.control("info", timeout=2.0)
        except ServiceError:
            return False
        return True

    # -- tournament -----------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        with self._tour() as tour:
            settings = tour.settings()
            players = tour.players()
            settings["players"] = len(players)
            settings["checked_in"] = sum(1 for p in players if p.checked_in)
            settings["last_round"] = tour.last_round()
            settings["disputes"] = len(tour.disputes())
            return settings

    def current_round(self) -> int:
        """The round being played: the last paired one (0 before any pairing)."""
        with self._tour() as tour:
            return tour.last_round()

    def player_names(self) -> dict[int, str]:
        with self._tour() as tour:
            return {p.id: p.name for p in tour.players()}

    # -- results -----------------------------------------------------------------------------------
    def apply_station_results(self, lang: str | None = None) -> list[str]:
        """Enter station results (inbox kind ``result``) not entered yet into the
        tournament. The hub server does this as it receives them; this catches up rows
        stored by an older hub. Returns one line per row handled (refusals included), in
        ``lang`` (default: the service's)."""
        lang = lang or self.lang
        with self._db() as db:
            done = sync_store.apply_results(db, self.clock.now())
        lines = []
        for key, outcome, error in done:
            if error:
                lines.append(t("cli.pull.refused", lang, key=key, error=error))
            else:
                known = f"dash.outcome.{outcome}"
                lines.append(f"{key}: {t(known, lang) if known in MESSAGES else outcome}")
        return lines

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
            standings = {s.player.id: s for s in tour.standings(after_round=round_no)}
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
            table = tour.standings(after_round=round_no)
            rules = tour.rules
            closes = tour.book.protest_closes(round_no)
        standings = {
            "round": round_no,
            "columns": exports.standings_columns(rules),
            "rows": exports.standings_rows(table, rules),
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

    # -- standings and pairings ------------------------------------------------------------------
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

    def pair(self, round_no: int, *, seed: int | None = None, force: bool = False) -> int:
        with self._tour() as tour:
            return len(tour.pair(round_no, seed=seed, force=force, who=self.who).boards)

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

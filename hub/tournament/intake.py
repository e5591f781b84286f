"""The result lifecycle: the one place a table's result changes state.

Every input goes through :class:`ResultBook` — an operator's entry (the dashboard's F4,
``hub enter``, ``hub result add``), a station's entry (handed over by the sync layer as
:class:`StationResult` through :func:`enter_station_results`), a correction, publication,
a protest, finalisation, and the resolution of a dispute. The states and what each input
does in each of them are the table in ``docs/tournament.md``; in short::

    (none) ─entry─▶ entered ─other source agrees─▶ confirmed
      └─ a station's one-sided entry (the second player did not confirm): audited and
         shown to the operator, never entered
    a station's withdrawal (both players, before publication): its entries stop counting;
    the table follows what is left (the operator's or another station's entry) or is
    missing again; after publication it is stored refused and changes nothing
                       └─other source differs─▶ conflict ─entries agree / correction─▶ confirmed
    publish (no table missing or in conflict) ─▶ published ─protest window─▶ final

Once a round is published nothing changes its results without an operator action: a later
entry that equals the result changes nothing; one that differs becomes a *dispute* (kept
with the entry, audited, shown to the operator) that touches neither the result nor the
standings until the operator keeps the result or takes the new entry
(:meth:`ResultBook.resolve_dispute`), or corrects the table.

The tournament's tables (``tour_*``, :mod:`hub.tournament.store`) are written here and
nowhere else for results; :class:`hub.tournament.facade.Tournament` delegates to this.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from samoobsluha.hub.tournament.model import Kind
from samoobsluha.shared.clock import Clock
from samoobsluha.shared.countdown import minutes_left
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.storage import Database

log = logging.getLogger("hub.tournament.intake")

SOURCES = ("operator", "station")
LOW_SCORE, HIGH_SCORE, MAX_SCORE = 100, 800, 2000
DEFAULT_MAX_SCORE = 1000  # an operator entry above the tournament's ``max_score`` needs a yes
VALUE_KEYS = ("s_first", "s_second", "starter", "kind", "forfeited")


class TournamentError(ValueError):
    """A request the tournament refuses; nothing was changed. The message says why."""


class NeedsConfirmation(TournamentError):
    """An operator entry that is possible but implausible (a score above the tournament's
    maximum, 0:0 in a played game): stored only when entered again with ``confirm``."""


@dataclass
class Outcome:
    """What an entry did.

    ``status``: ``entered`` (first entry), ``confirmed`` (a second source agrees, or the
    entries of a conflict now agree), ``duplicate`` (identical to what is held — nothing
    changed), ``conflict`` (sources differ before publication; the operator decides),
    ``corrected`` (operator correction), ``dispute`` (a differing entry after
    publication: kept aside, the result unchanged).
    """

    status: str
    warnings: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class StationResult:
    """A station's result row as the sync layer hands it over. ``station`` is the
    station that sent it — the one authenticated on the link, never what the payload
    says; ``first``/``second`` the names as the station's pairing listed them."""

    key: str  # station/epoch/seq: names the row everywhere on the hub
    station: str
    round_no: int
    table_no: int
    first: str
    second: str
    score_first: int
    score_second: int
    started: str  # "first" | "second"
    # the second player did not confirm it at the kiosk: checked, audited, never entered
    one_sided: bool = False
    # both players took the station's entry back: a tombstone (the scores are the entry's)
    withdrawn: bool = False


@dataclass(frozen=True)
class IntakeOutcome:
    """What became of one :class:`StationResult`: the outcome (an :class:`Outcome`
    status) or the refusal (a :class:`Phrase`, shown in the operator's language)."""

    key: str
    round_no: int
    table_no: int
    outcome: str
    error: Phrase | None = None


class ResultBook:
    """The results of one tournament database (see the module docstring)."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    # -- entries --------------------------------------------------------------------------

    def record(
        self,
        round_no: int,
        table: int,
        player: int,
        opponent: int,
        score: int | None,
        opponent_score: int | None,
        started: int | None = None,
        *,
        source: str = "operator",
        who: str = "operator",
        correct: bool = False,
        kind: str = "played",
        forfeited: int | None = None,
        confirm: bool = False,
    ) -> Outcome:
        if source not in SOURCES:
            raise TournamentError(Phrase("err.tour.source", sources=list(SOURCES)))
        if correct and source != "operator":
            raise TournamentError(Phrase("err.tour.correct_operator"))
        try:
            kind_ = Kind(kind)
        except ValueError:
            raise TournamentError(Phrase("err.tour.kind", kind=kind)) from None
        if kind_ not in (Kind.PLAYED, Kind.FORFEIT, Kind.DOUBLE_FORFEIT):
            raise TournamentError(Phrase("err.tour.bye_entry"))
        board = self.board(round_no, table)
        if board["second"] is None:
            raise TournamentError(Phrase("err.tour.table_bye", round=round_no, table=table))
        pf, ps = board["first"], board["second"]
        if {player, opponent} != {pf, ps}:
            raise TournamentError(
                Phrase(
                    "err.tour.wrong_players",
                    round=round_no,
                    table=table,
                    first=self.name(pf),
                    second=self.name(ps),
                    player=self.name(player),
                    opponent=self.name(opponent),
                )
            )
        s_first, s_second = (score, opponent_score) if player == pf else (opponent_score, score)
        warnings: list[str] = []
        if kind_ is Kind.PLAYED and (s_first is None or s_second is None):
            raise TournamentError(Phrase("err.tour.both_scores"))
        for s in (s_first, s_second):
            if s is None:
                continue
            if s < 0:
                raise TournamentError(Phrase("err.tour.negative_score", score=s))
            if s > MAX_SCORE:
                raise TournamentError(Phrase("err.tour.score_range", score=s, max=MAX_SCORE))
            if kind_ is Kind.PLAYED and (s < LOW_SCORE or s > HIGH_SCORE):
                warnings.append(
                    Phrase("warn.unusual_score", score=s, low=LOW_SCORE, high=HIGH_SCORE)
                )
        if source == "operator" and not confirm:
            self._plausible(kind_, s_first, s_second)
        if kind_ is Kind.FORFEIT and forfeited not in (pf, ps):
            raise TournamentError(Phrase("err.tour.forfeit_whom", first=pf, second=ps))
        if kind_ is not Kind.FORFEIT:
            forfeited = None
        if started is None:
            started = pf
        elif started not in (pf, ps):
            raise TournamentError(Phrase("err.tour.starter"))
        elif started != pf:
            warnings.append(
                Phrase("warn.other_started", started=self.name(started), paired=self.name(pf))
            )
        value = {
            "s_first": s_first,
            "s_second": s_second,
            "starter": started,
            "kind": kind_.value,
            "forfeited": forfeited,
        }
        with self.db.atomic():
            return self._record(round_no, table, value, source, who, correct, warnings)

    def _plausible(self, kind: Kind, s_first: int | None, s_second: int | None) -> None:
        """The operator's typing checks: refused until confirmed (the reason says why)."""
        top = self.max_score()
        for s in (s_first, s_second):
            if s is not None and s > top:
                raise NeedsConfirmation(Phrase("err.tour.above_max", score=s, max=top))
        if kind is Kind.PLAYED and s_first == 0 and s_second == 0:
            raise NeedsConfirmation(Phrase("err.tour.zero_zero"))

    def _record(
        self,
        round_no: int,
        table: int,
        value: dict[str, Any],
        source: str,
        who: str,
        correct: bool,
        warnings: list[str],
    ) -> Outcome:
        now = self.clock.now()
        existing = self.result_row(round_no, table)
        published = self.round_row(round_no)["published_at"] is not None
        # the same entry again from the same author (the operator, or one station): equal
        # to that author's *latest* counting entry — an earlier one it has since replaced
        # (A, then B, then A again) is a change back, not a repeat
        author = "operator" if source == "operator" else f"station:{who}"
        duplicate = self._latest_by_author(round_no, table).get(author) == value
        if duplicate and not correct:
            return Outcome("duplicate", warnings, existing)
        same = existing is not None and _value(existing) == value
        if correct:
            entry = self._insert_entry(round_no, table, source, who, now, value)
            status = (
                "final" if existing is not None and existing["status"] == "final" else ("confirmed")
            )
            self._write(round_no, table, value, status, [source], now)
            closed = self._close_disputes(round_no, table, who, "corrected", now)
            after = self.result_row(round_no, table)
            self.audit(who, "corrected", round_no, table, existing, after, entry=entry)
            if closed:
                self.audit(who, "dispute_closed", round_no, table, None, {"disputes": closed})
            return Outcome("corrected", warnings, after)
        if existing is not None and (published or existing["status"] == "final"):
            # Published: the result is what the players saw. Nothing changes it here.
            if same:
                self._insert_entry(round_no, table, source, who, now, value)
                return Outcome("duplicate", warnings, existing)
            if source == "operator":
                key = "err.tour.final" if existing["status"] == "final" else "err.tour.published"
                raise TournamentError(Phrase(key, round=round_no, table=table))
            entry = self._insert_entry(round_no, table, source, who, now, value)
            cursor = self.db.execute(
                "INSERT INTO tour_disputes (round, table_no, entry_id, source, who, at,"
                " s_first, s_second, starter, kind, forfeited) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [round_no, table, entry, source, who, now, *(value[k] for k in VALUE_KEYS)],
            )
            self.audit(
                who,
                "dispute",
                round_no,
                table,
                existing,
                {"dispute": cursor.lastrowid, "entry": value | {"source": source, "who": who}},
            )
            return Outcome("dispute", warnings, existing)
        if (
            existing is not None
            and not same
            and existing["status"] != "conflict"
            and source == "operator"
            and "operator" in json.loads(existing["sources"])
        ):
            raise TournamentError(Phrase("err.tour.operator_result", round=round_no, table=table))
        entry = self._insert_entry(round_no, table, source, who, now, value)
        # Before publication the result follows the latest entry of each author (the
        # operator, each station): all agree → entered (one source) or confirmed (operator
        # and station); they differ → conflict (the first agreed value stays in the row,
        # but no standings count it).
        latest = self._latest_by_author(round_no, table)
        values = list(latest.values())
        sources = sorted({author.partition(":")[0] for author in latest})
        if all(v == values[0] for v in values):
            status = "confirmed" if len(sources) > 1 else "entered"
            self._write(round_no, table, values[0], status, sources, now)
            if existing is not None and existing["status"] == "conflict":
                action = "agreed"
            else:
                action = status
        else:
            status = action = "conflict"
            kept = _value(existing) if existing is not None else value
            self._write(round_no, table, kept, status, sources, now)
        after = self.result_row(round_no, table)
        detail = dict(after or {})
        if action == "conflict":
            detail["disputed_entry"] = value | {"source": source, "who": who}
        self.audit(who, action, round_no, table, existing, detail, entry=entry)
        if action == "agreed":
            action = "confirmed"
        return Outcome(action if action in ("corrected", "conflict") else status, warnings, after)

    def _insert_entry(
        self, round_no: int, table: int, source: str, who: str, now: float, value: dict[str, Any]
    ) -> int:
        cursor = self.db.execute(
            "INSERT INTO tour_entries (round, table_no, source, who, at, s_first, s_second,"
            " starter, kind, forfeited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [round_no, table, source, who, now, *(value[k] for k in VALUE_KEYS)],
        )
        return int(cursor.lastrowid or 0)

    def _latest_by_author(self, round_no: int, table: int) -> dict[str, dict[str, Any]]:
        """The latest counting entry of the operator (whoever typed it) and of each
        station: after the last undo, and for a station after its last withdrawal."""
        latest: dict[str, dict[str, Any]] = {}
        withdrawn = self._withdrawn_through(round_no, table)
        for row in self.db.query(
            "SELECT * FROM tour_entries WHERE round = ? AND table_no = ? AND id > ? ORDER BY id",
            [round_no, table, self._undone_through(round_no, table)],
        ):
            if row["source"] == "operator":
                author = "operator"
            elif row["id"] <= withdrawn.get(row["who"], 0):
                continue
            else:
                author = f"station:{row['who']}"
            latest[author] = _value(row)
        return latest

    def _withdrawn_through(self, round_no: int, table: int) -> dict[str, int]:
        """station -> the last of its entries its latest accepted withdrawal took back."""
        return {
            str(station): int(last)
            for station, last in self.db.execute(
                "SELECT station, MAX(last_entry) FROM tour_withdrawals"
                " WHERE round = ? AND table_no = ? AND refused = 0 GROUP BY station",
                [round_no, table],
            )
        }

    def withdraw(self, round_no: int, table: int, *, station: str, key: str = "") -> str:
        """A station takes back its own entry for ``round_no``/``table`` (both players
        asked for it at the kiosk). ``station`` is the authenticated sender.

        Before publication the station's entries so far stop counting and the table
        follows what is left: the operator's entry or another station's if there is one
        (``entered``), else no result (missing again). It returns ``withdrawn``, or
        ``duplicate`` when the station had nothing left that counts (the same withdrawal
        again). After publication (or once final) it changes nothing: it is stored refused
        in ``tour_withdrawals`` and audited as ``withdraw_refused`` (the operator sees it
        in the round's intake) and returns ``withdraw_refused``."""
        now = self.clock.now()
        self.board(round_no, table)
        existing = self.result_row(round_no, table)
        published = self.round_row(round_no)["published_at"] is not None or (
            existing is not None and existing["status"] == "final"
        )
        last = int(
            self.db.execute(
                "SELECT MAX(id) FROM tour_entries WHERE round = ? AND table_no = ?"
                " AND source = 'station' AND who = ?",
                [round_no, table, station],
            ).fetchone()[0]
            or 0
        )
        detail = {"station": station, "key": key, "entries_through": last}
        with self.db.atomic():
            if published:
                self.db.execute(
                    "INSERT INTO tour_withdrawals (round, table_no, station, last_entry, key,"
                    " at, refused) VALUES (?, ?, ?, ?, ?, ?, 1)",
                    [round_no, table, station, last, key, now],
                )
                self.audit(station, "withdraw_refused", round_no, table, existing, detail)
                return "withdraw_refused"
            counted = f"station:{station}" in self._latest_by_author(round_no, table)
            held_one_sided = table in self.one_sided(round_no) and (
                self.one_sided(round_no)[table]["station"] == station
            )
            if not counted and not held_one_sided:
                return "duplicate"
            self.db.execute(
                "INSERT INTO tour_withdrawals (round, table_no, station, last_entry, key, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [round_no, table, station, last, key, now],
            )
            latest = self._latest_by_author(round_no, table)
            values = list(latest.values())
            if not values:
                self.db.execute(
                    "DELETE FROM tour_results WHERE round = ? AND table_no = ?",
                    [round_no, table],
                )
            else:
                sources = sorted({author.partition(":")[0] for author in latest})
                if all(v == values[0] for v in values):
                    status = "confirmed" if len(sources) > 1 else "entered"
                    self._write(round_no, table, values[0], status, sources, now)
                else:
                    kept = _value(existing) if existing is not None else values[0]
                    self._write(round_no, table, kept, "conflict", sources, now)
            self.audit(
                station,
                "withdrawn",
                round_no,
                table,
                existing,
                detail | {"result": self.result_row(round_no, table)},
            )
            return "withdrawn"

    def _undone_through(self, round_no: int, table: int) -> int:
        """The last entry an undo set aside (0: none): entries up to it no longer count."""
        row = self.db.execute(
            "SELECT MAX(last_entry) FROM tour_undos WHERE round = ? AND table_no = ?",
            [round_no, table],
        ).fetchone()
        return int(row[0] or 0)

    def undo(self, round_no: int, table: int, *, who: str = "operator", note: str = "") -> None:
        """Take back a mistaken result before its round is published: the table is missing
        again and its entries so far no longer count (they stay in ``tour_entries``; the
        undo is in ``tour_undos`` and the audit). A published or final result is changed by
        a correction instead, never undone."""
        existing = self.result_row(round_no, table)
        if existing is None:
            raise TournamentError(Phrase("err.undo.nothing", round=round_no, table=table))
        if existing["status"] == "final" or self.round_row(round_no)["published_at"]:
            raise TournamentError(Phrase("err.undo.published", round=round_no, table=table))
        with self.db.atomic():
            last = self.db.execute(
                "SELECT MAX(id) FROM tour_entries WHERE round = ? AND table_no = ?",
                [round_no, table],
            ).fetchone()[0]
            self.db.execute(
                "DELETE FROM tour_results WHERE round = ? AND table_no = ?", [round_no, table]
            )
            self.db.execute(
                "INSERT INTO tour_undos (round, table_no, last_entry, who, at, note)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [round_no, table, int(last or 0), who, self.clock.now(), note],
            )
            self.audit(
                who, "undo", round_no, table, existing, {"entries_through": last, "note": note}
            )

    def _write(
        self,
        round_no: int,
        table: int,
        value: dict[str, Any],
        status: str,
        sources: list[str],
        now: float,
    ) -> None:
        self.db.table("tour_results").upsert(
            {
                "round": round_no,
                "table_no": table,
                **value,
                "status": status,
                "sources": json.dumps(sources),
                "updated_at": now,
            },
            pk=("round", "table_no"),
        )

    # -- disputes -------------------------------------------------------------------------

    def disputes(
        self, round_no: int | None = None, *, open_only: bool = True
    ) -> list[dict[str, Any]]:
        """Late differing entries of published rounds, oldest first, each with the result
        it disputes (``result``: the row as it stands)."""
        sql = "SELECT * FROM tour_disputes"
        where, args = [], []
        if open_only:
            where.append("resolved_at IS NULL")
        if round_no is not None:
            where.append("round = ?")
            args.append(round_no)
        if where:
            sql += " WHERE " + " AND ".join(where)
        out = []
        for row in self.db.query(sql + " ORDER BY id", args):
            item = dict(row)
            item["result"] = self.result_row(row["round"], row["table_no"])
            out.append(item)
        return out

    def resolve_dispute(self, dispute_id: int, *, take: bool, who: str = "operator") -> Outcome:
        """The operator's decision on a dispute: keep the published result (``take=False``)
        or take the disputed entry as the result (the round stays published or final).
        Either way one audited action; other open disputes of the table stay open."""
        with self.db.atomic():
            rows = list(
                self.db.query(
                    "SELECT * FROM tour_disputes WHERE id = ? AND resolved_at IS NULL",
                    [dispute_id],
                )
            )
            if not rows:
                raise TournamentError(Phrase("err.tour.no_dispute", id=dispute_id))
            d = rows[0]
            now = self.clock.now()
            before = self.result_row(d["round"], d["table_no"])
            if take:
                assert before is not None
                self._write(
                    d["round"], d["table_no"], _value(d), before["status"], [d["source"]], now
                )
            self.db.execute(
                "UPDATE tour_disputes SET resolved_at = ?, resolved_by = ?, resolution = ?"
                " WHERE id = ?",
                [now, who, "take" if take else "keep", dispute_id],
            )
            after = self.result_row(d["round"], d["table_no"])
            self.audit(
                who,
                "dispute_take" if take else "dispute_keep",
                d["round"],
                d["table_no"],
                before,
                {"dispute": dispute_id, "result": after},
            )
        return Outcome("corrected" if take else "unchanged", [], after)

    def _close_disputes(
        self, round_no: int, table: int, who: str, how: str, now: float
    ) -> list[int]:
        ids = [
            int(r[0])
            for r in self.db.execute(
                "SELECT id FROM tour_disputes WHERE round = ? AND table_no = ?"
                " AND resolved_at IS NULL",
                [round_no, table],
            )
        ]
        if ids:
            self.db.execute(
                "UPDATE tour_disputes SET resolved_at = ?, resolved_by = ?, resolution = ?"
                " WHERE round = ? AND table_no = ? AND resolved_at IS NULL",
                [now, who, how, round_no, table],
            )
        return ids

    # -- rounds: publication, protests, finalisation ---------------------------------------

    def missing(self, round_no: int) -> list[dict[str, Any]]:
        """Tables of a paired round with no result yet or in conflict."""
        return [
            dict(b)
            for b in self.db.query(
                "SELECT b.table_no, b.first, b.second, r.status FROM tour_boards b"
                " LEFT JOIN tour_results r USING (round, table_no)"
                " WHERE b.round = ? AND b.second IS NOT NULL"
                " AND (r.status IS NULL OR r.status = 'conflict') ORDER BY b.table_no",
                [round_no],
            )
        ]

    def publish(self, round_no: int, *, who: str = "operator") -> bool:
        """Publish a round's results: the protest window starts now. Refused while tables
        are missing or in conflict. Publishing a published round again changes nothing
        (False): its window keeps its start."""
        row = self.round_row(round_no)
        missing = self.missing(round_no)
        if missing:
            raise TournamentError(Phrase("err.tour.unagreed", round=round_no, tables=len(missing)))
        if row["published_at"] is not None:
            return False
        with self.db.atomic():
            self.db.execute(
                "UPDATE tour_rounds SET published_at = ? WHERE round = ?",
                [self.clock.now(), round_no],
            )
            self.audit(who, "publish", round_no, None, None, None)
        return True

    def published_rounds(self) -> list[int]:
        """The hall's rounds whose results are published (final ones included)."""
        return [
            int(r)
            for (r,) in self.db.execute(
                "SELECT round FROM tour_rounds WHERE published_at IS NOT NULL ORDER BY round"
            )
        ]

    def protest_closes(self, round_no: int) -> float | None:
        row = self.round_row(round_no)
        if row["published_at"] is None:
            return None
        return float(row["published_at"]) + self.protest_minutes() * 60

    def lodge_protest(self, round_no: int, table: int, *, who: str, note: str = "") -> None:
        """A protest within the window holds that table's result from becoming final."""
        closes = self.protest_closes(round_no)
        self.board(round_no, table)
        if closes is None:  # nothing published to protest against yet
            raise TournamentError(
                Phrase("err.tour.protest_unpublished", round=round_no, table=table)
            )
        if self.clock.now() > closes:
            raise TournamentError(Phrase("err.tour.protest_closed", round=round_no))
        with self.db.atomic():
            self.db.table("tour_protests").insert(
                {
                    "round": round_no,
                    "table_no": table,
                    "who": who,
                    "at": self.clock.now(),
                    "note": note,
                }
            )
            self.audit(who, "protest", round_no, table, None, {"note": note})

    def close_protest(self, round_no: int, table: int, *, who: str, note: str = "") -> None:
        with self.db.atomic():
            cur = self.db.execute(
                "UPDATE tour_protests SET closed_at = ?, closed_by = ?, close_note = ?"
                " WHERE round = ? AND table_no = ? AND closed_at IS NULL",
                [self.clock.now(), who, note, round_no, table],
            )
            if not cur.rowcount:
                raise TournamentError(Phrase("err.tour.no_protest", round=round_no, table=table))
            self.audit(who, "protest_closed", round_no, table, None, {"note": note})

    def open_protests(self, round_no: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                "SELECT * FROM tour_protests WHERE round = ? AND closed_at IS NULL", [round_no]
            )
        )

    def finalise(self, round_no: int, *, early: bool = False, who: str = "operator") -> int:
        """Make the round's results final once its protest window has closed (or now, with
        ``early``: the director approves early). Tables with an open protest or an open
        dispute stay held. Returns how many results became final."""
        closes = self.protest_closes(round_no)
        if closes is None:
            raise TournamentError(Phrase("err.tour.unpublished", round=round_no))
        if not early and self.clock.now() < closes:
            left = minutes_left(closes - self.clock.now())
            raise TournamentError(Phrase("err.tour.protest_open", round=round_no, minutes=left))
        held = {p["table_no"] for p in self.open_protests(round_no)}
        held |= {d["table_no"] for d in self.disputes(round_no)}
        done = 0
        now = self.clock.now()
        with self.db.atomic():
            for r in list(
                self.db.query(
                    "SELECT table_no, status FROM tour_results WHERE round = ?", [round_no]
                )
            ):
                if r["status"] in ("entered", "confirmed") and r["table_no"] not in held:
                    self.db.execute(
                        "UPDATE tour_results SET status = 'final', updated_at = ?"
                        " WHERE round = ? AND table_no = ?",
                        [now, round_no, r["table_no"]],
                    )
                    done += 1
            if not held and not self.missing(round_no):
                self.db.execute(
                    "UPDATE tour_rounds SET final_at = ? WHERE round = ?", [now, round_no]
                )
            self.audit(who, "finalise", round_no, None, None, {"final": done, "held": sorted(held)})
        return done

    # -- station results (the sync layer's hand-over) ---------------------------------------

    def enter_station_results(self, results: Sequence[StationResult]) -> list[IntakeOutcome]:
        """Enter stations' results, each in a savepoint: a refused one leaves nothing
        behind and does not stop the others. The author is ``StationResult.station``."""
        out = []
        names = {int(r[0]): str(r[1]) for r in self.db.execute("SELECT id, name FROM tour_players")}
        for res in results:
            try:
                with self.db.atomic():
                    outcome = self._enter_station(res, names)
            except TournamentError as exc:
                why = exc.args[0] if exc.args and isinstance(exc.args[0], Phrase) else None
                phrase = why or Phrase("err.intake.internal", error=str(exc))
                out.append(IntakeOutcome(res.key, res.round_no, res.table_no, "", phrase))
                continue
            except Exception as exc:  # a bug must not stop the other stations' results
                log.exception("entering result %s failed", res.key)
                phrase = Phrase("err.intake.internal", error=f"{type(exc).__name__}: {exc}")
                out.append(IntakeOutcome(res.key, res.round_no, res.table_no, "", phrase))
                continue
            refused = (
                Phrase("err.withdraw.published", round=res.round_no, table=res.table_no)
                if outcome == "withdraw_refused"
                else None
            )
            out.append(IntakeOutcome(res.key, res.round_no, res.table_no, outcome, refused))
        return out

    def _enter_station(self, res: StationResult, names: dict[int, str]) -> str:
        rows = list(
            self.db.query(
                "SELECT first, second FROM tour_boards WHERE round = ? AND table_no = ?",
                [res.round_no, res.table_no],
            )
        )
        if not rows:
            raise TournamentError(Phrase("err.no_table", round=res.round_no, table=res.table_no))
        first, second = rows[0]["first"], rows[0]["second"]
        if second is None:
            raise TournamentError(Phrase("err.intake.bye", round=res.round_no, table=res.table_no))
        scores = (res.score_first, res.score_second)
        started = first if res.started == "first" else second
        if res.first or res.second:
            sent = (res.first, res.second)
            if sent == (names.get(second), names.get(first)):
                # the station's pairing listed them the other way round
                scores = (res.score_second, res.score_first)
                started = second if res.started == "first" else first
            elif sent != (names.get(first), names.get(second)):
                raise TournamentError(
                    Phrase(
                        "err.intake.players",
                        round=res.round_no,
                        table=res.table_no,
                        first=names.get(first),
                        second=names.get(second),
                        sent_first=res.first,
                        sent_second=res.second,
                    )
                )
        if res.withdrawn:
            return self.withdraw(res.round_no, res.table_no, station=res.station, key=res.key)
        if res.one_sided:
            # Only one player stood behind it: not an entry. The operator sees it (the
            # round's tables, ``one_sided``) until the players confirm it or he enters it.
            value = {"s_first": scores[0], "s_second": scores[1], "starter": started}
            self.audit(res.station, "one_sided", res.round_no, res.table_no, None, value)
            return "one_sided"
        outcome = self.record(
            res.round_no,
            res.table_no,
            first,
            second,
            scores[0],
            scores[1],
            started=started,
            source="station",
            who=res.station,
        )
        return outcome.status

    # -- reading --------------------------------------------------------------------------

    def one_sided(self, round_no: int) -> dict[int, dict[str, Any]]:
        """table -> the latest one-sided station entry of ``round_no`` (scores in board
        order, ``starter``, ``station``, ``at``) for tables it is still the only word
        about: none once the table has a result, and none from before a director's undo
        of the table (its entries so far no longer count, one-sided ones included)."""
        out: dict[int, dict[str, Any]] = {}
        for row in self.db.query(
            "SELECT table_no, who, at, action, after FROM tour_audit"
            " WHERE action IN ('one_sided', 'withdrawn', 'undo') AND round = ? ORDER BY id",
            [round_no],
        ):
            if row["action"] == "undo":
                out.pop(int(row["table_no"]), None)
                continue
            if row["action"] == "withdrawn":
                # the station took its one-sided entry back too
                if out.get(int(row["table_no"]), {}).get("station") == row["who"]:
                    del out[int(row["table_no"])]
                continue
            out[int(row["table_no"])] = json.loads(row["after"]) | {
                "station": row["who"],
                "at": row["at"],
            }
        held = {
            int(t)
            for (t,) in self.db.execute(
                "SELECT table_no FROM tour_results WHERE round = ?", [round_no]
            )
        }
        return {table: v for table, v in out.items() if table not in held}

    def board(self, round_no: int, table: int) -> dict[str, Any]:
        rows = list(
            self.db.query(
                "SELECT * FROM tour_boards WHERE round = ? AND table_no = ?", [round_no, table]
            )
        )
        if not rows:
            raise TournamentError(Phrase("err.no_table", round=round_no, table=table))
        return rows[0]

    def round_row(self, round_no: int) -> dict[str, Any]:
        rows = list(self.db.query("SELECT * FROM tour_rounds WHERE round = ?", [round_no]))
        if not rows:
            raise TournamentError(Phrase("err.tour.not_paired", round=round_no))
        return rows[0]

    def result_row(self, round_no: int, table: int) -> dict[str, Any] | None:
        rows = list(
            self.db.query(
                "SELECT * FROM tour_results WHERE round = ? AND table_no = ?", [round_no, table]
            )
        )
        return rows[0] if rows else None

    def name(self, pid: int | None) -> str:
        if pid is None:
            return "?"
        row = self.db.execute("SELECT name FROM tour_players WHERE id = ?", [pid]).fetchone()
        return f"{row[0]} (#{pid})" if row else f"#{pid}"

    def _setting(self, key: str, default: str) -> str:
        row = self.db.execute("SELECT value FROM tour_settings WHERE key = ?", [key]).fetchone()
        return str(row[0]) if row else default

    def protest_minutes(self) -> int:
        return int(self._setting("protest_minutes", "30"))

    def max_score(self) -> int:
        return int(self._setting("max_score", str(DEFAULT_MAX_SCORE)))

    def audit(
        self,
        who: str,
        action: str,
        round_no: int | None,
        table: int | None,
        before: Any,
        after: Any,
        *,
        entry: int | None = None,
    ) -> None:
        if entry is not None and isinstance(after, dict):
            after = after | {"entry": entry}
        self.db.table("tour_audit").insert(
            {
                "at": self.clock.now(),
                "who": who,
                "action": action,
                "round": round_no,
                "table_no": table,
                "before": None if before is None else json.dumps(before, ensure_ascii=False),
                "after": None if after is None else json.dumps(after, ensure_ascii=False),
            }
        )


def enter_station_results(
    db: Database, results: Sequence[StationResult], clock: Clock
) -> list[IntakeOutcome]:
    """The sync layer's one door into the tournament: enter ``results`` (rows it stored,
    with the authenticated station as author) and say what became of each. Runs inside
    the caller's transaction when there is one. A file without tournament tables (a bare
    sync database) enters nothing."""
    if not db.table("tour_rounds").exists():
        return []
    return ResultBook(db, clock).enter_station_results(results)


def _value(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row[k] for k in VALUE_KEYS}

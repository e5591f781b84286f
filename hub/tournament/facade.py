"""The :class:`Tournament` facade: everything the dashboard, the network layer and the
``hub`` command line do with a tournament, on top of the hub's SQLite database.

Typical day::

    with Tournament.open(clock=clock) as tour:           # data_dir()/hub.db
        tour.configure(name="Mistrovství ČR", rules="cas", rounds=9)
        tour.import_players_csv(text)                     # name[,club][,rating]
        tour.check_in(3)                                  # prezence
        pairing = tour.pair(1, seed=42)                   # stored, seed recorded
        tour.record_result(1, 4, 7, 12, 412, 389, started=7, source="station", who="st-02")
        tour.record_result(1, 4, 7, 12, 412, 389, started=7, who="Jana")  # → confirmed
        tour.missing_results(1)                           # tables still open
        tour.publish(1)                                   # protest window starts
        tour.finalise(1)                                  # after the window (or early=True)
        tour.standings()                                  # by the tournament's rule set
        tour.pair(2, explain=True)

Every write is one transaction and leaves an audit row (who, when, before, after).
Results: an entry from a station and one from the operator that agree make the result
*confirmed*; entries that differ make a *conflict* (ČAS 13.8) that only an operator
correction (``correct=True``) resolves. Re-sending an identical entry is a no-op, so the
network layer may retry freely.
"""

from __future__ import annotations

import csv
import io
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import sqlite_utils

from samoobsluha.hub.tournament import corrections
from samoobsluha.hub.tournament import tsh as tshfile
from samoobsluha.hub.tournament.intake import (
    DEFAULT_MAX_SCORE,
    HIGH_SCORE,
    LOW_SCORE,
    MAX_SCORE,
    SOURCES,
    NeedsConfirmation,
    Outcome,
    ResultBook,
    TournamentError,
)
from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.pairing import Board, Pairing, pair_round
from samoobsluha.hub.tournament.prizes import Award, PrizeBook, award, category_ranks
from samoobsluha.hub.tournament.rules import RuleSet, get_rules
from samoobsluha.hub.tournament.sanctions import Sanction, SanctionBook
from samoobsluha.hub.tournament.standings import Standing, compute
from samoobsluha.hub.tournament.store import open_tournament_db
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.storage import Database

DEFAULTS = {
    "name": "",
    "rules": "cas",
    "rounds": "0",
    "protest_minutes": "30",
    "overrides": "{}",
    "place": "",  # where it is played: printed in every A4 page's header
    "referee": "",  # the chief referee (HR), in the association's report
    "date": "",  # the event's day(s) as the director writes them, in the report
    "max_score": str(DEFAULT_MAX_SCORE),
}
__all__ = [
    "HIGH_SCORE",
    "LOW_SCORE",
    "MAX_SCORE",
    "SOURCES",
    "NeedsConfirmation",
    "Outcome",
    "Tournament",
    "TournamentError",
]


class Tournament:
    """One tournament in one database. Use :meth:`open` (a context manager).

    An instance holds one SQLite connection: use it from one thread. Several instances
    (the dashboard, the network layer, the CLI) may have the same file open at once; every
    write takes the database lock for its whole read-check-write, so they never interleave.
    """

    def __init__(self, db: Database, clock: Clock | None = None) -> None:
        self.db = db
        self.clock: Clock = clock or SystemClock()
        self.book = ResultBook(db, self.clock)
        self.sanction_book = SanctionBook(db, self.clock, self.book)
        self.prize_book = PrizeBook(db, self.clock, self.book)

    @classmethod
    @contextmanager
    def open(
        cls, path: Path | str | None = None, *, clock: Clock | None = None
    ) -> Iterator[Tournament]:
        db = open_tournament_db(path)
        try:
            yield cls(db, clock)
        finally:
            db.close()

    # --- settings ------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        raw = dict(DEFAULTS)
        raw.update({r["key"]: r["value"] for r in self.db["tour_settings"].rows})
        return {
            "name": raw["name"],
            "rules": raw["rules"],
            "rounds": int(raw["rounds"]),
            "protest_minutes": int(raw["protest_minutes"]),
            "max_score": int(raw["max_score"]),
            "overrides": json.loads(raw["overrides"]),
            "place": raw["place"],
            "referee": raw["referee"],
            "date": raw["date"],
        }

    def configure(
        self,
        *,
        name: str | None = None,
        rules: str | None = None,
        rounds: int | None = None,
        protest_minutes: int | None = None,
        max_score: int | None = None,
        overrides: dict[str, str] | None = None,
        place: str | None = None,
        referee: str | None = None,
        date: str | None = None,
        who: str = "operator",
    ) -> None:
        """Change settings (only those given). Rule overrides are validated first."""
        before = self.settings()
        after = dict(before)
        for key, value in (
            ("name", name),
            ("rules", rules),
            ("rounds", rounds),
            ("protest_minutes", protest_minutes),
            ("max_score", max_score),
            ("overrides", overrides),
            ("place", place),
            ("referee", referee),
            ("date", date),
        ):
            if value is not None:
                after[key] = value
        get_rules(after["rules"], after["overrides"])  # raises on a bad name or override
        if after["protest_minutes"] < 0 or after["rounds"] < 0 or after["max_score"] < 1:
            raise TournamentError(Phrase("err.tour.negative"))
        with self._tx():
            for key in DEFAULTS:
                value = after[key]
                text = json.dumps(value) if key == "overrides" else str(value)
                self.db.table("tour_settings").upsert({"key": key, "value": text}, pk="key")
            self._audit(who, "configure", None, None, before, after)

    @property
    def rules(self) -> RuleSet:
        s = self.settings()
        return get_rules(s["rules"], s["overrides"])

    # --- players -------------------------------------------------------------------------

    def players(self) -> list[Player]:
        return [_player(r) for r in self.db.query("SELECT * FROM tour_players ORDER BY id")]

    def player(self, pid: int) -> Player:
        rows = list(self.db.query("SELECT * FROM tour_players WHERE id = ?", [pid]))
        if not rows:
            raise TournamentError(Phrase("err.tour.no_player", id=pid))
        return _player(rows[0])

    def add_player(
        self, name: str, *, club: str = "", rating: int = 0, who: str = "operator"
    ) -> Player:
        """Register a player. After round 1 is paired this is a late entry: the rounds he
        missed count as ČAS 14.4 (0 wins, 0:0) and he is paired from the next round."""
        name = " ".join(name.split())
        if not name:
            raise TournamentError(Phrase("err.tour.no_name"))
        with self._tx():
            cursor = self.db.execute(
                "INSERT INTO tour_players (name, club, rating, created_at) VALUES (?, ?, ?, ?)",
                [name, club.strip(), int(rating or 0), self.clock.now()],
            )
            pid = int(cursor.lastrowid or 0)
            player = self.player(pid)
            action = "late_entry" if self.last_round() else "add_player"
            self._audit(who, action, None, None, None, asdict(player))
        return player

    def import_players_csv(self, text: str, *, who: str = "operator") -> list[Player]:
        """Import ``name[,club][,rating]`` rows (UTF-8; comma, semicolon or tab separated;
        an optional header naming the columns in Czech, Slovak or English). Players already
        registered under the same name and club are skipped, so re-importing is harmless."""
        rows = _read_player_csv(text)
        existing = {(p.name, p.club) for p in self.players()}
        added = []
        with self._tx():
            for name, club, rating in rows:
                if (name, club) in existing:
                    continue
                existing.add((name, club))
                added.append(self.add_player(name, club=club, rating=rating, who=who))
        return added

    def check_in(self, pid: int, *, present: bool = True, who: str = "operator") -> None:
        """Prezence: mark a player present (or not). Once anybody is checked in, round 1
        pairs only checked-in players."""
        self._set_player(pid, who, "check_in" if present else "check_out", checked_in=int(present))

    def withdraw(self, pid: int, *, temporary: bool = False, who: str = "operator") -> None:
        """Take a player out of the pairings: for good, or ``temporary`` (each round he
        misses is scored 0:200, ČAS 14.4)."""
        status = "paused" if temporary else "withdrawn"
        self._set_player(pid, who, f"withdraw_{status}", status=status)

    def reinstate(self, pid: int, *, who: str = "operator") -> None:
        """Bring a withdrawn player back into the pairings from the next round."""
        self._set_player(pid, who, "reinstate", status="active")

    def _set_player(self, pid: int, who: str, action: str, **changes: Any) -> None:
        with self._tx():
            before = asdict(self.player(pid))
            sets = ", ".join(f"{k} = ?" for k in changes)
            self.db.execute(
                f"UPDATE tour_players SET {sets} WHERE id = ?", [*changes.values(), pid]
            )
            self._audit(who, action, None, None, before, asdict(self.player(pid)))

    # --- categories and prizes (hub/tournament/prizes.py owns them) ----------------------

    def category_standings(
        self, name: str, *, after_round: int | None = None
    ) -> list[tuple[int, Standing]]:
        """The standings of one category: (rank in the category, standing)."""
        self.prize_book.get(name)
        who = self.prize_book.membership()[name]
        return category_ranks(self.standings(after_round=after_round), who)

    def prize_list(self, *, after_round: int | None = None) -> list[Award]:
        """Who wins which prize by the standings after ``after_round`` (default: the
        last round played), one prize a player, ties shared."""
        return award(
            self.standings(after_round=after_round),
            self.prize_book.prizes(),
            self.prize_book.membership(),
        )

    def event_over(self) -> bool:
        """The planned last round is published: prizes may be shown."""
        planned = self.settings()["rounds"]
        if not planned or self.last_round() < planned:
            return False
        return self.book.round_row(planned)["published_at"] is not None

    # --- sanctions (hub/tournament/sanctions.py owns them) --------------------------------

    def sanction(
        self,
        player: int,
        kind: str,
        *,
        reason: str,
        round_no: int | None = None,
        table: int | None = None,
        referee: str = "",
        points: int = 0,
        scope: str = "game",
        check_key: str = "",
        who: str = "operator",
    ) -> Sanction:
        """Record a warning, cross, point penalty or expulsion. ``round_no`` defaults to
        the latest paired round, ``table`` to the player's table in it. An expulsion from
        the event also withdraws the player for good, in the same transaction."""
        if round_no is None:
            round_no = self.last_round() or None
        if table is None and round_no is not None:
            table = self.table_of(round_no, player)
        with self._tx():
            done = self.sanction_book.record(
                player,
                kind,
                round_no=round_no,
                table=table,
                reason=reason,
                referee=referee,
                points=points,
                scope=scope,
                check_key=check_key,
                who=who,
            )
            if kind == "expulsion" and scope == "event" and not self.player(player).withdrawn:
                self.withdraw(player, who=who)
        return done

    def sanctions(
        self,
        *,
        round_no: int | None = None,
        player: int | None = None,
        status: str | None = "active",
    ) -> list[Sanction]:
        return self.sanction_book.rows(round_no=round_no, player=player, status=status)

    def revoke_sanction(
        self, sanction_id: int, *, who: str = "operator", note: str = ""
    ) -> Sanction:
        return self.sanction_book.revoke(sanction_id, who=who, note=note)

    def dismiss_suggestion(
        self,
        check_key: str,
        *,
        player: int | None,
        kind: str,
        round_no: int | None,
        who: str = "operator",
    ) -> None:
        self.sanction_book.dismiss(check_key, player, kind, round_no, who=who)

    def table_of(self, round_no: int, player: int) -> int | None:
        """The table ``player`` sits at in ``round_no`` (None: not paired, a bye counts)."""
        row = self.db.execute(
            "SELECT table_no FROM tour_boards WHERE round = ? AND (first = ? OR second = ?)",
            [round_no, player, player],
        ).fetchone()
        return int(row[0]) if row else None

    # --- rounds and pairings -------------------------------------------------------------

    def last_round(self) -> int:
        row = self.db.execute("SELECT MAX(round) FROM tour_rounds").fetchone()
        return int(row[0] or 0)

    def pairing(self, round_no: int) -> Pairing:
        """The stored pairing of a round."""
        rows = list(self.db.query("SELECT * FROM tour_rounds WHERE round = ?", [round_no]))
        if not rows:
            raise TournamentError(Phrase("err.tour.not_paired", round=round_no))
        meta = rows[0]
        result = Pairing(round_no, meta["seed"], meta["method"], notes=_read_notes(meta["notes"]))
        for b in self.db.query(
            "SELECT * FROM tour_boards WHERE round = ? ORDER BY table_no", [round_no]
        ):
            result.boards.append(
                Board(b["table_no"], b["first"], b["second"], _read_why(b["reason"]))
            )
        return result

    def pair(
        self,
        round_no: int,
        *,
        seed: int | None = None,
        force: bool = False,
        method: str | None = None,
        allow_rematch: bool | None = None,
        beyond: bool = False,
        who: str = "operator",
    ) -> Pairing:
        """Pair and store ``round_no`` (the next round; or re-pair the latest round while it
        has no results). Refuses while the previous round has missing or conflicting
        results unless ``force``. ``seed`` defaults to a fresh random one, recorded with
        the round. The returned :class:`Pairing` carries the reasons (``--explain``).
        A round past the event's planned rounds is refused unless ``beyond`` (the director
        was asked: the dashboard asks, the command line wants ``--beyond``)."""
        last = self.last_round()
        if round_no not in (last, last + 1) or round_no < 1:
            raise TournamentError(Phrase("err.tour.next_round", next=last + 1))
        planned = self.settings()["rounds"]
        if planned and round_no > planned and round_no > last and not beyond:
            raise TournamentError(Phrase("err.tour.beyond", round=round_no, rounds=planned))
        if round_no == last:
            has = self.db.execute(
                "SELECT COUNT(*) FROM tour_results WHERE round = ?", [round_no]
            ).fetchone()[0]
            if has:
                raise TournamentError(Phrase("err.tour.has_results", round=round_no))
        if round_no > 1 and not force:
            missing = self.missing_results(round_no - 1)
            if missing:
                tables = ", ".join(str(m["table"]) for m in missing)
                raise TournamentError(
                    Phrase("err.tour.incomplete", round=round_no - 1, tables=tables)
                )
        players = self.players()
        active = [p.id for p in players if not p.withdrawn and not p.paused]
        if round_no == 1 and any(p.checked_in for p in players):
            active = [p.id for p in players if p.checked_in and not p.withdrawn and not p.paused]
        if seed is None:
            seed = secrets.randbelow(10**9)
        data = self.data(until_round=round_no - 1)
        pairing = pair_round(
            data,
            self.rules,
            round_no,
            seed=seed,
            active=active,
            method=method,
            allow_rematch=allow_rematch,
        )
        left_out = [p.name for p in players if p.id not in set(active) and not p.withdrawn]
        if left_out:
            pairing.notes.append(Phrase("pair.note.left_out", names=left_out))
        now = self.clock.now()
        with self._tx():
            if round_no == last:
                for table in ("tour_boards", "tour_absences", "tour_rounds"):
                    self.db.execute(f"DELETE FROM {table} WHERE round = ?", [round_no])
            self.db.table("tour_rounds").insert(
                {
                    "round": round_no,
                    "seed": seed,
                    "method": pairing.method,
                    "notes": _dump_reasons(pairing.notes),
                    "paired_at": now,
                }
            )
            self.db.table("tour_boards").insert_all(
                {
                    "round": round_no,
                    "table_no": b.table,
                    "first": b.first,
                    "second": b.second,
                    "reason": _dump_reasons(b.why),
                }
                for b in pairing.boards
            )
            self._record_absences(round_no, players, set(active))
            self._audit(
                who,
                "pair",
                round_no,
                None,
                None,
                {"seed": seed, "method": pairing.method, "boards": len(pairing.boards)},
            )
        return pairing

    # --- the director's corrections ------------------------------------------------------

    def change_pairing(
        self, round_no: int, action: str, a: int, b: int, *, who: str = "operator"
    ) -> tuple[Pairing, dict[int, list[Phrase]]]:
        """A hand-made change to a stored pairing (:mod:`hub.tournament.corrections`):
        ``swap`` two players, ``force`` two players to play each other, swap the numbers of
        two ``tables``. Refused where a touched table has a result (undo it first). The
        change is stored and publishes like any pairing; each touched board carries the
        rules its pair breaks (returned too), and the audit has the boards before/after."""
        pairing = self.pairing(round_no)
        try:
            if action == "tables":
                touched_before = {a, b}
            else:
                touched_before = {
                    x.table for x in pairing.boards for pid in (a, b) if pid in (x.first, x.second)
                }
            boards, touched = corrections.changed_boards(pairing.boards, action, a, b)
        except corrections.CorrectionError as exc:
            raise TournamentError(*exc.args) from None
        touched |= touched_before
        for table in sorted(touched):
            if self.book.result_row(round_no, table) is not None:
                raise TournamentError(Phrase("err.correct.has_result", round=round_no, table=table))
        data = self.data(until_round=round_no - 1)
        broken = corrections.broken_rules(data, self.rules, boards, touched, round_no)
        by_table = {x.table: x for x in boards}
        with self._tx():
            for table in sorted(touched):
                board = by_table.get(table)
                if board is None:
                    self.db.execute(
                        "DELETE FROM tour_boards WHERE round = ? AND table_no = ?",
                        [round_no, table],
                    )
                    continue
                board.why = [Phrase("pair.hand_made", who=who), *broken.get(table, [])]
                self.db.table("tour_boards").upsert(
                    {
                        "round": round_no,
                        "table_no": table,
                        "first": board.first,
                        "second": board.second,
                        "reason": _dump_reasons(board.why),
                    },
                    pk=("round", "table_no"),
                )
            note = Phrase("pair.note.hand_made", action=action, a=a, b=b, who=who)
            notes = [*pairing.notes, note]
            self.db.execute(
                "UPDATE tour_rounds SET notes = ? WHERE round = ?",
                [_dump_reasons(notes), round_no],
            )
            self._audit(
                who,
                f"pairing_{action}",
                round_no,
                None,
                corrections.boards_json(pairing.boards),
                {
                    "boards": corrections.boards_json(boards),
                    "broken": {t: [p.to_data() for p in ps] for t, ps in broken.items() if ps},
                },
            )
        return self.pairing(round_no), broken

    def unpair(self, round_no: int, *, who: str = "operator") -> None:
        """Take back the latest round's pairing while it has no result (audited)."""
        if round_no != self.last_round() or round_no < 1:
            raise TournamentError(Phrase("err.undo.not_latest", last=self.last_round()))
        if self.db.execute("SELECT 1 FROM tour_results WHERE round = ?", [round_no]).fetchone():
            raise TournamentError(Phrase("err.tour.has_results", round=round_no))
        before = corrections.boards_json(self.pairing(round_no).boards)
        with self._tx():
            for table in ("tour_boards", "tour_absences", "tour_rounds"):
                self.db.execute(f"DELETE FROM {table} WHERE round = ?", [round_no])
            self._audit(who, "unpair", round_no, None, before, None)

    def undo_result(
        self, round_no: int, table: int, *, who: str = "operator", note: str = ""
    ) -> None:
        """Take back a mistaken result before publication (the result book does it)."""
        self.book.undo(round_no, table, who=who, note=note)

    def withdraw_rest(self, pid: int, *, who: str = "operator") -> list[int]:
        """A player leaves for good: never paired again, and his game of the latest paired
        round, if it has no result yet, is forfeited against him (ČAS 14.2) — one
        transaction. Returns the rounds forfeited."""
        forfeited = []
        with self._tx():
            last = self.last_round()
            row = self.db.execute(
                "SELECT table_no, first, second FROM tour_boards WHERE round = ?"
                " AND (first = ? OR second = ?)",
                [last, pid, pid],
            ).fetchone()
            if row is not None and row[2] is not None and not self.book.result_row(last, row[0]):
                table, first, second = row
                other = second if first == pid else first
                self.record_result(
                    last,
                    table,
                    pid,
                    other,
                    None,
                    None,
                    first,
                    kind="forfeit",
                    forfeited=pid,
                    who=who,
                )
                forfeited.append(last)
            self.withdraw(pid, who=who)
        return forfeited

    def _record_absences(self, round_no: int, players: list[Player], paired: set[int]) -> None:
        played = _played_before(self.db, round_no)
        rows = []
        for p in players:
            if p.id in paired and round_no > 1 and p.id not in played:
                # A late entrant: 0 and 0:0 for every round he missed (ČAS 14.4); rounds
                # already marked absent stay absent.
                rows += [{"round": r, "player": p.id, "kind": "late"} for r in range(1, round_no)]
            elif p.paused:
                # Temporary withdrawal: 0:200 for the round he misses (ČAS 14.4).
                rows.append({"round": round_no, "player": p.id, "kind": "absent"})
        self.db.table("tour_absences").insert_all(rows, pk=("round", "player"), ignore=True)

    # --- results -------------------------------------------------------------------------

    def record_result(
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
        """Enter the result of one table (tsh-style checks); the lifecycle is
        :class:`hub.tournament.intake.ResultBook`'s (docs/tournament.md).

        * ``player`` and ``opponent`` must be the pairing of that table (in either order),
          ``score`` and ``opponent_score`` are theirs;
        * scores are 0..2000; under 100 or over 800 is accepted with a warning; an
          operator's score above the tournament's ``max_score`` or a played 0:0 is refused
          with :class:`NeedsConfirmation` unless ``confirm``;
        * ``started`` is the id of who started the game, default the pairing's first
          player (a warning if it differs);
        * ``kind`` "forfeit" (with ``forfeited``: the player it is forfeited against; the
          scores are the score at that moment, may be None) or "double_forfeit".

        The same entry twice is a no-op (``duplicate``). Before publication a second
        source agreeing makes the result ``confirmed``, disagreeing a ``conflict`` that
        clears when the entries agree. After publication a differing station entry is a
        ``dispute`` and changes nothing. An operator with ``correct=True`` replaces the
        result in any state, audited with the old and new values.
        """
        return self.book.record(
            round_no,
            table,
            player,
            opponent,
            score,
            opponent_score,
            started,
            source=source,
            who=who,
            correct=correct,
            kind=kind,
            forfeited=forfeited,
            confirm=confirm,
        )

    def results(self, round_no: int) -> list[dict[str, Any]]:
        """Rows of ``tour_results`` for a round, with player names, by table."""
        out = []
        for r in self.db.query(
            "SELECT r.*, b.first AS player_first, b.second AS player_second FROM tour_results r"
            " JOIN tour_boards b USING (round, table_no) WHERE round = ? ORDER BY table_no",
            [round_no],
        ):
            out.append(dict(r))
        return out

    def missing_results(self, round_no: int) -> list[dict[str, Any]]:
        """Tables of a paired round with no result yet or with a conflict."""
        return [
            {
                "table": b["table_no"],
                "first": self._name(b["first"]),
                "second": self._name(b["second"]),
                "status": b["status"] or "missing",
            }
            for b in self.book.missing(round_no)
        ]

    def unsettled(self, until_round: int | None = None) -> list[dict[str, Any]]:
        """Tables of rounds up to ``until_round`` (default: what standings cover) that the
        standings do not count yet — missing or in conflict: round, table, names, status.
        Whatever shows those standings must say so (the table is pending, not lost)."""
        last = self.last_scored_round() if until_round is None else until_round
        out = []
        for r in range(1, last + 1):
            if not self.db.execute("SELECT 1 FROM tour_rounds WHERE round = ?", [r]).fetchone():
                continue
            for m in self.missing_results(r):
                out.append({"round": r, **m})
        return out

    def one_sided(self, round_no: int) -> dict[int, dict[str, Any]]:
        """Tables of ``round_no`` whose only word is a one-sided station entry."""
        return self.book.one_sided(round_no)

    def disputes(
        self, round_no: int | None = None, *, open_only: bool = True
    ) -> list[dict[str, Any]]:
        """Late differing entries of published rounds (open ones by default)."""
        return self.book.disputes(round_no, open_only=open_only)

    def resolve_dispute(self, dispute_id: int, *, take: bool, who: str = "operator") -> Outcome:
        """Keep the published result or take the disputed entry: one audited action."""
        return self.book.resolve_dispute(dispute_id, take=take, who=who)

    def entries(self, round_no: int, table: int) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                "SELECT * FROM tour_entries WHERE round = ? AND table_no = ? ORDER BY id",
                [round_no, table],
            )
        )

    # --- publication, protests, finalisation ---------------------------------------------

    def publish(self, round_no: int, *, who: str = "operator") -> bool:
        """Publish a round's results: the protest window starts now. Refused while tables
        are missing or in conflict; publishing again changes nothing (False)."""
        return self.book.publish(round_no, who=who)

    def lodge_protest(self, round_no: int, table: int, *, who: str, note: str = "") -> None:
        """A protest within the window holds that table's result from becoming final."""
        self.book.lodge_protest(round_no, table, who=who, note=note)

    def close_protest(self, round_no: int, table: int, *, who: str, note: str = "") -> None:
        self.book.close_protest(round_no, table, who=who, note=note)

    def open_protests(self, round_no: int) -> list[dict[str, Any]]:
        return self.book.open_protests(round_no)

    def finalise(self, round_no: int, *, early: bool = False, who: str = "operator") -> int:
        """Make the round's results final once its protest window has closed (or now, with
        ``early``). Protested and disputed tables stay held. Returns how many became final."""
        return self.book.finalise(round_no, early=early, who=who)

    def round_state(self, round_no: int) -> dict[str, Any]:
        row = self._round_row(round_no)
        return {
            "round": round_no,
            "paired_at": row["paired_at"],
            "published_at": row["published_at"],
            "final_at": row["final_at"],
            "missing": len(self.missing_results(round_no)),
            "protests": len(self.open_protests(round_no)),
            "disputes": len(self.disputes(round_no)),
        }

    # --- standings, data, audit ----------------------------------------------------------

    def data(self, until_round: int | None = None) -> TournamentData:
        """Players and games (agreed results, byes, absences) as the domain modules use."""
        last = self.last_round() if until_round is None else until_round
        data = TournamentData(name=self.settings()["name"])
        data.players = {p.id: p for p in self.players()}
        for r in self.db.query(
            "SELECT b.round, b.table_no, b.first, b.second, r.s_first, r.s_second, r.starter,"
            " r.kind, r.forfeited, r.status FROM tour_boards b"
            " LEFT JOIN tour_results r USING (round, table_no) WHERE b.round <= ?"
            " ORDER BY b.round, b.table_no",
            [last],
        ):
            if r["second"] is None:
                data.games.append(
                    Game(r["round"], r["first"], None, kind=Kind.BYE, table=r["table_no"])
                )
            elif r["status"] in ("entered", "confirmed", "final"):
                data.games.append(
                    Game(
                        r["round"],
                        r["first"],
                        r["second"],
                        r["s_first"],
                        r["s_second"],
                        first=r["starter"],
                        kind=Kind(r["kind"]),
                        forfeited=r["forfeited"],
                        table=r["table_no"],
                    )
                )
        for a in self.db.query("SELECT * FROM tour_absences WHERE round <= ?", [last]):
            kind = Kind.LATE if a["kind"] == "late" else Kind.ABSENT
            data.games.append(Game(a["round"], a["player"], None, kind=kind))
        data.games.sort(key=lambda g: (g.round, g.table or 0, g.p1))
        return data

    def standings(
        self, *, rules: RuleSet | None = None, after_round: int | None = None
    ) -> list[Standing]:
        """Standings after ``after_round`` (default: the last round with results — a
        pending round is not counted) by ``rules`` (default: the tournament's).
        Conflicting and missing results are left out."""
        last = self.last_scored_round() if after_round is None else after_round
        data = self.data(until_round=last)
        return compute(data.players.values(), data.games, rules or self.rules, rounds=last)

    def audit(self, round_no: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM tour_audit"
        params: list[Any] = []
        if round_no is not None:
            sql += " WHERE round = ?"
            params.append(round_no)
        rows = []
        for r in self.db.query(sql + " ORDER BY id", params):
            r = dict(r)
            r["before"] = json.loads(r["before"]) if r["before"] else None
            r["after"] = json.loads(r["after"]) if r["after"] else None
            rows.append(r)
        return rows

    def revision(self) -> int:
        """A number that grows with every change to the tournament (every write leaves an
        audit row): a cheap "anything new?" for readers that poll, like the hall screen."""
        row = self.db.execute("SELECT MAX(id) FROM tour_audit").fetchone()
        return int(row[0] or 0)

    def import_tsh(self, path: Path | str, *, who: str = "operator") -> int:
        """Load a tsh .t file into an empty tournament (see :meth:`import_tsh_file`).
        Returns the number of players."""
        return self.import_tsh_file(tshfile.read(path), file=str(path), who=who)

    def import_tsh_file(
        self, source: tshfile.TshFile, *, file: str = "", who: str = "operator"
    ) -> int:
        """Load a parsed tsh file into an empty tournament: players, pairings, results of
        scored rounds (confirmed, source ``tsh``), byes and absences; a round paired but
        not scored yet (a live file) is stored as a pairing without results, so it is
        pending — not in standings, listed by :meth:`missing_results`. The file itself is
        kept, so :meth:`export_tsh` gives back every token the hub did not change."""
        if self.players():
            raise TournamentError(Phrase("err.tour.import_nonempty"))
        if not source.players:
            raise TournamentError(tshfile.Notice("tsh.no_players", {"file": file}).text())
        data = tshfile.to_tournament(source)
        pend = tshfile.pending(source)
        rounds = max([data.rounds, source.scored_rounds, *(g.round for g in pend)])
        now = self.clock.now()
        with self._tx():
            for p in data.players.values():
                self.db.table("tour_players").insert(
                    {
                        "id": p.id,
                        "name": p.name,
                        "rating": p.rating,
                        "status": "withdrawn" if p.withdrawn else "active",
                        "created_at": now,
                        "extra": json.dumps(p.extra, ensure_ascii=False),
                    }
                )
            for r in range(1, rounds + 1):
                games = [g for g in data.games if g.round == r]
                waiting = [g for g in pend if g.round == r]
                self.db.table("tour_rounds").insert(
                    {
                        "round": r,
                        "seed": 0,
                        "method": "tsh",
                        "paired_at": now,
                        "published_at": None if waiting else now,
                    }
                )
                table = 0
                for g in games + waiting:
                    if g.kind in (Kind.LATE, Kind.ABSENT) and g.p2 is None:
                        self.db.table("tour_absences").insert(
                            {"round": r, "player": g.p1, "kind": g.kind.value}
                        )
                        continue
                    table += 1
                    first = g.first if g.first is not None else g.p1
                    second = g.p2 if first == g.p1 else g.p1
                    self.db.table("tour_boards").insert(
                        {"round": r, "table_no": table, "first": first, "second": second}
                    )
                    if g.p2 is None or g.s1 is None:
                        continue  # a bye, or a pending game
                    s_first, s_second = (g.s1, g.s2) if first == g.p1 else (g.s2, g.s1)
                    self.db.table("tour_results").insert(
                        {
                            "round": r,
                            "table_no": table,
                            "s_first": s_first,
                            "s_second": s_second,
                            "starter": g.first,
                            "kind": g.kind.value,
                            "forfeited": g.forfeited,
                            "status": "confirmed",
                            "sources": json.dumps(["tsh"]),
                            "updated_at": now,
                        }
                    )
            self.db.table("tour_tsh_source").insert(
                {
                    "id": 1,
                    "file": file,
                    "encoding": source.encoding,
                    "text": tshfile.format_file(source),
                    "imported_at": now,
                }
            )
            self._audit(who, "import_tsh", None, None, None, {"file": file})
        return len(data.players)

    def tsh_source(self) -> tshfile.TshFile | None:
        """The tsh file the tournament was imported from, if any."""
        rows = list(self.db.query("SELECT * FROM tour_tsh_source WHERE id = 1"))
        if not rows:
            return None
        return tshfile.parse(rows[0]["text"], rows[0]["encoding"])

    def last_scored_round(self) -> int:
        """The last round with at least one result, or published (a round of byes only);
        what standings cover by default. A round paired but without results is pending."""
        row = self.db.execute(
            "SELECT MAX(round) FROM (SELECT round FROM tour_results"
            " UNION SELECT round FROM tour_rounds WHERE published_at IS NOT NULL)"
        ).fetchone()
        return int(row[0] or 0)

    def pending_games(self) -> list[Game]:
        """Pairings without an agreed result (pending rounds and open tables), as games
        without scores; byes of rounds after the last scored one."""
        scored = self.last_scored_round()
        out = []
        for b in self.db.query(
            "SELECT b.round, b.table_no, b.first, b.second FROM tour_boards b"
            " LEFT JOIN tour_results r USING (round, table_no)"
            " WHERE (b.second IS NOT NULL AND (r.status IS NULL OR r.status = 'conflict'))"
            " OR (b.second IS NULL AND b.round > ?) ORDER BY b.round, b.table_no",
            [scored],
        ):
            kind = Kind.BYE if b["second"] is None else Kind.PLAYED
            first = b["first"] if b["second"] is not None else None
            out.append(
                Game(
                    b["round"],
                    b["first"],
                    b["second"],
                    first=first,
                    kind=kind,
                    table=b["table_no"],
                )
            )
        return out

    def export_tsh(self) -> tshfile.TshFile:
        """The tournament as a tsh file: scored rounds, pending pairings, and — for an
        imported tournament — every token of the original file the hub did not change
        (unchanged lines byte for byte, in the file's own encoding)."""
        scored = self.last_scored_round()
        return tshfile.from_tournament(
            self.data(until_round=scored),
            pending_games=self.pending_games(),
            source=self.tsh_source(),
            scored_rounds=scored,
            rules=self.rules,
        )

    # --- helpers -------------------------------------------------------------------------

    def _tx(self) -> Any:
        """One write transaction: shared.storage's ``atomic()`` (the outermost one takes the
        write lock at its start, nested ones are savepoints)."""
        return self.db.atomic()

    def _round_row(self, round_no: int) -> dict[str, Any]:
        return self.book.round_row(round_no)

    def _name(self, pid: int | None) -> str:
        if pid is None:
            return "?"
        try:
            return f"{self.player(pid).name} (#{pid})"
        except TournamentError:
            return f"#{pid}"

    def _audit(
        self,
        who: str,
        action: str,
        round_no: int | None,
        table: int | None,
        before: Any,
        after: Any,
    ) -> None:
        self.book.audit(who, action, round_no, table, before, after)


# Why a pair was paired, and the pairing's notes, are kept as catalogue phrases (a key and
# its values, JSON) so every screen and printout shows them in its own language. Pairings
# stored before that hold English sentences: they are read as they are and shown as stored
# (no migration: a sentence cannot be turned back into a key and values reliably, and a
# re-pairing of the round stores phrases).


def _dump_reasons(clauses: list[str]) -> str:
    return json.dumps(
        [c.to_data() if isinstance(c, Phrase) else str(c) for c in clauses], ensure_ascii=False
    )


def _read_notes(text: str) -> list[str]:
    """A round's notes: a JSON list of phrases or (older pairings) English strings."""
    try:
        items = json.loads(text or "[]")
    except ValueError:
        return [text]
    if not isinstance(items, list):
        return [str(items)]
    return [Phrase.from_data(item) for item in items]


def _read_why(text: str) -> list[str]:
    """A board's reasons: a JSON list of phrases, or (older pairings) one English sentence
    — kept whole, whatever it looks like."""
    if text.startswith("["):
        try:
            items = json.loads(text)
        except ValueError:
            items = None
        if isinstance(items, list) and all(isinstance(i, dict | str) for i in items):
            return [Phrase.from_data(item) for item in items]
    return [text] if text else []


def _player(row: dict[str, Any]) -> Player:
    return Player(
        id=row["id"],
        name=row["name"],
        club=row["club"],
        rating=row["rating"],
        withdrawn=row["status"] == "withdrawn",
        paused=row["status"] == "paused",
        checked_in=bool(row["checked_in"]),
        extra=json.loads(row["extra"] or "{}"),
    )


def _played_before(db: sqlite_utils.Database, round_no: int) -> set[int]:
    ids: set[int] = set()
    for first, second in db.execute(
        "SELECT first, second FROM tour_boards WHERE round < ?", [round_no]
    ):
        ids.add(first)
        if second is not None:
            ids.add(second)
    return ids


_NAME_HEADS = {"name", "jméno", "jmeno", "meno", "hráč", "hrac", "player", "příjmení a jméno"}
_CLUB_HEADS = {"club", "klub", "oddíl", "oddil", "team"}
_RATING_HEADS = {"rating", "elo", "rank", "hodnocení", "hodnotenie"}


def _read_player_csv(text: str) -> list[tuple[str, str, int]]:
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    try:
        dialect: Any = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO("\n".join(lines)), dialect))
    head = [c.strip().lower() for c in rows[0]]
    cols = {"name": 0, "club": 1, "rating": 2}
    if any(h in _NAME_HEADS for h in head):
        rows = rows[1:]
        cols = {"name": -1, "club": -1, "rating": -1}
        for i, h in enumerate(head):
            for key, names in (
                ("name", _NAME_HEADS),
                ("club", _CLUB_HEADS),
                ("rating", _RATING_HEADS),
            ):
                if h in names and cols[key] < 0:
                    cols[key] = i
    out = []
    for number, row in enumerate(rows, start=1):

        def get(key: str, row: list[str] = row) -> str:
            i = cols[key]
            return row[i].strip() if 0 <= i < len(row) else ""

        name = " ".join(get("name").split())
        if not name:
            continue
        raw_rating = get("rating")
        try:
            rating = int(float(raw_rating.replace(",", "."))) if raw_rating else 0
        except ValueError:
            raise TournamentError(
                Phrase("err.tour.rating", row=number, name=name, rating=raw_rating)
            ) from None
        out.append((name, get("club"), rating))
    return out

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
import math
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
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
from samoobsluha.hub.tournament.prizes import Award, Bar, PrizeBook, award, category_ranks
from samoobsluha.hub.tournament.rules import RuleSet, get_rules
from samoobsluha.hub.tournament.sanctions import Sanction, SanctionBook
from samoobsluha.hub.tournament.standings import Standing, compute
from samoobsluha.hub.tournament.store import DEFAULT_DIVISION, open_tournament_db
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

    # --- divisions -----------------------------------------------------------------------

    def divisions(self) -> list[str]:
        """The hall's divisions (groups) in their order; at least one (``A`` by default)."""
        return [
            str(r[0])
            for r in self.db.execute("SELECT name FROM tour_divisions ORDER BY position, name")
        ]

    def division(self, name: str | None = None) -> str:
        """The division ``name`` names (letter case aside), or the only one when ``name`` is
        None. With several divisions and none named, refused with their names: every
        command that is about one division's field needs ``--division``."""
        names = self.divisions()
        if name is None:
            if len(names) == 1:
                return names[0]
            raise TournamentError(Phrase("err.tour.division_needed", divisions=", ".join(names)))
        for known in names:
            if known.casefold() == name.strip().casefold():
                return known
        raise TournamentError(Phrase("err.tour.no_division", name=name, divisions=", ".join(names)))

    def add_division(self, name: str, *, tsh_file: str = "", who: str = "operator") -> str:
        """A new division at the end of the hall's order. A tournament that has only the
        default division ``A`` with nobody in it takes the new name instead (a director
        who starts with named groups never sees an empty ``A``)."""
        name = _division_name(name)
        names = self.divisions()
        if any(n.casefold() == name.casefold() for n in names):
            raise TournamentError(Phrase("err.tour.division_exists", name=name))
        with self._tx():
            if names == [DEFAULT_DIVISION] and not self._division_used(DEFAULT_DIVISION):
                self.db.execute(
                    "UPDATE tour_divisions SET name = ?, tsh_file = ? WHERE name = ?",
                    [name, tsh_file, DEFAULT_DIVISION],
                )
                self.db.execute(
                    "UPDATE tour_players SET division = ? WHERE division = ?",
                    [name, DEFAULT_DIVISION],
                )
            else:
                position = self.db.execute(
                    "SELECT COALESCE(MAX(position), 0) + 1 FROM tour_divisions"
                ).fetchone()[0]
                self.db.table("tour_divisions").insert(
                    {
                        "name": name,
                        "position": position,
                        "tsh_file": tsh_file,
                        "created_at": self.clock.now(),
                    }
                )
            self._audit(who, "add_division", None, None, None, {"division": name})
        return name

    def rename_division(self, old: str, new: str, *, who: str = "operator") -> str:
        old = self.division(old)
        new = _division_name(new)
        if new.casefold() != old.casefold() and any(
            n.casefold() == new.casefold() for n in self.divisions()
        ):
            raise TournamentError(Phrase("err.tour.division_exists", name=new))
        with self._tx():
            self.db.execute("UPDATE tour_divisions SET name = ? WHERE name = ?", [new, old])
            self.db.execute("UPDATE tour_players SET division = ? WHERE division = ?", [new, old])
            self._audit(who, "rename_division", None, None, {"division": old}, {"division": new})
        return new

    def remove_division(self, name: str, *, who: str = "operator") -> None:
        """Remove a division nobody plays in (never the last one)."""
        name = self.division(name)
        if self._division_used(name):
            raise TournamentError(Phrase("err.tour.division_used", name=name))
        if len(self.divisions()) == 1:
            raise TournamentError(Phrase("err.tour.division_last", name=name))
        with self._tx():
            self.db.execute("DELETE FROM tour_divisions WHERE name = ?", [name])
            self._audit(who, "remove_division", None, None, {"division": name}, None)

    def division_tsh_file(self, name: str) -> str:
        """The tsh file name of a division (as tsh's ``config.tsh`` names it)."""
        row = self.db.execute(
            "SELECT tsh_file FROM tour_divisions WHERE name = ?", [self.division(name)]
        ).fetchone()
        return str(row[0]) if row and row[0] else f"{name.lower()}.t"

    def table_division(self, round_no: int, table: int) -> str:
        """The division a table of a round belongs to (tables are numbered across the hall)."""
        row = self.db.execute(
            "SELECT p.division FROM tour_boards b JOIN tour_players p ON p.id = b.first"
            " WHERE b.round = ? AND b.table_no = ?",
            [round_no, table],
        ).fetchone()
        if row is None:
            raise TournamentError(Phrase("err.no_table", round=round_no, table=table))
        return str(row[0])

    def _division_used(self, name: str) -> bool:
        return bool(
            self.db.execute(
                "SELECT 1 FROM tour_players WHERE division = ? LIMIT 1", [name]
            ).fetchone()
        )

    # --- players -------------------------------------------------------------------------

    def players(self, division: str | None = None) -> list[Player]:
        """Every player of the hall, or of one ``division``."""
        if division is None:
            rows = self.db.query("SELECT * FROM tour_players ORDER BY id")
        else:
            rows = self.db.query(
                "SELECT * FROM tour_players WHERE division = ? ORDER BY id",
                [self.division(division)],
            )
        return [_player(r) for r in rows]

    def player(self, pid: int) -> Player:
        rows = list(self.db.query("SELECT * FROM tour_players WHERE id = ?", [pid]))
        if not rows:
            raise TournamentError(Phrase("err.tour.no_player", id=pid))
        return _player(rows[0])

    def add_player(
        self,
        name: str,
        *,
        club: str = "",
        rating: int = 0,
        division: str | None = None,
        who: str = "operator",
    ) -> Player:
        """Register a player in ``division`` (default: the only one). After his division's
        round 1 is paired this is a late entry: the rounds he missed count as ČAS 14.4
        (0 wins, 0:0) and he is paired from the next round."""
        name = " ".join(name.split())
        if not name:
            raise TournamentError(Phrase("err.tour.no_name"))
        division = self.division(division)
        with self._tx():
            cursor = self.db.execute(
                "INSERT INTO tour_players (name, club, rating, created_at, division)"
                " VALUES (?, ?, ?, ?, ?)",
                [name, club.strip(), int(rating or 0), self.clock.now(), division],
            )
            pid = int(cursor.lastrowid or 0)
            player = self.player(pid)
            action = "late_entry" if self.last_round(division) else "add_player"
            self._audit(who, action, None, None, None, asdict(player))
        return player

    def import_players_csv(
        self, text: str, *, division: str | None = None, who: str = "operator"
    ) -> list[Player]:
        """Import ``name[,club][,rating]`` rows (UTF-8; comma, semicolon or tab separated;
        an optional header naming the columns in Czech, Slovak or English). Players already
        registered under the same name and club are skipped, so re-importing is harmless.
        Each player goes to ``division`` (default: the only one) — or, when the header has a
        division column (``skupina``, ``division``), to the one his row names; a row naming
        no division, or an unknown one, is refused before anything is stored."""
        rows = _read_player_csv(text)
        chosen = {d: self.division(d or division) for d in sorted({r[3] for r in rows})}
        existing = {(p.name, p.club) for p in self.players()}
        added = []
        with self._tx():
            for name, club, rating, group in rows:
                if (name, club) in existing:
                    continue
                existing.add((name, club))
                added.append(
                    self.add_player(name, club=club, rating=rating, division=chosen[group], who=who)
                )
        return added

    def move_player(self, pid: int, division: str, *, who: str = "operator") -> None:
        """Move a player to another division — only while he has no pairing there (a
        registration in the wrong group, found at the check-in)."""
        division = self.division(division)
        player = self.player(pid)
        if player.division == division:
            return
        if pid in _played_before(self.db, self.last_round() + 1):
            raise TournamentError(
                Phrase("err.tour.division_moved", id=pid, division=player.division)
            )
        self._set_player(pid, who, "move_division", division=division)

    def set_club(self, pid: int, club: str, *, who: str = "operator") -> None:
        """Correct a player's club (written to tsh as ``team``), audited."""
        self._set_player(pid, who, "club", club=" ".join(club.split()))

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
        """Bring a withdrawn player back into the pairings from the next round — not one
        who plays (nothing to bring back), nor one expelled from the event while the
        expulsion stands (revoking it comes first)."""
        player = self.player(pid)
        if not (player.withdrawn or player.paused):
            raise TournamentError(Phrase("err.tour.not_withdrawn", id=pid))
        for s in self.sanction_book.rows(kinds=("expulsion",), player=pid):
            if s.scope == "event":
                raise TournamentError(Phrase("err.tour.return_expelled", id=pid, sanction=s.id))
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
        self, name: str, *, after_round: int | None = None, division: str | None = None
    ) -> list[tuple[int, Standing]]:
        """The standings of one category in ``division`` (default: the only one):
        (rank in the category, standing)."""
        self.prize_book.get(name)
        who = self.prize_book.membership()[name]
        return category_ranks(self.standings(after_round=after_round, division=division), who)

    def prize_list(
        self, *, after_round: int | None = None, division: str | None = None
    ) -> list[Award]:
        """Who wins which prize of ``division`` (default: the only one; in a hall of
        several, each division is given the prize table on its own) by the standings after
        ``after_round`` (default: the last round played), one prize a player, ties shared."""
        return award(
            self.standings(after_round=after_round, division=division),
            self.prize_book.prizes(),
            self.prize_book.membership(),
            self.prize_bars(),
        )

    def prize_bars(self) -> dict[int, Bar]:
        """Who may take no prize, and why (prizes.py's docstring): a player expelled from
        the event (an active expulsion with scope ``event``; its reason is published with
        it), and a withdrawn player when the rule set says so (``prize_withdrawn``)."""
        rules = self.rules
        bars: dict[int, Bar] = {}
        if not rules.prize_withdrawn:
            bars.update({p.id: Bar("withdrawn") for p in self.players() if p.withdrawn})
        if not rules.prize_expelled:
            for s in self.sanction_book.rows(kinds=("expulsion",)):
                known = bars.get(s.player)
                if s.scope == "event" and (known is None or known.cause != "expelled"):
                    bars[s.player] = Bar("expelled", s.reason)  # the first expulsion's
        return bars

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
        last = self.last_round()
        if round_no is None:
            round_no = last or None
        elif not 1 <= round_no <= last:
            # a sanction belongs to a round played or being played
            raise TournamentError(Phrase("err.sanction.round", round=round_no, last=last))
        if round_no is not None:
            own = self.table_of(round_no, player)
            if table is not None and table != own:
                # the sanction is the player's, at his own table of that round
                raise TournamentError(
                    Phrase("err.sanction.table", id=player, round=round_no, table=table, own=own)
                    if own is not None
                    else Phrase("err.sanction.no_table", id=player, round=round_no)
                )
            table = own
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

    def last_round(self, division: str | None = None) -> int:
        """The hall's last paired round, or one division's."""
        if division is None:
            row = self.db.execute("SELECT MAX(round) FROM tour_rounds").fetchone()
        else:
            row = self.db.execute(
                "SELECT MAX(round) FROM tour_division_rounds WHERE division = ?",
                [self.division(division)],
            ).fetchone()
        return int(row[0] or 0)

    def pairing(self, round_no: int, division: str | None = None) -> Pairing:
        """The stored pairing of a round: the whole hall's tables (every division, by table
        number; seed, method and notes of the first division paired), or one division's."""
        if division is not None:
            division = self.division(division)
        rows = list(
            self.db.query(
                "SELECT * FROM tour_division_rounds WHERE round = ?"
                + (" AND division = ?" if division is not None else "")
                + " ORDER BY paired_at, division",
                [round_no] if division is None else [round_no, division],
            )
        )
        if not rows:
            raise TournamentError(Phrase("err.tour.not_paired", round=round_no))
        meta = rows[0]
        notes = [n for m in rows for n in _read_notes(m["notes"])]
        result = Pairing(round_no, meta["seed"], meta["method"], notes=notes)
        sql = "SELECT b.* FROM tour_boards b WHERE b.round = ?"
        params: list[Any] = [round_no]
        if division is not None:
            sql += " AND (SELECT division FROM tour_players WHERE id = b.first) = ?"
            params.append(division)
        for b in self.db.query(sql + " ORDER BY b.table_no", params):
            result.boards.append(
                Board(b["table_no"], b["first"], b["second"], _read_why(b["reason"]))
            )
        return result

    def board_divisions(self, round_no: int) -> dict[int, str]:
        """Table number → division for a paired round."""
        return {
            int(r[0]): str(r[1])
            for r in self.db.execute(
                "SELECT b.table_no, p.division FROM tour_boards b"
                " JOIN tour_players p ON p.id = b.first WHERE b.round = ?",
                [round_no],
            )
        }

    def pair(
        self,
        round_no: int,
        *,
        seed: int | None = None,
        force: bool = False,
        method: str | None = None,
        allow_rematch: bool | None = None,
        beyond: bool = False,
        division: str | None = None,
        who: str = "operator",
    ) -> Pairing:
        """Pair and store ``round_no`` of ``division`` (default: the only one) — its next
        round, or its latest while that has no results. Only that division's players meet;
        its tables are numbered after the tables of the divisions before it in the hall's
        order (one block per division, sized to its field). Refuses while the division's
        previous round has missing or conflicting results unless ``force``. ``seed``
        defaults to a fresh random one, recorded with the round. The returned
        :class:`Pairing` carries the reasons (``--explain``). A round past the event's planned
        rounds is refused unless ``beyond`` (the director was asked: the dashboard asks, the
        command line wants ``--beyond``)."""
        division = self.division(division)
        last = self.last_round(division)
        if round_no not in (last, last + 1) or round_no < 1:
            raise TournamentError(Phrase("err.tour.next_round", next=last + 1))
        planned = self.settings()["rounds"]
        if planned and round_no > planned and round_no > last and not beyond:
            raise TournamentError(Phrase("err.tour.beyond", round=round_no, rounds=planned))
        if round_no == last:
            has = self.db.execute(
                "SELECT COUNT(*) FROM tour_results r JOIN tour_boards b USING (round, table_no)"
                " JOIN tour_players p ON p.id = b.first WHERE r.round = ? AND p.division = ?",
                [round_no, division],
            ).fetchone()[0]
            if has:
                raise TournamentError(Phrase("err.tour.has_results", round=round_no))
        if round_no > 1 and not force:
            missing = self.missing_results(round_no - 1, division=division)
            if missing:
                tables = ", ".join(str(m["table"]) for m in missing)
                raise TournamentError(
                    Phrase("err.tour.incomplete", round=round_no - 1, tables=tables)
                )
        players = self.players(division)
        active = [p.id for p in players if not p.withdrawn and not p.paused]
        if round_no == 1 and any(p.checked_in for p in players):
            active = [p.id for p in players if p.checked_in and not p.withdrawn and not p.paused]
        if seed is None:
            seed = secrets.randbelow(10**9)
        data = self.data(until_round=round_no - 1, division=division)
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
            mine = [p.id for p in players]
            marks = ", ".join("?" * len(mine)) or "NULL"
            if round_no == last:
                self.db.execute(
                    f"DELETE FROM tour_boards WHERE round = ? AND first IN ({marks})",
                    [round_no, *mine],
                )
                self.db.execute(
                    f"DELETE FROM tour_absences WHERE round = ? AND player IN ({marks})",
                    [round_no, *mine],
                )
                self.db.execute(
                    "DELETE FROM tour_division_rounds WHERE round = ? AND division = ?",
                    [round_no, division],
                )
                if len(self.divisions()) == 1:
                    self.db.execute("DELETE FROM tour_rounds WHERE round = ?", [round_no])
            offset = self._table_offset(round_no, division, len(pairing.boards))
            for b in pairing.boards:
                b.table += offset
            hall_round = {
                "round": round_no,
                "seed": seed,
                "method": pairing.method,
                "notes": _dump_reasons(pairing.notes),
                "paired_at": now,
            }
            # The hall's round: the first division paired in it creates it.
            self.db.table("tour_rounds").insert(hall_round, pk="round", ignore=True)
            self.db.table("tour_division_rounds").insert(
                {
                    "division": division,
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
            after: dict[str, Any] = {
                "seed": seed,
                "method": pairing.method,
                "boards": len(pairing.boards),
            }
            if len(self.divisions()) > 1:
                after["division"] = division
            self._audit(who, "pair", round_no, None, None, after)
        return pairing

    def _table_offset(self, round_no: int, division: str, boards: int) -> int:
        """How far a division's tables 1..``boards`` are moved so that tables are numbered
        across the hall: after the blocks of the divisions before it in the hall's order,
        each block as large as that division's field (half its players not withdrawn, a bye
        included) — so a division's tables stay put from round to round — and never onto a
        table another division already has in this round."""
        names = self.divisions()
        if len(names) == 1:
            return 0
        start = 0
        for name in names[: names.index(division)]:
            field = self.db.execute(
                "SELECT COUNT(*) FROM tour_players WHERE division = ? AND status != 'withdrawn'",
                [name],
            ).fetchone()[0]
            start += math.ceil(field / 2)
        taken = {
            int(r[0])
            for r in self.db.execute(
                "SELECT b.table_no FROM tour_boards b JOIN tour_players p ON p.id = b.first"
                " WHERE b.round = ? AND p.division != ?",
                [round_no, division],
            )
        }
        if any(start + t in taken for t in range(1, boards + 1)):
            start = max(taken)
        return start

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
        # (both players are in the pairing: changed_boards checked it)
        if action in ("swap", "force") and self.player(a).division != self.player(b).division:
            # Pairings never cross divisions, not even by hand.
            raise TournamentError(
                Phrase(
                    "err.correct.cross_division",
                    a=a,
                    b=b,
                    first=self.player(a).division,
                    second=self.player(b).division,
                )
            )
        touched |= touched_before
        for table in sorted(touched):
            if self.book.result_row(round_no, table) is not None:
                if self.book.round_row(round_no)["published_at"] is not None:
                    # a published result is not undone: the pairing it was played in stays
                    raise TournamentError(
                        Phrase("err.correct.published", round=round_no, table=table)
                    )
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
            # The note goes with the pairing of each division whose tables changed.
            divisions = {
                self.player(pid).division
                for x in boards
                if x.table in touched
                for pid in (x.first, x.second)
                if pid is not None
            }
            for row in list(
                self.db.query(
                    "SELECT division, notes FROM tour_division_rounds WHERE round = ?",
                    [round_no],
                )
            ):
                if row["division"] in divisions:
                    notes = _dump_reasons([*_read_notes(row["notes"]), note])
                    self.db.execute(
                        "UPDATE tour_division_rounds SET notes = ?"
                        " WHERE round = ? AND division = ?",
                        [notes, round_no, row["division"]],
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
            for table in ("tour_boards", "tour_absences", "tour_division_rounds", "tour_rounds"):
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

    def missing_results(
        self, round_no: int, *, division: str | None = None
    ) -> list[dict[str, Any]]:
        """Tables of a paired round with no result yet or with a conflict: the whole hall's,
        or one division's."""
        tables = None
        if division is not None:
            name = self.division(division)
            tables = {t for t, d in self.board_divisions(round_no).items() if d == name}
        return [
            {
                "table": b["table_no"],
                "first": self._name(b["first"]),
                "second": self._name(b["second"]),
                "status": b["status"] or "missing",
            }
            for b in self.book.missing(round_no)
            if tables is None or b["table_no"] in tables
        ]

    def unsettled(
        self, until_round: int | None = None, *, division: str | None = None
    ) -> list[dict[str, Any]]:
        """Tables of rounds up to ``until_round`` (default: what standings cover) that the
        standings do not count yet — missing or in conflict: round, table, names, status.
        Whatever shows those standings must say so (the table is pending, not lost). The
        whole hall's, or one ``division``'s."""
        last = self.last_scored_round(division) if until_round is None else until_round
        out = []
        for r in range(1, last + 1):
            if not self.db.execute("SELECT 1 FROM tour_rounds WHERE round = ?", [r]).fetchone():
                continue
            for m in self.missing_results(r, division=division):
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

    def published_rounds(self) -> list[int]:
        """The rounds whose results are published: the stations are told with the
        standings (``published``), so a kiosk refuses a withdrawal the hub would refuse."""
        return self.book.published_rounds()

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

    def data(
        self, until_round: int | None = None, *, division: str | None = None
    ) -> TournamentData:
        """Players and games (agreed results, byes, absences) as the domain modules use:
        the whole hall's, or one ``division``'s (its players and their games only)."""
        last = self.last_round() if until_round is None else until_round
        data = TournamentData(name=self.settings()["name"])
        data.players = {p.id: p for p in self.players(division)}
        mine = data.players
        for r in self.db.query(
            "SELECT b.round, b.table_no, b.first, b.second, r.s_first, r.s_second, r.starter,"
            " r.kind, r.forfeited, r.status FROM tour_boards b"
            " LEFT JOIN tour_results r USING (round, table_no) WHERE b.round <= ?"
            " ORDER BY b.round, b.table_no",
            [last],
        ):
            if r["first"] not in mine:
                continue
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
            if a["player"] not in mine:
                continue
            kind = Kind.LATE if a["kind"] == "late" else Kind.ABSENT
            data.games.append(Game(a["round"], a["player"], None, kind=kind))
        data.games.sort(key=lambda g: (g.round, g.table or 0, g.p1))
        return data

    def standings(
        self,
        *,
        rules: RuleSet | None = None,
        after_round: int | None = None,
        division: str | None = None,
    ) -> list[Standing]:
        """Standings of ``division`` (default: the only one) after ``after_round``
        (default: the division's last round with results — a pending round is not
        counted) by ``rules`` (default: the tournament's). Conflicting and missing results
        are left out."""
        division = self.division(division)
        last = self.last_scored_round(division) if after_round is None else after_round
        data = self.data(until_round=last, division=division)
        return compute(
            data.players.values(),
            data.games,
            rules or self.rules,
            rounds=last,
            expelled={p for p, r in self.expelled().items() if r <= last},
        )

    def hall_standings(self, *, after_round: int | None = None) -> list[Standing]:
        """Every division's standings, one after another in the hall's order (ranks are
        per division; each player's ``division`` says whose) — what the stations and the
        hall screen show."""
        return [
            s for d in self.divisions() for s in self.standings(after_round=after_round, division=d)
        ]

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
        """Load a tsh .t file into an empty tournament (see :meth:`import_tsh_file`), or a
        tsh event configuration (``config.tsh``: one ``division NAME FILE`` line per
        division) with every division's file (:meth:`import_tsh_event`). Returns the number
        of players."""
        path = Path(path)
        if tshfile.is_config(path):
            return self.import_tsh_event(path, who=who)
        return self.import_tsh_file(tshfile.read(path), file=str(path), who=who)

    def import_tsh_event(self, config: Path | str, *, who: str = "operator") -> int:
        """Load a tsh event: its ``config.tsh`` and one ``.t`` file per division (named
        relative to the configuration, as tsh reads them), into an empty tournament. The
        divisions keep tsh's names and order and their files' names; the configuration's
        text is kept, so :meth:`export_tsh_event` writes it back as it was."""
        config = Path(config)
        event = tshfile.read_config(config)
        if not event.divisions:
            raise TournamentError(Phrase("err.tour.tsh_no_divisions", file=str(config)))
        if self.players():
            raise TournamentError(Phrase("err.tour.import_nonempty"))
        sources = []
        for name, file in event.divisions:
            if file in event.embedded:  # a tsh archive carries the files in itself
                sources.append((name, file, tshfile.parse(event.embedded[file])))
                continue
            path = config.parent / file
            if not path.is_file():
                raise TournamentError(
                    Phrase("err.tour.tsh_division_file", division=name, file=str(path))
                )
            sources.append((name, file, tshfile.read(path)))
        total = 0
        with self._tx():
            for name, file, source in sources:
                division = self._ensure_division(name, file, who)
                total += self.import_tsh_file(source, file=file, division=division, who=who)
            self.db.table("tour_settings").upsert(
                {
                    "key": "tsh_config",
                    "value": json.dumps([config.name, event.text, event.encoding]),
                },
                pk="key",
            )
        return total

    def _ensure_division(self, name: str, file: str, who: str) -> str:
        """The division a configuration's ``division`` line names, spelt as it spells it
        (tsh's ``division a a.t`` makes the unused default ``A`` into ``a``)."""
        try:
            known = self.division(name)
        except TournamentError:
            return self.add_division(name, tsh_file=file, who=who)
        if known != name:
            known = self.rename_division(known, name, who=who)
        self.db.execute("UPDATE tour_divisions SET tsh_file = ? WHERE name = ?", [file, known])
        return known

    def import_tsh_file(
        self,
        source: tshfile.TshFile,
        *,
        file: str = "",
        division: str | None = None,
        who: str = "operator",
    ) -> int:
        """Load a parsed tsh file into an empty ``division`` (default: the only one):
        players, pairings, results of scored rounds (confirmed, source ``tsh``), byes and
        absences; a round paired but not scored yet (a live file) is stored as a pairing
        without results, so it is pending — not in standings, listed by
        :meth:`missing_results`. The file itself is kept, so :meth:`export_tsh` gives back
        every token the hub did not change. tsh numbers each division's players from 1; in
        the hub they follow the players already registered, tables after the tables other
        divisions have in that round."""
        division = self.division(division)
        if self.players(division):
            raise TournamentError(Phrase("err.tour.import_nonempty"))
        if not source.players:
            raise TournamentError(tshfile.Notice("tsh.no_players", {"file": file}).text())
        data = tshfile.to_tournament(source)
        pend = tshfile.pending(source)
        rounds = max([data.rounds, source.scored_rounds, *(g.round for g in pend)])
        now = self.clock.now()
        base = int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM tour_players").fetchone()[0])

        def gid(local: int | None) -> int | None:
            return None if local is None else local + base

        with self._tx():
            for p in data.players.values():
                self.db.table("tour_players").insert(
                    {
                        "id": p.id + base,
                        "name": p.name,
                        "club": p.club,
                        "rating": p.rating,
                        "status": "withdrawn" if p.withdrawn else "active",
                        "created_at": now,
                        "extra": json.dumps(p.extra, ensure_ascii=False),
                        "division": division,
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
                    },
                    pk="round",
                    ignore=True,
                )
                if waiting:  # the hall's round is published only when every division is
                    self.db.execute(
                        "UPDATE tour_rounds SET published_at = NULL WHERE round = ?", [r]
                    )
                self.db.table("tour_division_rounds").insert(
                    {
                        "division": division,
                        "round": r,
                        "seed": 0,
                        "method": "tsh",
                        "paired_at": now,
                    }
                )
                table = int(
                    self.db.execute(
                        "SELECT COALESCE(MAX(table_no), 0) FROM tour_boards WHERE round = ?", [r]
                    ).fetchone()[0]
                )
                for g in games + waiting:
                    if g.kind in (Kind.LATE, Kind.ABSENT) and g.p2 is None:
                        self.db.table("tour_absences").insert(
                            {"round": r, "player": gid(g.p1), "kind": g.kind.value}
                        )
                        continue
                    table += 1
                    first = g.first if g.first is not None else g.p1
                    second = g.p2 if first == g.p1 else g.p1
                    self.db.table("tour_boards").insert(
                        {"round": r, "table_no": table, "first": gid(first), "second": gid(second)}
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
                            "starter": gid(g.first),
                            "kind": g.kind.value,
                            "forfeited": gid(g.forfeited),
                            "status": "confirmed",
                            "sources": json.dumps(["tsh"]),
                            "updated_at": now,
                        }
                    )
            for local, r in tshfile.expelled_rounds(source).items():
                # the file's ``expelled`` key: the expulsion, so that the standings (PFS:
                # a voided tally) and the prize list read as in the hall that wrote it
                self.sanction_book.record(
                    int(gid(local) or 0),
                    "expulsion",
                    round_no=r or None,
                    reason=f"tsh: {file}",
                    scope="event",
                    who=who,
                )
            self.db.table("tour_division_tsh").insert(
                {
                    "division": division,
                    "file": file,
                    "encoding": source.encoding,
                    "text": tshfile.format_file(source),
                    "imported_at": now,
                }
            )
            after = {"file": file}
            if len(self.divisions()) > 1:
                after["division"] = division
            self._audit(who, "import_tsh", None, None, None, after)
        return len(data.players)

    def tsh_source(self, division: str | None = None) -> tshfile.TshFile | None:
        """The tsh file ``division`` (default: the only one) was imported from, if any."""
        rows = list(
            self.db.query(
                "SELECT * FROM tour_division_tsh WHERE division = ?", [self.division(division)]
            )
        )
        if not rows:
            return None
        return tshfile.parse(rows[0]["text"], rows[0]["encoding"])

    def last_scored_round(self, division: str | None = None) -> int:
        """The last round with at least one result, or published (a round of byes only);
        what standings cover by default. A round paired but without results is pending.
        With ``division``: the last round with a result at one of its tables (or published)."""
        if division is None:
            row = self.db.execute(
                "SELECT MAX(round) FROM (SELECT round FROM tour_results"
                " UNION SELECT round FROM tour_rounds WHERE published_at IS NOT NULL)"
            ).fetchone()
            return int(row[0] or 0)
        division = self.division(division)
        row = self.db.execute(
            "SELECT MAX(round) FROM (SELECT r.round FROM tour_results r"
            " JOIN tour_boards b USING (round, table_no) JOIN tour_players p ON p.id = b.first"
            " WHERE p.division = ? UNION SELECT t.round FROM tour_rounds t"
            " JOIN tour_division_rounds d ON d.round = t.round AND d.division = ?"
            " WHERE t.published_at IS NOT NULL)",
            [division, division],
        ).fetchone()
        return int(row[0] or 0)

    def pending_games(self, division: str | None = None) -> list[Game]:
        """Pairings without an agreed result (pending rounds and open tables), as games
        without scores; byes of rounds after the last scored one. The whole hall's, or one
        division's (rounds after its own last scored one)."""
        mine = None if division is None else {p.id for p in self.players(division)}
        scored = self.last_scored_round(division)
        out = []
        for b in self.db.query(
            "SELECT b.round, b.table_no, b.first, b.second FROM tour_boards b"
            " LEFT JOIN tour_results r USING (round, table_no)"
            " WHERE (b.second IS NOT NULL AND (r.status IS NULL OR r.status = 'conflict'))"
            " OR (b.second IS NULL AND b.round > ?) ORDER BY b.round, b.table_no",
            [scored],
        ):
            if mine is not None and b["first"] not in mine:
                continue
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

    def export_tsh(self, division: str | None = None) -> tshfile.TshFile:
        """``division`` (default: the only one) as a tsh file: scored rounds, pending
        pairings, and — for an imported tournament — every token of the original file the
        hub did not change (unchanged lines byte for byte, in the file's own encoding).
        Players are numbered 1… in the division, in the order they were registered, as tsh
        numbers them."""
        division = self.division(division)
        scored = self.last_scored_round(division)
        mine = self.data(until_round=scored, division=division)
        data, pend = _local_numbers(mine, self.pending_games(division))
        number = {pid: i for i, pid in enumerate(sorted(mine.players), start=1)}
        return tshfile.from_tournament(
            data,
            pending_games=pend,
            source=self.tsh_source(division),
            scored_rounds=scored,
            rules=self.rules,
            expelled={number[p]: r for p, r in self.expelled().items() if p in number},
        )

    def expelled(self) -> dict[int, int]:
        """Player → the round of his (first active) expulsion from the event."""
        out: dict[int, int] = {}
        for s in self.sanction_book.rows(kinds=("expulsion",)):
            if s.scope == "event" and s.player not in out:
                out[s.player] = s.round or 0
        return out

    def export_tsh_event(self, folder: Path | str) -> list[Path]:
        """Write the whole hall as tsh writes a multi-division event into ``folder``: one
        ``.t`` file per division (the names it was imported with, else ``<name>.t``
        lowercased) and ``config.tsh`` with a ``division NAME FILE`` line for each — the
        imported configuration as it was when its divisions are unchanged. Returns the files
        written, the configuration first."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        files = [(name, self.division_tsh_file(name)) for name in self.divisions()]
        row = self.db.execute("SELECT value FROM tour_settings WHERE key = 'tsh_config'").fetchone()
        config_name, text, encoding = json.loads(row[0]) if row else ("config.tsh", "", "utf-8")
        text = tshfile.config_with_divisions(text, files)
        written = [folder / config_name]
        written[0].write_bytes(text.encode(encoding))
        for name, file in files:
            path = folder / file
            path.parent.mkdir(parents=True, exist_ok=True)
            tshfile.write(self.export_tsh(name), path)
            written.append(path)
        return written

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
        division=row.get("division", DEFAULT_DIVISION),
    )


_DIVISION_NAME = re.compile(r"^[^\s;#]{1,32}$")


def _division_name(name: str) -> str:
    """A division's name as tsh's ``division NAME FILE`` line can hold it: one word of at
    most 32 characters, without ``;`` or ``#``."""
    name = name.strip()
    if not _DIVISION_NAME.match(name):
        raise TournamentError(Phrase("err.tour.division_name", name=name))
    return name


def _local_numbers(data: TournamentData, pend: list[Game]) -> tuple[TournamentData, list[Game]]:
    """A division's players and games renumbered 1… in id order, as its tsh file numbers
    them (the hub's ids run across the hall)."""
    number = {pid: i for i, pid in enumerate(sorted(data.players), start=1)}

    def local(pid: int | None) -> int | None:
        return None if pid is None else number[pid]

    def game(g: Game) -> Game:
        return replace(
            g,
            p1=number[g.p1],
            p2=local(g.p2),
            first=local(g.first),
            forfeited=local(g.forfeited),
        )

    out = TournamentData(name=data.name)
    out.players = {number[pid]: replace(p, id=number[pid]) for pid, p in data.players.items()}
    out.games = [game(g) for g in data.games]
    return out, [game(g) for g in pend]


def _played_before(db: sqlite_utils.Database, round_no: int) -> set[int]:
    ids: set[int] = set()
    for first, second in db.execute(
        "SELECT first, second FROM tour_boards WHERE round < ?", [round_no]
    ):
        ids.add(first)
        if second is not None:
            ids.add(second)
    return ids


_NAME_HEADS = {"name", "jméno", "jmeno", "meno", "hráč", "hrac", "player", "příjmení a jméno",
               "gracz", "nazwisko", "imię i nazwisko", "nazwisko i imię"}  # fmt: skip
_CLUB_HEADS = {"club", "klub", "oddíl", "oddil", "team"}
_RATING_HEADS = {"rating", "elo", "rank", "hodnocení", "hodnotenie", "ranking"}
_DIVISION_HEADS = {"skupina", "division", "divize", "divízia", "group", "grupa"}


def _read_player_csv(text: str) -> list[tuple[str, str, int, str]]:
    """(name, club, rating, division or "") per row."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    try:
        dialect: Any = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO("\n".join(lines)), dialect))
    head = [c.strip().lower() for c in rows[0]]
    cols = {"name": 0, "club": 1, "rating": 2, "division": -1}
    if any(h in _NAME_HEADS for h in head):
        rows = rows[1:]
        cols = {"name": -1, "club": -1, "rating": -1, "division": -1}
        for i, h in enumerate(head):
            for key, names in (
                ("name", _NAME_HEADS),
                ("club", _CLUB_HEADS),
                ("rating", _RATING_HEADS),
                ("division", _DIVISION_HEADS),
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
        out.append((name, get("club"), rating, get("division")))
    return out

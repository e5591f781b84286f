"""The sanctions record: warnings, penalty crosses, point penalties and expulsions, each kept
per player with the round (and table), the time, the reason and the referee.

One module owns ``tour_sanctions``: this one (:class:`SanctionBook`); the
:class:`~hub.tournament.facade.Tournament` facade delegates to it, nothing else writes the
table. Lifecycle of a row::

    (a suggestion, computed from the stations' logged checks, never stored)
        ├─ confirm  → active   (source "suggestion", with the check's key)
        └─ dismiss  → dismissed (kept, so it is not suggested again)
    referee's entry → active   (source "referee")
    active ─ revoke → revoked  (who, when, why; the row stays)

What the rules make of the rows (computed when read, never stored twice):

* **Crosses** (ČAS 8.4: an unjustified challenge; 8.6): crosses in one game add up; the
  third and every further one costs the next turn — that cross reads ``turn_lost``
  („ztráta tahu“).
* **Warnings** (13.10, 13.11): the third warning in one game means the player is expelled
  from that game and it is forfeited against him — that warning reads ``expel_game``.
* **Expulsions** (13.12, 13.13): from the game or from the event; one from the event also
  withdraws the player for good (the facade does both in one transaction). Warnings and
  expulsions are published before the next round: they are printed with its pairings.
* **Point penalties** (SSS: 20 points for the third and every further unjustified
  challenge in a game) are recorded with their points; the standings are not changed by
  them — the referee applies them to the game's score, as the SSS rule says ("after the
  game"), by a correction.

Every write is one transaction with an audit row (``sanction``, ``sanction_revoke``,
``suggestion_dismiss``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from samoobsluha.hub.tournament.intake import ResultBook, TournamentError
from samoobsluha.shared.clock import Clock
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.storage import Database

KINDS = ("warning", "cross", "penalty", "expulsion")
SCOPES = ("game", "event")
CROSSES_FOR_A_TURN = 3  # ČAS 8.6
WARNINGS_FOR_EXPULSION = 3  # ČAS 13.11


@dataclass
class Sanction:
    id: int
    player: int
    kind: str
    round: int | None
    table: int | None
    reason: str
    referee: str
    at: float
    points: int = 0  # a penalty's points (positive: taken off)
    scope: str = "game"  # an expulsion's: the game or the whole event
    source: str = "referee"  # referee | suggestion
    check_key: str = ""  # the logged check a suggestion came from
    status: str = "active"  # active | dismissed | revoked
    revoked_by: str = ""
    revoke_note: str = ""
    # computed when read (ČAS 8.6, 13.11): the n-th of its kind in that game, and its effect
    nth_in_game: int = 0
    turn_lost: bool = False
    expel_game: bool = False

    @property
    def active(self) -> bool:
        return self.status == "active"


class SanctionBook:
    """The sanctions of one tournament database (see the module docstring)."""

    def __init__(self, db: Database, clock: Clock, book: ResultBook) -> None:
        self.db = db
        self.clock = clock
        self.book = book  # for the audit trail, which the result book keeps

    def record(
        self,
        player: int,
        kind: str,
        *,
        round_no: int | None,
        table: int | None = None,
        reason: str = "",
        referee: str = "",
        points: int = 0,
        scope: str = "game",
        check_key: str = "",
        who: str = "operator",
    ) -> Sanction:
        """Record one sanction (already inside the caller's transaction or in its own)."""
        if kind not in KINDS:
            raise TournamentError(Phrase("err.sanction.kind", kind=kind, kinds=", ".join(KINDS)))
        if scope not in SCOPES:
            raise TournamentError(Phrase("err.sanction.scope", scopes=", ".join(SCOPES)))
        if not self.db.execute("SELECT 1 FROM tour_players WHERE id = ?", [player]).fetchone():
            raise TournamentError(Phrase("err.tour.no_player", id=player))
        if kind == "penalty" and points <= 0:
            raise TournamentError(Phrase("err.sanction.points"))
        if not reason.strip():
            raise TournamentError(Phrase("err.sanction.reason"))
        if check_key and self.handled(check_key):
            raise TournamentError(Phrase("err.sanction.handled", key=check_key))
        with self.db.atomic():
            cursor = self.db.execute(
                "INSERT INTO tour_sanctions (player, kind, round, table_no, reason, referee,"
                " at, points, scope, source, check_key, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active')",
                [
                    player,
                    kind,
                    round_no,
                    table,
                    " ".join(reason.split()),
                    referee or who,
                    self.clock.now(),
                    points if kind == "penalty" else 0,
                    scope if kind == "expulsion" else "game",
                    "suggestion" if check_key else "referee",
                    check_key,
                ],
            )
            sanction = self.get(int(cursor.lastrowid or 0))
            self.book.audit(who, "sanction", round_no, table, None, asdict(sanction))
        return sanction

    def dismiss(
        self, check_key: str, player: int | None, kind: str, round_no: int | None, *, who: str
    ) -> None:
        """A suggestion the referee turned down: kept, so it is not suggested again."""
        if self.handled(check_key):
            raise TournamentError(Phrase("err.sanction.handled", key=check_key))
        with self.db.atomic():
            self.db.execute(
                "INSERT INTO tour_sanctions (player, kind, round, table_no, reason, referee,"
                " at, points, scope, source, check_key, status)"
                " VALUES (?, ?, ?, NULL, '', ?, ?, 0, 'game', 'suggestion', ?, 'dismissed')",
                [player, kind, round_no, who, self.clock.now(), check_key],
            )
            self.book.audit(who, "suggestion_dismiss", round_no, None, None, {"key": check_key})

    def revoke(self, sanction_id: int, *, who: str, note: str = "") -> Sanction:
        """Take a sanction back (an appeal changed the verdict, a mistake): audited."""
        before = self.get(sanction_id)
        if not before.active:
            raise TournamentError(Phrase("err.sanction.not_active", id=sanction_id))
        with self.db.atomic():
            self.db.execute(
                "UPDATE tour_sanctions SET status = 'revoked', revoked_at = ?, revoked_by = ?,"
                " revoke_note = ? WHERE id = ?",
                [self.clock.now(), who, note, sanction_id],
            )
            after = self.get(sanction_id)
            self.book.audit(
                who, "sanction_revoke", before.round, before.table, asdict(before), asdict(after)
            )
        return after

    def handled(self, check_key: str) -> bool:
        """A logged check already confirmed or dismissed as a sanction."""
        row = self.db.execute(
            "SELECT 1 FROM tour_sanctions WHERE check_key = ? AND status != 'revoked'",
            [check_key],
        ).fetchone()
        return row is not None

    def handled_keys(self) -> set[str]:
        return {
            r["check_key"]
            for r in self.db.query(
                "SELECT check_key FROM tour_sanctions WHERE check_key != '' AND status != 'revoked'"
            )
        }

    def get(self, sanction_id: int) -> Sanction:
        for s in self.rows(status=None):
            if s.id == sanction_id:
                return s
        raise TournamentError(Phrase("err.sanction.none", id=sanction_id))

    def rows(
        self,
        *,
        round_no: int | None = None,
        player: int | None = None,
        kinds: tuple[str, ...] = KINDS,
        status: str | None = "active",
    ) -> list[Sanction]:
        """Sanctions in the order they were given, with what the rules make of them."""
        out = [_sanction(r) for r in self.db.query("SELECT * FROM tour_sanctions ORDER BY id")]
        counts: dict[tuple[int, int | None, str], int] = {}
        for s in out:
            if not s.active or s.kind not in ("cross", "warning"):
                continue
            k = (s.player, s.round, s.kind)
            counts[k] = s.nth_in_game = counts.get(k, 0) + 1
            s.turn_lost = s.kind == "cross" and s.nth_in_game >= CROSSES_FOR_A_TURN
            s.expel_game = s.kind == "warning" and s.nth_in_game >= WARNINGS_FOR_EXPULSION
        return [
            s
            for s in out
            if (status is None or s.status == status)
            and (round_no is None or s.round == round_no)
            and (player is None or s.player == player)
            and s.kind in kinds
        ]

    def published_before(self, round_no: int) -> list[Sanction]:
        """What is published with round ``round_no``'s pairings (ČAS 13.13: before the next
        round): the warnings and expulsions given in the round before it."""
        return [s for s in self.rows(kinds=("warning", "expulsion")) if s.round == round_no - 1]


def _sanction(row: dict[str, Any]) -> Sanction:
    return Sanction(
        id=row["id"],
        player=row["player"],
        kind=row["kind"],
        round=row["round"],
        table=row["table_no"],
        reason=row["reason"],
        referee=row["referee"],
        at=row["at"],
        points=row["points"],
        scope=row["scope"],
        source=row["source"],
        check_key=row["check_key"],
        status=row["status"],
        revoked_by=row["revoked_by"] or "",
        revoke_note=row["revoke_note"] or "",
    )

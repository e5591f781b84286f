"""Word challenges and calls for the referee, as the stations logged them: the log with
second-instance decisions (appeals) folded in, who challenged (the kiosk knows only the
table), the SSS tallies and penalties, and the referee requests and their acknowledgement.
The hub's own marks, appeals and acknowledgements are the core's ``dash_marks``,
``dash_appeals`` and ``dash_acks`` tables."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.officiating import Challenge, PlayerTally, unjustified_penalties
from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.hub.tournament.sanctions import Sanction
from samoobsluha.shared.i18n import Phrase


@dataclass
class CheckRow:
    key: str
    at: float
    station: str
    round_no: int | None
    table_no: int
    words: list[str]
    verdict: str  # valid | invalid | referee | refused (first instance)
    variant: str
    instance: str  # first | appeal
    final: str  # the verdict after any appeal
    appealed: bool
    challenger: int | None
    challenger_name: str = ""
    penalised: bool = False  # SSS: this is a 3rd+ unjustified challenge in the game
    lexicon_sha256: str = ""


@dataclass
class RequestRow:
    key: str
    at: float
    station: str
    round_no: int | None
    table_no: int | None
    reason: str
    acknowledged: bool


class ChallengesArea(ServiceCore):
    """Checks, appeals, SSS penalties and referee requests."""

    def challenges(
        self, round_no: int | None = None, table_no: int | None = None, limit: int = 500
    ) -> list[CheckRow]:
        """Checks from every station, newest first, with appeals folded in and SSS
        penalties marked."""
        rows = self._all_checks()
        out = [
            r
            for r in rows
            if (round_no is None or r.round_no == round_no)
            and (table_no is None or r.table_no == table_no)
        ]
        out.sort(key=lambda r: (r.at, r.key), reverse=True)
        return out[:limit]

    def _all_checks(self) -> list[CheckRow]:
        with self._db() as db:
            names = {p.id: p.name for p in Tournament(db, self.clock).players()}
            marks = {r["key"]: r["challenger"] for r in db.query("SELECT * FROM dash_marks")}
            hub_appeals: dict[str, str] = {}
            for r in db.query("SELECT key, verdict FROM dash_appeals ORDER BY id"):
                hub_appeals[r["key"]] = r["verdict"]
            records = sync_store.check_records(db)
        by_local: dict[tuple[str, str, int], str] = {}
        checks: list[CheckRow] = []
        station_appeals: dict[str, str] = {}
        for row, p in records:
            key = row.key
            by_local[(row.station_id, row.station_epoch, p.id)] = key
            if p.instance == "appeal" and p.appeal_of is not None:
                target = by_local.get((row.station_id, row.station_epoch, p.appeal_of))
                if target:
                    station_appeals[target] = p.status
            challenger = marks.get(key)
            checks.append(
                CheckRow(
                    key=key,
                    at=p.at,
                    station=p.station_id,
                    round_no=p.round_no,
                    table_no=p.table_no,
                    words=list(p.words),
                    verdict=p.status,
                    variant=p.lexicon_variant or "",
                    instance=p.instance,
                    final=p.status,
                    appealed=False,
                    challenger=int(challenger) if challenger is not None else None,
                    challenger_name=names.get(int(challenger), "") if challenger else "",
                    lexicon_sha256=p.lexicon_sha256 or "",
                )
            )
        for c in checks:
            decided = hub_appeals.get(c.key) or station_appeals.get(c.key)
            if decided and c.instance == "first":
                c.final, c.appealed = decided, True
        by_key = {c.key: c for c in checks}
        for tally in self._tallies(checks):
            for key in tally.penalised_keys():
                by_key[key].penalised = True
        return checks

    @staticmethod
    def _tallies(checks: list[CheckRow]) -> list[PlayerTally]:
        return unjustified_penalties(
            Challenge(
                c.round_no or 0,
                c.table_no,
                c.challenger,
                justified=c.final == "invalid",
                at=c.at,
                key=c.key,
            )
            for c in checks
            if c.instance == "first" and c.final in ("valid", "invalid")
        )

    def challenge_board(
        self, round_no: int | None = None, table_no: int | None = None, limit: int = 500
    ) -> tuple[list[CheckRow], dict[int, int], list[dict[str, Any]]]:
        """What the Challenges screen shows, from one read: the filtered log (newest
        first), checks per table of the round, and the SSS tallies of the round."""
        checks = self._all_checks()
        rows = sorted(
            (
                c
                for c in checks
                if (round_no is None or c.round_no == round_no)
                and (table_no is None or c.table_no == table_no)
            ),
            key=lambda c: (c.at, c.key),
            reverse=True,
        )
        per_table: dict[int, int] = {}
        for c in checks:
            if c.instance == "first" and (round_no is None or c.round_no == round_no):
                per_table[c.table_no] = per_table.get(c.table_no, 0) + 1
        return rows[:limit], dict(sorted(per_table.items())), self._penalties(checks, round_no)

    def sss_penalties(self, round_no: int | None = None) -> list[dict[str, Any]]:
        """SSS: per player and game, unjustified challenges and the penalty (20 points from
        the third one on)."""
        return self._penalties(self._all_checks(), round_no)

    def _penalties(self, checks: list[CheckRow], round_no: int | None) -> list[dict[str, Any]]:
        names = self.player_names()
        out = []
        for tally in self._tallies(checks):
            if round_no is not None and tally.round_no != round_no:
                continue
            out.append(
                {
                    "round": tally.round_no,
                    "table": tally.table_no,
                    "player": tally.player,
                    "name": names.get(tally.player, f"#{tally.player}"),
                    "unjustified": tally.unjustified,
                    "penalty": tally.penalty(),
                }
            )
        return out

    def checks_per_table(self, round_no: int | None = None) -> dict[int, int]:
        counts: dict[int, int] = {}
        for c in self.challenges(round_no=round_no, limit=10**9):
            if c.instance == "first":
                counts[c.table_no] = counts.get(c.table_no, 0) + 1
        return dict(sorted(counts.items()))

    def table_players(self, round_no: int, table_no: int) -> tuple[int, int | None]:
        with self._tour() as tour:
            for b in tour.pairing(round_no).boards:
                if b.table == table_no:
                    return b.first, b.second
        raise ServiceError(Phrase("err.no_table", round=round_no, table=table_no))

    def mark_challenger(self, key: str, which: int | None) -> int | None:
        """Say who challenged: ``which`` 1 (the table's first player) or 2 (its second),
        ``None`` to clear.
        Returns the player id."""
        check = self._check(key)
        if which is None:
            with self._db() as db, db.atomic():
                db.execute("DELETE FROM dash_marks WHERE key = ?", [key])
            return None
        if check.round_no is None:
            raise ServiceError(Phrase("dash.mark.no_round"))
        first, second = self.table_players(check.round_no, check.table_no)
        player = first if which == 1 else second
        if player is None:
            raise ServiceError(Phrase("dash.mark.bye"))
        with self._db() as db, db.atomic():
            db.table("dash_marks").upsert(
                {"key": key, "challenger": player, "at": self.clock.now(), "who": self.who},
                pk="key",
            )
        return player

    def record_appeal(self, key: str, verdict: str, note: str = "") -> None:
        """The chief referee's second-instance decision (final, ČAS 9.5–9.8)."""
        if verdict not in ("valid", "invalid"):
            raise ServiceError(Phrase("err.appeal_verdict"))
        self._check(key)
        with self._db() as db, db.atomic():
            db.table("dash_appeals").insert(
                {
                    "key": key,
                    "verdict": verdict,
                    "note": note,
                    "at": self.clock.now(),
                    "who": self.who,
                }
            )

    def verify_receipt(self, code: str) -> CheckRow | None:
        """The check a verdict's receipt code stands for (hub/receipts.py), appeals
        folded in; None when no check the stations sent has that code."""
        from samoobsluha.hub.receipts import find_receipt, hall_keys
        from samoobsluha.shared.receipt import parse_code

        if parse_code(code) is None:
            raise ServiceError(Phrase("receipt.malformed", code=code))
        keys = hall_keys(self.data)
        if keys is None:
            raise ServiceError(Phrase("receipt.no_key", path=str(self.data / "tournament.key")))
        with self._db() as db:
            key = find_receipt(db, keys, code)
        if key is None:
            return None
        return self._check(key)

    def _check(self, key: str) -> CheckRow:
        for c in self._all_checks():
            if c.key == key:
                return c
        raise ServiceError(Phrase("err.no_check", key=key))

    def referee_requests(self, pending_only: bool = False) -> list[RequestRow]:
        with self._db() as db:
            acks = {r["key"] for r in db.query("SELECT key FROM dash_acks")}
            records = sync_store.referee_request_records(db)
        out = []
        for row, req in records:
            item = RequestRow(
                row.key,
                req.at,
                req.station_id,
                req.round_no,
                req.table_no,
                req.reason,
                row.key in acks,
            )
            if not (pending_only and item.acknowledged):
                out.append(item)
        return out

    def acknowledge_request(self, key: str) -> None:
        with self._db() as db, db.atomic():
            db.table("dash_acks").upsert(
                {"key": key, "at": self.clock.now(), "who": self.who}, pk="key"
            )

    # -- sanctions suggested by the logged checks (the record is hub/tournament/sanctions) --

    def sanction_suggestions(self, round_no: int | None = None) -> list[SuggestionRow]:
        """What the stations' logged checks suggest, for the referee to confirm: under
        ČAS a penalty cross for each unjustified challenge (8.4), under SSS the point
        penalty for the third and every further one in a game; and a sanction to take
        back where an appeal found the challenge justified after all (9.5–9.8). Checks
        already confirmed or dismissed are not suggested again."""
        checks = self._all_checks()
        with self._tour() as tour:
            rules = tour.rules
            handled = tour.sanction_book.handled_keys()
            given = [s for s in tour.sanctions() if s.check_key]
        names = self.player_names()
        out: list[SuggestionRow] = []
        first = [c for c in checks if c.instance == "first" and c.final in ("valid", "invalid")]
        if rules.unjustified == "cross":
            for c in first:
                if c.final == "valid" and c.key not in handled:
                    out.append(_suggestion(c, "cross", 0, names))
        elif rules.unjustified == "points":
            by_key = {c.key: c for c in first}
            for tally in self._tallies(checks):
                for key in tally.penalised_keys(rules.unjustified_free):
                    if key not in handled:
                        row = _suggestion(by_key[key], "penalty", rules.unjustified_points, names)
                        out.append(row)
        reversed_ = {c.key for c in first if c.final == "invalid" and c.appealed}
        for s in given:
            if s.check_key in reversed_:
                c = next(c for c in first if c.key == s.check_key)
                row = _suggestion(c, "revoke", s.points, names)
                row.player, row.sanction = s.player, s.id
                row.name = names.get(s.player, f"#{s.player}")
                out.append(row)
        out = [r for r in out if round_no is None or r.round_no == round_no]
        out.sort(key=lambda r: (r.at, r.key))
        return out

    def confirm_suggestion(
        self, key: str, *, player: int | None = None, reason: str = ""
    ) -> Sanction:
        """The referee confirms a suggestion: the sanction is recorded (the referee is the
        service's ``who``), or — for a challenge an appeal found justified — revoked."""
        row = self._suggested(key)
        with self._tour() as tour:
            if row.kind == "revoke" and row.sanction is not None:
                return tour.revoke_sanction(row.sanction, who=self.who, note=reason)
            chosen = player if player is not None else row.player
            if chosen is None:
                raise ServiceError(Phrase("err.sanction.challenger", key=key))
            return tour.sanction(
                chosen,
                row.kind,
                round_no=row.round_no,
                table=row.table_no,
                reason=reason or ", ".join(row.words),
                referee=self.who,
                points=row.points,
                check_key=key,
                who=self.who,
            )

    def dismiss_suggestion(self, key: str) -> None:
        row = self._suggested(key)
        with self._tour() as tour:
            tour.dismiss_suggestion(
                key, player=row.player, kind=row.kind, round_no=row.round_no, who=self.who
            )

    def _suggested(self, key: str) -> SuggestionRow:
        for row in self.sanction_suggestions():
            if row.key == key:
                return row
        raise ServiceError(Phrase("err.sanction.no_suggestion", key=key))


@dataclass
class SuggestionRow:
    key: str  # the logged check's key
    at: float
    round_no: int | None
    table_no: int
    words: list[str]
    kind: str  # cross | penalty | revoke
    points: int
    player: int | None  # the challenger; None while nobody said who challenged
    name: str = ""
    sanction: int | None = None  # for "revoke": the sanction to take back


def _suggestion(c: CheckRow, kind: str, points: int, names: dict[int, str]) -> SuggestionRow:
    return SuggestionRow(
        key=c.key,
        at=c.at,
        round_no=c.round_no,
        table_no=c.table_no,
        words=list(c.words),
        kind=kind,
        points=points,
        player=c.challenger,
        name=names.get(c.challenger, "") if c.challenger is not None else "",
    )

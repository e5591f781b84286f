"""The hub's sync tables in ``hub.db`` (``Migrations("hub.sync")``).

``inbox``      every valid station outbox row, once: primary key (station_id,
               station_epoch, seq); ``kind`` is challenge / appeal / result /
               referee_request / signal, payload is the station's JSON, checked against
               its :mod:`shared.payloads` record before it is stored. Every other hub
               feature reads these rows through :func:`inbox_records` (and friends) here.
``rejected``   rows that failed that check, with the reason: acknowledged (so they never
               block the station's stream) but never read as data; the operator sees
               them counted per station (``hub stations``, the dashboard's F1). A row
               whose ``station_id`` is not the station authenticated on the link is one
               of them: the author of every stored row is the station that sent it, and
               ``claimed`` keeps the name such a row gave (a copied card writing in
               another station's name is flagged on ``hub stations`` and the dashboard).
``result_intake`` which ``result`` rows were handed to the tournament, and what became of
               them (the outcome, or the tournament's refusal), with their round and
               table. A result is handed over (:func:`apply_results`, as a typed
               :class:`~hub.tournament.intake.StationResult`) in the same transaction
               that stores its inbox row; its lifecycle is hub/tournament/intake.py's.
``progress``   highest contiguous seq stored per (station_id, station_epoch): what the hub
               acknowledges, always after the commit that stored it.
``stations``   last status each station reported (version, lexicon, clock offset …).
``round_plans`` newest :class:`~shared.rounds.RoundPlan` per round number.
``published``  what the hub shows/pushes to stations: config, pairings, standings, lexicon.
``deliveries`` which station confirmed which pushed item, and whether it applied it.

All functions take the database first so they can run on a :class:`~shared.dbworker.DbWorker`.
"""

from __future__ import annotations

import functools
import itertools
import json
import logging
import os
import secrets
import socket
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any

import msgspec
import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.hub.tournament.intake import (
    IntakeOutcome,
    StationResult,
    enter_station_results,
)
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.payloads import (
    RESULT,
    CheckPayload,
    Payload,
    PayloadError,
    RefereeRequestPayload,
    ResultPayload,
    parse_row,
    row_json_error,
)
from samoobsluha.shared.protocol import MAX_KIND, MAX_ROW_BYTES, REJECTED_KEEP, PeerLog
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.shared.storage import Database

log = logging.getLogger("hub.store")
# refused rows: one log line per station per minute (used on the database thread only)
_refused_log = PeerLog(log, 60.0)
_db_ids = itertools.count(1)


def _log_id(db: Database) -> int:
    """A number for this database connection, for the refused-row log's key: one hub's
    stations never silence another's (tests open many hubs in one process)."""
    number = getattr(db, "_refused_log_id", None)
    if number is None:
        number = next(_db_ids)
        setattr(db, "_refused_log_id", number)  # noqa: B010
    return int(number)


migrations = Migrations("hub.sync")

#: Fault-injection seam for the crash tests (tests/net/hub_crashing.py sets it in a hub
#: process of its own): called inside the ingest transaction, after the rows of a group
#: commit are inserted and before they are committed, with their number. None in a hall.
before_commit: Callable[[int], None] | None = None


@migrations()
def m001_sync(db: sqlite_utils.Database) -> None:
    db.table("hub_meta").create({"key": str, "value": str}, pk="key")
    db.table("inbox").create(
        {
            "station_id": str,
            "station_epoch": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "created_at": float,
            "received_at": float,
        },
        pk=("station_id", "station_epoch", "seq"),
        not_null={"kind", "payload"},
    )
    db.table("inbox").create_index(["kind"])
    db.table("progress").create(
        {"station_id": str, "station_epoch": str, "contiguous": int},
        pk=("station_id", "station_epoch"),
    )
    db.table("stations").create(
        {
            "station_id": str,
            "station_epoch": str,
            "address": str,
            "first_seen": float,
            "last_seen": float,
            "status": str,
        },
        pk="station_id",
    )
    db.table("round_plans").create(
        {"number": int, "revision": int, "plan": str, "updated_at": float}, pk="number"
    )
    db.table("published").create(
        {"kind": str, "item_id": str, "data": str, "updated_at": float}, pk="kind"
    )
    db.table("deliveries").create(
        {"item_id": str, "station_id": str, "ok": int, "detail": str, "at": float},
        pk=("item_id", "station_id"),
    )


@migrations()
def m002_rejected_and_intake(db: sqlite_utils.Database) -> None:
    db.table("rejected").create(
        {
            "station_id": str,
            "station_epoch": str,
            "seq": int,
            "kind": str,
            "payload": str,
            "created_at": float,
            "received_at": float,
            "error": str,
        },
        pk=("station_id", "station_epoch", "seq"),
        not_null={"error"},
    )
    db.table("result_intake").create(
        {"key": str, "at": float, "outcome": str, "error": str}, pk="key", not_null={"at"}
    )
    # Results the dashboard entered before the hub did it on receipt: never twice.
    if db.table("dash_applied").exists():
        db.execute(
            "INSERT OR IGNORE INTO result_intake (key, at, outcome, error)"
            " SELECT key, at, outcome, error FROM dash_applied"
        )
    # Rows stored before they were checked: keep the ones that fail aside, like new ones.
    bad = []
    for sid, epoch, seq, kind, payload in db.execute(
        "SELECT station_id, station_epoch, seq, kind, payload FROM inbox"
    ).fetchall():
        error = row_error(kind, payload)
        if error:
            bad.append((sid, epoch, seq, error))
    for sid, epoch, seq, error in bad:
        db.execute(
            "INSERT OR IGNORE INTO rejected SELECT station_id, station_epoch, seq, kind, payload,"
            " created_at, received_at, ? FROM inbox WHERE station_id = ? AND station_epoch = ?"
            " AND seq = ?",
            [error, sid, epoch, seq],
        )
        db.execute(
            "DELETE FROM inbox WHERE station_id = ? AND station_epoch = ? AND seq = ?",
            [sid, epoch, seq],
        )


@migrations()
def m003_resent(db: sqlite_utils.Database) -> None:
    # Rows a station sent again under a new epoch after its database was restored from an
    # older copy (station/sync.py): already in the inbox under ``original_epoch``, so they
    # count as received for the new epoch but are not stored (or entered) twice.
    db.table("resent").create(
        {"station_id": str, "station_epoch": str, "seq": int, "original_epoch": str},
        pk=("station_id", "station_epoch", "seq"),
    )


@migrations()
def m004_intake_round(db: sqlite_utils.Database) -> None:
    # Intake outcomes per round: the operator asks about one round (``round_results``).
    db.execute("ALTER TABLE result_intake ADD COLUMN round INTEGER")
    db.execute("ALTER TABLE result_intake ADD COLUMN table_no INTEGER")
    for sid, epoch, seq, payload in db.execute(
        "SELECT station_id, station_epoch, seq, payload FROM inbox WHERE kind = 'result'"
    ).fetchall():
        try:
            value = json.loads(payload)
            where = (int(value["round_no"]), int(value["table_no"]))
        except (ValueError, KeyError, TypeError):
            continue
        db.execute(
            "UPDATE result_intake SET round = ?, table_no = ? WHERE key = ?",
            [*where, row_key(sid, epoch, seq)],
        )


@migrations()
def m005_rejected_claimed(db: sqlite_utils.Database) -> None:
    # The station a refused row named when it is not its sender ("" otherwise): the
    # sender (``station_id``, authenticated on the link) is flagged as writing in another
    # station's name. Rows refused before this kept the name only in their error.
    db.execute("ALTER TABLE rejected ADD COLUMN claimed TEXT NOT NULL DEFAULT ''")
    for sid, epoch, seq, kind, payload in db.execute(
        "SELECT station_id, station_epoch, seq, kind, payload FROM rejected"
    ).fetchall():
        claimed = claimed_author(sid, kind, payload)
        if claimed:
            db.execute(
                "UPDATE rejected SET claimed = ? WHERE station_id = ? AND station_epoch = ?"
                " AND seq = ?",
                [claimed, sid, epoch, seq],
            )


def db_path() -> Path:
    return data_dir() / "hub.db"


def key_path() -> Path:
    return data_dir() / "tournament.key"


# -- identity -----------------------------------------------------------------------------


def get_meta(db: sqlite_utils.Database, key: str) -> str | None:
    row = db.execute("SELECT value FROM hub_meta WHERE key = ?", [key]).fetchone()
    return row[0] if row else None


def set_meta(db: sqlite_utils.Database, key: str, value: str | None) -> None:
    """Set (None: remove) one identity record."""
    with db.atomic():
        if value is None:
            db.execute("DELETE FROM hub_meta WHERE key = ?", [key])
        else:
            db.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)", [key, value])


def ensure_identity(db: sqlite_utils.Database) -> tuple[str, str, bool]:
    """(tournament_id, hub_id, created): created on the first run."""
    created = False
    with db.atomic():
        tournament = get_meta(db, "tournament_id")
        if tournament is None:
            tournament = "t-" + secrets.token_hex(4)
            db.table("hub_meta").insert({"key": "tournament_id", "value": tournament})
            created = True
        hub = get_meta(db, "hub_id")
        if hub is None:
            hub = f"{socket.gethostname()}-{secrets.token_hex(3)}"
            db.table("hub_meta").insert({"key": "hub_id", "value": hub})
    return tournament, hub, created


def ensure_key(path: Path) -> tuple[bytes, bool]:
    """Read the tournament key, creating it (mode 0600) if missing."""
    from samoobsluha.shared.protocol import new_psk, parse_psk

    if path.exists():
        return parse_psk(path.read_text()), False
    path.parent.mkdir(parents=True, exist_ok=True)
    key = new_psk()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key.hex() + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return key, True


# -- ingest -------------------------------------------------------------------------------


def row_error(kind: str, payload: str) -> str:
    """Why a station row is refused ("" when it is a valid record of its kind)."""
    return row_json_error(kind, payload)


class _Author(msgspec.Struct):
    station_id: str = ""


_author = msgspec.json.Decoder(_Author).decode
_AUTHORED = frozenset({"challenge", "appeal", "referee_request", RESULT, "lexicon_accepted"})


def claimed_author(station: str, kind: str, payload: str | bytes) -> str:
    """The station a row of ``kind`` names as its author when that is not ``station``,
    the station authenticated on the link ("" when it names ``station``, names nobody, or
    cannot be read)."""
    if kind not in _AUTHORED:
        return ""
    try:
        claimed = _author(payload).station_id
    except (msgspec.DecodeError, msgspec.ValidationError):
        return ""
    return "" if claimed == station else claimed


def author_error(station: str, kind: str, payload: str | bytes) -> str:
    """Why a valid row is refused for who it claims to come from ("" when it names
    ``station``, the station authenticated on the link, or names nobody)."""
    claimed = claimed_author(station, kind, payload)
    if not claimed:
        return ""
    return f"{kind}: station_id {claimed!r} is not the sending station {station!r}"


@dataclass(slots=True)
class Received:
    """One station's rows, checked as they arrived and ready to store: the inbox rows,
    the refused ones (with the reason) and every seq, in the station's order."""

    station: str
    epoch: str
    good: list[tuple[Any, ...]]
    bad: list[tuple[Any, ...]]
    seqs: list[int]
    at: float  # when the hub received them (its clock)

    @classmethod
    def joined(cls, frames: Sequence[Received]) -> Received:
        """Consecutive frames of one (station, epoch), in order, as one."""
        if len(frames) == 1:
            return frames[0]
        first = frames[0]
        return cls(
            first.station,
            first.epoch,
            [row for f in frames for row in f.good],
            [row for f in frames for row in f.bad],
            [seq for f in frames for seq in f.seqs],
            first.at,
        )


def receive(station: str, epoch: str, rows: Sequence[Sequence[Any]], now: float) -> Received:
    """Check a station's rows ``[seq, kind, payload, created_at]`` (shape already checked
    by :func:`shared.protocol.check_rows`) against their records (:mod:`shared.payloads`).

    The hub runs this on the event loop as a frame arrives, so the database thread only
    stores: with the inserts in multi-row statements (:func:`insert_rows`) the two
    threads rarely wait for each other's GIL. A bad row is kept aside with its reason; it
    still counts as received, so it never blocks the rows after it. A row over the size
    limits (:data:`~shared.protocol.MAX_ROW_BYTES`) is refused without being read, and
    only its first :data:`~shared.protocol.REJECTED_KEEP` characters are kept.
    ``station`` is the station authenticated on the link: a row claiming another one is
    such a bad row."""
    check = row_error  # looked up per call: bench/ingest_check.py switches it off
    good: list[tuple[Any, ...]] = []
    bad: list[tuple[Any, ...]] = []
    for seq, kind, payload, created in rows:
        claimed = ""
        if len(kind) > MAX_KIND or len(payload) > MAX_ROW_BYTES:
            # no station makes such a row: refused unread, and only its start is kept
            error = (
                f"row of {len(kind)} + {len(payload)} characters exceeds the limits"
                f" ({MAX_KIND} for its kind, {MAX_ROW_BYTES} for its payload)"
            )
            kind, payload = kind[:MAX_KIND], payload[:REJECTED_KEEP]
        else:
            error = check(kind, payload)
            if not error:
                claimed = claimed_author(station, kind, payload)
                if claimed:
                    error = author_error(station, kind, payload)
        if error:
            bad.append((station, epoch, seq, kind, payload, created, now, error, claimed))
        else:
            good.append((station, epoch, seq, kind, payload, created, now))
    return Received(station, epoch, good, bad, [row[0] for row in rows], now)


def ingest(
    db: Database,
    batches: list[tuple[str, str, list[Any]]],
    now: float,
) -> dict[tuple[str, str], int]:
    """Check and store (station_id, epoch, rows) batches received at ``now`` in one
    transaction: :func:`receive`, then :func:`store_received`. The hub's server does the
    two on different threads; tests and tools use this."""
    return store_received(db, [receive(s, e, rows, now) for s, e, rows in batches])


def store_received(db: Database, received: Sequence[Received]) -> dict[tuple[str, str], int]:
    """Store the checked rows of several stations in ONE transaction and return the new
    contiguous seq per (station_id, epoch). Rows already stored are ignored, so a resend
    after a lost ack changes nothing. Refused rows go to ``rejected`` (logged once,
    counted per station). A ``result`` row enters the tournament in this same
    transaction (:func:`apply_results`).

    A handful of statements per call, however many stations: one read of ``progress``,
    the inserts in multi-row statements, one query for rows stored beyond the new
    contiguous seqs, one write of ``progress``. Python's sqlite3 gives up the GIL around
    every statement, and with the event loop busy each one costs the database thread a
    wait to get it back (five statements per station per round measured ~2 µs a row)."""
    frames: dict[tuple[str, str], list[Received]] = {}
    for batch in received:  # a station's frames in the order they came
        frames.setdefault((batch.station, batch.epoch), []).append(batch)
    groups = {key: Received.joined(each) for key, each in frames.items()}
    with db.atomic():
        progress: dict[tuple[str, str], int] = {
            (s, e): c for s, e, c in db.execute(
                "SELECT station_id, station_epoch, contiguous FROM progress"
            )
        }  # fmt: skip
        known = set(progress)
        rows: list[tuple[Any, ...]] = []
        stored: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
        for key, batch in groups.items():
            station, epoch = key
            good = batch.good
            others = [e for s, e in known if s == station and e != epoch]
            if good and others:  # a restored station database: compare with what is held
                insert_inbox(db, rows)
                rows = []
                good = _drop_resent(db, station, epoch, good, others)
            rows.extend(good)
            stored[key] = good
            known.add(key)
        insert_inbox(db, rows)
        for batch in groups.values():
            _store_refused(db, batch)
        if before_commit is not None:
            before_commit(sum(len(b.seqs) for b in groups.values()))
        result = _advance_all(db, progress, {k: b.seqs for k, b in groups.items()})
        for (station, epoch), good in stored.items():
            results = [row[2] for row in good if row[3] == RESULT]
            if results:
                keys = [f"{station}/{epoch}/{seq}" for seq in results]
                apply_results(db, groups[(station, epoch)].at, keys=keys)
    return result


def usage_since(db: sqlite_utils.Database, station: str, since: float) -> tuple[int, int]:
    """(rows, characters of kind and payload) the hub stored for ``station`` (accepted or
    refused) since ``since``: what its budget has used this period (hub.quota)."""
    rows, size = 0, 0
    for table in ("inbox", "rejected"):
        n, chars = db.execute(
            f"SELECT COUNT(*), COALESCE(SUM(LENGTH(kind) + LENGTH(payload)), 0) FROM {table}"
            " WHERE station_id = ? AND received_at >= ?",
            [station, since],
        ).fetchone()
        rows, size = rows + int(n), size + int(chars)
    return rows, size


def _store_refused(db: Database, batch: Received) -> None:
    for row in batch.bad:
        cursor = db.conn.execute(
            "INSERT OR IGNORE INTO rejected (station_id, station_epoch, seq, kind,"
            " payload, created_at, received_at, error, claimed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row,
        )
        if cursor.rowcount:  # once: a resend of the same row is not news
            # and at most one line per station a minute, however many it sends (the
            # count is in rejected, hub stations and the dashboard); per database, so
            # one hub's stations never silence another's (tests run many hubs)
            _refused_log.warning(
                f"{_log_id(db)}/{batch.station}",
                "refused row %s/%s/%s (%s) of station %s: %s",
                batch.station,
                batch.epoch,
                row[2],
                row[3][:MAX_KIND],
                batch.station,
                row[7],
            )


INBOX_INSERT = (
    "INSERT OR IGNORE INTO inbox (station_id, station_epoch, seq, kind, payload, created_at,"
    " received_at) VALUES "
)
_INBOX_COLUMNS = 7
# Statement sizes, in rows: a batch goes in as statements of up to 1,024 rows, the rest of
# it in the binary digits of what remains (512, 256 … 1): at most eleven SQL texts, all
# in the connection's statement cache. Sizes over SQLite's parameter limit are skipped
# (999 parameters before SQLite 3.32, 32,766 after; Debian builds allow 250,000).
_CHUNKS = (1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1)


@functools.cache
def _values_sql(head: str, columns: int, rows: int) -> str:
    one = "(" + ", ".join("?" * columns) + ")"
    return head + ", ".join([one] * rows)


def insert_rows(db: Database, head: str, columns: int, rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` with multi-row ``VALUES`` statements, not ``executemany``.

    SQLite then steps once per statement instead of once per row, and Python's sqlite3
    gives up the GIL around each step: an ``executemany`` of 500 rows hands the GIL over
    500 times, and with the event loop busy the database thread waits for it each time.
    Measured in-process on 50,000 inbox rows: 0.15 s of CPU against 0.24–0.34 s, and
    0.28–0.42 s against 0.55–0.86 s beside a busy thread (docs/benchmarks.md)."""
    at, n = 0, len(rows)
    most = db.conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // columns
    for size in _CHUNKS:
        if size > most:
            continue
        while n - at >= size:
            part = rows[at : at + size]
            db.conn.execute(_values_sql(head, columns, size), list(chain.from_iterable(part)))
            at += size


def insert_inbox(db: Database, rows: Sequence[Sequence[Any]]) -> None:
    """Store checked rows ``(station_id, station_epoch, seq, kind, payload, created_at,
    received_at)``; a row already stored is left as it is."""
    insert_rows(db, INBOX_INSERT, _INBOX_COLUMNS, rows)


def _drop_resent(
    db: sqlite_utils.Database,
    station: str,
    epoch: str,
    good: list[tuple[Any, ...]],
    others: list[str],
) -> list[tuple[Any, ...]]:
    """``good`` without the rows the hub already holds under ``others``, the other
    epochs of ``station``: the same seq, kind, payload and creation time, sent again after
    the station's database was restored from an older copy and it started a new epoch.
    Those are recorded in ``resent`` (they count as received) and neither stored nor
    entered a second time. Only called for a station with more than one epoch."""
    lo, hi = min(r[2] for r in good), max(r[2] for r in good)
    held: dict[tuple[Any, ...], str] = {}
    for other in others:
        for seq, kind, payload, created in db.execute(
            "SELECT seq, kind, payload, created_at FROM inbox WHERE station_id = ?"
            " AND station_epoch = ? AND seq BETWEEN ? AND ?",
            [station, other, lo, hi],
        ):
            held[(seq, kind, payload, created)] = other
    if not held:
        return good
    fresh, again = [], []
    for r in good:
        original = held.get((r[2], r[3], r[4], r[5]))
        if original is None:
            fresh.append(r)
        else:
            again.append((station, epoch, r[2], original))
    if again:
        db.conn.executemany(
            "INSERT OR IGNORE INTO resent (station_id, station_epoch, seq, original_epoch)"
            " VALUES (?, ?, ?, ?)",
            again,
        )
        log.info(
            "station %s sent %d rows again under epoch %s that the hub holds under epoch %s"
            " (a restored database); not stored twice",
            station,
            len(again),
            epoch,
            again[0][3],
        )
    return fresh


def _advance_all(
    db: sqlite_utils.Database,
    progress: dict[tuple[str, str], int],
    seqs_of: dict[tuple[str, str], list[int]],
) -> dict[tuple[str, str], int]:
    """The new contiguous seq of each (station, epoch) that sent ``seqs_of``, written to
    ``progress`` (which held ``progress``): the run from the old one through the rows
    just stored, then through any stored before beyond it (inbox, rejected, resent)."""
    current: dict[tuple[str, str], int] = {}
    for key, seqs in seqs_of.items():
        run = progress.get(key, 0)
        # the usual case: the batch continues the contiguous run
        if (
            seqs
            and seqs[0] <= run + 1 <= seqs[-1] + 1
            and seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        ):
            run = max(run, seqs[-1])
        current[key] = run
    if not current:
        return current
    want = ", ".join(["(?, ?, ?)"] * len(current))
    params = [x for (s, e), c in current.items() for x in (s, e, c)]
    later = db.execute(
        f"WITH want (s, e, c) AS (VALUES {want})"
        " SELECT w.s, w.e, t.seq FROM want w JOIN inbox t"
        " ON t.station_id = w.s AND t.station_epoch = w.e AND t.seq > w.c"
        " UNION SELECT w.s, w.e, t.seq FROM want w JOIN rejected t"
        " ON t.station_id = w.s AND t.station_epoch = w.e AND t.seq > w.c"
        " UNION SELECT w.s, w.e, t.seq FROM want w JOIN resent t"
        " ON t.station_id = w.s AND t.station_epoch = w.e AND t.seq > w.c"
        " ORDER BY 1, 2, 3",
        params,
    )
    for station, epoch, seq in later:
        if seq == current[(station, epoch)] + 1:
            current[(station, epoch)] = seq
    changed = [(s, e, c) for (s, e), c in current.items() if progress.get((s, e)) != c]
    if changed:
        db.conn.execute(
            "INSERT INTO progress (station_id, station_epoch, contiguous) VALUES "
            + ", ".join(["(?, ?, ?)"] * len(changed))
            + " ON CONFLICT (station_id, station_epoch) DO UPDATE SET contiguous ="
            " excluded.contiguous",
            [x for row in changed for x in row],
        )
    return current


def contiguous(db: sqlite_utils.Database, station: str, epoch: str) -> int:
    row = db.execute(
        "SELECT contiguous FROM progress WHERE station_id = ? AND station_epoch = ?",
        [station, epoch],
    ).fetchone()
    return int(row[0]) if row else 0


@dataclass(frozen=True)
class InboxRecord:
    """One stored station row with its checked record. ``key`` names it everywhere on the
    hub (marks, appeals, acknowledgements): ``station_id/station_epoch/seq``."""

    station_id: str
    station_epoch: str
    seq: int
    kind: str
    created_at: float
    received_at: float
    record: Payload

    @property
    def key(self) -> str:
        return row_key(self.station_id, self.station_epoch, self.seq)


def row_key(station: str, epoch: str, seq: int) -> str:
    return f"{station}/{epoch}/{seq}"


def inbox_records(
    db: sqlite_utils.Database, *kinds: str, keys: Sequence[str] | None = None
) -> list[InboxRecord]:
    """Stored rows of ``kinds`` (all kinds when none), in the order they were made
    (``created_at``, then seq), each read back into its record."""
    sql = "SELECT station_id, station_epoch, seq, kind, payload, created_at, received_at FROM inbox"
    where: list[str] = []
    args: list[Any] = []
    if kinds:
        where.append(f"kind IN ({', '.join('?' for _ in kinds)})")
        args += list(kinds)
    if keys is not None:
        parts = [k.rsplit("/", 2) for k in keys]
        if not parts:
            return []
        where.append(
            "("
            + " OR ".join("(station_id = ? AND station_epoch = ? AND seq = ?)" for _ in parts)
            + ")"
        )
        for sid, epoch, seq in parts:
            args += [sid, epoch, int(seq)]
    if where:
        sql += " WHERE " + " AND ".join(where)
    out = []
    for sid, epoch, seq, kind, payload, created, received in db.execute(
        sql + " ORDER BY created_at, seq, station_id", args
    ):
        try:
            record = parse_row(kind, json.loads(payload))
        except (PayloadError, ValueError) as exc:  # pragma: no cover - checked on ingest
            log.error("stored row %s/%s/%s does not read: %s", sid, epoch, seq, exc)
            continue
        out.append(InboxRecord(sid, epoch, seq, kind, created, received, record))
    return out


def check_records(db: sqlite_utils.Database) -> list[tuple[InboxRecord, CheckPayload]]:
    """Every check (first instance and appeals at a station), oldest first."""
    out = []
    for row in inbox_records(db, "challenge", "appeal"):
        assert isinstance(row.record, CheckPayload)
        out.append((row, row.record))
    return out


def referee_request_records(
    db: sqlite_utils.Database,
) -> list[tuple[InboxRecord, RefereeRequestPayload]]:
    out = []
    for row in inbox_records(db, "referee_request"):
        assert isinstance(row.record, RefereeRequestPayload)
        out.append((row, row.record))
    return out


def inbox_rows(db: sqlite_utils.Database, kind: str | None = None) -> list[dict[str, Any]]:
    """Stored rows as plain dicts (payload as the station sent it), ordered by station
    and seq: for tools and tests that look at the raw stream."""
    sql = "SELECT station_id, station_epoch, seq, kind, payload, created_at, received_at FROM inbox"
    args: list[Any] = []
    if kind:
        sql += " WHERE kind = ?"
        args.append(kind)
    out = []
    for sid, epoch, seq, k, payload, created, received in db.execute(
        sql + " ORDER BY station_id, seq", args
    ):
        out.append(
            {
                "station_id": sid,
                "station_epoch": epoch,
                "seq": seq,
                "kind": k,
                "payload": json.loads(payload),
                "created_at": created,
                "received_at": received,
            }
        )
    return out


def rejected_rows(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    """Rows the hub refused, oldest first, with the reason and the payload as sent.
    ``station_id`` is the sender, authenticated on the link; ``claimed`` the station the
    row named instead ("" when it named its sender or nobody)."""
    return [
        {
            "key": row_key(sid, epoch, seq),
            "station_id": sid,
            "claimed": claimed,
            "kind": kind,
            "payload": payload,
            "received_at": received,
            "error": error,
        }
        for sid, epoch, seq, kind, payload, received, error, claimed in db.execute(
            "SELECT station_id, station_epoch, seq, kind, payload, received_at, error, claimed"
            " FROM rejected ORDER BY received_at, station_id, seq"
        )
    ]


def impersonations(db: sqlite_utils.Database) -> dict[str, dict[str, int]]:
    """sender -> {station it named instead: rows}: the rows each station sent in another
    station's name (a copied card, or a card whose name was changed), all refused."""
    out: dict[str, dict[str, int]] = {}
    for sid, claimed, n in db.execute(
        "SELECT station_id, claimed, COUNT(*) FROM rejected WHERE claimed != ''"
        " GROUP BY station_id, claimed ORDER BY station_id, claimed"
    ):
        out.setdefault(sid, {})[claimed] = int(n)
    return out


def rejected_counts(db: sqlite_utils.Database) -> dict[str, int]:
    return {
        sid: int(n)
        for sid, n in db.execute("SELECT station_id, COUNT(*) FROM rejected GROUP BY station_id")
    }


# -- results into the tournament ------------------------------------------------------------


class _At:
    """The clock a result entry is stamped with: the moment the hub received it."""

    def __init__(self, now: float) -> None:
        self._now = now

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:  # pragma: no cover - entries use wall time only
        return self._now


def apply_results(db: Database, now: float, *, keys: Sequence[str]) -> list[tuple[str, str, str]]:
    """Hand the stored ``result`` rows ``keys`` not handed over yet to the
    tournament (:func:`hub.tournament.intake.enter_station_results`, which owns what a
    result does in each state) and record what became of each in ``result_intake``.
    The author handed over is the row's ``station_id`` as stored — the authenticated
    station. Returns (key, outcome, error) per row handled. Runs inside the caller's
    transaction when there is one (the ingest's)."""
    if not db.table("tour_rounds").exists():
        return []  # no tournament tables in this file (a bare sync database)
    done = []
    with db.atomic():
        handled = {k for (k,) in db.execute("SELECT key FROM result_intake")}
        todo = []
        for row in inbox_records(db, RESULT, keys=keys):
            if row.key in handled:
                continue
            res = row.record
            assert isinstance(res, ResultPayload)
            todo.append(
                StationResult(
                    row.key,
                    row.station_id,
                    res.round_no,
                    res.table_no,
                    res.first,
                    res.second,
                    res.score_first,
                    res.score_second,
                    res.started,
                    res.one_sided,
                    res.withdrawn,
                )
            )
        try:
            outcomes = enter_station_results(db, todo, _At(now))
        except Exception as exc:  # a bug must not stop every station's sync
            log.exception("entering results %s failed", [r.key for r in todo])
            why = Phrase("err.intake.internal", error=f"{type(exc).__name__}: {exc}")
            outcomes = [IntakeOutcome(r.key, r.round_no, r.table_no, "", why) for r in todo]
        for out in outcomes:
            # stored as the phrase's data (shown in the operator's language)
            stored = json.dumps(out.error.to_data(), ensure_ascii=False) if out.error else ""
            db.execute(
                "INSERT OR IGNORE INTO result_intake (key, at, outcome, error, round, table_no)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [out.key, now, out.outcome, stored, out.round_no, out.table_no],
            )
            if out.error:
                log.warning("result %s not entered: %s", out.key, out.error)
            done.append((out.key, out.outcome, str(out.error) if out.error else ""))
    return done


#: The most withdrawal decisions one station is told (the newest): a kiosk asks about its
#: own table's latest entry, and a tournament has few withdrawals.
WITHDRAWALS_TOLD = 200


def withdrawal_decisions(db: sqlite_utils.Database, station: str) -> list[dict[str, Any]]:
    """What the tournament made of ``station``'s withdrawals (hub/tournament/intake.py's
    outcome, as :func:`apply_results` recorded it): ``{"epoch", "seq", "round", "table",
    "outcome"}`` with outcome ``withdrawn`` (taken back), ``duplicate`` (nothing of the
    station's counted any more) or ``withdraw_refused`` (the round was published: the
    entry stands). The hub tells the station (server: the ``withdrawals`` item) so its
    kiosk says what became of the players' withdrawal, never more than the hub decided."""
    if not db.table("result_intake").exists():
        return []
    out = []
    for epoch, seq, payload, outcome, round_no, table in db.execute(
        "SELECT i.station_epoch, i.seq, i.payload, r.outcome, r.round,"
        " r.table_no FROM inbox i JOIN result_intake r"
        " ON r.key = i.station_id || '/' || i.station_epoch || '/' || i.seq"
        " WHERE i.kind = ? AND i.station_id = ?"
        " AND r.outcome IN ('withdrawn', 'duplicate', 'withdraw_refused')"
        " ORDER BY i.received_at DESC, i.seq DESC LIMIT ?",
        [RESULT, station, WITHDRAWALS_TOLD],
    ):
        try:
            withdrawn = bool(json.loads(payload).get("withdrawn"))
        except (ValueError, AttributeError):
            continue
        if withdrawn:
            out.append(
                {"epoch": epoch, "seq": int(seq), "round": round_no, "table": table,
                 "outcome": outcome}
            )  # fmt: skip
    return out[::-1]


def result_intake(
    db: sqlite_utils.Database, round_no: int | None = None
) -> dict[str, tuple[str, str]]:
    """key -> (outcome, error) of every station result handled so far (of ``round_no``
    only, when given). An error stored as a phrase's data comes back as the
    :class:`Phrase` (English as text, the operator's language through ``localize``); one
    stored as text (older hubs) as that text."""
    sql = "SELECT key, outcome, error FROM result_intake"
    args: list[Any] = []
    if round_no is not None:
        sql += " WHERE round = ?"
        args.append(round_no)
    return {
        key: (outcome or "", _stored_error(error or ""))
        for key, outcome, error in db.execute(sql + " ORDER BY at, key", args)
    }


def _stored_error(text: str) -> str:
    if not text.startswith("{"):
        return text
    try:
        return Phrase.from_data(json.loads(text))
    except ValueError:
        return text


# -- stations -----------------------------------------------------------------------------


def save_status(
    db: sqlite_utils.Database,
    station: str,
    epoch: str,
    address: str,
    status: dict[str, Any],
    now: float,
) -> None:
    with db.atomic():
        db.execute(
            "INSERT INTO stations (station_id, station_epoch, address, first_seen, last_seen,"
            " status) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (station_id) DO UPDATE SET"
            " station_epoch = excluded.station_epoch, address = excluded.address,"
            " last_seen = excluded.last_seen, status = excluded.status",
            [station, epoch, address, now, now, json.dumps(status, ensure_ascii=False)],
        )


def load_stations(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    refused = rejected_counts(db)
    posing = impersonations(db)
    out = []
    for sid, epoch, address, first, last, status in db.execute(
        "SELECT station_id, station_epoch, address, first_seen, last_seen, status"
        " FROM stations ORDER BY station_id"
    ):
        out.append(
            {
                "station_id": sid,
                "station_epoch": epoch,
                "address": address,
                "first_seen": first,
                "last_seen": last,
                "status": json.loads(status or "{}"),
                "contiguous": contiguous(db, sid, epoch),
                "rejected": refused.get(sid, 0),
                "impersonated": posing.get(sid, {}),
            }
        )
    return out


# -- rounds and published items -----------------------------------------------------------


def save_plan(db: sqlite_utils.Database, plan: RoundPlan, now: float) -> None:
    with db.atomic():
        db.table("round_plans").upsert(
            {
                "number": plan.number,
                "revision": plan.revision,
                "plan": json.dumps(plan.to_dict()),
                "updated_at": now,
            },
            pk="number",
        )


def load_plan(db: sqlite_utils.Database, number: int) -> RoundPlan | None:
    row = db.execute("SELECT plan FROM round_plans WHERE number = ?", [number]).fetchone()
    return RoundPlan.from_dict(json.loads(row[0])) if row else None


def load_plans(db: sqlite_utils.Database) -> list[RoundPlan]:
    return [
        RoundPlan.from_dict(json.loads(p))
        for (p,) in db.execute("SELECT plan FROM round_plans ORDER BY number")
    ]


def round_results_count(db: sqlite_utils.Database, number: int) -> int:
    """How many tables of round ``number`` have a result in the tournament (0 when this
    file holds no tournament)."""
    if not db.table("tour_results").exists():
        return 0
    return int(
        db.execute("SELECT COUNT(*) FROM tour_results WHERE round = ?", [number]).fetchone()[0]
    )


def save_published(
    db: sqlite_utils.Database, kind: str, item_id: str, data: Any, now: float
) -> None:
    with db.atomic():
        db.table("published").upsert(
            {"kind": kind, "item_id": item_id, "data": json.dumps(data), "updated_at": now},
            pk="kind",
        )


def item_version(item_id: str) -> int:
    """The version in a published item's id (``kind:version:digest``; the hub's time of
    publication in ms)."""
    parts = item_id.split(":")
    return int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0


def load_published(db: sqlite_utils.Database) -> dict[str, tuple[str, Any]]:
    return {
        kind: (item_id, json.loads(data))
        for kind, item_id, data in db.execute("SELECT kind, item_id, data FROM published")
    }


def save_delivery(
    db: sqlite_utils.Database, item_id: str, station: str, ok: bool, detail: str, now: float
) -> None:
    with db.atomic():
        db.table("deliveries").upsert(
            {"item_id": item_id, "station_id": station, "ok": int(ok), "detail": detail, "at": now},
            pk=("item_id", "station_id"),
        )


def load_deliveries(db: sqlite_utils.Database, item_id: str) -> dict[str, dict[str, Any]]:
    return {
        sid: {"ok": bool(ok), "detail": detail, "at": at}
        for sid, ok, detail, at in db.execute(
            "SELECT station_id, ok, detail, at FROM deliveries WHERE item_id = ?", [item_id]
        )
    }

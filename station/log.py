"""The station's own records: challenges, referee requests, appeals, results, pairings,
PIN attempts, the lexicons the referee accepted. Its schema is the ``station.log``
migration set over the station database.

**The confirmed-rows counter.** SQLite in WAL mode keeps the newest commits in
``station.db-wal`` until a checkpoint copies them into ``station.db``; a WAL deleted (or
lost with a card's bad block) before then leaves a database that opens without error and
simply has fewer rows. So after every commit that confirmed something to a player (a
verdict, a refusal, a result, a PIN lockout, a lexicon acceptance) the store writes the
newest outbox ``seq`` (on a thread of its own, right after the commit: its fsync is not
on the way to the verdict) into a separate, fsynced file beside the database,
``station.db.confirmed`` — one small fixed-size record overwritten in place, which
deleting the WAL does not touch. At open the store compares it with the newest ``seq``
the database holds: fewer means confirmed rows are gone. It then says so loudly (an
error in the station's log, :attr:`KioskStore.rows_lost` for the kiosk's red notice and
the status frame that ``hub stations`` shows) and goes on working; the counter keeps the
total lost, so a restart does not hide it. Rows written by other connections (the bell
thread's signals) are counted by the next confirmed commit, never more than were there.

Every record the hub must see is written together with its outbox row in one
``db.atomic()`` block (:func:`station.outbox.enqueue`), and the kiosk shows a verdict or
"saved" only after that block has committed. Outbox kinds written here: ``challenge``
(first-instance checks, including refused ones), ``appeal`` (second instance, by the
referee), ``referee_request`` and ``result``.

:class:`KioskStore` wraps one connection shared by the kiosk's worker threads behind a
lock; nothing here imports Textual.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from samoobsluha.shared.checks import PinLock, RateState
from samoobsluha.shared.lexicon import LexiconInfo, Verdict
from samoobsluha.shared.receipt import ReceiptKey
from samoobsluha.shared.storage import MigrationSet, open_db
from samoobsluha.station import outbox

if TYPE_CHECKING:
    import sqlite_utils

    from samoobsluha.shared.payloads import CheckPayload

# shared.payloads (msgspec, its structs built at import) is imported where a record is
# written, not on the kiosk's way to its idle screen; the runtime imports it on a thread
# a second after the first paint (station/runtime.py, _warm_databases).

migrations = MigrationSet("station.log")

# Checks of a known round count towards its cap within this horizon (round numbers start
# again at 1 in the next tournament on the same card).
ROUND_HORIZON = 12 * 3600.0

# kiosk_settings keys: the PIN set on this station, when it was set, the PIN lockout.
SETTING_PIN = "referee_pin_hash"
SETTING_PIN_AT = "referee_pin_set_at"
SETTING_PIN_LOCK = "pin_lock"
SETTING_REFUSALS_SEEN = "withdraw_refusals_seen"  # the hub's refusals looked at in F2


@migrations()
def m001_kiosk_log(db: sqlite_utils.Database) -> None:
    db.table("challenges").create(
        {
            "id": int,
            "at": float,
            "station_id": str,
            "table_no": int,
            "round_no": int,
            "instance": str,  # "first" (a player at the kiosk) or "appeal" (the referee)
            "status": str,  # valid | invalid | referee | refused
            "words": str,  # JSON list of tile faces as judged, REC(I)E
            "canonical": str,  # JSON list of the lowercase words
            "failed": str,  # JSON list of words not in the lexicon (never shown to players)
            "too_long": str,  # JSON list of words longer than the lexicon covers
            "refused_reason": str,  # rate_interval | rate_cap (status "refused")
            "lexicon_sha256": str,
            "lexicon_variant": str,
            "ui_language": str,
            "appeal_of": int,
            "note": str,
        },
        pk="id",
        not_null={"at", "station_id", "table_no", "instance", "status", "words"},
    )
    db.table("challenges").create_index(["table_no", "round_no", "at"])
    db.table("referee_requests").create(
        {
            "id": int,
            "at": float,
            "station_id": str,
            "table_no": int,
            "round_no": int,
            "reason": str,  # too_long | rate_interval | rate_cap
            "challenge_id": int,
        },
        pk="id",
        not_null={"at", "station_id", "reason"},
    )
    db.table("results").create(
        {
            "round_no": int,
            "table_no": int,
            "player_a": str,
            "player_b": str,
            "score_a": int,
            "score_b": int,
            "starter": str,  # "a" or "b": who started (ZH)
            "entered_at": float,
            "entered_by": str,  # players | referee
            "revision": int,
        },
        pk=("round_no", "table_no"),
        not_null={"score_a", "score_b", "starter", "entered_at", "entered_by"},
    )
    db.table("result_history").create(
        {
            "id": int,
            "round_no": int,
            "table_no": int,
            "revision": int,
            "before": str,  # JSON of the replaced result, "" for the first entry
            "after": str,
            "at": float,
            "entered_by": str,
        },
        pk="id",
    )
    db.table("pairings").create(
        {
            "round_no": int,
            "table_no": int,
            "player_a": str,  # listed first; the draw sheet's starting player when known
            "player_b": str,
            "received_at": float,
        },
        pk=("round_no", "table_no"),
    )
    db.table("pin_attempts").create({"id": int, "at": float, "ok": int}, pk="id")
    db.table("kiosk_settings").create({"key": str, "value": str}, pk="key")


@migrations()
def m002_first_second(db: sqlite_utils.Database) -> None:
    """One vocabulary (docs/glossary.md): a table's players are ``first`` and ``second``,
    ``started`` says which of them started. Was player_a/player_b, score_a/score_b and
    starter "a"/"b"."""
    db.table("results").transform(
        rename={
            "player_a": "first",
            "player_b": "second",
            "score_a": "score_first",
            "score_b": "score_second",
            "starter": "started",
        }
    )
    db.execute(
        "UPDATE results SET started = CASE started WHEN 'a' THEN 'first' WHEN 'b' THEN "
        "'second' ELSE started END"
    )
    db.table("pairings").transform(rename={"player_a": "first", "player_b": "second"})


@migrations()
def m003_receipts(db: sqlite_utils.Database) -> None:
    """Each judged check's receipt code (shared/receipt.py) and the id of the station key
    it was made with: the kiosk shows the code with the verdict."""
    db.table("challenges").add_column("key_id", int)
    db.table("challenges").add_column("receipt", str)


@migrations()
def m004_one_sided(db: sqlite_utils.Database) -> None:
    """A result the second player did not confirm at the kiosk: 1 (the hub shows it to the
    operator as one-sided and does not enter it); 0 confirmed by both, or the referee's."""
    db.table("results").add_column("one_sided", int, not_null_default=0)


@migrations()
def m005_pairing_division(db: sqlite_utils.Database) -> None:
    """A hall of several divisions: each table's division, as the hub published it
    ("" in a hall of one)."""
    db.execute("ALTER TABLE pairings ADD COLUMN division TEXT NOT NULL DEFAULT ''")


@migrations()
def m006_withdrawn(db: sqlite_utils.Database) -> None:
    """1: both players took this table's entry back (:meth:`KioskStore.withdraw_result`);
    the row is a tombstone travelling to the hub like any revision, and the table may be
    entered again."""
    db.table("results").add_column("withdrawn", int, not_null_default=0)
    # the outbox row of the row's latest revision: acknowledged → the hub has it
    db.table("results").add_column("outbox_seq", int, not_null_default=0)


@migrations()
def m007_lexicon_acceptances(db: sqlite_utils.Database) -> None:
    """A lexicon not signed by the hub this station pins, accepted by the referee at
    this station with the PIN (shared/lextrust.py): valid for that SHA-256 only."""
    db.table("lexicon_acceptances").create(
        {
            "id": int,
            "at": float,
            "sha256": str,
            "language": str,
            "variant": str,
            "words": int,
            "trust_before": str,
        },
        pk="id",
    )


# -- the confirmed-rows counter (see the module's docstring) ------------------------------

COUNTER_SUFFIX = ".confirmed"
_COUNTER = "confirmed={:020d} lost={:020d}\n"
_COUNTER_BYTES = len(_COUNTER.format(0, 0))


def counter_path(db_path: Path | str) -> Path:
    return Path(f"{db_path}{COUNTER_SUFFIX}")


def read_counter(path: Path | str) -> tuple[int, int]:
    """(confirmed seq, rows lost so far) from a counter file; (0, 0) without one."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(_COUNTER_BYTES + 1).decode("ascii")
        confirmed, lost = raw.split()
        return int(confirmed.split("=")[1]), int(lost.split("=")[1])
    except (OSError, ValueError, IndexError, UnicodeDecodeError):
        return 0, 0


class ConfirmedCounter:
    """The counter file, kept open: one fixed-size record overwritten in place and
    fsynced (one sector: never torn). :meth:`note` hands the newest value to a writer
    thread, so its fsync (a few ms) is not on the way to the verdict: the row is
    committed, and the counter follows it within that fsync; a crash in between only
    leaves the counter one commit behind (it never claims more than was committed)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.confirmed, self.lost = read_counter(path)
        self._fd: int | None = None
        self._wanted: tuple[int, int] | None = None
        self._cond = threading.Condition()
        self._writer: threading.Thread | None = None
        self._closed = False

    def write(self, confirmed: int, lost: int) -> None:
        import os

        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o640)
        os.pwrite(self._fd, _COUNTER.format(confirmed, lost).encode("ascii"), 0)
        os.fsync(self._fd)
        self.confirmed, self.lost = confirmed, lost

    def note(self, confirmed: int, lost: int) -> None:
        """Write (confirmed, lost) soon, on the writer thread (the newest value wins)."""
        with self._cond:
            self._wanted = (confirmed, lost)
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_loop, name="confirmed-counter", daemon=True
                )
                self._writer.start()
            self._cond.notify_all()

    def _write_loop(self) -> None:
        import logging

        while True:
            with self._cond:
                while self._wanted is None and not self._closed:
                    self._cond.wait()
                if self._wanted is None:
                    return
                wanted = self._wanted
            try:
                self.write(*wanted)
            except OSError:
                logging.getLogger(__name__).exception("confirmed-rows counter")
            with self._cond:
                if self._wanted == wanted:
                    self._wanted = None
                self._cond.notify_all()

    def wait_written(self, timeout: float = 10.0) -> None:
        """Until every value noted so far is on disk."""
        with self._cond:
            self._cond.wait_for(lambda: self._wanted is None, timeout)

    def close(self) -> None:
        import os

        self.wait_written()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


@dataclass(frozen=True)
class CheckRecord:
    id: int
    at: float
    table_no: int
    round_no: int | None
    status: str
    receipt: str = ""  # the receipt code (unformatted); "" without a station key


@dataclass(frozen=True)
class Pairing:
    round_no: int
    table_no: int
    first: str  # listed first on the pairing sheet
    second: str
    division: str = ""  # the table's division in a hall of several, else ""


@dataclass(frozen=True)
class Result:
    round_no: int
    table_no: int
    score_first: int
    score_second: int
    started: str  # "first" or "second": who started the game
    first: str = ""
    second: str = ""
    entered_by: str = "players"
    revision: int = 1
    one_sided: bool = False  # the second player did not confirm it
    withdrawn: bool = False  # both players took it back: no entry from this station


class NothingToWithdraw(Exception):
    """This station holds no entry for the round and table (or it is withdrawn already)."""


class RoundPublished(Exception):
    """The hub published this round's results (its publication reached this station):
    a withdrawal would be refused, so none is stored; only the referee can correct it."""

    def __init__(self, round_no: int) -> None:
        self.round_no = round_no
        super().__init__(f"round {round_no} is published")


#: What the hub made of a withdrawal this station sent (``hub.store.withdrawal_decisions``,
#: the ``withdrawals`` item); ASKED: no word from the hub yet.
ASKED, TAKEN_BACK, REFUSED = "asked", "withdrawn", "refused"


class ResultLocked(Exception):
    """A result for this round and table is stored; only the referee can change it."""

    def __init__(self, existing: Result) -> None:
        self.existing = existing
        super().__init__(f"result of round {existing.round_no} table {existing.table_no} exists")


def _fold(text: str) -> str:
    """Case- and accent-insensitive form of a name, for "where do I play?"."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def pairings_rows(data: dict[str, Any]) -> tuple[int, list[tuple[int, str, str]]]:
    """The hub's published pairings (``hub.tournament.exports.station_json``) as the
    kiosk stores them: (round, [(table, first player, second player or "")])."""
    rows = []
    for table in data.get("tables") or []:
        second = table.get("second") or {}
        rows.append((int(table["table"]), str(table["first"]["name"]), str(second.get("name", ""))))
    return int(data["round"]), rows


def pairings_divisions(data: dict[str, Any]) -> dict[int, str]:
    """Table → division of the hub's published pairings ({} in a hall of one division)."""
    return {
        int(table["table"]): str(table["division"])
        for table in data.get("tables") or []
        if table.get("division")
    }


#: How far ahead of the station's clock a recorded PIN time may be and still be believed
#: (a clock corrected backwards by the hub's time sync after the PIN was set).
PIN_TIME_SLACK = 300.0


def referee_pin_in_force(
    db: sqlite_utils.Database, configured: str = "", *, now: float | None = None
) -> str:
    """The referee PIN hash in force on a station: the newest of the one set on it
    (``station pin set``, the referee screen) and the one the hub sent (``hub pin set``,
    the dashboard's F1 P); else the config file's ``referee_pin_hash``; "" when there is
    none. The kiosk verifies against it and the rehearsal reports it: one record.

    Times are the station's own, and a time ahead of the station's clock (``now``, more
    than :data:`PIN_TIME_SLACK`) is not believed: such a PIN counts as the oldest, so a
    local PIN written onto a copied card with a date far in the future can never outlast
    the hub's (it did: a local PIN "set" at 9e9 beat every later ``hub pin set``). The
    hub's PIN wins a tie and any local PIN set before it arrived; a later ``hub pin set``
    always replaces whatever was set on the station."""
    import time  # here: the module is imported by `station check`, which never asks

    now = time.time() if now is None else now
    horizon = now + PIN_TIME_SLACK

    def believed(at: float) -> float:
        return at if at <= horizon else float("-inf")

    tables = set(db.table_names())
    local = local_at = hub = None
    if "kiosk_settings" in tables:
        local = db.execute(
            "SELECT value FROM kiosk_settings WHERE key = ?", [SETTING_PIN]
        ).fetchone()
        local_at = db.execute(
            "SELECT value FROM kiosk_settings WHERE key = ?", [SETTING_PIN_AT]
        ).fetchone()
    if "hub_items" in tables:
        hub = db.execute(
            "SELECT data, received_at FROM hub_items WHERE kind = 'referee_pin'"
        ).fetchone()
    # (time believed, 1 for the hub's: it wins a tie, hash)
    candidates: list[tuple[float, int, str]] = []
    if local and local[0]:
        try:
            at = float(local_at[0]) if local_at else 0.0
        except (TypeError, ValueError):
            at = float("-inf")
        candidates.append((believed(at), 0, str(local[0])))
    if hub:
        try:
            value = json.loads(hub[0]).get("hash", "")
        except (ValueError, AttributeError):
            value = ""
        if isinstance(value, str) and value.startswith("scrypt$"):
            candidates.append((believed(float(hub[1] or 0.0)), 1, value))
    if candidates:
        return max(candidates)[2]
    return configured


class KioskStore:
    """The kiosk's view of the station database, safe to call from worker threads."""

    def __init__(
        self, db: sqlite_utils.Database, station_id: str, *, counter: Path | None = None
    ) -> None:
        self.db = db
        self.station_id = station_id
        self._lock = threading.RLock()
        # The confirmed-rows counter beside the database (None: not kept, e.g. in memory)
        # and the confirmed rows found missing (its running total).
        self.counter = ConfirmedCounter(counter) if counter is not None else None
        self.rows_lost = 0
        self._counted = 0  # the newest seq handed to the counter
        if self.counter is not None:
            self._check_counter()
        # The key every judged check's receipt is made with (the runtime sets it from the
        # link's station key); None: verdicts carry no receipt.
        self.receipts: ReceiptKey | None = None

    @classmethod
    def open(cls, path: Path | str, station_id: str) -> KioskStore:
        """Open with the shared opener; the kiosk's worker threads share the connection
        (every use goes through this store's lock)."""
        db = open_db(path, outbox.migrations, migrations, threads=True, lazy=True)
        memory = str(path) == ":memory:"
        return cls(db, station_id, counter=None if memory else counter_path(path))

    def close(self) -> None:
        with self._lock:
            self.db.conn.close()
            if self.counter is not None:
                self.counter.close()

    # -- the confirmed-rows counter ------------------------------------------------------
    def _newest_seq(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM outbox").fetchone()[0])

    def _check_counter(self) -> None:
        """At open: fewer rows than the counter confirmed means they are gone (a lost WAL)."""
        import logging

        counter = self.counter
        assert counter is not None
        with self._lock:
            newest = self._newest_seq()
            lost = counter.lost
            if newest < counter.confirmed:
                missing = counter.confirmed - newest
                lost += missing
                logging.getLogger(__name__).error(
                    "station database %s: %d confirmed row(s) missing (the counter says "
                    "seq %d was committed, the database ends at %d): its WAL was lost; "
                    "%d missing in all",
                    self.db.conn.execute("PRAGMA database_list").fetchone()[2],
                    missing,
                    counter.confirmed,
                    newest,
                    lost,
                )
            self.rows_lost = lost
            self._counted = newest
            if (newest, lost) != (counter.confirmed, counter.lost):
                try:
                    counter.write(newest, lost)
                except OSError:
                    logging.getLogger(__name__).exception("confirmed-rows counter")

    def _confirmed(self) -> None:
        """A commit confirmed something: the counter says so (after the commit, fsynced)."""
        counter = self.counter
        if counter is None:
            return
        with self._lock:
            newest = self._newest_seq()
            if newest > self._counted:
                self._counted = newest
                counter.note(newest, self.rows_lost)

    # -- challenges ----------------------------------------------------------------------
    def record_check(
        self,
        verdict: Verdict,
        lexicon: LexiconInfo,
        *,
        table_no: int,
        round_no: int | None,
        at: float,
        ui_language: str = "cs",
        instance: str = "first",
        appeal_of: int | None = None,
        note: str = "",
    ) -> CheckRecord:
        """Commit one judged check (and its outbox row, and a referee request when the
        verdict sends the play to the referee). Returns only after the commit."""
        row: dict[str, Any] = {
            "at": at,
            "station_id": self.station_id,
            "table_no": table_no,
            "round_no": round_no,
            "instance": instance,
            "status": verdict.status.value,
            "words": json.dumps([w.face for w in verdict.words], ensure_ascii=False),
            "canonical": json.dumps([w.text for w in verdict.words], ensure_ascii=False),
            "failed": json.dumps(list(verdict.failed), ensure_ascii=False),
            "too_long": json.dumps(list(verdict.too_long), ensure_ascii=False),
            "refused_reason": None,
            "lexicon_sha256": lexicon.sha256,
            "lexicon_variant": lexicon.variant,
            "ui_language": ui_language,
            "appeal_of": appeal_of,
            "note": note,
        }
        signer = self.receipts
        if signer is not None and signer.station_id == self.station_id:
            row["key_id"] = signer.key_id
        else:
            signer = None
        kind = "appeal" if instance == "appeal" else "challenge"
        with self._lock, self.db.atomic():
            if instance == "appeal" and appeal_of is None:
                # The first-instance check this appeal reviews: same table, same words.
                found = self.db.execute(
                    "SELECT id FROM challenges WHERE instance = 'first' AND table_no = ? "
                    "AND canonical = ? AND at >= ? ORDER BY id DESC LIMIT 1",
                    [table_no, row["canonical"], at - ROUND_HORIZON],
                ).fetchone()
                row["appeal_of"] = found[0] if found else None
            check_id = self._insert("challenges", row)
            payload = self._payload(check_id, row).to_dict()
            receipt = ""
            if signer is not None:
                receipt = signer.code(payload)
                self.db.execute(
                    "UPDATE challenges SET receipt = ? WHERE id = ?", [receipt, check_id]
                )
            outbox.enqueue(self.db, kind, payload, at=at)
            if verdict.status.value == "referee" and instance == "first":
                self._referee_request(table_no, round_no, "too_long", check_id, at)
        self._confirmed()
        return CheckRecord(check_id, at, table_no, round_no, row["status"], receipt)

    def record_refusal(
        self,
        *,
        table_no: int,
        round_no: int | None,
        reason: str,
        at: float,
        ui_language: str = "cs",
        lexicon: LexiconInfo | None = None,
    ) -> CheckRecord:
        """A check refused by a rate limit: flagged in the log, and the referee asked for."""
        row: dict[str, Any] = {
            "at": at,
            "station_id": self.station_id,
            "table_no": table_no,
            "round_no": round_no,
            "instance": "first",
            "status": "refused",
            "words": "[]",
            "canonical": "[]",
            "failed": "[]",
            "too_long": "[]",
            "refused_reason": reason,
            "lexicon_sha256": lexicon.sha256 if lexicon else None,
            "lexicon_variant": lexicon.variant if lexicon else None,
            "ui_language": ui_language,
            "appeal_of": None,
            "note": "",
        }
        with self._lock, self.db.atomic():
            check_id = self._insert("challenges", row)
            outbox.enqueue(self.db, "challenge", self._payload(check_id, row).to_dict(), at=at)
            self._referee_request(table_no, round_no, reason, check_id, at)
        self._confirmed()
        return CheckRecord(check_id, at, table_no, round_no, "refused")

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        cursor = self.db.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values())
        )
        return int(cursor.lastrowid or 0)

    def _payload(self, check_id: int, row: dict[str, Any]) -> CheckPayload:
        from samoobsluha.shared.payloads import CheckPayload

        payload = dict(row)
        payload["id"] = check_id
        for key in ("words", "canonical", "failed", "too_long"):
            payload[key] = json.loads(payload[key])
        return CheckPayload.from_dict(payload)

    def _referee_request(
        self,
        table_no: int | None,
        round_no: int | None,
        reason: str,
        check_id: int | None,
        at: float,
    ) -> int:
        row = {
            "at": at,
            "station_id": self.station_id,
            "table_no": table_no,
            "round_no": round_no,
            "reason": reason,
            "challenge_id": check_id,
        }
        from samoobsluha.shared.payloads import RefereeRequestPayload

        request_id = self._insert("referee_requests", row)
        payload = RefereeRequestPayload.from_dict({"id": request_id, **row})
        outbox.enqueue(self.db, payload.KIND, payload.to_dict(), at=at)
        return request_id

    def rate_state(
        self, table_no: int, round_no: int | None, *, now: float, cap_window: float
    ) -> tuple[float | None, int]:
        """(time of the table's last judged check in any round, judged checks it used in
        this round). Refused attempts do not count, appeals neither."""
        state = self.rate_states(table_no, round_no, now=now, cap_window=cap_window)
        return state.last_at, state.used

    def rate_states(
        self, table_no: int, round_no: int | None, *, now: float, cap_window: float
    ) -> RateState:
        """The table's and the whole station's judged checks, for the rate limits."""
        if round_no is None:
            where, args = "round_no IS NULL AND at >= ?", [now - cap_window]
        else:
            where, args = "round_no = ? AND at >= ?", [round_no, now - ROUND_HORIZON]
        judged = "instance = 'first' AND status != 'refused'"
        with self._lock:
            used, station_used = self.db.execute(
                f"SELECT COUNT(CASE WHEN table_no = ? THEN 1 END), COUNT(*) FROM challenges "
                f"WHERE {judged} AND {where}",
                [table_no, *args],
            ).fetchone()
            latest = self.db.execute(
                f"SELECT MAX(at) FROM challenges WHERE table_no = ? AND {judged}", [table_no]
            ).fetchone()[0]
            station_latest = self.db.execute(
                f"SELECT MAX(at) FROM challenges WHERE {judged}"
            ).fetchone()[0]
        return RateState(latest, int(used), station_latest, int(station_used))

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            rows = list(self.db.query("SELECT * FROM challenges ORDER BY id DESC LIMIT ?", [limit]))
        for row in rows:
            for key in ("words", "canonical", "failed", "too_long"):
                row[key] = json.loads(row[key] or "[]")
        return rows

    def referee_requests(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self.db.query("SELECT * FROM referee_requests ORDER BY id"))

    # -- PIN -----------------------------------------------------------------------------
    def record_pin_attempt(self, ok: bool, at: float, *, lock: PinLock | None = None) -> None:
        """Log one PIN try; a right one clears the lockout, a wrong one stores ``lock`` (the
        lockout it starts) and, when the prompt locks, asks for the referee at the hub."""
        with self._lock, self.db.atomic():
            self.db.execute("INSERT INTO pin_attempts (at, ok) VALUES (?, ?)", [at, int(ok)])
            if ok:
                self._put_setting(SETTING_PIN_LOCK, None)
            elif lock is not None:
                self._put_setting(SETTING_PIN_LOCK, lock.to_json())
                if lock.failures >= 1 and lock.remaining >= 60:  # a lockout, not a delay
                    self._referee_request(None, None, "pin_locked", None, at)
        self._confirmed()

    def pin_failures(self) -> tuple[int, float | None]:
        """Consecutive wrong PINs since the last right one, and when the last was typed.
        Kept in the database so that pulling the plug does not reset the lockout."""
        with self._lock:
            last_ok = self.db.execute(
                "SELECT COALESCE(MAX(id), 0) FROM pin_attempts WHERE ok = 1"
            ).fetchone()[0]
            count, last_at = self.db.execute(
                "SELECT COUNT(*), MAX(at) FROM pin_attempts WHERE ok = 0 AND id > ?", [last_ok]
            ).fetchone()
        return int(count), last_at

    def pin_lock(self, boot: str, mono: float) -> PinLock:
        """The stored lockout, re-measured on this boot's monotonic clock and stored so:
        after a reboot the rest of the wait (as of the last look) counts from the first
        look of the new boot."""
        lock = PinLock.from_json(self.setting(SETTING_PIN_LOCK))
        if lock.failures and lock.remaining > 0:
            # Store the wait as measured now: after a reboot (another monotonic clock)
            # the rest counts from the last look, never from the full lockout again.
            lock = lock.rebased(boot, mono)
            self.set_setting(SETTING_PIN_LOCK, lock.to_json())
        return lock

    def referee_pin(self, configured: str = "", *, now: float | None = None) -> str:
        """The referee PIN hash in force (:func:`referee_pin_in_force`); ``now``: the
        station's clock (default: the system's)."""
        with self._lock:
            return referee_pin_in_force(self.db, configured, now=now)

    def set_referee_pin(self, stored: str | None, at: float) -> None:
        """Set (or with None remove) the PIN of this station; a new PIN clears a lockout."""
        with self._lock, self.db.atomic():
            self._put_setting(SETTING_PIN, stored)
            self._put_setting(SETTING_PIN_AT, None if stored is None else repr(at))
            self._put_setting(SETTING_PIN_LOCK, None)

    # -- lexicons the referee accepted (shared/lextrust.py) -------------------------------
    def accept_lexicon(self, info: LexiconInfo, *, at: float, trust_before: str = "") -> int:
        """Log the referee's acceptance of the lexicon ``info`` at this station (with the
        PIN): its time and SHA-256, and an outbox row, so the hub sees it."""
        row = {
            "at": at,
            "sha256": info.sha256,
            "language": info.language,
            "variant": info.variant,
            "words": info.words,
            "trust_before": trust_before,
        }
        from samoobsluha.shared.payloads import LexiconAcceptedPayload

        with self._lock, self.db.atomic():
            accepted_id = self._insert("lexicon_acceptances", row)
            payload = LexiconAcceptedPayload.from_dict(
                {"id": accepted_id, "station_id": self.station_id, **row}
            )
            outbox.enqueue(self.db, payload.KIND, payload.to_dict(), at=at)
        self._confirmed()
        return accepted_id

    def accepted_lexicons(self) -> set[str]:
        """The SHA-256s the referee accepted at this station (they judge after a restart;
        no other file does)."""
        with self._lock:
            return {row[0] for row in self.db.execute("SELECT sha256 FROM lexicon_acceptances")}

    # -- settings changed on the station (override the config file) ----------------------
    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self.db.execute(
                "SELECT value FROM kiosk_settings WHERE key = ?", [key]
            ).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str | None) -> None:
        with self._lock, self.db.atomic():
            self._put_setting(key, value)

    def _put_setting(self, key: str, value: str | None) -> None:
        if value is None:
            self.db.execute("DELETE FROM kiosk_settings WHERE key = ?", [key])
        else:
            self.db.execute(
                "INSERT INTO kiosk_settings (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [key, value],
            )

    # -- pairings (written by the network layer from the hub) -----------------------------
    def replace_pairings(
        self,
        round_no: int,
        pairings: Iterable[tuple[int, str, str]],
        *,
        at: float,
        divisions: Mapping[int, str] | None = None,
    ) -> None:
        """Store a round's pairings as the hub published them: (table, first, second),
        and in a hall of several divisions each table's ``divisions``."""
        rows = [
            {
                "round_no": round_no,
                "table_no": table,
                "first": first,
                "second": second,
                "received_at": at,
                "division": (divisions or {}).get(table, ""),
            }
            for table, first, second in pairings
        ]
        with self._lock, self.db.atomic():
            self.db.execute("DELETE FROM pairings WHERE round_no = ?", [round_no])
            if rows:
                self.db.table("pairings").insert_all(rows)

    def latest_pairing_round(self) -> int | None:
        with self._lock:
            value = self.db.execute("SELECT MAX(round_no) FROM pairings").fetchone()[0]
        return None if value is None else int(value)

    def has_pairings(self, round_no: int) -> bool:
        with self._lock:
            row = self.db.execute(
                "SELECT 1 FROM pairings WHERE round_no = ? LIMIT 1", [round_no]
            ).fetchone()
        return row is not None

    def pairing(self, round_no: int, table_no: int) -> Pairing | None:
        with self._lock:
            row = self.db.execute(
                "SELECT round_no, table_no, first, second, division FROM pairings "
                "WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
        return None if row is None else Pairing(*row)

    def find_player(self, part: str, round_no: int, limit: int = 8) -> list[tuple[str, Pairing]]:
        """Players of ``round_no`` whose name contains ``part`` (ignoring case and
        accents): (the player's name, the pairing), sorted by name."""
        needle = _fold(part.strip())
        if not needle:
            return []
        with self._lock:
            rows = self.db.execute(
                "SELECT round_no, table_no, first, second, division FROM pairings"
                " WHERE round_no = ?",
                [round_no],
            ).fetchall()
        found: list[tuple[str, Pairing]] = []
        for row in rows:
            pairing = Pairing(*row)
            for name in (pairing.first, pairing.second):
                if name and needle in _fold(name):
                    found.append((name, pairing))
        found.sort(key=lambda item: (_fold(item[0]), item[1].table_no))
        return found[:limit]

    # -- results -------------------------------------------------------------------------
    def result(self, round_no: int, table_no: int) -> Result | None:
        with self._lock:
            row = self.db.execute(
                "SELECT round_no, table_no, score_first, score_second, started, first, second, "
                "entered_by, revision, one_sided, withdrawn FROM results"
                " WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
        if row is None:
            return None
        r, t, sf, ss, started, first, second, by, revision, one_sided, withdrawn = row
        return Result(
            r, t, sf, ss, started, first, second, by, revision, bool(one_sided), bool(withdrawn)
        )

    def store_result(
        self, result: Result, *, at: float, by_referee: bool = False, one_sided: bool = False
    ) -> Result:
        """Store a game's result and queue it for the hub. ``one_sided``: the second player
        did not confirm it (the hub enters it only once confirmed). A result both players
        confirmed can only be changed by the referee (``by_referee``); players get
        :class:`ResultLocked` — over a one-sided one they may enter the result again."""
        one_sided = one_sided and not by_referee
        with self._lock, self.db.atomic():
            existing = self.result(result.round_no, result.table_no)
            if (
                existing is not None
                and not by_referee
                and not existing.one_sided
                and not existing.withdrawn
            ):
                raise ResultLocked(existing)
            revision = 1 if existing is None else existing.revision + 1
            entered_by = "referee" if by_referee else "players"
            row = {
                "round_no": result.round_no,
                "table_no": result.table_no,
                "first": result.first,
                "second": result.second,
                "score_first": result.score_first,
                "score_second": result.score_second,
                "started": result.started,
                "entered_at": at,
                "entered_by": entered_by,
                "revision": revision,
                "one_sided": one_sided,
                "withdrawn": False,
            }
            self._save(result.round_no, result.table_no, existing, row, at, entered_by)
        self._confirmed()
        return Result(
            result.round_no,
            result.table_no,
            result.score_first,
            result.score_second,
            result.started,
            result.first,
            result.second,
            entered_by,
            revision,
            one_sided,
        )

    def withdraw_result(self, round_no: int, table_no: int, *, at: float) -> Result:
        """Both players take this station's entry for the table back: a tombstone (the
        next revision of the row, ``withdrawn``, the entry's scores kept) stored and
        queued for the hub in one transaction before this returns. The hub sets the
        station's entry aside until the round is published, and refuses it (visibly to the
        operator) after. Raises :class:`NothingToWithdraw` when there is no entry and
        :class:`RoundPublished` when the round's publication has reached this station
        (nothing stored: the hub would refuse it). Otherwise the withdrawal is *asked*:
        :meth:`withdrawal_word` gives the hub's answer once it has come back."""
        with self._lock, self.db.atomic():
            existing = self.result(round_no, table_no)
            if existing is None or existing.withdrawn:
                raise NothingToWithdraw()
            if self.round_published(round_no, table_no):
                raise RoundPublished(round_no)
            row = {
                "round_no": round_no,
                "table_no": table_no,
                "first": existing.first,
                "second": existing.second,
                "score_first": existing.score_first,
                "score_second": existing.score_second,
                "started": existing.started,
                "entered_at": at,
                "entered_by": "players",
                "revision": existing.revision + 1,
                "one_sided": existing.one_sided,
                "withdrawn": True,
            }
            self._save(round_no, table_no, existing, row, at, "players")
        self._confirmed()
        return replace(existing, revision=existing.revision + 1, withdrawn=True)

    def _save(
        self,
        round_no: int,
        table_no: int,
        existing: Result | None,
        row: dict[str, object],
        at: float,
        entered_by: str,
    ) -> None:
        """Write the row, its history line and the outbox row (the caller's transaction)."""
        self.db.table("results").upsert(row, pk=("round_no", "table_no"))
        before = "" if existing is None else json.dumps(existing.__dict__, ensure_ascii=False)
        self.db.table("result_history").insert(
            {
                "round_no": round_no,
                "table_no": table_no,
                "revision": row["revision"],
                "before": before,
                "after": json.dumps(row, ensure_ascii=False),
                "at": at,
                "entered_by": entered_by,
            }
        )
        from samoobsluha.shared.payloads import ResultPayload

        payload = ResultPayload.from_dict({"station_id": self.station_id, **row})
        seq = outbox.enqueue(self.db, payload.KIND, payload.to_dict(), at=at)
        self.db.execute(
            "UPDATE results SET outbox_seq = ? WHERE round_no = ? AND table_no = ?",
            [seq, round_no, table_no],
        )

    # -- what the hub published about results (written by the link, station/sync.py) ---
    def _hub_item(self, kind: str) -> Any:
        """The signed item of ``kind`` the hub pushed last (``hub_items``), or None."""
        with self._lock:
            try:
                row = self.db.execute(
                    "SELECT data FROM hub_items WHERE kind = ?", [kind]
                ).fetchone()
            except sqlite3.OperationalError:  # no link ever ran here: no hub_items table
                return None
        try:
            return json.loads(row[0]) if row else None
        except ValueError:
            return None

    def round_published(self, round_no: int, table_no: int) -> bool:
        """Whether the hub's publication of this round's results has reached this station
        *after* the table's entry was made: the standings the hub pushes list the
        published rounds (``published``; sent by ``hub publish-round N`` and ``hub
        publish-pairings N``), and their version is the hub's time of publication (ms),
        which the entry's time (the kiosk's clock: the hub's when linked) must not pass.
        A card that served another tournament keeps that one's last standings; its round
        numbers are not this one's, and its publication is older than any entry here.
        False when it cannot know (no link, the publication not received yet, standings
        without that list, an entry typed after the publication reached the station): the
        withdrawal is then asked, and the hub decides."""
        data = self._hub_item("standings")
        published = data.get("published") if isinstance(data, dict) else None
        if not isinstance(published, list) or round_no not in published:
            return False
        with self._lock:
            try:
                version = self.db.execute(
                    "SELECT version FROM hub_versions WHERE kind = 'standings'"
                ).fetchone()
            except sqlite3.OperationalError:
                return False
            entered = self.db.execute(
                "SELECT entered_at FROM results WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
        if version is None or entered is None:
            return False
        return float(entered[0]) <= int(version[0]) / 1000.0

    def withdrawal_word(self, round_no: int, table_no: int) -> str | None:
        """The hub's answer to this station's withdrawal of the table's entry: None when
        the entry is not withdrawn; :data:`ASKED` until the hub's word has come back (the
        ``withdrawals`` item names each withdrawal by its outbox row); then
        :data:`TAKEN_BACK` or :data:`REFUSED` (the round was published: the entry stands)."""
        with self._lock:
            row = self.db.execute(
                "SELECT withdrawn, outbox_seq FROM results WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
            if row is None or not row[0]:
                return None
            epoch = outbox.meta(self.db, "station_epoch")
        seq = int(row[1])
        data = self._hub_item("withdrawals")
        for decision in (data.get("decisions") or []) if isinstance(data, dict) else []:
            if not isinstance(decision, dict):
                continue
            if decision.get("epoch") == epoch and decision.get("seq") == seq:
                return REFUSED if decision.get("outcome") == "withdraw_refused" else TAKEN_BACK
        return ASKED

    def unseen_refusals(self) -> list[tuple[int, int]]:
        """(round, table) of this station's withdrawals the hub refused (its word came
        back) that nobody has looked at in the table's entry yet, oldest first: the idle
        screen says so (:meth:`refusal_seen` ends it)."""
        data = self._hub_item("withdrawals")
        decisions = (data.get("decisions") or []) if isinstance(data, dict) else []
        refused = [
            d for d in decisions if isinstance(d, dict) and d.get("outcome") == "withdraw_refused"
        ]
        if not refused:
            return []
        seen = set(json.loads(self.setting(SETTING_REFUSALS_SEEN) or "[]"))
        out = []
        for d in refused:
            round_no, table_no = d.get("round"), d.get("table")
            if not isinstance(round_no, int) or not isinstance(table_no, int):
                continue
            if f"{d.get('epoch')}/{d.get('seq')}" in seen:
                continue
            if self.withdrawal_word(round_no, table_no) == REFUSED:  # still the latest row
                out.append((round_no, table_no))
        return out

    def refusal_seen(self, round_no: int, table_no: int) -> None:
        """The players looked at the table's entry (it says refused): no idle notice more."""
        with self._lock, self.db.atomic():
            row = self.db.execute(
                "SELECT outbox_seq FROM results WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
            if row is None:
                return
            key = f"{outbox.meta(self.db, 'station_epoch')}/{int(row[0])}"
            seen = json.loads(self.setting(SETTING_REFUSALS_SEEN) or "[]")
            if key not in seen:
                self._put_setting(SETTING_REFUSALS_SEEN, json.dumps([*seen, key][-200:]))

    def at_hub(self, round_no: int, table_no: int) -> bool:
        """Whether the hub acknowledged the latest revision of this table's row."""
        with self._lock:
            row = self.db.execute(
                "SELECT outbox_seq FROM results WHERE round_no = ? AND table_no = ?",
                [round_no, table_no],
            ).fetchone()
            return row is not None and 0 < int(row[0]) <= outbox.acked_seq(self.db)

    # -- sync status ---------------------------------------------------------------------
    def backlog(self) -> int:
        with self._lock:
            return outbox.backlog(self.db)

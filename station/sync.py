"""The station's side of the hub link: connect to the hub, sync the outbox, receive its pushes.

:class:`StationSync` runs as one asyncio task beside the kiosk (or in ``station daemon``)
and never makes the kiosk wait: SQLite work happens on its own thread
(:class:`~shared.dbworker.DbWorker`), everything else is short. It

* connects to the hub of *its* tournament, found by :mod:`station.link.discovery` (mDNS,
  ``_samoobsluha._tcp`` TXT ``tournament``, or ``[network] hub = "host:port"``); mDNS is
  only a hint, the TCP connection and the pinned hub signature are the proof: every
  candidate is tried (staggered, in parallel), a refusing or silent one never holds the
  station back;
* is supervised: any failure (a locked database, a bad row, a bug) is logged and the
  link restarts with capped exponential backoff and jitter;
* sends outbox rows after the hub's acknowledged seq and records each ack; notices a
  database restored from an older copy (the hub holds a different row at its ack) and
  starts a new epoch, so nothing written since is mistaken for already stored;
* follows the hub clock (:mod:`station.link.clock`: NTP-style samples, exposed as
  :class:`~station.link.clock.HubClock` with its error bound);
* stores round plans, the hall configuration (checked first by the hub's own rules; the
  kiosk's settings owner, station/settings.py, puts it into use), pairings/standings the
  hub pushes (``Migrations("station.sync")``) and confirms each; receives a pushed lexicon
  in chunks, checks its SHA-256 and swaps it in atomically; then calls the handlers the
  caller registered (``on_plan``, ``on_gong`` …).

:class:`SyncStatus` is what the kiosk shows ("clock not synced", hub offline, backlog).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared import protocol
from samoobsluha.shared.clock import Clock, boot_id
from samoobsluha.shared.dbworker import DbWorker
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.payloads import StationStatus
from samoobsluha.shared.protocol import Channel, ProtocolError
from samoobsluha.shared.receipt import ReceiptKey
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import outbox, rounds
from samoobsluha.station.config import ConfigError, StationConfig
from samoobsluha.station.link.clock import HubClock, KeptClock, OffsetEstimator
from samoobsluha.station.link.discovery import (
    Candidate,
    discover,
    format_hostport,
    parse_hostport,
)

log = logging.getLogger("station.sync")

CANDIDATE_STAGGER = 0.25  # try the next hub candidate this soon if the last one is silent
BURST = 6  # clock exchanges right after connecting
RESYNC_EVERY = 5.0
STATUS_EVERY = 5.0
KEEP_CLOCK_EVERY = 30.0  # the hub clock estimate is written at most this often
# how a station tells a retired hub why it is refused (status last_error; hub.server reads it)
HANDED_OVER = "handed over to hub"
# how a station tells a hub of another seat (hub/seat.py) that it follows the hub at
# another address (status last_error: "follows the hub at ADDRESS (seat S): …")
FOLLOWS = "follows the hub at"
HANDOVER_WAIT = 5.0  # a hub of another seat has this long to show a handover naming it
TELL_TIMEOUT = 3.0  # telling a hub of another seat why it is refused
SEAT_GRACE = 1.0  # a hub of another seat answered: the followed seat's has this long more
SEAT_WATCH_FIRST = 2.0  # linked by mDNS: the first look for hubs of another seat
SEAT_WATCH_EVERY = 15.0  # and then this often
TELL_EVERY = 60.0  # one hub of another seat is told at most this often
POLL_EVERY = 0.1  # how often to look for new outbox rows written by another process
BATCH = 500
BATCH_BYTES = protocol.MAX_FRAME // 2
WINDOW = 2000  # rows in flight before waiting for an ack
CONNECT_TIMEOUT = 3.0
IDLE_TIMEOUT = 20.0  # no frame from the hub for this long: the link is dead
BACKOFF_MIN, BACKOFF_MAX = 0.5, 10.0
STALE_DETAIL = "older than the one this station has: refused"

migrations = Migrations("station.sync")


@migrations()
def m001_sync(db: sqlite_utils.Database) -> None:
    db.table("hub_plans").create(
        {"number": int, "revision": int, "plan": str, "received_at": float}, pk="number"
    )
    db.table("hub_items").create(
        {"kind": str, "item_id": str, "data": str, "received_at": float}, pk="kind"
    )


@migrations()
def m002_tournament(db: sqlite_utils.Database) -> None:
    # A station serves one tournament after another: round 1 of the next tournament is a
    # new round, whatever revision the last tournament's round 1 reached.
    db.table("hub_plans").add_column("tournament", str, not_null_default="")
    db.table("hub_plans").transform(pk=("tournament", "number"))


@migrations()
def m003_one_plan_table(db: sqlite_utils.Database) -> None:
    # Round plans from the hub were kept twice: here and in the schedule's round_plans
    # (station.rounds). They now live only there; carry over anything newer, then drop.
    rounds.migrations.apply(db)
    for tournament, text, received_at in db.execute(
        "SELECT tournament, plan, received_at FROM hub_plans ORDER BY tournament, number"
    ).fetchall():
        plan = RoundPlan.from_dict(json.loads(text))
        rounds.store_plan(db, tournament, plan, source=rounds.SOURCE_HUB, now=received_at)
    db.execute("DROP TABLE hub_plans")


@migrations()
def m004_item_versions(db: sqlite_utils.Database) -> None:
    # The newest version of each kind of signed item (config, pairings, standings, referee
    # PIN, lexicon) this station has accepted: a relay replaying an older signed item is
    # refused, however valid its signature.
    db.table("hub_versions").create({"kind": str, "version": int}, pk="kind")


@migrations()
def m005_kept_clock(db: sqlite_utils.Database) -> None:
    # The hub clock estimate (station.link.clock.KeptClock), kept so that a station
    # restarted while its hub is down rings the rest of the round (one row).
    db.table("kept_clock").create(
        {
            "id": int,
            "mono_offset": float,
            "delay": float,
            "synced_at": float,
            "boot": str,
            "hub": str,
            "saved_at": float,
        },
        pk="id",
    )


@migrations()
def m006_seat(db: sqlite_utils.Database) -> None:
    # The seat (hub/seat.py: the machine) of the hub this station follows, per tournament:
    # a copy of the hub's data on another machine has the hub's id and keys but not its
    # seat, and is followed only when a handover signed with the hub key names it.
    db.table("hub_seat").create(
        {"tournament": str, "seat": str, "hub": str, "address": str, "since": float},
        pk="tournament",
    )


@dataclass(frozen=True)
class Followed:
    seat: str
    hub: str
    address: str


def load_seat(db: sqlite_utils.Database, tournament: str) -> Followed | None:
    row = db.execute(
        "SELECT seat, hub, address FROM hub_seat WHERE tournament = ?", [tournament]
    ).fetchone()
    return Followed(*row) if row else None


def save_seat(
    db: sqlite_utils.Database, tournament: str, followed: Followed, now: float
) -> None:
    with db.atomic():
        db.table("hub_seat").upsert(
            {"tournament": tournament, "seat": followed.seat, "hub": followed.hub,
             "address": followed.address, "since": now},
            pk="tournament",
        )  # fmt: skip


def monotonic_timeline(local: Clock) -> str:
    """Which monotonic clock ``local`` reads: this boot of the machine (``boot_id``) and
    how far ``local``'s monotonic time is from the kernel's (0 on a station; a simulated
    station's injected skew — the hall day's "reboot with the clock off" changes it, as a
    real reboot changes the boot id). A kept hub clock is taken up on the same one only."""
    offset = round(local.monotonic() - time.monotonic(), 1)
    return f"{boot_id()}/{offset:g}"


def load_kept_clock(db: sqlite_utils.Database) -> KeptClock | None:
    row = db.execute(
        "SELECT mono_offset, delay, synced_at, boot FROM kept_clock WHERE id = 1"
    ).fetchone()
    return KeptClock(*row) if row else None


def save_kept_clock(db: sqlite_utils.Database, kept: KeptClock, hub: str, now: float) -> None:
    with db.atomic():
        db.table("kept_clock").upsert(
            {
                "id": 1,
                "mono_offset": kept.mono_offset,
                "delay": kept.delay,
                "synced_at": kept.synced_at,
                "boot": kept.boot,
                "hub": hub,
                "saved_at": now,
            },
            pk="id",
        )


# -- configuration ------------------------------------------------------------------------


@dataclass
class NetworkConfig:
    tournament_id: str = ""
    psk_file: Path = field(default_factory=lambda: data_dir() / "tournament.key")
    hub: str | None = None  # "host:port": skip mDNS
    mdns_interfaces: list[str] | None = None  # None: all
    station_id: str | None = None  # default: the outbox's station_id (host name)

    @classmethod
    def from_config(cls, config: StationConfig) -> NetworkConfig:
        sec = config.section("network")
        out = cls()
        out.tournament_id = str(sec.get("tournament_id", ""))
        if sec.get("psk_file"):
            out.psk_file = Path(sec["psk_file"])
        out.hub = sec.get("hub") or None
        if sec.get("mdns_interfaces"):
            out.mdns_interfaces = [str(a) for a in sec["mdns_interfaces"]]
        out.station_id = sec.get("station_id") or None
        if out.hub is not None:
            parse_hostport(out.hub, where=f"{config.path}: [network] hub")
        return out

    def psk(self) -> bytes | protocol.StationKey:
        """The station's key file: a station key (what provisioning writes: this station's
        own key and the hub's pinned public key, as the demo's stations get too) or the
        hall secret itself (a kiosk on the hub's own machine, tests)."""
        try:
            text = self.psk_file.read_text()
        except FileNotFoundError:
            raise ConfigError(Phrase("config.err.no_key_file", path=str(self.psk_file))) from None
        try:
            return protocol.parse_psk(text)
        except ValueError:
            pass
        try:
            return protocol.StationKey.from_text(text)
        except ValueError:
            raise ConfigError(Phrase("config.err.bad_key_file", path=str(self.psk_file))) from None


# -- status -------------------------------------------------------------------------------


@dataclass
class SyncStatus:
    """What the kiosk and the hub see about this station's link."""

    connected: bool = False
    hub_address: str | None = None
    hub_id: str | None = None
    clock_synced: bool = False  # within the bound (HubClock.precise)
    clock_known: bool = False  # any estimate at all (signals ring on it)
    clock_offset: float = 0.0
    clock_delay: float | None = None
    clock_uncertainty: float | None = None  # seconds
    backlog: int = 0
    acked_seq: int = 0
    last_error: str | None = None
    last_contact: float | None = None  # local monotonic
    last_signal: dict[str, Any] | None = None
    lexicon_sha256: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self, lang: str = "cs") -> list[str]:
        """Short lines for the kiosk's status bar, in the station's language."""
        from samoobsluha.shared.i18n import t

        lines = [t("sync.hub_online" if self.connected else "sync.hub_offline", lang)]
        if not self.clock_synced:
            if self.clock_known and self.clock_uncertainty is not None:
                ms = round(self.clock_uncertainty * 1000)
                lines.append(t("sync.clock_uncertain", lang, ms=ms))
            else:
                lines.append(t("sync.clock_not_synced", lang))
        if self.backlog:
            lines.append(t("sync.backlog", lang, count=self.backlog))
        return lines


def software_version() -> str:
    try:
        from importlib.metadata import version

        return version("samoobsluha")
    except Exception:
        return "unknown"


# -- the link -----------------------------------------------------------------------------

Handler = Callable[..., Any]


def _pending_after(db: sqlite_utils.Database, after: int, limit: int) -> list[list[Any]]:
    """Outbox rows after ``after`` in their wire form ``[seq, kind, payload, created_at]``
    (payload stays the JSON text the outbox holds)."""
    return [
        list(r)
        for r in db.execute(
            "SELECT seq, kind, payload, created_at FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?",
            [after, limit],
        )
    ]


def _last_seq(db: sqlite_utils.Database) -> int:
    return int(db.execute("SELECT COALESCE(MAX(seq), 0) FROM outbox").fetchone()[0])


def _store_plan(db: sqlite_utils.Database, tournament: str, plan: RoundPlan, now: float) -> bool:
    return rounds.store_plan(db, tournament, plan, source=rounds.SOURCE_HUB, now=now)


# what _store_item and _take_version answer
NEW, SAME, STALE = "new", "same", "stale"


def _take_version(db: sqlite_utils.Database, kind: str, version: int) -> str:
    """Record ``version`` as the newest of ``kind`` if it is newer than what this station
    has: NEW; the one it has: SAME; older: STALE (a replay, nothing recorded)."""
    row = db.execute("SELECT version FROM hub_versions WHERE kind = ?", [kind]).fetchone()
    if row is not None and version < row[0]:
        return STALE
    if row is not None and version == row[0]:
        return SAME
    db.table("hub_versions").upsert({"kind": kind, "version": version}, pk="kind")
    return NEW


def _store_item(
    db: sqlite_utils.Database, kind: str, item_id: str, data: Any, now: float, version: int
) -> str:
    """Keep a signed item the hub pushed if it is newer than the one of its kind this
    station has (NEW); SAME or STALE leave everything as it was."""
    with db.atomic():
        verdict = _take_version(db, kind, version)
        if verdict == NEW:
            db.table("hub_items").upsert(
                {"kind": kind, "item_id": item_id, "data": json.dumps(data), "received_at": now},
                pk="kind",
            )
    return verdict


def _take_lexicon_version(db: sqlite_utils.Database, version: int) -> str:
    with db.atomic():
        return _take_version(db, "lexicon", version)


def item_version(db: sqlite_utils.Database, kind: str) -> int | None:
    """The newest version of ``kind`` this station has accepted, or None."""
    row = db.execute("SELECT version FROM hub_versions WHERE kind = ?", [kind]).fetchone()
    return int(row[0]) if row else None


def load_item(db: sqlite_utils.Database, kind: str) -> Any:
    """The last config / pairings / standings the hub pushed, or None."""
    row = db.execute("SELECT data FROM hub_items WHERE kind = ?", [kind]).fetchone()
    return json.loads(row[0]) if row else None


def lexicon_sha(path: Path | None) -> str | None:
    """The SHA-256 of the lexicon on disk: vouched for by its verification stamp, else
    checked (and stamped) now (station/lexicons.py)."""
    if path is None or not path.is_file():
        return None
    from samoobsluha.shared.lexicon import LexiconError
    from samoobsluha.station.lexicons import open_lexicon

    try:
        return open_lexicon(path, verify="now").info.sha256
    except LexiconError:
        return None


class RestoredDatabase(Exception):
    """The hub holds a different row at its ack for this epoch: this database is an
    older copy. A new epoch has been started; reconnect at once and send everything."""


def _row_digest(db: sqlite_utils.Database, seq: int) -> bytes | None:
    row = db.execute("SELECT kind, payload FROM outbox WHERE seq = ?", [seq]).fetchone()
    return protocol.row_digest(row[0], row[1]) if row else None


def _new_epoch(db: sqlite_utils.Database) -> str:
    """Start a new epoch: every outbox row is sent again under it (the hub keys rows by
    (station, epoch, seq), so none of them can collide with what the old copy sent)."""
    import secrets

    epoch = secrets.token_hex(8)
    with db.atomic():
        db.execute("UPDATE meta SET value = ? WHERE key = 'station_epoch'", [epoch])
        db.execute("UPDATE sync_state SET value = 0 WHERE key = 'acked_seq'")
    return epoch


def _credentials(psk: bytes | protocol.StationKey, station: str) -> protocol.StationKey:
    if isinstance(psk, protocol.StationKey):
        return psk
    # the hall secret itself (the hub's own demo kiosk, tests): derive like the hub does
    return protocol.HallKeys(psk).credentials(station, 0)


class StationSync:
    def __init__(
        self,
        db_path: Path | str,
        net: NetworkConfig,
        *,
        psk: bytes | protocol.StationKey | None = None,
        local_clock: Clock | None = None,
        lexicon_path: Path | None = None,
        station_name: str | None = None,
        boot: str | None = None,
    ) -> None:
        self.net = net
        key = psk if psk is not None else net.psk()
        self.clock = HubClock(local_clock)
        self.estimator = OffsetEstimator()
        self.dbw = DbWorker(db_path, outbox.migrations, rounds.migrations, migrations)
        self.epoch: str = self.dbw.call(outbox.meta, "station_epoch")
        station_id = net.station_id
        if isinstance(key, protocol.StationKey) and key.station:
            # a station key is valid for one station id only: that is this station's id
            if station_id and station_id != key.station:
                raise ConfigError(
                    Phrase("config.err.key_station", key=key.station, station=station_id)
                )
            station_id = key.station
        if station_id:
            self.dbw.call(outbox.set_station_id, station_id)
        self.station_id: str = self.dbw.call(outbox.meta, "station_id")
        self.credentials = _credentials(key, self.station_id)
        self.station_name = station_name or self.station_id
        self.lexicon_path = lexicon_path
        self.status = SyncStatus(acked_seq=self.dbw.call(outbox.acked_seq))
        # the monotonic timeline the kept clock maps from (tests pass another)
        self.boot = monotonic_timeline(self.clock.local) if boot is None else boot
        self._kept_at: float | None = None  # local monotonic time the clock was last kept
        self._kept_sample: float | None = None  # the sample of the estimate last kept
        self._kept_delay: float | None = None  # and its round trip
        self._resume_clock()
        self.status.lexicon_sha256 = lexicon_sha(lexicon_path)
        # The SHA-256 of the lexicon the kiosk judges with (set by the runtime; None
        # without a kiosk): reported beside the one on disk.
        self.lexicon_in_use: Callable[[], str | None] | None = None
        # whose word that lexicon is (shared/lextrust.Trust's value), and the confirmed
        # rows the station's database lacked at start (station/log.py): set by the runtime
        self.lexicon_trust: Callable[[], str | None] | None = None
        self.rows_lost: Callable[[], int | None] | None = None
        # The version of the hall configuration the kiosk uses (set by the runtime;
        # station/settings.py): reported as the status frame's config_version.
        self.config_in_use: Callable[[], int | None] | None = None
        self.handlers: dict[str, list[Handler]] = {}
        self._wake = asyncio.Event()
        self._stopped = False
        self._channel: Channel | None = None
        self._time_id = 0
        self._time_sent: dict[int, float] = {}
        self._lexicon_rx: dict[str, Any] | None = None
        self._lexicon_refused: str | None = None  # a replayed lexicon push being dropped
        self._handler_tasks: set[asyncio.Future[Any]] = set()
        self._status_now = asyncio.Event()
        self._last_address: tuple[str, int] | None = None
        self._seen: dict[tuple[str, int], Candidate] = {}  # mDNS candidates by address
        # a configured address is checked now, not at every reconnect
        self._hub_target = parse_hostport(net.hub) if net.hub else None
        self.peer_log = protocol.PeerLog(log)
        self.restarts = 0  # supervised restarts after an unexpected failure
        self.restored = 0  # new epochs started after a restored database was noticed
        self._told: dict[tuple[str, int], float] = {}  # hubs of another seat told, when

    def _resume_clock(self) -> None:
        """Take up the hub clock estimate this station kept before it was restarted (same
        boot, still within the bound: station.link.clock.HubClock.resume), so signals
        ring on it while the hub is away; the hub's next answer replaces it."""
        kept = self.dbw.call(load_kept_clock)
        if kept is None or not self.clock.resume(kept, self.boot):
            if kept is not None:
                log.info("the hub clock kept before this start is too old or from another boot")
            return
        self._kept_sample, self._kept_delay = kept.synced_at, kept.delay
        s = self.status
        s.clock_known = True
        s.clock_synced = self.clock.precise
        s.clock_offset = self.clock.offset
        s.clock_delay = kept.delay
        s.clock_uncertainty = self.clock.uncertainty
        log.info(
            "hub clock kept from before this start: offset %+.4f s, ±%.1f ms",
            self.clock.offset,
            (self.clock.uncertainty or 0.0) * 1000,
        )

    async def _keep_clock(self) -> None:
        """Keep the current hub clock estimate in the station's database: a new best
        sample at once when its round trip is clearly shorter than the kept one's (the
        burst after connecting), otherwise at most every :data:`KEEP_CLOCK_EVERY` s. Written
        as it is taken, so a killed process loses nothing a clean stop would have kept."""
        kept = self.clock.kept(self.boot)
        if kept is None or kept.synced_at == self._kept_sample:
            return
        mono = self.clock.local.monotonic()
        better = self._kept_delay is None or kept.delay < self._kept_delay * 0.8
        if not better and self._kept_at is not None and mono - self._kept_at < KEEP_CLOCK_EVERY:
            return
        import sqlite3

        try:
            await self.dbw.run(save_kept_clock, kept, self.status.hub_id or "", time.time())
        except sqlite3.OperationalError as exc:
            # best effort: a database locked past its busy timeout (another writer, a slow
            # card) must not take the link down, or rows could not go out while it lasts;
            # the next sample tries again
            log.warning("hub clock estimate not kept (%s); the next sample tries again", exc)
            return
        self._kept_at, self._kept_sample, self._kept_delay = mono, kept.synced_at, kept.delay

    @property
    def psk(self) -> bytes:
        """The station's own key (what was the tournament key before keys per peer)."""
        return self.credentials.key

    def receipt_key(self) -> ReceiptKey:
        """The key the kiosk makes its verdicts' receipt codes with (shared/receipt.py):
        derived from the key this link authenticates with, so the hub can check them."""
        cred = self.credentials
        return ReceiptKey.from_station_key(self.station_id, cred.key_id, cred.key)

    # -- public -----------------------------------------------------------------------
    def on(self, event: str, handler: Handler) -> None:
        """Register a handler: plan(RoundPlan), gong(signal, at), config(dict, version,
        received_at), show(kind, data), lexicon(Path), clock(SyncStatus), connected(bool)."""
        self.handlers.setdefault(event, []).append(handler)

    def status_changed(self) -> None:
        """Something the status frame reports changed (a lexicon went into use): send it
        now rather than at the next interval."""
        self._status_now.set()

    def nudge(self) -> None:
        """New outbox rows were committed: send them now rather than at the next poll."""
        self._wake.set()

    def plans(self) -> list[RoundPlan]:
        return self.dbw.call(rounds.load_plans, self.net.tournament_id)

    def note_signal(self, info: dict[str, Any]) -> None:
        self.status.last_signal = info

    async def run(self) -> None:
        """Connect, sync, reconnect with backoff; until :meth:`stop` or cancellation.

        Crash-only: whatever goes wrong inside (the hub refuses, the network drops, the
        database is locked past its busy timeout, a bug) is logged and the link starts
        over after a backoff; only :meth:`stop` or cancelling the task ends it."""
        backoff = BACKOFF_MIN
        while not self._stopped:
            started = time.monotonic()
            try:
                targets = await self._targets()
                if not targets:
                    raise ConnectionError("no hub of this tournament found")
                await self._session_any(targets)
            except asyncio.CancelledError:
                raise
            except RestoredDatabase as exc:
                self.status.last_error = str(exc)
                log.warning("%s", exc)
                self._set_connected(False)
                continue  # at once, under the new epoch
            except ProtocolError as exc:
                self.status.last_error = str(exc)
                self.peer_log.warning("protocol", "hub link refused: %s", exc)
            except (ConnectionError, OSError, TimeoutError) as exc:
                self.status.last_error = str(exc) or type(exc).__name__
                self.peer_log.log(logging.INFO, "link", "hub link: %s", self.status.last_error)
            except Exception as exc:  # a locked database, a bad row, a bug: start over
                self.restarts += 1
                self.status.last_error = f"{type(exc).__name__}: {exc}"
                self.peer_log.log(
                    logging.ERROR,
                    f"crash:{type(exc).__name__}",
                    "hub link failed (%s); restarting it",
                    self.status.last_error,
                    exc_info=True,
                )
            finally:
                self._set_connected(False)
            if self._stopped:
                break
            if time.monotonic() - started > 2 * BACKOFF_MAX:
                backoff = BACKOFF_MIN  # it ran for a while: this is a new failure
            await asyncio.sleep(backoff * random.uniform(0.7, 1.3))
            backoff = min(BACKOFF_MAX, backoff * 2)

    def stop(self) -> None:
        self._stopped = True
        if self._channel is not None:
            self._channel.writer.close()

    def close(self) -> None:
        self.dbw.close()

    # -- internals --------------------------------------------------------------------
    async def _targets(self) -> list[tuple[str, int]]:
        if self._hub_target is not None:
            return [self._hub_target]
        found = await discover(
            self.net.tournament_id,
            interfaces=self.net.mdns_interfaces,
            pinned_key=self.credentials.hub_public,
        )
        # mDNS answers trickle in: keep what earlier rounds found too (a fast rogue must
        # not hide a slower hub), newest first, bounded
        for c in reversed(found):
            self._seen.pop((c.host, c.port), None)
            self._seen[(c.host, c.port)] = c
        while len(self._seen) > 16:
            self._seen.pop(next(iter(self._seen)))
        hubs = list(reversed(self._seen.values()))
        retired = set(await self._retired_hubs())  # a signed handover replaced them (a hint)
        hubs = [c for c in hubs if c.hub_id not in retired] or hubs
        # the hub announcing the pinned key first, then the one seen last (a rogue
        # announcing the same tournament only adds candidates; the pinned signature
        # decides), then the rest as announced
        last_id, last_addr = self.status.hub_id, self._last_address
        followed = await self.dbw.run(load_seat, self.net.tournament_id)
        seat_at = followed.address if followed else None  # where the followed seat was
        ordered = sorted(
            hubs,
            key=lambda c: (
                not c.pinned,
                seat_at is not None and format_hostport(c.host, c.port) != seat_at,
                c.hub_id != last_id,
                (c.host, c.port) != last_addr,
            ),
        )
        targets = [(c.host, c.port) for c in ordered]
        if last_addr is not None and last_addr not in targets:
            targets.append(last_addr)  # mDNS is a hint; the hub may still be where it was
        return list(dict.fromkeys(targets))

    def _emit(self, event: str, *args: Any) -> None:
        for handler in self.handlers.get(event, []):
            try:
                result = handler(*args)
                if asyncio.iscoroutine(result):
                    task = asyncio.ensure_future(result)
                    self._handler_tasks.add(task)
                    task.add_done_callback(self._handler_tasks.discard)
            except Exception:
                log.exception("%s handler failed", event)

    def _set_connected(self, value: bool) -> None:
        if self.status.connected != value:
            self.status.connected = value
            self._emit("connected", value)

    def _status_payload(self) -> dict[str, Any]:
        s = self.status
        s.clock_known = self.clock.synced
        s.clock_synced = self.clock.precise
        s.clock_offset = self.clock.offset
        s.clock_delay = self.clock.delay
        s.clock_uncertainty = self.clock.uncertainty
        return StationStatus(
            name=self.station_name,
            version=software_version(),
            lexicon_sha256=s.lexicon_sha256,
            lexicon_in_use_sha256=self.lexicon_in_use() if self.lexicon_in_use else None,
            config_version=self.config_in_use() if self.config_in_use else None,
            lexicon_trust=self.lexicon_trust() if self.lexicon_trust else None,
            rows_lost=self.rows_lost() if self.rows_lost else None,
            clock_synced=s.clock_synced,
            clock_known=s.clock_known,
            clock_offset=s.clock_offset,
            clock_delay=s.clock_delay,
            clock_uncertainty=s.clock_uncertainty,
            backlog=s.backlog,
            acked_seq=s.acked_seq,
            last_signal=s.last_signal,
            last_error=s.last_error,
            restarts=self.restarts,
            local_time=self.clock.local.now(),
        ).to_dict()

    async def _attempt(
        self, host: str, port: int
    ) -> tuple[asyncio.StreamWriter, Channel, dict[str, Any]]:
        async with asyncio.timeout(CONNECT_TIMEOUT):
            reader, writer = await asyncio.open_connection(
                host, port, limit=protocol.MAX_FRAME + 64
            )
        try:
            channel, welcome = await protocol.client_handshake(
                reader,
                writer,
                self.credentials,
                tournament=self.net.tournament_id,
                station=self.station_id,
                epoch=self.epoch,
            )
        except BaseException as exc:
            writer.close()
            if isinstance(exc, ConnectionError | asyncio.IncompleteReadError):
                raise ConnectionError(
                    "the hub hung up during the handshake: wrong key, or the key revoked?"
                ) from None
            raise
        return writer, channel, welcome

    async def _connect(
        self, targets: list[tuple[str, int]]
    ) -> tuple[asyncio.StreamWriter, Channel, dict[str, Any], tuple[str, int]]:
        """Handshake with the first candidate that proves to be our hub. Candidates start
        :data:`CANDIDATE_STAGGER` apart (at once after a refusal), all run side by side: a
        silent or refusing address never holds the station back."""
        running: dict[asyncio.Task[Any], tuple[str, int]] = {}
        errors: list[str] = []
        queue = list(targets)
        followed = await self.dbw.run(load_seat, self.net.tournament_id)
        # hubs of another seat that answered: used only when no hub of the followed seat
        # does (then it must show a handover naming it), the rest are told why not
        others: list[tuple[asyncio.StreamWriter, Channel, dict[str, Any], tuple[str, int]]] = []
        chosen = None
        held_since: float | None = None  # when the first hub of another seat answered
        try:
            while queue or running:
                if queue:
                    target = queue.pop(0)
                    running[asyncio.create_task(self._attempt(*target))] = target
                timeout = CANDIDATE_STAGGER if queue else None
                if held_since is not None:
                    # a hub of the followed seat that is up answers well within this; a
                    # silent old address must not hold up a hub with a handover
                    left = held_since + SEAT_GRACE - time.monotonic()
                    if left <= 0:
                        break
                    timeout = left if timeout is None else min(timeout, left)
                done, _ = await asyncio.wait(
                    running, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                for task in done:
                    host, port = running.pop(task)
                    exc = task.exception()
                    if exc is None:
                        writer, channel, welcome = task.result()
                        found = (writer, channel, welcome, (host, port))
                        if followed is None or welcome["seat"] == followed.seat:
                            chosen = found
                            return found
                        others.append(found)
                        if held_since is None:
                            held_since = time.monotonic()
                        continue
                    reason = str(exc) or type(exc).__name__
                    errors.append(f"{format_hostport(host, port)}: {reason}")
                    self.peer_log.log(
                        logging.WARNING if isinstance(exc, ProtocolError) else logging.INFO,
                        format_hostport(host, port),
                        "hub candidate %s: %s",
                        format_hostport(host, port),
                        reason,
                    )
            if others:
                chosen = others[0]
                return chosen
        finally:
            for task in running:
                task.cancel()
            for task in running:
                with contextlib.suppress(BaseException):
                    writer, *_ = await task
                    writer.close()
            for other in others:
                if other is not chosen:
                    assert followed is not None
                    self._spawn_tell(other, followed)
        raise ConnectionError("; ".join(errors) or "no hub answered")

    def _follows_reason(self, followed: Followed, seat: str) -> str:
        return (
            f"{FOLLOWS} {followed.address} (seat {followed.seat}): this hub's seat {seat} is"
            " not named by a signed handover; take over only if that hub is dead: hub takeover"
        )

    def _spawn_tell(
        self,
        found: tuple[asyncio.StreamWriter, Channel, dict[str, Any], tuple[str, int]],
        followed: Followed,
    ) -> None:
        """Tell a hub of another seat that this station follows ``followed`` (its first
        frame, a status, says so; its dashboard shows it), then hang up."""
        task = asyncio.ensure_future(self._tell(*found, followed))
        self._handler_tasks.add(task)
        task.add_done_callback(self._handler_tasks.discard)

    async def _tell(
        self,
        writer: asyncio.StreamWriter,
        channel: Channel,
        welcome: dict[str, Any],
        where: tuple[str, int],
        followed: Followed,
    ) -> None:
        self._told[where] = time.monotonic()
        handover = await self.dbw.run(load_item, "handover")
        if isinstance(handover, dict) and welcome["hub"] in (handover.get("retired") or []):
            # the old hub itself, come back: its dashboard says it was replaced
            reason = f"{HANDED_OVER} {handover.get('hub')}: hub {welcome['hub']} is retired"
        else:
            reason = self._follows_reason(followed, welcome["seat"])
        self.peer_log.warning(
            f"seat:{format_hostport(*where)}",
            "hub at %s refused: %s",
            format_hostport(*where),
            reason,
        )
        payload = {**self._status_payload(), "last_error": reason}
        try:
            with contextlib.suppress(ConnectionError, OSError, TimeoutError, ProtocolError):
                async with asyncio.timeout(TELL_TIMEOUT):
                    await channel.send({"t": "status", "status": payload})
        finally:
            writer.close()

    async def _watch_seats(self, connected: tuple[str, int]) -> None:
        """While linked (found by mDNS): every :data:`SEAT_WATCH_EVERY` s, look for other
        hubs of this tournament announcing another seat (a copy of the hub's data started
        elsewhere) and tell each that this station follows its own hub (at most every
        :data:`TELL_EVERY` s each): the copy's dashboard says so, and nothing else
        happens (mDNS is a hint; the signed welcome names the seat)."""
        await asyncio.sleep(SEAT_WATCH_FIRST)
        while True:
            try:
                await self._tell_others(connected)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never the link's end: it only informs others
                self.peer_log.log(logging.INFO, "seat-watch", "seat watch: %s", exc)
            await asyncio.sleep(SEAT_WATCH_EVERY)

    async def _tell_others(self, connected: tuple[str, int]) -> None:
        followed = await self.dbw.run(load_seat, self.net.tournament_id)
        if followed is None:
            return
        found = await discover(
            self.net.tournament_id, interfaces=self.net.mdns_interfaces, timeout=2.0,
            settle=0.5,
        )  # fmt: skip
        now = time.monotonic()
        for c in found:
            where = (c.host, c.port)
            told = self._told.get(where)
            if where == connected:
                continue
            if told is not None and now - told < TELL_EVERY:
                continue
            self._told[where] = now
            try:
                writer, channel, welcome = await self._attempt(*where)
            except (ConnectionError, OSError, TimeoutError, ProtocolError):
                continue
            if welcome["seat"] == followed.seat:
                writer.close()  # the hub this station follows, at another address
                continue
            await self._tell(writer, channel, welcome, where, followed)

    async def _session_any(self, targets: list[tuple[str, int]]) -> None:
        writer, channel, welcome, (host, port) = await self._connect(targets)
        try:
            await self._session(channel, welcome, host, port)
        finally:
            self._channel = None
            self._abort_lexicon()
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _retired_hubs(self) -> list[str]:
        """The hubs the newest signed handover (``show`` kind ``handover``) retired."""
        handover = await self.dbw.run(load_item, "handover")
        retired = handover.get("retired") if isinstance(handover, dict) else None
        return [str(h) for h in retired] if isinstance(retired, list) else []

    async def _refuse_retired(self, channel: Channel, welcome: dict[str, Any]) -> None:
        """A hub that a signed handover retired (``hub takeover`` made another the hall's
        hub) is refused: this station follows the hub the handover names. The old hub is
        told why in the status frame (``last_error``, :data:`HANDED_OVER`) before the link
        closes, so its dashboard can say so."""
        handover = await self.dbw.run(load_item, "handover")
        if not isinstance(handover, dict) or welcome["hub"] not in (handover.get("retired") or []):
            return
        reason = f"{HANDED_OVER} {handover.get('hub')}: hub {welcome['hub']} is retired"
        self.status.last_error = reason
        with contextlib.suppress(ConnectionError, OSError, TimeoutError, ProtocolError):
            async with asyncio.timeout(2.0):
                await channel.send({"t": "status", "status": self._status_payload()})
        raise ProtocolError(reason)

    async def _check_seat(
        self, channel: Channel, welcome: dict[str, Any], host: str, port: int
    ) -> bool:
        """Follow one seat (hub/seat.py: the machine the hub runs on). The first hub this
        station meets in a tournament is followed; a hub on another seat (a copy of its
        data elsewhere, a standby after ``hub takeover``) only when the first thing it
        sends is a handover signed with the hub key that names its seat and is no older
        than the one this station has; otherwise it is refused and told why (its
        dashboard shows that the stations follow the hub at the address they name).
        True when the station's first status frame went out here."""
        tournament, seat = self.net.tournament_id, welcome["seat"]
        address = format_hostport(host, port)
        followed = await self.dbw.run(load_seat, tournament)
        if followed is None or followed.seat == seat:
            if followed != Followed(seat, welcome["hub"], address):
                await self.dbw.run(
                    save_seat, tournament, Followed(seat, welcome["hub"], address), time.time()
                )
            return False
        # the hub wants a status first; the handover (if it has one) is its first answer
        await channel.send({"t": "status", "status": self._status_payload()})
        msg: dict[str, Any] | None = None
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(HANDOVER_WAIT):
                msg = await channel.recv()
        named = (
            msg is not None
            and msg["t"] == "show"
            and msg["kind"] == "handover"
            and isinstance(msg["data"], dict)
            and msg["data"].get("seat") == seat
        )
        if named:
            assert msg is not None
            verdict = await self.dbw.run(
                _store_item, "handover", msg["id"], msg["data"], time.time(), msg["ver"]
            )
            if verdict != STALE:
                await self.dbw.run(
                    save_seat, tournament, Followed(seat, welcome["hub"], address), time.time()
                )
                await self._done(channel, msg["id"], True)
                log.warning(
                    "following the hub at %s (seat %s): a signed handover names it instead of"
                    " seat %s",
                    address,
                    seat,
                    followed.seat,
                )
                if verdict == NEW:
                    self._emit("show", "handover", msg["data"])
                return True
            await self._done(channel, msg["id"], False, STALE_DETAIL)
        reason = self._follows_reason(followed, seat)
        self.status.last_error = reason
        with contextlib.suppress(ConnectionError, OSError, TimeoutError, ProtocolError):
            async with asyncio.timeout(2.0):
                await channel.send({"t": "status", "status": self._status_payload()})
        raise ProtocolError(reason)

    async def _check_restored(self, welcome: dict[str, Any]) -> None:
        """The hub's ack must point at the row this database holds under that seq; if not
        (or there is no such row), this is an older copy of the database: the rows the
        hub has beyond it are ones this copy never wrote, and the rows written since would
        reuse their seqs and be taken as already stored. Start a new epoch."""
        acked = welcome["acked"]
        if acked == 0:
            return
        mine = await self.dbw.run(_row_digest, acked)
        if mine is not None and mine == welcome["digest"]:
            return
        old = self.epoch
        self.epoch = await self.dbw.run(_new_epoch)
        self.status.acked_seq = 0
        self.restored += 1
        raise RestoredDatabase(
            f"the hub holds row {acked} of epoch {old} and this database "
            + ("has another row there" if mine is not None else "does not reach it")
            + f": restored from an older copy; sending everything again as epoch {self.epoch}"
        )

    async def _session(
        self, channel: Channel, welcome: dict[str, Any], host: str, port: int
    ) -> None:
        try:
            self._channel = channel
            channel.stamp = self.clock.local.monotonic
            await self._refuse_retired(channel, welcome)
            status_sent = await self._check_seat(channel, welcome, host, port)
            await self._check_restored(welcome)
            # the hub's word is what counts: resend everything after what it has stored
            if self.status.hub_id not in (None, welcome["hub"]):
                self.estimator.clear()  # another hub, another clock
            hub_acked = welcome["acked"]
            await self.dbw.run(outbox.acknowledge, hub_acked)
            self.status.acked_seq = hub_acked
            self.status.hub_id = welcome["hub"]
            self.status.hub_address = format_hostport(host, port)
            self._last_address = (host, port)
            self.status.last_error = None
            self.status.last_contact = self.clock.monotonic()
            self.status.backlog = await self.dbw.run(outbox.backlog)
            if not status_sent:  # else the hub has it; the status loop sends the next
                await channel.send({"t": "status", "status": self._status_payload()})
            else:
                self._status_now.set()
            self._set_connected(True)
            log.info("connected to hub %s at %s", welcome["hub"], format_hostport(host, port))
            tasks = [
                asyncio.create_task(self._receiver(channel)),
                asyncio.create_task(self._sender(channel, hub_acked)),
                asyncio.create_task(self._timesync(channel)),
                asyncio.create_task(self._status_loop(channel)),
            ]
            if self._hub_target is None:  # found by mDNS: other announcers are told
                tasks.append(asyncio.create_task(self._watch_seats((host, port))))
            try:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    exc = task.exception()
                    if exc is not None:
                        raise exc
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
        except asyncio.IncompleteReadError:
            raise ConnectionResetError("hub closed the connection") from None

    async def _sender(self, channel: Channel, start_after: int) -> None:
        sent = start_after
        while True:
            if sent - self.status.acked_seq < WINDOW:
                rows = await self.dbw.run(_pending_after, sent, BATCH)
                if rows:
                    await channel.send({"t": "rows", "rows": rows})
                    sent = rows[-1][0]
                    continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL_EVERY):
                    await self._wake.wait()

    async def _timesync(self, channel: Channel) -> None:
        for _ in range(BURST):
            await self._time_request(channel)
            await asyncio.sleep(0.05)
        self._status_now.set()  # the estimate after the burst is the one worth reporting
        while True:
            await asyncio.sleep(RESYNC_EVERY)
            await self._time_request(channel)

    async def _time_request(self, channel: Channel) -> None:
        self._time_id += 1
        t1 = self.clock.local.monotonic()
        self._time_sent[self._time_id] = t1
        await channel.send({"t": "time_req", "id": self._time_id, "t1": t1})

    async def _status_loop(self, channel: Channel) -> None:
        while True:
            self._status_now.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(STATUS_EVERY):
                    await self._status_now.wait()
            self.status.backlog = await self.dbw.run(outbox.backlog)
            await channel.send({"t": "status", "status": self._status_payload()})

    async def _receiver(self, channel: Channel) -> None:
        while True:
            async with asyncio.timeout(IDLE_TIMEOUT):
                msg = await channel.recv()
            # stamped as the frame arrived, before its MAC and signature were checked
            t4 = channel.received_at if channel.received_at is not None else 0.0
            self.status.last_contact = t4
            kind = msg["t"]
            if kind == "time_rep":
                self._on_time(msg, t4)
                await self._keep_clock()
            elif kind == "ack":
                seq = msg["seq"]
                await self.dbw.run(outbox.acknowledge, seq)
                self.status.acked_seq = max(self.status.acked_seq, seq)
                self._wake.set()  # the window may have room again: no waiting for the poll
            elif kind == "plan":
                await self._on_plan(channel, msg)
            elif kind == "gong":
                self._emit("gong", msg["signal"], float(msg["at"]))
                await self._done(channel, msg["id"], True)
            elif kind == "config":
                await self._on_config(channel, msg)
            elif kind == "show":
                if await self._on_item(channel, msg, msg["kind"], msg["data"]):
                    self._emit("show", msg["kind"], msg["data"])
            elif kind.startswith("lexicon_"):
                await self._on_lexicon(channel, msg)
            elif kind == "bye":
                raise ConnectionResetError(f"hub said bye: {msg['reason']}")
            else:
                raise ProtocolError(f"a hub may not send {kind!r}")

    def _on_time(self, msg: dict[str, Any], t4: float) -> None:
        t1 = self._time_sent.pop(msg["id"], None)
        if t1 is None or t1 != msg["t1"]:
            return  # not ours (or from before a reconnect): ignore
        # t1/t4 are local monotonic, t2/t3 hub wall time: the "offset" maps monotonic → hub
        self.estimator.add(t1, msg["t2"], msg["t3"], t4, t4)
        best = self.estimator.best()
        if best is not None:
            first = not self.clock.synced
            was_precise = self.status.clock_synced
            self.clock.set_offset(best.offset, best.delay, best.taken_at)
            self.status.clock_known = True
            self.status.clock_synced = self.clock.precise
            self.status.clock_offset = self.clock.offset
            self.status.clock_delay = best.delay
            self.status.clock_uncertainty = self.clock.uncertainty
            if first or was_precise != self.status.clock_synced:
                self._status_now.set()  # tell the hub at once
                log.info(
                    "clock %s: offset %+.4f s, ±%.1f ms (round trip %.1f ms)",
                    "synced" if self.status.clock_synced else "known, not within the bound",
                    self.clock.offset,
                    (self.clock.uncertainty or 0.0) * 1000,
                    best.delay * 1000,
                )
            self._emit("clock", self.status)

    async def _on_item(
        self,
        channel: Channel,
        msg: dict[str, Any],
        kind: str,
        data: Any,
        now: float | None = None,
    ) -> bool:
        """Store a signed config/pairings/standings/PIN item if it is newer than the one
        this station has and confirm it; True when it is news for the kiosk."""
        now = time.time() if now is None else now
        verdict = await self.dbw.run(_store_item, kind, msg["id"], data, now, msg["ver"])
        if verdict == STALE:
            self._refuse_stale(kind, msg["ver"])
            await self._done(channel, msg["id"], False, STALE_DETAIL)
            return False
        await self._done(channel, msg["id"], True)
        return verdict == NEW

    async def _on_config(self, channel: Channel, msg: dict[str, Any]) -> None:
        """The hall configuration (station/settings.py): checked with the hub's own rules
        before it is stored; a bad one is refused (logged, and the hub's deliveries say
        why), nothing stored, the settings in use stay. A new one is stored, then offered
        to the handlers: config(data, version, received_at)."""
        from samoobsluha.shared.checks import SettingsError, hall_settings

        data, version = msg["config"], msg["ver"]
        try:
            hall_settings(data)
        except SettingsError as exc:
            self.peer_log.warning(
                "config", "refused hall configuration %d from the hub: %s", version, exc
            )
            await self._done(channel, msg["id"], False, f"refused: {exc}")
            return
        now = time.time()
        if await self._on_item(channel, msg, "config", data, now):
            self._emit("config", data, version, now)

    def _refuse_stale(self, kind: str, version: int) -> None:
        self.peer_log.warning(
            f"stale:{kind}",
            "refused %s version %d from the hub link: older than the one this station has "
            "(a replayed item)",
            kind,
            version,
        )

    async def _done(self, channel: Channel, item: str, ok: bool, detail: str = "") -> None:
        await channel.send({"t": "done", "id": item, "ok": ok, "detail": detail})

    async def _on_plan(self, channel: Channel, msg: dict[str, Any]) -> None:
        try:
            plan = RoundPlan.from_dict(msg["plan"])
        except (TypeError, ValueError) as exc:
            await self._done(channel, msg["id"], False, f"bad plan: {exc}")
            return
        news = await self.dbw.run(_store_plan, self.net.tournament_id, plan, time.time())
        if news:
            self._emit("plan", plan)
        await self._done(channel, msg["id"], True)

    async def _on_lexicon(self, channel: Channel, msg: dict[str, Any]) -> None:
        kind, item = msg["t"], msg["id"]
        rx = self._lexicon_rx
        if kind == "lexicon_begin":
            self._abort_lexicon()  # a push the hub restarted
            if await self.dbw.run(_take_lexicon_version, msg["ver"]) == STALE:
                self._refuse_stale("lexicon", msg["ver"])
                self._lexicon_refused = item  # its chunks are dropped unread
                await self._done(channel, item, False, STALE_DETAIL)
                return
            target = self.lexicon_path or (data_dir() / "lexicons" / Path(msg["name"]).name)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.incoming")
            lexsig = msg.get("lexsig")
            self._lexicon_rx = {
                "id": item,
                "target": target,
                "tmp": tmp,
                "fh": tmp.open("wb"),
                "sha": hashlib.sha256(),
                "size": msg["size"],
                "expect_sha": msg["sha256"],
                "offset": 0,
                # the hub's detached signature of it (shared/lextrust.py), if it sent one
                "lexsig": lexsig if isinstance(lexsig, str) and len(lexsig) <= 4096 else None,
            }
            return
        if rx is None and item == self._lexicon_refused:
            return
        if rx is None or rx["id"] != item:
            raise ProtocolError("lexicon chunk without a matching begin")
        if kind == "lexicon_chunk":
            if msg["offset"] != rx["offset"] or rx["offset"] + len(msg["data"]) > rx["size"]:
                raise ProtocolError("lexicon chunk out of order or beyond the announced size")
            await asyncio.to_thread(rx["fh"].write, msg["data"])
            rx["sha"].update(msg["data"])
            rx["offset"] += len(msg["data"])
            return
        # lexicon_end
        self._lexicon_rx = None
        ok, detail = await asyncio.to_thread(self._finish_lexicon, rx)
        if ok:
            self.status.lexicon_sha256 = detail
            self.lexicon_path = rx["target"]
            self._emit("lexicon", rx["target"])
            await channel.send({"t": "status", "status": self._status_payload()})
        await self._done(channel, item, ok, detail)

    def _abort_lexicon(self) -> None:
        """Drop a half-received lexicon (the hub sends it again after a reconnect)."""
        rx, self._lexicon_rx = self._lexicon_rx, None
        if rx is not None:
            with contextlib.suppress(OSError):
                rx["fh"].close()
                rx["tmp"].unlink(missing_ok=True)

    @staticmethod
    def _finish_lexicon(rx: dict[str, Any]) -> tuple[bool, str]:
        fh = rx["fh"]
        fh.flush()
        os.fsync(fh.fileno())
        fh.close()
        tmp: Path = rx["tmp"]
        if rx["offset"] != rx["size"] or rx["sha"].hexdigest() != rx["expect_sha"]:
            tmp.unlink(missing_ok=True)
            return False, "SHA-256 or size mismatch; lexicon not replaced"
        from samoobsluha.shared.lexicon import Lexicon, LexiconError

        try:
            info = Lexicon.open(tmp).info
        except LexiconError as exc:
            tmp.unlink(missing_ok=True)
            return False, f"not a usable lexicon: {exc}"
        from samoobsluha.shared.lextrust import signature_path, write_signature

        os.replace(tmp, rx["target"])
        # its signature beside it (the kiosk checks it against the pinned hub key before
        # the lexicon judges); none sent: an older one there no longer belongs to it
        sig = signature_path(rx["target"])
        if rx.get("lexsig"):
            write_signature(sig, rx["lexsig"])
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(sig)
        dir_fd = os.open(rx["target"].parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        # checked just now: opening it to put it into use need not hash it again
        from samoobsluha.station.lexicons import write_stamp

        write_stamp(rx["target"], info.sha256, os.stat(rx["target"]))
        return True, info.sha256

"""The stations in the hall (ČAS 15.8e: enough of them, each online, on the reference
lexicon, its clock synced): the Stations screen's report, revoking a station's keys, the
referee PIN sent to every station, and the rows the hub refused from them."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.officiating import stations_required, stations_rule
from samoobsluha.hub.service.core import ServiceCore, ServiceError
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.payloads import PayloadError, RungSignal

ONLINE_WITHIN = 15.0  # without a live connection, a status this fresh counts as online


@dataclass
class StationRow:
    station_id: str
    online: bool
    last_seen: float | None
    seen_ago: float | None
    clock_offset: float
    clock_synced: bool
    lexicon_sha256: str | None  # the lexicon the station judges with (in use)
    lexicon_ok: bool | None  # in use = the reference; None: no reference lexicon known
    version: str
    backlog: int | None
    last_signal: str
    address: str = ""
    rows: int = 0
    rejected: int = 0  # rows the hub refused (see hub.store: rejected)
    # of those, the rows it sent in another station's name: {that station: rows}
    impersonated: dict[str, int] = field(default_factory=dict)
    # the file on disk is the reference but the kiosk has not swapped to it yet (it does
    # at its next idle moment: station/lexicons.py)
    lexicon_pending: bool = False
    # the hall configuration the kiosk uses (its version: the hub's publication time in
    # ms), and whether it is the one the hub published last; None: nothing to compare (no
    # publication, or a station without a kiosk)
    config_version: int | None = None
    config_ok: bool | None = None
    # whose word its lexicon is (shared/lextrust.py: hub, referee, unpinned, unsigned,
    # bad_signature); None: a station that does not say (a daemon, an older version)
    lexicon_trust: str | None = None
    # confirmed rows its log lost with a WAL file (station/log.py: rows_lost)
    rows_lost: int = 0


@dataclass
class StationReport:
    rows: list[StationRow]
    players: int  # checked-in players (or registered, before check-in starts)
    required: int  # ČAS 15.8e
    online: int
    expected_lexicon: str | None
    server_running: bool
    warnings: list[str] = field(default_factory=list)
    # where ``required`` comes from: ČAS 15.8e, or the hall's rule at a PFS event
    rule: str = field(default_factory=lambda: stations_rule("cas"))


class StationsArea(ServiceCore):
    """The stations: who is there and what each judges with."""

    def revoke_station(self, station: str) -> Any:
        """Refuse every key issued so far to ``station`` (through the running hub)."""
        return self.control("revoke", station=station)

    def stations(self) -> StationReport:
        live: dict[str, bool] | None
        try:
            rows = self.control("stations", timeout=3.0)
            live = {r["station_id"]: bool(r.get("connected")) for r in rows}
            stalled = {r["station_id"] for r in rows if r.get("stalled")}
            # the limits per station (hub.quota): the referee's call, not a full disk
            cut_off = {r["station_id"] for r in rows if r.get("cut_off")}
            held = {  # what waits at the station: its own backlog, as it reports it
                r["station_id"]: int(
                    r.get("status", {}).get("backlog") or r.get("budget", {}).get("held", 0)
                )
                for r in rows
                if r.get("over_budget")
            }
            running = True
            info = self.control("info", timeout=3.0)
            rivals = list(info.get("rivals") or [])
            backup = dict(info.get("backup") or {})
            replaced_by = info.get("replaced_by")
            elsewhere = dict(info.get("followed_elsewhere") or {})
        except ServiceError:
            live, running, stalled = None, False, set()
            cut_off, held = set(), {}
            rivals, backup, replaced_by, elsewhere = [], {}, None, {}
        now = self.clock.now()
        with self._db() as db:
            raw = sync_store.load_stations(db)
            rejected = sync_store.rejected_counts(db)
            published = sync_store.load_published(db)
            tour = Tournament(db, self.clock)
            players = [p for p in tour.players() if not p.withdrawn]
            rule = stations_rule(tour.settings()["rules"])
            reference = self.default_lexicon(tour)  # read in this open, not another
        present = sum(1 for p in players if p.checked_in) or len(players)
        expected = self._expected_lexicon(published, raw, reference)
        # the hall configuration published last ({} included: it withdraws the earlier)
        hall = sync_store.item_version(published["config"][0]) if "config" in published else None
        out: list[StationRow] = []
        for r in raw:
            st = r["status"]
            age = now - r["last_seen"] if r["last_seen"] else None
            online = (
                live.get(r["station_id"], False)
                if live is not None
                else (age is not None and age <= ONLINE_WITHIN)
            )
            # the lexicon in use is what judges; a station without a kiosk reports none
            # in use, and then its file on disk is compared
            on_disk = st.get("lexicon_sha256")
            sha = st.get("lexicon_in_use_sha256") or on_disk
            signal = st.get("last_signal")
            config = st.get("config_version")
            config = config if isinstance(config, int) else None
            kiosk = bool(st.get("lexicon_in_use_sha256"))  # a daemon reports neither
            out.append(
                StationRow(
                    station_id=r["station_id"],
                    online=online,
                    last_seen=r["last_seen"],
                    seen_ago=age,
                    clock_offset=float(st.get("clock_offset") or 0.0),
                    clock_synced=bool(st.get("clock_synced")),
                    lexicon_sha256=sha,
                    lexicon_ok=None if expected is None else sha == expected,
                    version=str(st.get("version", "?")),
                    backlog=st.get("backlog"),
                    last_signal=_signal_text(signal),
                    address=r.get("address") or "",
                    rows=int(r.get("contiguous") or 0),
                    rejected=rejected.get(r["station_id"], 0),
                    impersonated=dict(r.get("impersonated") or {}),
                    lexicon_pending=expected is not None and sha != expected == on_disk,
                    config_version=config,
                    config_ok=None if hall is None or not kiosk else config == hall,
                    lexicon_trust=(
                        st["lexicon_trust"] if isinstance(st.get("lexicon_trust"), str) else None
                    ),
                    rows_lost=(
                        st["rows_lost"]
                        if isinstance(st.get("rows_lost"), int) and st["rows_lost"] > 0
                        else 0
                    ),
                )
            )
        required = stations_required(present)
        online = sum(1 for r in out if r.online)
        # Phrases: English where printed or logged, the operator's language on screen.
        warnings: list[str] = []
        if replaced_by:  # a signed handover named another hub: this one is refused
            warnings.append(Phrase("warn.replaced", hub=str(replaced_by)))
        for where in sorted(set(elsewhere.values())):  # stations follow another seat
            n = sum(1 for a in elsewhere.values() if a == where)
            warnings.append(Phrase("warn.follows_elsewhere", address=where, count=n))
        for rival in rivals:  # first: two hubs at once is worse than none
            where = ", ".join(rival.get("addresses") or []) or "?"
            warnings.append(
                Phrase(
                    "warn.two_hubs" if rival.get("same_key") else "warn.two_hubs_other_key",
                    hub=str(rival.get("hub") or rival.get("name") or "?"),
                    address=f"{where}:{rival.get('port', '?')}",
                )
            )
        if not running:
            warnings.append(Phrase("warn.server_off"))
        if backup.get("error") and backup.get("error_reason") is not None:
            # why, as the hub sent it (data, not the system's English): in the screen's language
            why = Phrase.from_data(backup["error_reason"])
            folder = str(backup.get("folder"))
            warnings.append(Phrase("warn.backup_failing_why", folder=folder, error=why))
        elif backup.get("error"):
            warnings.append(Phrase("warn.backup_failing", folder=str(backup.get("folder"))))
        if online < required:
            warnings.append(
                Phrase("warn.too_few", players=present, required=required, online=online, rule=rule)
            )
        if expected is None and len({r.lexicon_sha256 for r in out if r.lexicon_sha256}) > 1:
            warnings.append(Phrase("warn.lexicons_mixed"))
        for row in out:
            if row.lexicon_ok is False and not row.lexicon_pending:
                warnings.append(Phrase("warn.lexicon_differs", station=row.station_id))
            if row.online and row.config_ok is False:
                warnings.append(Phrase("warn.config_differs", station=row.station_id))
            if row.online and not row.clock_synced:
                warnings.append(Phrase("warn.clock", station=row.station_id))
            for claimed, n in row.impersonated.items():
                warnings.append(
                    Phrase("warn.impersonated", station=row.station_id, claimed=claimed, count=n)
                )
            malformed = row.rejected - sum(row.impersonated.values())
            if malformed > 0:
                warnings.append(Phrase("warn.rejected", station=row.station_id, count=malformed))
            if row.station_id in stalled:
                warnings.append(Phrase("warn.stalled", station=row.station_id))
            if row.station_id in cut_off:
                warnings.append(Phrase("warn.cut_off", station=row.station_id))
            if row.station_id in held:
                warnings.append(
                    Phrase("warn.over_budget", station=row.station_id, n=held[row.station_id])
                )
        return StationReport(out, present, required, online, expected, running, warnings, rule)

    def _expected_lexicon(
        self, published: dict[str, tuple[str, Any]], raw: list[dict[str, Any]], path: Path
    ) -> str | None:
        if "lexicon" in published:
            return str(published["lexicon"][1]["lexicon_sha256"])
        if path.exists():
            from samoobsluha.shared.lexicon import read_info

            with contextlib.suppress(Exception):
                return read_info(path).sha256
        # Else the lexicon most stations report; a tie means nobody can tell which is right.
        shas = [r["status"].get("lexicon_sha256") for r in raw if r["status"].get("lexicon_sha256")]
        counts = sorted(((shas.count(s), s) for s in set(shas)), reverse=True)
        if not counts or (len(counts) > 1 and counts[0][0] == counts[1][0]):
            return None
        return str(counts[0][1])

    def set_referee_pin(self, pin: str) -> dict[str, Any]:
        """Send a new referee PIN to every station the hub knows and has not revoked (one
        action for the whole hall, e.g. after a card went missing): now to those connected,
        to the others when they reconnect; it replaces the stations' PINs. Only salted
        hashes leave this machine, each station its own (:func:`auth.referee_pin_payload`).
        The result has ``sent_to`` (delivered now) and ``stations`` (every one it is for)."""
        from samoobsluha.hub.auth import referee_pin_payload
        from samoobsluha.shared.pin import PinError

        rows = self.control("stations", timeout=5.0)
        try:
            data = referee_pin_payload(pin, rows)
        except PinError as exc:
            raise ServiceError(*exc.args) from exc
        return dict(self.control("publish", kind="referee_pin", data=data))

    def rejected_rows(self) -> list[dict[str, Any]]:
        """Station rows the hub refused (malformed, or in another station's name), oldest
        first, with the reason, the sender and the name claimed."""
        with self._db() as db:
            return sync_store.rejected_rows(db)


def _signal_text(signal: dict[str, Any] | None) -> str:
    """The station's last bell stroke (the ``last_signal`` of its status), e.g.
    ``start 10:00:00``; "" when it has rung nothing (or reported something unreadable)."""
    if not signal:
        return ""
    try:
        rung = RungSignal.from_dict(signal)
    except PayloadError:
        return ""
    return f"{rung.signal} {time.strftime('%H:%M:%S', time.localtime(rung.hub_time))}"

"""Station keys on the hub: revocations, and what the hub tells a station it has stored.

The hall secret (``tournament.key``) never leaves the hub; every station's card carries
only a key derived for it (:meth:`shared.protocol.HallKeys.credentials`) under a key id
(its issue time). Revoking a station refuses every key of it issued at or before the
revocation — a lost or copied card is then worth nothing, and ``hub key station NAME``
(or provisioning the card again) issues a fresh one. Kept in ``hub.db`` under its own
``Migrations("hub.keys")``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.paths import write_private
from samoobsluha.shared.pin import PinError, check_new_pin, hash_pin_for
from samoobsluha.shared.protocol import HallKeys, row_digest
from samoobsluha.shared.storage import open_db

migrations = Migrations("hub.keys")


@migrations()
def m001_revocations(db: sqlite_utils.Database) -> None:
    db.table("revocations").create(
        {"station_id": str, "revoked_before": int, "at": float}, pk="station_id"
    )


def revoke(db: sqlite_utils.Database, station: str, now: float) -> int:
    """Refuse every key of ``station`` issued up to ``now``; returns that key id bound."""
    bound = int(now)
    with db.atomic():
        db.table("revocations").upsert(
            {"station_id": station, "revoked_before": bound, "at": now}, pk="station_id"
        )
    return bound


def load_revocations(db: sqlite_utils.Database) -> dict[str, int]:
    return {
        str(s): int(b) for s, b in db.execute("SELECT station_id, revoked_before FROM revocations")
    }


def next_key_id(db: sqlite_utils.Database, station: str, now: float) -> int:
    """A key id the hub will accept for ``station``: now, or just past its revocation."""
    bound = load_revocations(db).get(station, -1)
    return max(int(now), bound + 1)


def write_station_key(db_path: Path, keys: HallKeys, station: str, out: Path, now: float) -> None:
    """Issue ``station`` a key the hub accepts (newer than its last revocation, recorded
    in the hub's database at ``db_path``) and write it to ``out``, readable by its owner
    only: the station's ``psk_file``, never the hall secret."""
    db = open_db(db_path, migrations)
    try:
        key_id = next_key_id(db, station, now)
    finally:
        db.close()
    write_private(out, keys.credentials(station, key_id).to_text())


def referee_pin_payload(pin: str, stations: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """What ``publish referee_pin`` sends: one hash of ``pin`` per station the hub knows
    (``stations``: the rows of the ``stations`` request) and has not revoked, each with
    its own salt. A station that first connects later keeps the PIN it has (its card's);
    setting the PIN again includes it."""
    check_new_pin(pin)
    names = [str(r["station_id"]) for r in stations if not r.get("revoked")]
    if not names:
        raise PinError(Phrase("pin.no_stations"))
    return {"hashes": hash_pin_for(pin, names)}


def per_station_pins(
    stations: Iterable[Mapping[str, Any]],
) -> tuple[dict[str, str], dict[str, Any]]:
    """A different random 6-digit PIN for every station the hub knows and has not revoked,
    and the ``publish referee_pin`` payload with their hashes: a PIN cracked from one
    copied card then opens that station only. Returns (station: PIN, payload); the PINs
    are shown once to the referee and never stored on the hub."""
    import secrets

    names = sorted({str(r["station_id"]) for r in stations if not r.get("revoked")})
    if not names:
        raise PinError(Phrase("pin.no_stations"))
    pins: dict[str, str] = {}
    for name in names:
        pin = f"{secrets.randbelow(10**6):06d}"
        while pin in pins.values():  # no two stations share one
            pin = f"{secrets.randbelow(10**6):06d}"
        pins[name] = pin
    from samoobsluha.shared.pin import hash_pin

    hashes = {name: hash_pin(pin) for name, pin in pins.items()}
    return pins, {"hashes": hashes}


def stored_tip(db: sqlite_utils.Database, station: str, epoch: str) -> tuple[int, bytes]:
    """(highest contiguous seq stored for this station database, digest of that row): the
    station compares the digest with its own row to notice it was restored from a copy."""
    row = db.execute(
        "SELECT contiguous FROM progress WHERE station_id = ? AND station_epoch = ?",
        [station, epoch],
    ).fetchone()
    seq = int(row[0]) if row else 0
    if seq == 0:
        return 0, b""
    found = db.execute(
        "SELECT kind, payload FROM inbox WHERE station_id = ? AND station_epoch = ? AND seq = ?",
        [station, epoch, seq],
    ).fetchone()
    return seq, row_digest(found[0], found[1]) if found else b""

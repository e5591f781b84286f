"""The hub's seat: which machine a hub runs on, known without trusting the hub's data.

A copy of the hub's data (a restored backup, a copied card, a standby's copy) has the hub's
id and keys: everything in the data directory is the same on the copy. What differs is
the machine. The seat is derived from what stays with the machine and never travels in
the data directory or a backup:

* a random secret in the seat file (``SAMOOBSLUHA_SEAT_FILE``; else
  ``$XDG_STATE_HOME/samoobsluha/seat``, ``~/.local/state/…``; on a hub card
  ``/var/lib/samoobsluha-seat/seat``, on the root file system, not the data partition),
  made on the first ``hub serve``;
* ``/etc/machine-id`` (another installation, another id);
* the board's serial number (a Raspberry Pi's device tree; a card copied onto another Pi
  gets another seat although its root file system, the seat file too, is the same).

The seat is a short hash of the three (``SEAT_CHARS`` hex digits), carried in the signed
welcome (shared/protocol.py). Stations remember the seat of the hub they follow and follow
another only when a handover signed with the hub key names it (station/sync.py,
hub/standby.py). A seat is not a secret and proves nothing against someone who holds the
hall key: it keeps an honest copy from taking the hall by accident.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger("hub.seat")

SEAT_CHARS = 12
CARD_SEAT_FILE = Path("/var/lib/samoobsluha-seat/seat")
MACHINE_ID = Path("/etc/machine-id")
SERIALS = (
    Path("/sys/firmware/devicetree/base/serial-number"),  # Raspberry Pi (and other DT boards)
    Path("/sys/class/dmi/id/product_uuid"),  # PCs, where readable (often root only)
)


def seat_file() -> Path:
    env = os.environ.get("SAMOOBSLUHA_SEAT_FILE")
    if env:
        return Path(env)
    if CARD_SEAT_FILE.parent.is_dir() and os.access(CARD_SEAT_FILE.parent, os.W_OK):
        return CARD_SEAT_FILE
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(state) / "samoobsluha" / "seat"


def _read(path: Path) -> str:
    try:
        return path.read_bytes().strip(b"\0\n ").decode(errors="replace")
    except OSError:
        return ""


def _secret(path: Path) -> str:
    """The seat file's secret, made on first use (an unwritable place: none, the seat
    then rests on the machine id and the serial alone)."""
    text = _read(path)
    if text:
        return text
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:  # another process made it just now: wait for its text
        import time

        for _ in range(100):
            if text := _read(path):
                return text
            time.sleep(0.01)
        return ""
    except OSError as exc:
        log.warning("seat file %s cannot be made (%s): the seat rests on the machine", path, exc)
        return ""
    text = secrets.token_hex(16)
    with os.fdopen(fd, "w") as fh:
        fh.write(text + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return text


def local_seat(path: Path | None = None, data: Path | None = None) -> str:
    """This machine's seat (see the module's docstring). ``data``: the hub's data
    directory; a seat file inside it would travel with every copy, so it is refused."""
    path = path or seat_file()
    if data is not None and path.resolve().is_relative_to(Path(data).resolve()):
        from samoobsluha.shared.i18n import Phrase

        raise ValueError(Phrase("seat.err.inside", path=str(path), data=str(data)))
    parts = [_secret(path), _read(MACHINE_ID), *(_read(p) for p in SERIALS)]
    digest = hashlib.sha256("\0".join(["samoobsluha/seat/1", *parts]).encode()).hexdigest()
    return digest[:SEAT_CHARS]

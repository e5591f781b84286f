"""Is the hub's clock trustworthy? The rule that no round starts on a guessed time.

A Raspberry Pi has no battery clock (a Pi 5 has one only with a battery fitted). After a
power cut the hub comes back at whatever ``samoobsluha-time restore`` could give it: the time
saved on the data partition a minute before the cut (or the RTC). That is close, never
exact, and may be minutes behind if the hub was off for a while. Stations follow the hub's
time, so a round started on such a clock gongs at the wrong moment in every station.

So, after each boot in which the clock was restored (the restore script writes
``<data>/time-boot.json`` with the kernel's boot id), the hub's time is *unconfirmed* until
the operator looks at a watch and confirms it (``hub time confirm`` or the dashboard's
button), which writes ``<data>/time-confirmed.json`` for the same boot id. Until then
:func:`require_confirmed` refuses to start a round, the dashboard shows „čas hubu
nepotvrzen“, and the hub's chrony does not serve time to the stations (a root path unit
watches the confirmation file and runs ``chronyc local stratum 8``), so stations keep
running on their own clocks instead of stepping back to the hub's guess.

A machine where no restore happened this boot (a laptop, the test suite, a hub whose clock
came from the internet) has nothing to confirm.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from samoobsluha.shared.clock import Clock, boot_id
from samoobsluha.shared.i18n import Phrase

BOOT_FILE = "time-boot.json"
CONFIRMED_FILE = "time-confirmed.json"


class TimeNotConfirmed(ValueError):
    """A round may not start: the hub's time after a restart is not confirmed (a
    ``ValueError``, so the control socket refuses the request with this message)."""


@dataclass(frozen=True)
class TimeStatus:
    confirmed: bool
    boot_id: str
    source: str | None = None  # "saved" | "rtc" | "system": how the clock was set at boot
    restored_to: float | None = None  # the wall time the restore set
    confirmed_at: float | None = None
    confirmed_by: str | None = None


def current_boot_id() -> str:
    """The kernel's id of this boot (:func:`shared.clock.boot_id`, as the stations use)."""
    return boot_id()


def _read(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def status(data: Path, boot_id: str | None = None) -> TimeStatus:
    """The hub's time status for this boot, from the files in the data directory."""
    boot = current_boot_id() if boot_id is None else boot_id
    restored = _read(data / BOOT_FILE)
    if restored is None or restored.get("boot_id") != boot:
        # No restore in this boot: the clock was not guessed, nothing to confirm.
        return TimeStatus(confirmed=True, boot_id=boot)
    source = str(restored.get("source") or "saved")
    restored_to = _float(restored.get("restored_to"))
    confirmed = _read(data / CONFIRMED_FILE)
    if confirmed is not None and confirmed.get("boot_id") == boot:
        return TimeStatus(
            confirmed=True,
            boot_id=boot,
            source=source,
            restored_to=restored_to,
            confirmed_at=_float(confirmed.get("at")),
            confirmed_by=str(confirmed.get("who") or ""),
        )
    return TimeStatus(confirmed=False, boot_id=boot, source=source, restored_to=restored_to)


def confirm(data: Path, clock: Clock, who: str, boot_id: str | None = None) -> TimeStatus:
    """The operator says the hub's clock is right (for this boot)."""
    boot = current_boot_id() if boot_id is None else boot_id
    record = {"boot_id": boot, "at": clock.now(), "who": who}
    path = data / CONFIRMED_FILE
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return status(data, boot)


def require_confirmed(data: Path, boot_id: str | None = None) -> None:
    """Raise :class:`TimeNotConfirmed` while the hub's time is unconfirmed."""
    if not status(data, boot_id).confirmed:
        raise TimeNotConfirmed(Phrase("hubtime.refused"))

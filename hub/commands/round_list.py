"""``hub round list`` as a table with local times, and the ``--at`` of ``hub round start``.

``hub round list``          one line per planned round: number, phase, start, end (local
                            time, HH:MM:SS), time left, paused, revision and start count
``hub round list --json``   the hub's records as JSON (hub time in epoch seconds), for scripts

``--at`` takes a local time today, ``HH:MM`` or ``HH:MM:SS`` (what the timetable and the
dashboard's *Čas* field show); epoch seconds (hub time) still work for scripts. A time
that has already passed today is refused: a round planned into the past would start at
once, without its start signal (the station counts it missed).
"""

from __future__ import annotations

import re
import time
from datetime import datetime
from typing import Any

from samoobsluha.shared.countdown import countdown
from samoobsluha.shared.i18n import Phrase, t
from samoobsluha.shared.rounds import RoundPlan

_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$")
EPOCH_FROM = 1_000_000_000.0  # a bare number at least this big is epoch seconds (2001+)


class AtError(ValueError):
    """``--at`` is not a time, or a time already past."""


def parse_at(text: str, now: float) -> float:
    """The instant ``--at TEXT`` means: ``HH:MM[:SS]`` local time today, or epoch seconds.
    Raises :class:`AtError` (a :class:`Phrase`) otherwise or when it has passed."""
    text = text.strip()
    m = _CLOCK.match(text)
    if m:
        base = datetime.fromtimestamp(now)
        at = base.replace(
            hour=int(m[1]), minute=int(m[2]), second=int(m[3] or 0), microsecond=0
        ).timestamp()
    else:
        try:
            at = float(text)
        except ValueError:
            raise AtError(Phrase("cli.round.at_bad", at=text)) from None
        if not at >= EPOCH_FROM:  # also NaN
            raise AtError(Phrase("cli.round.at_bad", at=text))
    if at <= now:
        raise AtError(Phrase("cli.round.at_past", at=hms(at)))
    return at


def hms(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


def render_rounds(rows: list[dict[str, Any]], lang: str, now: float) -> str:
    """The hub's ``rounds`` records as an aligned table (local times)."""
    if not rows:
        return t("cli.round.none", lang) + "\n"
    head = [t(f"dash.col.{key}", lang) for key in ("round", "phase", "start", "end", "left")] + [
        t("cli.round.col.revision", lang)
    ]
    lines: list[list[str]] = []
    for row in rows:
        plan = RoundPlan.from_dict(row["plan"])
        phase = t(f"dash.phase.{row['phase']}", lang)
        if plan.paused_at is not None:
            phase += f" · {t('dash.paused', lang)}"
        status = plan.status(now)
        left = status.remaining if row["phase"] != "cancelled" else 0.0
        revision = str(plan.revision)
        if plan.epoch:
            revision += " · " + t("cli.round.restarted", lang, n=plan.epoch)
        lines.append(
            [
                str(plan.number),
                phase,
                hms(plan.start_at),
                hms(plan.end_at(now)),
                countdown(left),
                revision,
            ]
        )
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(len(head))]
    out = []
    for r in [head, *lines]:
        cells = [r[0].rjust(widths[0])] + [
            c.ljust(w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out) + "\n"

"""How much time is left, written the one way every screen and command writes it.

A countdown rounds **up**: with 39 min 59.3 s left it reads ``40:00``, and it reads ``0:00``
only once the time is over — never while a fraction of a second remains (a player who sees
``00:00`` may stop; the gong has not rung yet). Above an hour it shows the hours.
"""

from __future__ import annotations

import math


def countdown(seconds: float) -> str:
    """``39:59``; ``1:05:00`` above an hour; ``00:00`` when nothing is left."""
    total = max(0, math.ceil(seconds)) if math.isfinite(seconds) else 0
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def minutes_left(seconds: float) -> int:
    """Whole minutes still to go, rounded up ("closes in 1 min" until it closes)."""
    return max(0, math.ceil(seconds / 60)) if math.isfinite(seconds) else 0

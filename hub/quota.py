"""What one peer of the station link may cost the hub: flow control, a budget per round,
and fair handshake slots (docs/network.md, "Limits per peer").

The hall network is hostile and a station card can be copied: whoever holds a station's
key is that one station, and this module bounds what one station can make the hub do.

* **Window** (:data:`MAX_UNACKED_ROWS`, :data:`MAX_UNACKED_BYTES`): rows a connection
  has sent that the hub has not acknowledged. An honest station waits for acks
  (``station.sync.WINDOW``: 2,000 rows in flight, sent in frames of 500); a peer that
  runs further ahead is cut off, flagged, and refused for :data:`CUTOFF_COOLDOWN`.
* **Budget** (:class:`Budget`): rows and bytes a station may have stored per round
  (and per hour when a round runs longer, or before the first round). Rows past it
  are neither stored nor acknowledged: an honest station keeps them in its outbox
  (nothing is lost) and sends them when the next round renews the budget; the referee
  sees the station flagged on the dashboard meanwhile.
* **Handshake slots** (:class:`HandshakeSlots`): connections that have proved nothing
  yet share a fixed number of slots fairly per address; a newcomer never waits for a
  silent connection to time out, it takes the slot of the oldest connection of
  whichever address holds the most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from samoobsluha.shared.rounds import RoundPlan

# -- the window of unacknowledged rows -------------------------------------------------
# Twice what an honest station ever has in flight (station.sync: WINDOW 2,000 rows,
# BATCH 500 a frame, at most half a frame's 1 MiB of payload per frame).
MAX_UNACKED_ROWS = 5_000
MAX_UNACKED_BYTES = 16 << 20
# What the hub holds for a peer that does not read (acks, clock replies): past this the
# peer is cut off instead of the hub buffering for it.
MAX_SEND_BUFFER = 4 << 20
# Frames other than rows (status, clock requests, done): a station sends a few a second
# at most; a burst allowance and a steady rate, past which the peer is cut off.
FRAME_BURST = 300
FRAMES_PER_SECOND = 30.0
# A station cut off for breaking these limits is refused (after its hello) this long.
CUTOFF_COOLDOWN = 60.0


@dataclass(frozen=True)
class Budget:
    """Rows and bytes one station may have stored per period (a round).

    Derived from what a kiosk can produce (shared.checks): at most one check every 6 s
    and 150 a round per station; a refused attempt writes two rows (the refused check
    and its referee request) and takes a player at least a couple of seconds; results,
    appeals and bell signals are a few dozen a round. Over a 40-minute round with its
    overtime and the break after it (an hour), that is under one row a second: 3,600
    rows. The budget doubles it. Bytes: a real check row is ~0.5 KiB (the largest a
    station can make is ~20 KiB with every list full); 8 MiB a period is 2 KiB a row."""

    rows: int = 8_000
    bytes: int = 8 << 20
    period: float = 3600.0  # a round longer than this gets a new budget every period

    def exceeded_by(self, rows: int, size: int) -> bool:
        return rows > self.rows or size > self.bytes


BUDGET = Budget()


def budget_period(plans: Iterable[RoundPlan], now: float, length: float) -> tuple[Any, float]:
    """(key, start) of the budget period ``now`` falls in: from the start of the newest
    round that has started (not cancelled), one period of ``length`` seconds after
    another; before the first round, whole periods of wall time."""
    current: RoundPlan | None = None
    for plan in plans:
        if plan.cancelled or plan.start_at > now:
            continue
        if current is None or plan.start_at > current.start_at:
            current = plan
    if current is None:
        k = math.floor(now / length)
        return (0, k), k * length
    k = math.floor((now - current.start_at) / length)
    return (current.number, k), current.start_at + k * length


@dataclass
class Usage:
    """What a station has had stored in one budget period."""

    period: Any
    rows: int = 0
    bytes: int = 0
    refused: int = 0  # rows held back because the budget was full
    full_since: float | None = None  # hub time the budget ran out (a flag for the referee)


@dataclass
class Bucket:
    """A token bucket on the hub's monotonic clock: ``take()`` is False once a peer sends
    faster than ``rate`` a second beyond a burst of ``burst``."""

    rate: float
    burst: float
    tokens: float = -1.0
    at: float = 0.0

    def take(self, now: float) -> bool:
        if self.tokens < 0:
            self.tokens, self.at = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Slot:
    """One connection in its handshake: ``abort`` drops it when its slot is taken."""

    address: str
    opened: float
    transport: Any
    evicted: bool = False


@dataclass
class HandshakeSlots:
    """Connections that have proved nothing yet, ``total`` at most and ``per_address``
    per address. A newcomer is always given a slot: when its own address is at its cap,
    that address's oldest handshake is dropped; when all slots are held, the oldest of
    the address holding the most. A station sends its hello at once and is through in
    a millisecond; silent connections only ever push each other out."""

    total: int
    per_address: int
    by_address: dict[str, list[Slot]] = field(default_factory=dict)
    evicted: int = 0

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_address.values())

    def admit(self, address: str, transport: Any, now: float) -> tuple[Slot, Slot | None]:
        """A slot for a new connection, and the one it pushed out (already aborted)."""
        victim: Slot | None = None
        mine = self.by_address.get(address, [])
        if len(mine) >= self.per_address:
            victim = mine[0]
        elif len(self) >= self.total:
            fullest = max(self.by_address.values(), key=lambda s: (len(s), -s[0].opened))
            victim = fullest[0]
        if victim is not None:
            self.release(victim)
            victim.evicted = True
            self.evicted += 1
            victim.transport.abort()
        slot = Slot(address, now, transport)
        self.by_address.setdefault(address, []).append(slot)
        return slot, victim

    def release(self, slot: Slot) -> None:
        held = self.by_address.get(slot.address)
        if held is None or slot not in held:
            return
        held.remove(slot)
        if not held:
            del self.by_address[slot.address]


def frame_bytes(rows: list[Any]) -> int:
    """What a rows frame's rows weigh against the window and the budget: kind and
    payload text (the rest is a few numbers)."""
    return sum(len(r[1]) + len(r[2]) for r in rows)

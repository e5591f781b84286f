"""Hall rules the dashboard enforces, without a terminal or a database.

* :func:`stations_required` — ČAS 15.8e: with self-service checking there must be at least
  one computer per *started* 50 players.
* :func:`unjustified_penalties` — SSS [Námietky]: a player may make 2 unjustified word
  challenges in a game; every further one costs 20 points after the game.
* :func:`day_schedule` — a tournament day as the SSS championship timetable lays it out:
  9 rounds in 45-minute slots with 10-minute breaks, a lunch break and a refreshment
  break. Every figure is a parameter, so another organiser's day is a different call.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from samoobsluha.shared.i18n import Phrase

PLAYERS_PER_STATION = 50  # ČAS 15.8e
SSS_FREE_UNJUSTIFIED = 2  # SSS: "limited to 2" per player per game
SSS_PENALTY_POINTS = 20  # SSS: each further unjustified challenge


def stations_rule(rules: str) -> Phrase:
    """Where the one-per-started-50 rule comes from, for the event's rule set: ČAS 15.8e
    for Czech and Slovak events (SSS has no rule of its own for self-service), the hall's
    own rule for a Polish (PFS) event, whose rules know no self-service checking."""
    from samoobsluha.shared.i18n import Phrase

    return Phrase("rule.stations.cas" if rules in ("cas", "sss") else "rule.stations.hall")


def stations_required(players: int, per_station: int = PLAYERS_PER_STATION) -> int:
    """Computers needed for ``players`` checked-in players: one per *started* 50."""
    if players <= 0:
        return 0
    return math.ceil(players / per_station)


# -- SSS unjustified challenges -------------------------------------------------------------


@dataclass(frozen=True)
class Challenge:
    """One word challenge as far as sanctions go.

    ``justified``: the challenged play was ruled not valid (the challenge succeeded).
    ``challenger``: the player id who challenged, ``None`` while nobody has said who.
    """

    round_no: int
    table_no: int
    challenger: int | None
    justified: bool
    at: float = 0.0
    key: str = ""


@dataclass
class PlayerTally:
    """One player's unjustified challenges in one game, and what they cost."""

    round_no: int
    table_no: int
    player: int
    unjustified: int = 0
    keys: list[str] = field(default_factory=list)  # the challenges, oldest first

    def penalty(self, free: int = SSS_FREE_UNJUSTIFIED, points: int = SSS_PENALTY_POINTS) -> int:
        return points * max(0, self.unjustified - free)

    def penalised_keys(self, free: int = SSS_FREE_UNJUSTIFIED) -> list[str]:
        """The challenges that cost points (the third and later)."""
        return self.keys[free:]


def unjustified_penalties(challenges: Iterable[Challenge]) -> list[PlayerTally]:
    """Tally unjustified challenges per (round, table, challenger), in time order.

    Challenges without a known challenger cannot be counted against anybody; justified
    ones never count. Returns every player with at least one unjustified challenge,
    ordered by round, table, player.
    """
    tallies: dict[tuple[int, int, int], PlayerTally] = {}
    for ch in sorted(challenges, key=lambda c: (c.at, c.key)):
        if ch.justified or ch.challenger is None:
            continue
        k = (ch.round_no, ch.table_no, ch.challenger)
        tally = tallies.get(k)
        if tally is None:
            tally = tallies[k] = PlayerTally(ch.round_no, ch.table_no, ch.challenger)
        tally.unjustified += 1
        tally.keys.append(ch.key)
    return [tallies[k] for k in sorted(tallies)]


def penalties_by_player(tallies: Iterable[PlayerTally]) -> dict[int, int]:
    """Total SSS penalty points per player over all games."""
    out: dict[int, int] = defaultdict(int)
    for tally in tallies:
        if tally.penalty():
            out[tally.player] += tally.penalty()
    return dict(out)


# -- the day's timetable ----------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One entry of the day: a round (``round_no``) or a break (``round_no`` 0)."""

    round_no: int
    start: datetime
    end: datetime
    label: str = ""

    @property
    def is_round(self) -> bool:
        return self.round_no > 0


def day_schedule(
    first_start: datetime,
    *,
    rounds: int = 9,
    slot_minutes: int = 45,
    break_minutes: int = 10,
    lunch_after: int | None = 4,
    lunch_minutes: int = 60,
    refreshment_after: int | None = 7,
    refreshment_minutes: int = 20,
    first_round: int = 1,
) -> list[Slot]:
    """The day's rounds and breaks from ``first_start``.

    After round ``lunch_after`` comes the lunch break, after ``refreshment_after`` the
    refreshment break (``None``: none); between other rounds the ordinary break. A 45-minute
    slot holds the 40 minutes of basic time and the play-out.
    """
    if rounds < 1 or slot_minutes < 1 or break_minutes < 0:
        raise ValueError("a day has at least one round of positive length")
    out: list[Slot] = []
    at = first_start
    for i in range(rounds):
        number = first_round + i
        end = at + timedelta(minutes=slot_minutes)
        out.append(Slot(number, at, end))
        at = end
        if i == rounds - 1:
            break
        if lunch_after is not None and number == lunch_after:
            pause, label = lunch_minutes, "lunch"
        elif refreshment_after is not None and number == refreshment_after:
            pause, label = refreshment_minutes, "refreshment"
        else:
            pause, label = break_minutes, "break"
        if pause:
            out.append(Slot(0, at, at + timedelta(minutes=pause), label))
            at += timedelta(minutes=pause)
    return out


def today_at(text: str, now: float) -> float | None:
    """``HH:MM`` on the day of ``now`` (local time) as an instant; None if not a time."""
    try:
        hh, mm = (int(x) for x in text.split(":"))
        base = datetime.fromtimestamp(now)
        return base.replace(hour=hh, minute=mm, second=0, microsecond=0).timestamp()
    except ValueError:
        return None

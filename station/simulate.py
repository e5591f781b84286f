"""A simulated hall for the demo and for trying the hub without people: players walking up
to this station and checking words, and (optionally) the station's share of results
entered after each round ends.

It only writes the station's database through :class:`station.log.KioskStore`, exactly as
the kiosk does (check row + outbox row in one transaction); ``station daemon`` or
``station run`` (linked) running on the same database carries the rows to the hub.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.rounds import Phase, RoundPlan
from samoobsluha.station.log import KioskStore, Result, ResultLocked

# Plays a challenged player might have laid: real Czech words and near misses; the
# lexicon decides which is which.
PLAYS = (
    ("kůň",),
    ("koně", "ryba"),
    ("čáp",),
    ("strom",),
    ("stromi",),
    ("kočka", "les"),
    ("kočkaj",),
    ("voda",),
    ("vodař",),
    ("slovo",),
    ("hra", "pes"),
    ("deska",),
    ("kámen",),
    ("kamenný",),
    ("žolík",),
    ("rybník",),
    ("domeček",),
    ("dumy",),
    ("psovi",),
    ("koňa",),
    ("REC(I)E",),
    ("c+a-p",),
)


# The same for a Polish station (the Polish lexicon decides).
POLISH_PLAYS = (
    ("źdźbło",),
    ("koń", "ryba"),
    ("żółw",),
    ("drzewo",),
    ("drzewoa",),
    ("kot", "las"),
    ("kotx",),
    ("woda",),
    ("wodzianek",),
    ("słowo",),
    ("gra", "pies"),
    ("plansza",),
    ("kamień",),
    ("kamienny",),
    ("blank",),
    ("staw",),
    ("domek",),
    ("dumy",),
    ("psu",),
    ("konia",),
    ("RE(K)IN",),
    ("z+o-l+w",),
)


class Simulator:
    """One simulated station. ``index``/``of``: which share of the tables' results this
    station enters (tables with ``table % of == index``)."""

    def __init__(
        self,
        store: KioskStore,
        lexicon: Lexicon,
        *,
        seed: int = 1,
        index: int = 0,
        of: int = 1,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.lexicon = lexicon
        self.rng = random.Random(seed)
        self.index, self.of = index, max(1, of)
        self.now = now

    def _published(self) -> tuple[int, list[tuple[int, str, str]]] | None:
        """The pairings the hub published, as the sync stored them (``hub_items``)."""
        from samoobsluha.station.log import pairings_rows

        with self.store._lock:
            row = self.store.db.execute(
                "SELECT data FROM hub_items WHERE kind = 'pairings'"
            ).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return pairings_rows(data) if isinstance(data, dict) and "tables" in data else None

    def current_round(self) -> int | None:
        published = self._published()
        if published is not None:
            return published[0]
        return self.store.latest_pairing_round()

    def tables(self, round_no: int | None) -> list[tuple[int, str, str]]:
        """The round's tables with both players: (table, first, second)."""
        if round_no is None:
            return [(t, "", "") for t in range(1, 17)]
        published = self._published()
        if published is not None and published[0] == round_no:
            return [row for row in published[1] if row[2]]
        with self.store._lock:
            rows = self.store.db.execute(
                "SELECT table_no, first, second FROM pairings WHERE round_no = ?"
                " AND second != '' ORDER BY table_no",
                [round_no],
            ).fetchall()
        return [(int(t), str(a), str(b)) for t, a, b in rows]

    def check(self) -> dict[str, Any] | None:
        """One player checks one play; returns what was logged."""
        round_no = self.current_round()
        tables = self.tables(round_no)
        if not tables:
            return None
        table = self.rng.choice(tables)[0]
        play = self.rng.choice(POLISH_PLAYS if self.lexicon.info.language == "pl" else PLAYS)
        verdict = self.lexicon.judge(prepare_words(list(play), self.lexicon.alphabet))
        record = self.store.record_check(
            verdict, self.lexicon.info, table_no=table, round_no=round_no, at=self.now()
        )
        return {"table": table, "round": round_no, "words": list(play), "status": record.status}

    def round_plan(self, round_no: int) -> RoundPlan | None:
        with self.store._lock:
            row = self.store.db.execute(
                "SELECT plan FROM round_plans WHERE number = ? AND source = 'hub'"
                " ORDER BY applied_at DESC LIMIT 1",
                [round_no],
            ).fetchone()
        return RoundPlan.from_dict(json.loads(row[0])) if row else None

    def enter_results(self, hub_now: float) -> list[int]:
        """After the round's end signal, the players of this station's share of tables
        enter their result (random but plausible scores)."""
        round_no = self.current_round()
        if round_no is None:
            return []
        plan = self.round_plan(round_no)
        if plan is None or plan.status(hub_now).phase is not Phase.ENDED:
            return []
        entered = []
        for table, first, second in self.tables(round_no):
            if table % self.of != self.index or self.store.result(round_no, table):
                continue
            score_first, score_second = self.rng.randint(250, 520), self.rng.randint(250, 520)
            if score_first == score_second:
                score_first += 1
            try:
                self.store.store_result(
                    Result(round_no, table, score_first, score_second, "first", first, second),
                    at=self.now(),
                )
            except ResultLocked:
                continue
            entered.append(table)
        return entered

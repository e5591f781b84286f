"""The event the tests of the event's features share (``tests/`` is on pytest's path): the
11-player ČAS event an operator tried, four rounds with every kind of ruled result — a
forfeit at 250:180 (ruled 200:0), two kept-score forfeits, a double forfeit, a late entrant,
a temporary absence, a player who leaves, byes."""

from __future__ import annotations

import random

from samoobsluha.hub.tournament.facade import Tournament

NAMES = [
    "Adámek Petr",
    "Bílá Jana",
    "Cibulka Karel",
    "Čermák Ivo",
    "Dušková Eva",
    "Fiala Tomáš",
    "Havel Ota",
    "Chudá Iva",
    "Kos Jan",
    "Lína Věra",
    "Mráz Aleš",
]


def figures(table: list) -> list[tuple]:  # type: ignore[type-arg]
    return [
        (
            s.rank,
            s.player.name,
            s.wins,
            s.spread,
            s.points,
            round(s.turcas, 6),
            s.opp_wins,
            s.starts,
            s.seconds,
        )
        for s in table
    ]


def play_event(t: Tournament) -> dict[str, tuple[int, int]]:
    """Four rounds with every kind of ruled result; returns the forfeited tables."""
    rnd = random.Random(37)
    t.configure(name="Přebor", rules="cas", rounds=4)
    for name in NAMES:
        t.add_player(name)
    forfeits: dict[str, tuple[int, int]] = {}
    for r in range(1, 5):
        if r == 2:
            t.add_player("Zelený Pozdní")  # a late entrant: 12 players from round 2
        if r == 3:
            t.withdraw(3, temporary=True, who="HR")  # Cibulka misses round 3 (0:200)
        if r == 4:
            t.reinstate(3)
            t.withdraw(5)  # Dušková leaves for good: 11 again, a bye in round 4
        pairing = t.pair(r, seed=100 + r)
        for b in pairing.boards:
            if b.second is None:
                continue
            if r == 1 and b.table == 1:
                # forfeit by the second player at 250:180 for the first: ruled 200:0
                t.record_result(
                    r,
                    b.table,
                    b.first,
                    b.second,
                    250,
                    180,
                    b.first,
                    kind="forfeit",
                    forfeited=b.second,
                )
                forfeits["ruled"] = (r, b.table)
            elif r == 2 and b.table == 2:
                # forfeit at 480:300: better than 200:0 by TurČAS, the score is kept
                t.record_result(
                    r,
                    b.table,
                    b.first,
                    b.second,
                    480,
                    300,
                    b.first,
                    kind="forfeit",
                    forfeited=b.second,
                )
                forfeits["kept"] = (r, b.table)
            elif r == 3 and b.table == 1:
                # forfeit against the first player while he was ahead, 800:820 for the
                # innocent one: kept (TurČAS 745.7 > 743), a win though fewer points
                t.record_result(
                    r,
                    b.table,
                    b.first,
                    b.second,
                    820,
                    800,
                    b.first,
                    kind="forfeit",
                    forfeited=b.first,
                )
                forfeits["kept_behind"] = (r, b.table)
            elif r == 4 and b.table == 2:
                t.record_result(
                    r, b.table, b.first, b.second, None, None, b.first, kind="double_forfeit"
                )
                forfeits["double"] = (r, b.table)
            else:
                s1, s2 = rnd.randint(280, 520), rnd.randint(280, 520)
                t.record_result(r, b.table, b.first, b.second, s1, s2, b.first)
        t.publish(r)
    return forfeits

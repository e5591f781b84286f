"""How long a PFS pairing takes for Polish fields of 120–400 players.

Each field (ratings for most, a tenth unrated) is paired round 1 by rating, then plays
``--rounds`` rounds paired by the PFS rule set itself (random scores 250–560); then the next
round is paired ``--repeat`` times and the median time printed, with how many boards needed a
neighbouring swap and which method paired it ("neighbours" — the PFS search — or "swiss" if
the search handed the field to the matching). The baseline, measured in the same run, is the
weighted-matching Swiss (``swiss_method=matching``) on the same field.

    .venv/bin/python bench/pairing_pfs.py                 # 120, 200, 201, 400 players
    .venv/bin/python bench/pairing_pfs.py --sizes 200 --rounds 11
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.pairing import pair_round
from samoobsluha.hub.tournament.rules import PFS, get_rules


def history(n: int, rounds: int, seed: int) -> TournamentData:
    rnd = random.Random(seed)
    data = TournamentData()
    for i in range(1, n + 1):
        rating = 0 if i % 10 == 0 else rnd.randint(100, 200)
        data.players[i] = Player(i, f"Gracz {i:03d}", rating=rating)
    for r in range(1, rounds + 1):
        p = pair_round(data, PFS, r, seed=seed)
        for b in p.boards:
            if b.second is None:
                data.games.append(Game(r, b.first, None, kind=Kind.BYE))
                continue
            s1, s2 = rnd.randint(250, 560), rnd.randint(250, 560)
            data.games.append(Game(r, b.first, b.second, s1, s2 + (s1 == s2), first=b.first))
    return data


def timed(data: TournamentData, rules, round_no: int, repeat: int):  # type: ignore[no-untyped-def]
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = pair_round(data, rules, round_no, seed=1)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[120, 200, 201, 400])
    parser.add_argument("--rounds", type=int, default=6, help="rounds of history (default 6)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    matching = get_rules("pfs", {"swiss_method": "matching"})
    print(f"PFS pairing of round 1 and of round {args.rounds + 1} after {args.rounds} rounds")
    print("| players | round 1 (s) | next round (s) | method | swaps | matching Swiss (s) |")
    print("|--------:|------------:|---------------:|--------|------:|-------------------:|")
    for n in args.sizes:
        empty = history(n, 0, seed=n)
        first_s, _ = timed(empty, PFS, 1, args.repeat)
        data = history(n, args.rounds, seed=n)
        pfs_s, result = timed(data, PFS, args.rounds + 1, args.repeat)
        base_s, _ = timed(data, matching, args.rounds + 1, args.repeat)
        assert result is not None and result.rematches == 0
        swaps = sum(1 for b in result.boards if any(getattr(w, "key", "") == "pair.why.pfs_swap"
                                                    for w in b.why))  # fmt: skip
        print(f"| {n:7d} | {first_s:11.3f} | {pfs_s:14.3f} | {result.method:<6} | {swaps:5d} "
              f"| {base_s:18.3f} |")  # fmt: skip


if __name__ == "__main__":
    main()

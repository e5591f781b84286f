"""How long a Swiss pairing takes for 32, 100, 200 and 400 players.

Each field first plays a realistic mid-tournament history (``--rounds`` rounds paired by the
engine itself, random scores 250–560, a few forfeits), then the next round is paired
``--repeat`` times and the median time is printed. The baseline, measured in the same run,
is the same matching on the full candidate graph (every unmet pair, no K restriction) — the
"networkx on everything" approach; the ratio and whether both found the same total cost
show what the restriction buys and that it loses nothing.

    .venv/bin/python bench/pairing.py            # 32, 100, 200, 400; baseline up to 200
    .venv/bin/python bench/pairing.py --sizes 200 --baseline-max 400

A second table pairs rematch-forced rounds: 41 and 61 players who have played a whole round
robin (every pair has met, so every board is a rematch) or all but one or two rounds of it
(rematches likely unavoidable) — the late rounds of a long event. The target is ≤ 1 s for 61.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from samoobsluha.hub.tournament import pairing as pairing_mod
from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.pairing import pair_round
from samoobsluha.hub.tournament.rules import CAS


def history(n: int, rounds: int, seed: int) -> TournamentData:
    rnd = random.Random(seed)
    data = TournamentData()
    for i in range(1, n + 1):
        data.players[i] = Player(i, f"Player {i:03d}", rating=rnd.randint(800, 2000))
    for r in range(1, rounds + 1):
        p = pair_round(data, CAS, r, seed=seed)
        for b in p.boards:
            if b.second is None:
                data.games.append(Game(r, b.first, None, kind=Kind.BYE))
            elif rnd.random() < 0.01:
                data.games.append(Game(r, b.first, b.second, kind=Kind.FORFEIT, forfeited=b.second))
            else:
                s1, s2 = rnd.randint(250, 560), rnd.randint(250, 560)
                data.games.append(Game(r, b.first, b.second, s1, s2, first=b.first))
    return data


def round_robin_history(n: int, rounds: int, seed: int) -> TournamentData:
    """``rounds`` rounds of a round robin (circle method), random scores."""
    rnd = random.Random(seed)
    data = TournamentData()
    for i in range(1, n + 1):
        data.players[i] = Player(i, f"Player {i:03d}", rating=rnd.randint(800, 2000))
    slots: list[int | None] = [*range(1, n + 1), *([None] if n % 2 else [])]
    m = len(slots)
    for r in range(1, rounds + 1):
        k = (r - 1) % (m - 1)
        rest = slots[1:]
        rest = rest[-k:] + rest[:-k] if k else rest
        circle = [slots[0], *rest]
        for i in range(m // 2):
            a, b = circle[i], circle[m - 1 - i]
            if a is None or b is None:
                data.games.append(Game(r, a or b or 0, None, kind=Kind.BYE))
            else:
                s1, s2 = rnd.randint(250, 560), rnd.randint(250, 560)
                data.games.append(Game(r, a, b, s1, s2, first=a))
    return data


def timed(data: TournamentData, round_no: int, repeat: int) -> tuple[float, pairing_mod.Pairing]:
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = pair_round(data, CAS, round_no, seed=1)
        times.append(time.perf_counter() - start)
    assert result is not None
    return statistics.median(times), result


def total_cost(data: TournamentData, round_no: int, result: pairing_mod.Pairing) -> int:
    games = [g for g in data.games if g.round < round_no]
    ids = sorted(p.id for p in data.players.values())
    f = pairing_mod._field(data, CAS, ids, games)
    costs = pairing_mod._Costs(f)
    return sum(costs.cost(a, b) for a, b in result.pairs())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[32, 100, 200, 400])
    parser.add_argument("--rounds", type=int, default=6, help="rounds of history (default 6)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline-max", type=int, default=200, help="largest full-graph run")
    parser.add_argument(
        "--rematch-sizes", type=int, nargs="*", default=[41, 60, 61], help="rematch-forced fields"
    )
    args = parser.parse_args()
    print(f"Swiss pairing of round {args.rounds + 1} after {args.rounds} rounds (ČAS rules)")
    print(
        f"{'players':>7}  {'restricted s':>12}  {'K':>3}  {'full graph s':>12}  "
        f"{'speed-up':>8}  same cost"
    )
    for n in args.sizes:
        data = history(n, args.rounds, seed=n)
        round_no = args.rounds + 1
        fast, result = timed(data, round_no, args.repeat)
        line = f"{n:>7}  {fast:>12.3f}  {result.k:>3}"
        if n <= args.baseline_max:
            saved = pairing_mod.START_K
            pairing_mod.START_K = n
            try:
                full, full_result = timed(data, round_no, 1)
            finally:
                pairing_mod.START_K = saved
            same = total_cost(data, round_no, result) == total_cost(data, round_no, full_result)
            line += f"  {full:>12.3f}  {full / fast:>7.1f}×  {'yes' if same else 'NO'}"
        else:
            line += f"  {'—':>12}  {'—':>8}  —"
        print(line, flush=True)
    print()
    print("Rematch-forced rounds (after a whole or nearly whole round robin, ČAS rules)")
    print(f"{'players':>7}  {'history':>7}  {'seconds':>8}  {'rematches':>9}  graph")
    for n, done in ((41, 39), (41, 41), (60, 58), (61, 59), (61, 61), (200, 199)):
        if n not in args.rematch_sizes:
            continue
        data = round_robin_history(n, done, seed=n)
        took, result = timed(data, done + 1, args.repeat)
        graph = "complete" if result.k == n else f"K={result.k}"
        print(f"{n:>7}  {done:>7}  {took:>8.3f}  {result.rematches:>9}  {graph}", flush=True)


if __name__ == "__main__":
    main()

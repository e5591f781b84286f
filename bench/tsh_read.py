"""Reading hostile tsh files: a 10 MB single line must be refused in ≤ 5 s using ≤ 300 MB.

Each case runs in a fresh Python process (so its peak memory, ``ru_maxrss``, is its own):

* ``baseline``   — the interpreter with the hub's tsh module imported, nothing read;
* ``normal``     — a generated 400-player, 30-round file read and interpreted;
* ``one-line``   — a 10 MB file that is one line (no newline), refused;
* ``long-line``  — a valid first line, then a 10 MB line, refused at line 2.

It prints seconds and peak MB per case and the peak above the baseline.

    .venv/bin/python bench/tsh_read.py
    .venv/bin/python bench/tsh_read.py --megabytes 50
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
from samoobsluha.hub.tournament import tsh
path = sys.argv[1]
start = time.perf_counter()
outcome = "nothing read"
if path != "-":
    try:
        parsed = tsh.read(path)
        tsh.to_tournament(parsed)
        outcome = f"read {len(parsed.players)} players"
    except tsh.TshError as exc:
        outcome = "refused: " + exc.text("en")
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": took, "peak_mb": peak, "outcome": outcome}))
"""


def normal_file(path: Path, players: int = 400, rounds: int = 30) -> None:
    rnd = random.Random(1)
    opps = [[0] * rounds for _ in range(players)]
    for r in range(rounds):
        order = list(range(players))
        rnd.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=True):
            opps[a][r], opps[b][r] = b + 1, a + 1
    with path.open("w", encoding="utf-8") as out:
        for i in range(players):
            scores = " ".join(str(rnd.randint(250, 560)) for _ in range(rounds))
            p12 = " ".join("1" if opps[i][r] > i else "2" for r in range(rounds))
            name = f"Player {chr(65 + i % 26)}{i}"
            out.write(f"{name:<22} {1500:>5} {' '.join(map(str, opps[i]))}; {scores}; p12 {p12}\n")


def run(path: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, path], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=10, help="size of the long line")
    args = parser.parse_args()
    size = args.megabytes * 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        normal = folder / "normal.t"
        normal_file(normal)
        # Written in 1 MB pieces: a child's ru_maxrss starts at its parent's at fork time.
        one = folder / "one-line.t"
        with one.open("wb") as out:
            out.write(b"Adam 1500 ")
            for _ in range(size // (1 << 20)):
                out.write(b"1 " * (1 << 19))
        two = folder / "long-line.t"
        with two.open("wb") as out:
            out.write(b"Adam 1500 0; 50\n")
            for _ in range(size // (1 << 20)):
                out.write(b"x" * (1 << 20))
            out.write(b"\n")
        cases = [("baseline", "-"), ("normal", str(normal)), ("one-line", str(one))]
        cases.append(("long-line", str(two)))
        base = None
        print(f"{'case':<10} {'seconds':>8} {'peak MB':>8} {'above base':>10}  outcome")
        for name, path in cases:
            r = run(path)
            peak = float(r["peak_mb"])  # type: ignore[arg-type]
            base = peak if base is None else base
            print(
                f"{name:<10} {float(r['seconds']):>8.3f} {peak:>8.1f} {peak - base:>10.1f}"  # type: ignore[arg-type]
                f"  {str(r['outcome'])[:70]}"
            )


if __name__ == "__main__":
    main()

"""Lookup speed of the real lexicons side by side (Czech, Slovak, Polish), interleaved.

    .venv/bin/python bench/lexicon_languages.py cs.lex pl.lex [--repeat 7]

On a machine shared with other work a lookup figure swings by 3× from one run to the next,
so comparing two languages measured minutes apart says little. Here each repeat times every
lexicon once, in turn, on 100,000 hits (its own words) and 100,000 misses (one letter
changed); the best of the repeats is printed, with bytes per form and the ratio to the first
lexicon given.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from lexicon import hits_and_misses, per_lookup_us  # bench/lexicon.py: one timing loop

from samoobsluha.shared.lexicon import Lexicon


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lexicons", type=Path, nargs="+")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    cases = []
    for path in args.lexicons:
        lex = Lexicon.open(path)
        lex.wait_verified()
        words = list(lex.iter_words())
        hits, misses = hits_and_misses(words, sorted(lex.alphabet.letters), set(words))
        cases.append((path, lex, hits, misses, [float("inf"), float("inf")]))
    for _ in range(args.repeat):
        for _, lex, hits, misses, best in cases:
            best[0] = min(best[0], per_lookup_us(lex.contains, hits, repeat=1))
            best[1] = min(best[1], per_lookup_us(lex.contains, misses, repeat=1))
    base = cases[0]
    print("| lexicon | forms | bytes per form | hit (µs) | miss (µs) | hit, miss vs first |")
    print("|---|--:|--:|--:|--:|--:|")
    for path, lex, _, _, best in cases:
        per_form = path.stat().st_size / len(lex)
        ratio = f"{best[0] / base[4][0]:.2f}×, {best[1] / base[4][1]:.2f}×"
        print(f"| {lex.info.language} | {len(lex):,} | {per_form:.2f} | {best[0]:.2f} "
              f"| {best[1]:.2f} | {ratio} |")  # fmt: skip


if __name__ == "__main__":
    main()

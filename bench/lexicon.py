"""Lexicon benchmark: a real lexicon (Czech, or Polish with --lang pl) against a Python ``set``.

    .venv/bin/python bench/lexicon.py [--lang cs|sk|pl] [--lexicon FILE] [--skip-build]

Prints file size, open time, memory growth after open, lookup time for hits and misses,
and build time, each with its target and the ratio to the ``set`` baseline measured in
the same run. Memory is measured in fresh child processes (RSS from /proc), so one
measurement does not pollute the other.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import marisa_trie

from samoobsluha.shared.lexicon import Lexicon, build_from_hunspell
from samoobsluha.shared.paths import hunspell_prefix

CHILD = r"""
import sys, time
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096
def peak():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
kind, path, probe = sys.argv[1], sys.argv[2], sys.argv[3]
if kind == "lexicon":
    # Everything imported first: the figure is the lexicon's, not the imports'.
    from samoobsluha.shared.lexicon import Lexicon, Status
    from samoobsluha.shared.normalize import normalize_word
    import hashlib, marisa_trie, threading
    before, peak_before = rss(), peak()
    lex = Lexicon.open(path, verify="background")
    lex.wait_verified()
    assert lex.contains(probe)
    after = rss()
    print(after - before, max(0, peak() - peak_before))
    raise SystemExit
else:
    # What a station would hold with a plain set: the strings and the table.
    before = rss()
    with open(path, encoding="utf-8") as fh:
        s = {line.rstrip("\n") for line in fh}
    after = rss()
    assert probe in s
print(after - before)
"""


def child_growth(kind: str, path: Path, probe: str) -> list[int]:
    """RSS growth (and, for the lexicon, peak RSS growth) in a fresh interpreter that
    writes no bytecode, so the figure does not depend on caches."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path.resolve()), probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=tempfile.gettempdir(),
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    ).stdout
    return [int(v) for v in out.split()]


def per_lookup_us(fn, items: list[str], repeat: int = 5) -> float:
    """Microseconds per call of ``fn`` over ``items``, the best of ``repeat`` passes
    (bench/lexicon_languages.py interleaves single passes of several lexicons)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return best / len(items) * 1e6


def hits_and_misses(
    words: list[str], letters: list[str], known: set[str], n: int = 100_000
) -> tuple[list[str], list[str]]:
    """``n`` of the lexicon's own words and ``n`` forms one letter away that it does not
    hold, drawn with a fixed seed (the same probes every run)."""
    rng = random.Random(1)
    hits = rng.sample(words, n)
    misses: list[str] = []
    while len(misses) < n:
        w = rng.choice(words)
        i = rng.randrange(len(w))
        m = w[:i] + rng.choice(letters) + w[i + 1 :]
        if m not in known:
            misses.append(m)
    return hits, misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, help="use this lexicon instead of building one")
    parser.add_argument("--skip-build", action="store_true", help="do not time a build")
    parser.add_argument("--lang", default="cs", choices=("cs", "sk", "pl"), help="language")
    args = parser.parse_args()
    lang = args.lang

    tmp = Path(tempfile.mkdtemp(prefix="bench-lexicon-"))
    build_s = None
    path = args.lexicon
    if path is None or not args.skip_build:
        prefix = hunspell_prefix(lang)
        if prefix is None:
            print(f"hunspell-{lang} is not installed (./dev setup installs it)", file=sys.stderr)
            return 2
        out = tmp / f"{lang}.lex"
        start = time.perf_counter()
        build_from_hunspell(prefix, out, language=lang, variant="HUNSPELL")
        build_s = time.perf_counter() - start
        # The build is the first thing this process does: its peak is the build's.
        build_peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        path = path or out

    def median_ms(fn, n: int = 15) -> float:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - start)
            if isinstance(result, Lexicon):
                result.wait_verified()  # not timed: the next open must not compete with it
        return statistics.median(times) * 1000

    def open_background() -> Lexicon:
        return Lexicon.open(path, verify="background")  # the kiosk: hash checked in a thread

    open_ms = median_ms(open_background)
    open_now_ms = median_ms(lambda: Lexicon.open(path, verify="now"))
    lex = Lexicon.open(path)
    # Baseline: marisa's own load of the same trie (a raw trie file, memory-mapped).
    raw = tmp / "raw.marisa"
    lex._trie.save(str(raw))
    marisa_ms = median_ms(lambda: marisa_trie.Trie().mmap(str(raw)))
    verify_ms = median_ms(lambda: Lexicon.open(path, verify="background").wait_verified())

    words = list(lex.iter_words())
    wordfile = tmp / "words.txt"
    wordfile.write_text("\n".join(words), encoding="utf-8")
    start = time.perf_counter()
    baseline = set(words)
    set_build_s = time.perf_counter() - start

    hits, misses = hits_and_misses(words, sorted(lex.alphabet.letters), baseline)

    lex_hit = per_lookup_us(lex.contains, hits)
    lex_miss = per_lookup_us(lex.contains, misses)
    set_hit = per_lookup_us(baseline.__contains__, hits)
    set_miss = per_lookup_us(baseline.__contains__, misses)

    lex_mem, lex_peak = child_growth("lexicon", path, words[0])
    (set_mem,) = child_growth("set", wordfile, words[0])
    size = path.stat().st_size
    raw_size = wordfile.stat().st_size

    mb = 1024 * 1024
    rows = [
        ("words", f"{len(lex):,}", "", ""),
        ("file size", f"{size / mb:.1f} MB", "<= 8 MB", f"{size / raw_size:.2f} of plain text"),
        ("bytes per form", f"{size / len(lex):.2f} B", "", ""),
        (
            "open, hash in the background",
            f"{open_ms:.2f} ms",
            "<= 5 ms",
            f"{open_ms / marisa_ms:.1f}× marisa's own mmap load ({marisa_ms:.2f} ms)",
        ),
        ("open + hash checked (first lookup)", f"{verify_ms:.2f} ms", "", "off the UI thread"),
        ("open, hash checked before return", f"{open_now_ms:.2f} ms", "", "station check, hub"),
        (
            "memory growth after open",
            f"{lex_mem / mb:.1f} MB",
            "<= 1/10 of set",
            f"{lex_mem / set_mem:.3f} of set ({set_mem / mb:.0f} MB)",
        ),
        ("peak memory growth during open", f"{lex_peak / mb:.1f} MB", "no transient peak", ""),
        ("lookup, hit", f"{lex_hit:.2f} µs", "<= 5 µs", f"{lex_hit / set_hit:.1f}× set"),
        ("lookup, miss", f"{lex_miss:.2f} µs", "<= 5 µs", f"{lex_miss / set_miss:.1f}× set"),
        ("set: build from list", f"{set_build_s:.2f} s", "", "baseline"),
    ]
    if build_s is not None:
        rows.append(
            (
                f"build from hunspell-{lang}",
                f"{build_s:.1f} s",
                "<= 90 s",
                f"{build_s / set_build_s:.0f}× set",
            )
        )
        rows.append(("build: peak memory", f"{build_peak_mb:.0f} MB", "", "whole process"))
    width = max(len(r[0]) for r in rows)
    print(f"lexicon: {path}")
    for name, value, target, ratio in rows:
        print(f"{name:<{width}}  {value:>12}  {target:<16} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The referee PIN against an offline search: what one guess costs on this machine, and
how long the whole PIN space takes on one core (target: more than a day), beside the old
policy measured in the same run (4 characters, scrypt N=2**14, p=1).

    .venv/bin/python bench/pin.py [--runs 15] [--stations 30]

One guess is one scrypt derivation with the stored hash's parameters — exactly what an
attacker holding a copied card's station.db computes per candidate PIN (the digest
comparison is free). The per-guess figure is CPU time, and the *fastest* of ``--runs``: an
attacker's core is not shared with eight other processes, so the minimum is the honest
estimate of an uncontended core (the median is printed too). The worst case of the policy
is a PIN of ``PIN_MIN_LENGTH`` digits, 10**6 of them.

A Raspberry Pi verifies one PIN per F12: the expected Pi figure is the per-guess time
scaled by the Pi-to-this-machine ratio (``--pi-ratio``, default 3 to 4: docs/benchmarks.md
estimates a Pi 4 core at about a third of this machine's; scrypt's memory traffic costs a
Pi's LPDDR4 somewhat more) — an estimate to replace with a run on a real Pi.

Also: the time the hub (or the dashboard) takes to hash a new PIN for ``--stations``
stations, one salt each, on all cores (``shared.pin.hash_pin_for``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import statistics
import time

from samoobsluha.shared.pin import (
    MAX_MEMORY,
    PIN_MIN_LENGTH,
    SCRYPT_N,
    SCRYPT_P,
    SCRYPT_R,
    hash_pin_for,
    verify_pin,
)

OLD = {"n": 2**14, "r": 8, "p": 1, "length": 4}


def guesses(n: int, r: int, p: int, runs: int) -> list[float]:
    """CPU seconds of each derivation (``time.thread_time``: the time this thread ran, so
    the figure does not count the waits of a CPU shared with other processes — their cache
    and memory traffic still show)."""
    salt = secrets.token_bytes(16)
    times = []
    for i in range(runs):
        start = time.thread_time()
        hashlib.scrypt(
            f"{i:06d}".encode(), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=MAX_MEMORY + 2**20
        )
        times.append(time.thread_time() - start)
    return times


def duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 60:.1f} min"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--stations", type=int, default=30)
    parser.add_argument("--pi-ratio", type=float, nargs=2, default=(3.0, 4.0))
    args = parser.parse_args()

    old = guesses(OLD["n"], OLD["r"], OLD["p"], args.runs)
    new = guesses(SCRYPT_N, SCRYPT_R, SCRYPT_P, args.runs)
    old_best, new_best = min(old), min(new)
    old_space, new_space = 10 ** OLD["length"], 10**PIN_MIN_LENGTH
    print(f"cores: {os.cpu_count()}   load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"old policy  scrypt N=2**14 r=8 p=1, {OLD['length']} digits: one guess "
        f"{old_best * 1000:.1f} ms (median {statistics.median(old) * 1000:.1f}); "
        f"all {old_space:,} PINs {duration(old_space * old_best)} on one core"
    )
    print(
        f"new policy  scrypt N=2**{SCRYPT_N.bit_length() - 1} r={SCRYPT_R} p={SCRYPT_P} "
        f"({128 * SCRYPT_N * SCRYPT_R // 2**20} MiB), {PIN_MIN_LENGTH} digits: one guess "
        f"{new_best * 1000:.1f} ms (median {statistics.median(new) * 1000:.1f}); "
        f"all {new_space:,} PINs {duration(new_space * new_best)} on one core "
        f"({'more' if new_space * new_best > 86400 else 'LESS'} than a day)"
    )
    print(
        f"ratio  one guess {new_best / old_best:.1f}x the old; "
        f"whole space {new_space * new_best / (old_space * old_best):,.0f}x the old"
    )
    lo, hi = args.pi_ratio
    print(
        f"expected Raspberry Pi: one PIN check {new_best * lo:.2f}-{new_best * hi:.2f} s "
        f"(this machine x {lo:g}-{hi:g}; an estimate, not a Pi run)"
    )
    stored = hash_pin_for("86429753", ["x"])["x"]
    start = time.perf_counter()
    assert verify_pin("86429753", stored)
    print(f"verify_pin here (as the kiosk calls it): {(time.perf_counter() - start) * 1000:.1f} ms")
    names = [f"stul-{i:02d}" for i in range(1, args.stations + 1)]
    start = time.perf_counter()
    hashes = hash_pin_for("86429753", names)
    took = time.perf_counter() - start
    assert len(set(hashes.values())) == len(names)
    print(
        f"hub: a new PIN for {len(names)} stations (own salt each, {os.cpu_count()} cores): "
        f"{took:.2f} s = {took / new_best / len(names):.2f}x the serial cost"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

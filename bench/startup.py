"""Command start-up: ``station check WORD`` and ``station --help`` against a bare
``python -c pass`` measured in the same run (targets: check <= 0.12 s, --help <= 0.15 s,
both <= 3x the bare interpreter).

    .venv/bin/python bench/startup.py [--lexicon FILE] [--runs 15]

Warm figures: every process caches its bytecode under a temporary
``PYTHONPYCACHEPREFIX`` (primed by one unmeasured run of each command), as a provisioned
station has its bytecode compiled at install; nothing is written into the repository.
Also prints the slowest imports of ``station check`` (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STATION = Path(sys.executable).with_name("station")
REPO = Path(__file__).resolve().parents[1]


def install_kind(python: str = sys.executable) -> str:
    """ "editable" when ``python`` imports samoobsluha from this checkout (its finder hook
    and uncompiled tree cost start-up a card does not pay), else "installed"."""
    where = subprocess.run(
        [python, "-c", "import samoobsluha; print(samoobsluha.__path__[0])"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    editable = where and Path(where).resolve().is_relative_to(REPO)
    return "an editable install" if editable else "an install like a card's"


def timed(cmd: list[str], env: dict[str, str], runs: int) -> float:
    subprocess.run(cmd, env=env, capture_output=True, check=False)  # primes the bytecode
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def slowest_imports(cmd: list[str], env: dict[str, str], n: int = 8) -> list[tuple[int, str]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *cmd], env=env, capture_output=True, text=True
    )
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line.split("|"))
            if cumulative.isdigit() and not name.startswith(" "):
                rows.append((int(cumulative), name))
    return sorted(rows, reverse=True)[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        lexicon = ["--lexicon", str(args.lexicon.resolve())] if args.lexicon else []
        check = [str(STATION), "check", *lexicon, "kůň"]
        bare = timed([sys.executable, "-c", "pass"], env, args.runs)
        rows = [
            ("station check kůň", timed(check, env, args.runs), 0.12),
            ("station --help", timed([str(STATION), "--help"], env, args.runs), 0.15),
        ]
        if install_kind() == "an editable install":
            print(
                "NOTE: an editable install (this checkout): the targets are for a card's "
                "install, `python -m venv V && V/bin/pip install --compile .`, run by V/bin/python"
            )
        print(f"python -c pass (baseline): median {bare * 1000:.0f} ms")
        for name, value, target in rows:
            print(
                f"{name:<20} median {value * 1000:4.0f} ms  = {value / bare:.1f}x baseline "
                f"(target <= {target * 1000:.0f} ms and <= 3x)"
            )
        main_py = [
            "-c",
            "import sys; from samoobsluha.station.cli import main; sys.exit(main())",
            "check",
            *lexicon,
            "kůň",
        ]
        print("slowest imports of station check (cumulative, µs):")
        for micros, name in slowest_imports(main_py, env):
            print(f"  {micros:>8}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

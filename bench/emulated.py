"""Native against emulated aarch64: the same small benches run by this machine's Python
and by an arm64 Python under qemu-user, and the ratio between them.

    PY/bin/python bench/emulated.py --root ARM64_ROOT --python ARM64_PYTHON [--lexicon FILE]

``PY`` is the native side: run it with the Python whose figures you want beside the
emulated ones (a production-style ``pip install --compile .`` venv, or .venv).
``ARM64_ROOT`` is an arm64 Debian/Raspberry Pi OS root (debootstrap, the provisioning dry
run); ``ARM64_PYTHON`` a Python in it (or a venv made from it) that can import
``samoobsluha`` and its dependencies (marisa-trie, textual, sqlite-utils), given as a path
on this machine (a venv's ``python3`` link must be relative, not ``/usr/bin/python3``,
or it resolves to this machine's interpreter). Both sides cache their bytecode under a
temporary ``PYTHONPYCACHEPREFIX`` (primed by one unmeasured run), so the figures are warm,
as on a provisioned station; nothing is written into the repository.

Besides the command and in-process benches, both sides run the kiosk as bench/kiosk.py
does (``station run`` on an 80×24 pseudo-terminal): warm start → idle screen and
F10 → verdict (``--kiosk-starts``, ``--kiosk-runs``; ``--no-kiosk`` skips them). The
emulated kiosk gets ``--settle`` times longer pauses between keys so the form has settled
before F10 is timed; the timed interval itself is the same. It ends with the issue's four
targets, native and emulated.

**The ratios are emulation, not a Raspberry Pi**: qemu-user translates every aarch64
instruction on this machine's x86 cores, so a ratio says how much slower the same work is
under that translation (CPU-bound Python, C extensions, process start). It is an upper
bound-ish proxy for "a slower CPU", nothing more; a real Pi figure replaces it when one is
measured.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import kiosk  # bench/kiosk.py: the kiosk on a pseudo-terminal
from startup import timed  # bench/startup.py: a command's median wall time, primed

# One probe, run by both interpreters: in-process timings as JSON.
PROBE = r"""
import json, sys, time
lex_path = sys.argv[1]
out = {}
t0 = time.perf_counter()
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.normalize import normalize_word
out["import_lexicon_s"] = time.perf_counter() - t0
opens = []
for _ in range(7):
    t0 = time.perf_counter()
    lex = Lexicon.open(lex_path, verify="background")
    opens.append(time.perf_counter() - t0)
    lex.close() if hasattr(lex, "close") else None
opens.sort()
out["open_ms"] = opens[len(opens) // 2] * 1000
lex = Lexicon.open(lex_path)
words = [normalize_word(w, lex.alphabet) for w in ("kůň", "kočka", "nejkrásnější", "xyzq")] * 500
t0 = time.perf_counter()
for w in words:
    w in lex
out["lookup_us"] = (time.perf_counter() - t0) / len(words) * 1e6
t0 = time.perf_counter()
x = 0
for i in range(300_000):
    x += i * i % 7
out["python_loop_ms"] = (time.perf_counter() - t0) * 1000
t0 = time.perf_counter()
import textual.app, textual.widgets  # the kiosk's heaviest import
out["import_textual_s"] = time.perf_counter() - t0
# bench/kiosk.py's baseline: the judge and the durable SQLite commit of a check, no UI
import os, statistics
from samoobsluha.station.log import KioskStore
db = sys.argv[2]
for suffix in ("", "-wal", "-shm"):
    if os.path.exists(db + suffix):
        os.remove(db + suffix)
store = KioskStore.open(db, "bench")
plays = [["kočka", "pes"], ["xyzq"], ["dům", "les", "máma"], ["nejkrásnější"]]
commits = []
for i in range(20):
    words = [normalize_word(w, lex.alphabet) for w in plays[i % len(plays)]]
    t0 = time.perf_counter()
    verdict = lex.judge(words)
    store.record_check(verdict, lex.info, table_no=1, round_no=1, at=time.time())
    commits.append(time.perf_counter() - t0)
store.close()
out["judge_commit_ms"] = statistics.median(commits) * 1000
print(json.dumps(out))
"""

CHECK = "import sys; from samoobsluha.station.cli import main; sys.exit(main())"


def kiosk_figures(
    python: list[str],
    env: dict[str, str],
    lexicon: Path,
    folder: Path,
    args: argparse.Namespace,
    settle: float,
) -> dict[str, float]:
    """Warm start → idle and F10 → verdict of ``station run`` on a pseudo-terminal."""
    program = [*python, "-c", CHECK]
    timeout = 30 * settle
    prime = kiosk.Terminal(folder / "prime", lexicon, program=program, base_env=env)
    try:
        prime.wait_for(kiosk.IDLE_MARK, timeout=timeout)  # writes the bytecode
    finally:
        prime.close()
    starts = []
    for n in range(args.kiosk_starts):
        term = kiosk.Terminal(folder / f"start-{n}", lexicon, program=program, base_env=env)
        try:
            starts.append(term.wait_for(kiosk.IDLE_MARK, timeout=timeout) - term.started)
        finally:
            term.close()
    term = kiosk.Terminal(folder / "checks", lexicon, program=program, base_env=env)
    try:
        term.wait_for(kiosk.IDLE_MARK, timeout=timeout)
        term.drain(1.0 * settle)  # the lexicon's background hash check is done
        times = kiosk.confirm_to_verdict(term, args.kiosk_runs, settle=settle)
    finally:
        term.close()
    return {
        "kiosk_start_idle_s": statistics.median(starts),
        "f10_verdict_median_ms": statistics.median(times) * 1000,
        "f10_verdict_p90_ms": statistics.quantiles(times, n=10)[-1] * 1000,
    }


def side(python: list[str], env: dict[str, str], lexicon: Path, runs: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    figures["python_c_pass_s"] = timed([*python, "-c", "pass"], env, runs)
    check = [*python, "-c", CHECK, "check", "--lexicon", str(lexicon), "kůň"]
    figures["station_check_s"] = timed(check, env, runs)
    helps = [*python, "-c", CHECK, "--help"]
    figures["station_help_s"] = timed(helps, env, runs)
    probe = [*python, "-c", PROBE, str(lexicon), f"{env['PYTHONPYCACHEPREFIX']}-probe.db"]
    subprocess.run(probe, env=env, capture_output=True)
    done = subprocess.run(probe, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"probe failed: {done.stderr[-2000:]}")
    figures.update(json.loads(done.stdout.splitlines()[-1]))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="arm64 root (QEMU_LD_PREFIX)")
    parser.add_argument("--python", type=Path, required=True, help="arm64 Python to run")
    parser.add_argument("--lexicon", type=Path, help="lexicon file (default: the Czech one)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--qemu", default=shutil.which("qemu-aarch64-static") or "qemu-aarch64")
    parser.add_argument("--no-kiosk", dest="kiosk", action="store_false")
    parser.add_argument("--kiosk-starts", type=int, default=5)
    parser.add_argument("--kiosk-runs", type=int, default=20)
    parser.add_argument("--settle", type=float, default=4.0, help="emulated pauses x this")
    args = parser.parse_args()
    if args.lexicon is None:
        from samoobsluha.shared.lexicon import ensure_default_lexicon

        args.lexicon = ensure_default_lexicon("cs")
    lexicon = args.lexicon.resolve()
    with tempfile.TemporaryDirectory(prefix="bench-emulated-") as tmp:
        base = dict(os.environ)
        base.pop("PYTHONDONTWRITEBYTECODE", None)
        native_env = dict(base, PYTHONPYCACHEPREFIX=f"{tmp}/native")
        arm_env = dict(base, PYTHONPYCACHEPREFIX=f"{tmp}/arm64", QEMU_LD_PREFIX=str(args.root))
        arm = [args.qemu, "-L", str(args.root), str(args.python)]
        native = side([sys.executable], native_env, lexicon, args.runs)
        emulated = side(arm, arm_env, lexicon, args.runs)
        if args.kiosk:
            tmpdir = Path(tmp)
            native.update(
                kiosk_figures([sys.executable], native_env, lexicon, tmpdir / "kn", args, 1.0)
            )
            emulated.update(kiosk_figures(arm, arm_env, lexicon, tmpdir / "ka", args, args.settle))
    units = {"_s": ("s", 1.0), "_ms": ("ms", 1.0), "_us": ("µs", 1.0)}
    print(f"{'bench':<22}{'native':>12}{'emulated aarch64':>20}{'ratio':>9}")
    for key, value in native.items():
        unit = next(u for suffix, u in units.items() if key.endswith(suffix))
        scale = 1000.0 if unit[0] == "s" else 1.0
        shown = "ms" if unit[0] == "s" else unit[0]
        emu = emulated[key]
        print(
            f"{key:<22}{value * scale:>9.2f} {shown:<2}{emu * scale:>17.2f} {shown:<2}"
            f"{emu / value:>8.1f}x"
        )
    print("(emulated = qemu-user on this machine, not a Raspberry Pi)")
    heading = "the issue's targets"
    print(f"{heading:<40}{'native':>16}{'emulated':>16}")
    targets = [
        (
            "station check / python -c pass",
            3.0,
            "x",
            lambda f: f["station_check_s"] / f["python_c_pass_s"],
        ),
    ]
    if args.kiosk:
        targets += [
            ("kiosk start -> idle", 0.4, "s", lambda f: f["kiosk_start_idle_s"]),
            ("F10 -> verdict median", 20.0, "ms", lambda f: f["f10_verdict_median_ms"]),
            ("F10 -> verdict p90", 40.0, "ms", lambda f: f["f10_verdict_p90_ms"]),
        ]
    for name, target, unit, value in targets:
        row = [
            f"{value(figs):.2f} {unit} {'met' if value(figs) <= target else 'NOT'}"
            for figs in (native, emulated)
        ]
        print(f"  {name + f' (<= {target:g} {unit})':<38}{row[0]:>16}{row[1]:>16}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

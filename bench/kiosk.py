"""Kiosk speed, measured the way a player sees it: ``station run`` in a pseudo-terminal
(80×24), keys written to it, time until the screen's bytes come back.

    .venv/bin/python bench/kiosk.py [--lexicon FILE] [--runs 30] [--starts 5]
    PY=/tmp/card-venv/bin/python; $PY bench/kiosk.py --starts-only --starts 9 --busy \
        [--against /tmp/main-venv/bin/python]

* confirm → verdict: from writing F10 to reading the verdict screen's text (targets:
  median <= 20 ms, p90 <= 40 ms);
* start → idle: from spawning ``station run`` to reading the idle screen's instruction
  (targets: <= 0.3 s warm on a quiet machine, <= 0.4 s with the other core busy —
  ``--busy`` measures both, alternating: a CPU hog that the bench starts before each busy
  start and stops after it, bounded to 30 s whatever happens);
* ``--against PYTHON``: the same starts of another install's ``station`` (e.g. main's, in
  its own venv), alternating with this one's start for start, medians side by side;
* and ``station check kůň`` against ``python -c pass`` (target <= 3x; bench/startup.py
  says where its time goes) — the four figures are printed against their targets at the
  end, with the kind of install: the targets are for a card's, ``pip install --compile .``
  into a venv (not editable), whose Python runs this script.

Baselines from the same run: the bare judge + durable SQLite commit (no UI), and a bare
``python -c pass``; ratios are printed beside them. Without --lexicon the default Czech
lexicon is used (built once from hunspell-cs). Each run uses a fresh data directory in
the system's temporary folder (never the repository).

Bytecode: every process gets ``PYTHONPYCACHEPREFIX`` pointing into that temporary
folder and may write bytecode there (whatever ``PYTHONDONTWRITEBYTECODE`` says); one
priming start fills it, so the starts measured are *warm* (compiled bytecode for
everything, as on a provisioned station) and nothing is written into the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from startup import install_kind, timed  # noqa: E402  (bench/startup.py)

from samoobsluha.shared.lexicon import Lexicon, ensure_default_lexicon  # noqa: E402
from samoobsluha.shared.normalize import normalize_word  # noqa: E402
from samoobsluha.station.log import KioskStore  # noqa: E402

STATION = Path(sys.executable).with_name("station")
BYTECODE_ENV: dict[str, str] = {}  # os.environ with a bytecode cache prefix; set in main()


def bytecode_env(folder: Path) -> dict[str, str]:
    """The environment for measured processes: bytecode cached under ``folder``."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=str(folder / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


F10 = b"\x1b[21~"
PLAYS = [["kočka", "pes"], ["xyzq"], ["dům", "les", "máma"], ["nejkrásnější"]]
IDLE_MARK = b"Kontrola slov:"
VERDICT_MARK = b"Slova:"
FORM_MARK = "Počet slov".encode()


class Terminal:
    """``station run`` on a pseudo-terminal of 80×24."""

    def __init__(
        self,
        data: Path,
        lexicon: Path,
        size: tuple[int, int] = (80, 24),
        *,
        program: list[str] | None = None,
        base_env: dict[str, str] | None = None,
    ) -> None:
        """``program`` runs the station command (default: this venv's ``station``; an arm64
        Python under qemu-user in bench/emulated.py); ``base_env`` replaces BYTECODE_ENV."""
        self.master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(BYTECODE_ENV if base_env is None else base_env, TERM="xterm-256color")
        env["SAMOOBSLUHA_DATA"] = str(data)
        env["SAMOOBSLUHA_CONFIG"] = str(data / "station.toml")
        data.mkdir(parents=True, exist_ok=True)
        # no rate limits: the bench checks 30 times in a row on one table
        (data / "station.toml").write_text("[kiosk]\nmin_interval = 0\nstation_min_interval = 0\n")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [*(program or [str(STATION)]), "run", "--lexicon", str(lexicon)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.buffer = b""

    def wait_for(self, mark: bytes, timeout: float = 10.0) -> float:
        """Read until ``mark`` appears in new output; returns the perf_counter then."""
        deadline = time.perf_counter() + timeout
        while True:
            idx = self.buffer.find(mark)
            if idx >= 0:
                self.buffer = self.buffer[idx + len(mark) :]
                return time.perf_counter()
            left = deadline - time.perf_counter()
            if left <= 0:
                tail = self.buffer[-1500:].decode(errors="replace")
                raise TimeoutError(f"{mark!r} not seen; last output: {tail!r}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.buffer += os.read(self.master, 65536)

    def drain(self, seconds: float) -> None:
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                os.read(self.master, 65536)
        self.buffer = b""

    def send(self, data: bytes) -> float:
        now = time.perf_counter()
        os.write(self.master, data)
        return now

    def close(self) -> None:
        self.proc.kill()  # the kiosk has no quit key; the referee's PIN is not set here
        self.proc.wait()
        os.close(self.master)


def rss_mb(pid: int) -> float:
    """Resident set size of ``pid`` in MB (VmRSS from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def baseline_commit(lexicon: Lexicon, db: Path, runs: int) -> float:
    store = KioskStore.open(db, "bench")
    times = []
    for i in range(runs):
        words = [normalize_word(w, lexicon.alphabet) for w in PLAYS[i % len(PLAYS)]]
        t0 = time.perf_counter()
        verdict = lexicon.judge(words)
        store.record_check(verdict, lexicon.info, table_no=1, round_no=1, at=time.time())
        times.append(time.perf_counter() - t0)
    store.close()
    return statistics.median(times)


def confirm_to_verdict(term: Terminal, runs: int, settle: float = 1.0) -> list[float]:
    """F10 → verdict ``runs`` times; ``settle`` stretches the pauses between keys (a slower
    kiosk, e.g. under emulation, needs longer for the form to settle before F10)."""
    times = []
    for i in range(runs):
        play = PLAYS[i % len(PLAYS)]
        term.send(f"{1 + i % 30}\r".encode())
        term.wait_for(FORM_MARK, timeout=10 * settle)
        term.drain(0.1 * settle)  # the table's rate check runs in a worker
        term.send(f"{len(play)}\r".encode())
        term.drain(0.1 * settle)
        term.send("".join(f"{word}\r" for word in play).encode())  # typed as fast as can be
        term.drain(0.15 * settle)  # let the form settle: only the verdict is timed
        t0 = term.send(F10)
        try:
            times.append(term.wait_for(VERDICT_MARK, timeout=10 * settle) - t0)
        except TimeoutError:
            print(f"check {i} ({play}) gave no verdict", file=sys.stderr)
            raise
        term.drain(0.55 * settle)  # past the 0.5 s lock
        term.send(b"x")
        term.wait_for(IDLE_MARK, timeout=10 * settle)
        term.drain(0.05 * settle)
    return times


def station_check_ratio(lexicon: Path, runs: int) -> float:
    """``station check kůň`` over ``python -c pass``, medians of the same run (warm)."""
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        bare = timed([sys.executable, "-c", "pass"], env, runs)
        check = timed([str(STATION), "check", "--lexicon", str(lexicon), "kůň"], env, runs)
    return check / bare


HOG = "import time\nend = time.monotonic() + 30\nwhile time.monotonic() < end:\n    pass\n"


class BusyCore:
    """A CPU hog on another core for the length of a ``with`` block (at most 30 s: it
    ends by itself if the bench dies), pinned away from the kiosk's core when it can."""

    def __enter__(self) -> BusyCore:
        self.proc = subprocess.Popen([sys.executable, "-c", HOG])
        cores = sorted(os.sched_getaffinity(0))
        if len(cores) > 1:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.proc.pid, {cores[-1]})
        time.sleep(0.2)  # running flat out before the measured start
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.kill()
        self.proc.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time ``pid`` has used so far, all its threads (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main_thread_cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid``'s main thread alone (/proc/PID/task/PID/stat):
    the way to the first paint, without what threads started after it (the gong's
    outputs, the lexicon's hash, sqlite-utils) have done by the time this is read."""
    stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CPU_TO_IDLE: list[float] = []  # the kiosk's own CPU time to each idle screen measured
MAIN_CPU_TO_IDLE: list[float] = []  # the same, its main thread's alone


def start_to_idle(
    folder: Path, lexicon: Path, size: tuple[int, int], program: list[str] | None = None
) -> float:
    """Seconds from spawning the kiosk to its idle screen; its CPU time then goes to
    CPU_TO_IDLE (a figure other work on a shared machine moves far less than the wall
    clock's)."""
    term = Terminal(folder, lexicon, size, program=program)
    try:
        took = term.wait_for(IDLE_MARK) - term.started
        MAIN_CPU_TO_IDLE.append(main_thread_cpu_seconds(term.proc.pid))
        CPU_TO_IDLE.append(cpu_seconds(term.proc.pid))
        return took
    finally:
        term.close()


def starts_only(args: argparse.Namespace, lexicon_path: Path, size: tuple[int, int]) -> int:
    """start → idle only: this install (and ``--against``'s), quiet (and ``--busy``),
    every kind of start in turn, so that the machine's moods hit them alike."""
    kinds = [("this", None)]
    if args.against:
        kinds.append(("against", [str(Path(args.against).with_name("station"))]))
    loads = ["quiet", "busy"] if args.busy else ["quiet"]
    times: dict[tuple[str, str], list[float]] = {(k, load): [] for k, _ in kinds for load in loads}
    cpu: dict[str, list[float]] = {k: [] for k, _ in kinds}
    main_cpu: dict[str, list[float]] = {k: [] for k, _ in kinds}
    with tempfile.TemporaryDirectory(prefix="bench-kiosk-") as tmp:
        tmpdir = Path(tmp)
        BYTECODE_ENV.update(bytecode_env(tmpdir))
        for name, program in kinds:  # prime: compile the bytecode each one needs
            start_to_idle(tmpdir / f"prime-{name}", lexicon_path, size, program)
        for n in range(args.starts):
            for name, program in kinds:
                for load in loads:
                    # --restart: the station's database is there (a kiosk restarted
                    # after a power blip); else a fresh one, as at a card's first start
                    folder = tmpdir / (f"prime-{name}" if args.restart else f"{name}-{load}-{n}")
                    if load == "busy":
                        with BusyCore():
                            took = start_to_idle(folder, lexicon_path, size, program)
                    else:
                        took = start_to_idle(folder, lexicon_path, size, program)
                    times[(name, load)].append(took)
                    cpu[name].append(CPU_TO_IDLE[-1])
                    main_cpu[name].append(MAIN_CPU_TO_IDLE[-1])
    what = "restarts (database there)" if args.restart else "starts (fresh database)"
    print(f"start -> idle, {args.starts} warm {what} each, terminal {size[0]}x{size[1]}, "
          f"{install_kind()}; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    for (name, load), values in times.items():
        label = sys.executable if name == "this" else args.against
        target = 0.3 if load == "quiet" else 0.4
        med = statistics.median(values)
        verdict = "met" if med <= target else "NOT met"
        print(
            f"  {name:<7} {load:<5} median {med:.3f} s, min {min(values):.3f}, max "
            f"{max(values):.3f} (target <= {target} s: {verdict})  [{label}]"
        )
    for name, values in cpu.items():
        print(
            f"  {name:<7} CPU time to idle (the kiosk's own): "
            f"median {statistics.median(values):.3f} s, min {min(values):.3f}; its main "
            f"thread: median {statistics.median(main_cpu[name]):.3f} s, "
            f"min {min(main_cpu[name]):.3f}"
        )
    if args.against:
        ratio = statistics.median(cpu["this"]) / statistics.median(cpu["against"])
        print(f"  this / against, CPU time to idle: {ratio:.2f}")
        ratio = statistics.median(main_cpu["this"]) / statistics.median(main_cpu["against"])
        print(f"  this / against, main thread's CPU time to idle: {ratio:.2f}")
        for load in loads:
            ratio = statistics.median(times[("this", load)]) / statistics.median(
                times[("against", load)]
            )
            print(f"  this / against, {load}: {ratio:.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--check-runs", type=int, default=15, help="runs of station check")
    parser.add_argument("--size", default="80x24", help="terminal size COLSxROWS (e.g. 160x48)")
    parser.add_argument("--busy", action="store_true", help="also start with the other core busy")
    parser.add_argument("--against", metavar="PYTHON", help="another install's python, A/B")
    parser.add_argument("--starts-only", action="store_true", help="only start -> idle")
    parser.add_argument(
        "--restart", action="store_true", help="with --starts-only: the database is there"
    )
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    lexicon_path = (args.lexicon or ensure_default_lexicon("cs")).resolve()
    if args.starts_only or args.against:
        return starts_only(args, lexicon_path, (size[0], size[1]))
    lexicon = Lexicon.open(lexicon_path)
    print(f"lexicon: {lexicon}")
    with tempfile.TemporaryDirectory(prefix="bench-kiosk-") as tmp:
        tmpdir = Path(tmp)
        BYTECODE_ENV.update(bytecode_env(tmpdir))
        base = baseline_commit(lexicon, tmpdir / "baseline.db", args.runs)
        prime = Terminal(tmpdir / "prime", lexicon_path, size)  # writes the bytecode
        try:
            first = prime.wait_for(IDLE_MARK, timeout=60) - prime.started
        finally:
            prime.close()

        starts, bare, busy = [], [], []
        for n in range(args.starts):
            starts.append(start_to_idle(tmpdir / f"start-{n}", lexicon_path, size))
            if args.busy:
                with BusyCore():
                    busy.append(start_to_idle(tmpdir / f"busy-{n}", lexicon_path, size))
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True, env=BYTECODE_ENV)
            bare.append(time.perf_counter() - t0)

        term = Terminal(tmpdir / "checks", lexicon_path, size)
        try:
            term.wait_for(IDLE_MARK)
            term.drain(1.0)  # the lexicon's background hash check is done
            rss_idle = rss_mb(term.proc.pid)
            times = confirm_to_verdict(term, args.runs)
            rss_after = rss_mb(term.proc.pid)
        finally:
            term.close()

    print(f"terminal {size[0]}x{size[1]}")
    med = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    print(
        f"confirm (F10) -> verdict on the terminal: median {med * 1000:.1f} ms, "
        f"p90 {p90 * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
        f"over {len(times)} checks (targets: median <= 20 ms, p90 <= 40 ms)"
    )
    print(
        f"  baseline judge + durable SQLite commit, no UI: median {base * 1000:.2f} ms "
        f"(kiosk = {med / base:.0f}x baseline)"
    )
    med_start, med_bare = statistics.median(starts), statistics.median(bare)
    print(
        f"process start -> idle screen on the terminal: median {med_start:.2f} s, "
        f"max {max(starts):.2f} s over {len(starts)} warm starts (target <= 0.3 s)"
    )
    if busy:
        print(
            f"  with the other core busy: median {statistics.median(busy):.2f} s, max "
            f"{max(busy):.2f} s over {len(busy)} warm starts (target <= 0.4 s)"
        )
    print(
        f"resident memory (VmRSS) of the idle kiosk: {rss_idle:.1f} MB (target <= 60 MB); "
        f"after {len(times)} checks: {rss_after:.1f} MB"
    )
    print(f"  first start, compiling the bytecode it needs: {first:.2f} s")
    print(
        f"  baseline python -c pass: median {med_bare:.3f} s "
        f"(kiosk = {med_start / med_bare:.0f}x baseline)"
    )
    check_ratio = station_check_ratio(lexicon_path, args.check_runs)
    print(f"station check kůň: {check_ratio:.1f}x python -c pass (bench/startup.py: details)")
    print(f"against the targets ({install_kind()}):")
    for name, value, target, unit in (
        ("F10 -> verdict median", med * 1000, 20, "ms"),
        ("F10 -> verdict p90", p90 * 1000, 40, "ms"),
        ("start -> idle median", med_start, 0.3, "s"),
        *([("start -> idle, busy", statistics.median(busy), 0.4, "s")] if busy else []),
        ("station check / bare", check_ratio, 3, "x"),
    ):
        verdict = "met" if value <= target else "NOT met"
        print(f"  {name:<22} {value:7.2f} {unit} (target <= {target} {unit}): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``station run`` on a real pseudo-terminal (80×24) for the kiosk's real-process tests:
keys written as a typist would, the screen's bytes and the station's log read back."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import signal
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

STATION = Path(sys.executable).with_name("station")
F10 = "\x1b[21~"
KEY_GAP = 0.015  # the typist: one key every 15 ms
NO_LIMITS = "[kiosk]\nmin_interval = 0\nstation_min_interval = 0\nverdict_lock = 0\n"


class Kiosk:
    """``station run`` on a pty; everything it writes is collected by a thread."""

    def __init__(
        self,
        data: Path,
        lexicon: Path,
        cpus: set[int] | None = None,
        *,
        config: str = NO_LIMITS,
        args: tuple[str, ...] = (),
    ) -> None:
        import fcntl
        import termios

        data.mkdir(parents=True, exist_ok=True)
        (data / "station.toml").write_text(config)
        env = dict(
            os.environ,
            SAMOOBSLUHA_DATA=str(data),
            SAMOOBSLUHA_CONFIG=str(data / "station.toml"),
            TERM="xterm-256color",
        )
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.proc = subprocess.Popen(
            [str(STATION), "run", "--lexicon", str(lexicon), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        if cpus:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.proc.pid, cpus)
        self.db = data / "station.db"
        self.output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self.output += chunk

    def text(self, since: int = 0) -> str:
        with self._lock:
            return self.output[since:].decode(errors="replace")

    def mark(self) -> int:
        with self._lock:
            return len(self.output)

    def type(self, keys: list[str]) -> None:
        for key in keys:
            os.write(self.master, key.encode())
            time.sleep(KEY_GAP)

    def rows(self) -> list[tuple[int, list[str], str]]:
        if not self.db.exists():
            return []
        with contextlib.closing(sqlite3.connect(self.db, timeout=30)) as db:
            try:
                found = db.execute("SELECT table_no, words, status FROM challenges ORDER BY id")
                return [(int(t), json.loads(w), str(v)) for t, w, v in found]
            except sqlite3.OperationalError:  # not created yet
                return []

    def wait(self, what: str, cond: Callable[[], Any], timeout: float = 120.0) -> None:
        """Until ``cond()`` (generous: a busy machine is slow, never wrong)."""
        deadline = time.monotonic() + timeout
        while not cond():
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"the kiosk exited while waiting for {what}: {self.text()[-800:]}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(f"{what} never came; screen tail: {self.text()[-800:]!r}")
            time.sleep(0.02)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        os.close(self.master)


@contextlib.contextmanager
def busy_cpu(cpus: set[int] | None, count: int) -> Iterator[None]:
    """``count`` processes spinning on ``cpus``: the kiosk gets a share of one core."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        for proc in spinners:
            if cpus:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(proc.pid, cpus)
        yield
    finally:
        for proc in spinners:
            proc.kill()
            proc.wait()


def one_cpu() -> set[int] | None:
    try:
        return {min(os.sched_getaffinity(0))}
    except (AttributeError, OSError):
        return None

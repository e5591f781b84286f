"""One client flooding the hall screen with live pages (``/events``) that it never reads:

    python stream_flood.py PORT SOURCE COUNT SECONDS

``COUNT`` coroutines from the address ``SOURCE``, each opening a live page, holding it while
the hub keeps it, and opening another when refused or dropped (after 0.5 s, as the bench's
attacker). Prints ``flooding`` once the first stream is held, then a JSON line of counts.
Used by tests/net/test_net_projector.py and bench/hall_attacks.py (its ``streams`` and
``projector`` attacks: :func:`flood` is the one copy of the client), with
:class:`LiveStream` (a page's live stream as the projector reads it)."""

from __future__ import annotations

import asyncio
import json
import resource
import signal
import socket
import sys
import threading
import time


async def flood(port: int, source: str, count: int, seconds: float) -> dict[str, int]:
    opened = refused = 0
    stop = [time.monotonic() + seconds]  # SIGTERM ends it early (and it still reports)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: stop.__setitem__(0, 0.0))
    announced = False

    async def one() -> None:
        nonlocal opened, refused, announced
        while time.monotonic() < stop[0]:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0), limit=1 << 16
                )
                writer.write(b"GET /events HTTP/1.1\r\nHost: hub\r\n\r\n")
                line = await asyncio.wait_for(reader.readline(), 15)
            except (OSError, TimeoutError):
                await asyncio.sleep(0.5)
                continue
            if b" 200 " in line:
                opened += 1
                if not announced:
                    announced = True
                    print("flooding", flush=True)
                # never reads: holds the stream until the hub drops it
                while time.monotonic() < stop[0] and not reader.at_eof():
                    await asyncio.sleep(1.0)
            else:
                refused += 1
            writer.close()
            await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(count)))
    return {"streams_opened": opened, "refused": refused}


class LiveStream:
    """A page's ``/events`` stream read on a thread: every event with when it came."""

    def __init__(self, port: int, path: str, source: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), 10, (source, 0))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: hub\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        line = self.file.readline()
        if not line:  # closed at accept, before the request was read: as a reset
            self.sock.close()
            raise ConnectionResetError("closed without an answer")
        self.status = int(line.split()[1])
        self.events: list[tuple[float, str, str]] = []
        self.closed = False
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name = ""
        try:
            for raw in self.file:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    name = line[7:]
                elif line.startswith("data: "):
                    self.events.append((time.monotonic(), name, line[6:]))
        except OSError:
            pass
        self.closed = True

    def patches(self, key: str, after: float) -> list[float]:
        """When patches touching ``key`` arrived after ``after``."""
        return [at for at, name, data in self.events if name == "patch" and at > after
                and key in json.loads(data)]  # fmt: skip

    def close(self) -> None:
        self.sock.close()


def get(port: int, path: str, source: str) -> int:
    """A whole GET's status; 0 when the hub closed the connection without an answer."""
    try:
        with socket.create_connection(("127.0.0.1", port), 10, (source, 0)) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: hub\r\nConnection: close\r\n\r\n".encode())
            line = s.makefile("rb").readline()
    except OSError:
        return 0
    return int(line.split()[1]) if line else 0


def main() -> None:
    port, source, count, seconds = sys.argv[1:5]
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000), hard))
    out = asyncio.run(flood(int(port), source, int(count), float(seconds)))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()

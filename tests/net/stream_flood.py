"""One client flooding the hall screen with live pages (``/events``) that it never reads:

    python stream_flood.py PORT SOURCE COUNT SECONDS

``COUNT`` coroutines from the address ``SOURCE``, each opening a live page, holding it while
the hub keeps it, and opening another when refused or dropped (after 0.5 s, as the bench's
attacker). Prints ``flooding`` once the first stream is held, then a JSON line of counts.
Used by tests/net/test_net_projector.py and bench/hall_attacks.py."""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time


async def flood(port: int, source: str, count: int, seconds: float) -> dict[str, int]:
    opened = refused = 0
    stop = time.monotonic() + seconds
    announced = False

    async def one() -> None:
        nonlocal opened, refused, announced
        while time.monotonic() < stop:
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
                while time.monotonic() < stop and not reader.at_eof():
                    await asyncio.sleep(1.0)
            else:
                refused += 1
            writer.close()
            await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(count)))
    return {"streams_opened": opened, "refused": refused}


def main() -> None:
    port, source, count, seconds = sys.argv[1:5]
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20000), hard))
    out = asyncio.run(flood(int(port), source, int(count), float(seconds)))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()

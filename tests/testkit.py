"""Small helpers the tests of several areas share (``tests/`` is on pytest's path)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any


async def until(cond: Callable[[], Any], timeout: float = 20.0) -> None:
    """Wait (in the running loop) until ``cond()`` is true; fail after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])

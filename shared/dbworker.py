"""One SQLite connection on its own thread, for asyncio code.

A commit with ``synchronous=FULL`` waits for the disk (milliseconds on an SD card); the
network loops must not stall meanwhile, or clock-sync replies and gong timers go late.
:class:`DbWorker` opens the database on a dedicated thread and runs every call there, one
at a time, so the connection is never shared between threads.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from samoobsluha.shared.storage import Database, open_db

if TYPE_CHECKING:
    from samoobsluha.shared.storage import MigrationsLike

T = TypeVar("T")


class DbWorker:
    def __init__(self, path: Path | str, *migration_sets: MigrationsLike) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        self.db: Database = self._pool.submit(open_db, path, *migration_sets).result()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(db, *args)`` on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, self.db, *args)

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(db, *args)`` on the database thread and wait (for non-async callers)."""
        return self._pool.submit(fn, self.db, *args).result()

    def close(self) -> None:
        try:
            self._pool.submit(self.db.close).result()
        finally:
            self._pool.shutdown(wait=True)

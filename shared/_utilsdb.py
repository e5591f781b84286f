"""The sqlite-utils :class:`Database` this project opens (``shared.storage.Database``).

Kept apart from shared/storage.py so that importing the opener does not import
sqlite-utils (a sixth of the kiosk's CPU time to its idle screen): this module is
imported at the first mention of ``storage.Database`` or when a migration is applied.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import sqlite_utils


class Database(sqlite_utils.Database):
    """sqlite-utils' Database whose outermost ``atomic()`` block takes the write lock at
    its start (``BEGIN IMMEDIATE``). A deferred transaction that reads and then writes
    fails at once with "database is locked" when another connection wrote in between,
    without waiting; an immediate one waits its turn (``busy_timeout``) instead. Every
    writer here — kiosk, gong, sync, hub — shares files with another thread or process."""

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        if self.conn.in_transaction:
            with super().atomic():
                yield self
            return
        from samoobsluha.shared.storage import immediate

        with immediate(self.conn):
            yield self

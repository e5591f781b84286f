"""'Too many open files' reaches the hub's log at most once a minute.

When a process runs out of descriptors, the event loop retries accept() every second on
every listening socket and logs each failure, and whatever else fails to open a file logs
too: an audit saw 557k such lines (2.9 MB/s) in the journal. The hall screen keeps to its
share of descriptors (:mod:`hub.web.limits`), so this should not happen; if it does anyway,
the journal gets one line a minute saying how many were held back.
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable

_DESCRIPTOR_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


class DescriptorErrorThrottle(logging.Filter):
    """Lets through one "out of descriptors" record per ``every`` seconds, with the count
    held back: the event loop retries accept() every second per listening socket, and
    aiohttp and others may log the same errno once per failed operation."""

    def __init__(self, every: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__("descriptor-errors")
        self.every = every
        self.clock = clock
        self.last: float | None = None
        self.held = 0

    @staticmethod
    def concerns(record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, OSError) and exc.errno in _DESCRIPTOR_ERRNOS:
            return True
        text = record.getMessage()
        return "Too many open files" in text or "out of system resource" in text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.concerns(record):
            return True
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            self.held += 1
            return False
        if self.held:
            record.msg = f"{record.msg} ({self.held} more like it in the last minute)"
        self.last, self.held = now, 0
        record.exc_info = None  # the message says it all; no traceback per minute
        record.exc_text = None
        return True


_THROTTLE = DescriptorErrorThrottle()
THROTTLED_LOGGERS = ("asyncio", "aiohttp.server", "aiohttp.access", "hub.web", "hub.server")


def throttle_descriptor_errors() -> DescriptorErrorThrottle:
    """Install the one :class:`DescriptorErrorThrottle` on the loggers that report accept
    and socket errors (idempotent)."""
    for name in THROTTLED_LOGGERS:
        logger = logging.getLogger(name)
        if _THROTTLE not in logger.filters:
            logger.addFilter(_THROTTLE)
    return _THROTTLE

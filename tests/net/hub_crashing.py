"""``hub`` with one fault injected, for the crash tests (tests/net/test_net_crash.py).

    python tests/net/hub_crashing.py ROWS serve --host …

runs ``hub serve …`` in this process with :data:`hub.store.before_commit` set so that the
process SIGKILLs itself inside the ingest transaction once ROWS rows have been inserted
since it started: rows written to the database file, not committed. The seam is a module
attribute the hall never sets, so the ingest path reads no environment and no setting."""

from __future__ import annotations

import os
import signal
import sys

from samoobsluha.hub import store
from samoobsluha.hub.cli import main


def _kill_after(limit: int) -> None:
    inserted = 0

    def before_commit(rows: int) -> None:
        nonlocal inserted
        inserted += rows
        if inserted >= limit:
            os.kill(os.getpid(), signal.SIGKILL)

    store.before_commit = before_commit


if __name__ == "__main__":
    _kill_after(int(sys.argv[1]))
    sys.exit(main(sys.argv[2:]))

"""What a station pays for judging only with its hub's lexicon and for counting its
confirmed rows (docs/benchmarks.md):

* ``decide``: reading ``FILE.sig`` and one Ed25519 verification against the pinned key
  (shared/lextrust.py), for the real Czech lexicon, best and median of ``--runs``; and
  importing ``nacl.signing`` in a fresh interpreter (a linked kiosk has it already: its
  link verifies the hub with it);
* the confirmed-rows counter (station/log.py): one 57-byte record overwritten in place
  and fsynced, in the data folder's file system (``--folder``, default a temporary
  folder), best and median of ``--runs``. It runs on its own thread after each commit,
  not on the way to the verdict.

    .venv/bin/python bench/lextrust.py [--runs 200] [--folder DIR]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from samoobsluha.shared.lexicon import ensure_default_lexicon, read_info
from samoobsluha.shared.lextrust import Trust, decide, sign_lexicon
from samoobsluha.shared.protocol import HallKeys, new_psk
from samoobsluha.station.log import ConfirmedCounter


def _ms(samples: list[float]) -> str:
    return f"best {min(samples) * 1e3:.3f} ms, median {statistics.median(samples) * 1e3:.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(dir=args.folder))
    try:
        lexicon = folder / "cs.lex"
        shutil.copyfile(ensure_default_lexicon("cs"), lexicon)
        keys = HallKeys(new_psk())
        sign_lexicon(lexicon, keys)
        info = read_info(lexicon)
        samples = []
        for _ in range(args.runs):
            started = time.perf_counter()
            trust = decide(info, lexicon, keys.public_key)
            samples.append(time.perf_counter() - started)
            assert trust is Trust.HUB
        print(f"decide (signature file + Ed25519 verify), {info.words} words: {_ms(samples)}")
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import nacl.signing"],
            capture_output=True,
            text=True,
            check=True,
        ).stderr.splitlines()[-1]
        print(f"import nacl.signing, cumulative: {int(out.split('|')[1]) / 1000:.1f} ms")
        counter = ConfirmedCounter(folder / "station.db.confirmed")
        samples = []
        for n in range(args.runs):
            started = time.perf_counter()
            counter.write(n + 1, 0)
            samples.append(time.perf_counter() - started)
        counter.close()
        print(f"confirmed-rows counter, write + fsync in {folder}: {_ms(samples)}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

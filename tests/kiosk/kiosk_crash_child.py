"""Child process for test_kiosk_crash: a real kiosk (headless) that performs one check
and prints PAINTED the moment the verdict screen is painted, then waits to be killed."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from samoobsluha.shared.checks import KioskSettings
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.station.log import KioskStore


async def main(lexicon: Path, db: Path) -> None:
    app = KioskApp(
        lexicon=Lexicon.open(lexicon),
        store=KioskStore.open(db, "crash-station"),
        settings=KioskSettings(min_interval=0),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("4", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("1", "enter", "p", "e", "s", "enter")
        await pilot.press("f10")
        while app.verdict_painted_at is None:
            await asyncio.sleep(0.001)
        print("PAINTED", flush=True)
        await asyncio.sleep(60)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))

"""The kiosk linked to the hub in one process: the Textual kiosk, the hub sync, the hub
clock and the gong share one asyncio loop.

This is ``station daemon`` with the kiosk's screen on top: the kiosk's round clock reads
the round schedule on the **hub clock**, its hub indicator follows the link, pairings the
hub publishes become the kiosk's "where do I play?" and result-entry pairings, and every
signal rings on the bell (mock GPIO on a laptop: the audio or terminal bell).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from samoobsluha.station import config as station_config

log = logging.getLogger("station.linked")


def pairings_rows(data: dict[str, Any]) -> tuple[int, list[tuple[int, str, str]]]:
    """The hub's published pairings (``hub.tournament.exports.station_json``) as the
    kiosk stores them: (round, [(table, first player, second player or "")])."""
    rows = []
    for table in data.get("tables") or []:
        second = table.get("second") or {}
        rows.append((int(table["table"]), str(table["first"]["name"]), str(second.get("name", ""))))
    return int(data["round"]), rows


def run_linked(args: argparse.Namespace) -> int:
    from samoobsluha.station.commands.run import build_app
    from samoobsluha.station.gong import GongConfig, build_gong
    from samoobsluha.station.hardware import guard_outputs
    from samoobsluha.station.rounds import RoundSchedule, SignalRunner
    from samoobsluha.station.sync import NetworkConfig, StationSync, load_item

    cfg = station_config.load(args.config)
    net = NetworkConfig.from_config(cfg)
    if args.hub:
        net.hub = args.hub
    net.station_id = net.station_id or cfg.name
    gong_cfg = GongConfig.from_station(cfg)
    psk = net.psk()
    db_path = station_config.station_db_path()
    if args.log:
        logging.basicConfig(
            level=logging.INFO,
            filename=args.log,
            format=f"%(asctime)s {cfg.name} %(name)s %(levelname)s %(message)s",
        )

    async def main() -> int:
        sync = StationSync(
            db_path,
            net,
            psk=psk,
            lexicon_path=cfg.lexicon,
            station_name=cfg.name,
        )
        schedule = RoundSchedule.open(
            db_path,
            clock=sync.clock,
            tournament=net.tournament_id,
            grace=gong_cfg.grace,
            playout_display=gong_cfg.playout_display_minutes * 60,
        )
        outputs_ref: list[Any] = []
        app = build_app(
            args,
            round_status=lambda: schedule.status(sync.clock.now()),
            hub_status=lambda: sync.status.connected,
            gong_test=lambda: outputs_ref[0].ring("start") if outputs_ref else None,
        )
        app.clock = sync.clock  # checks and results are stamped in hub time

        def show(kind: str, data: Any) -> None:
            if kind == "pairings" and isinstance(data, dict) and "tables" in data:
                round_no, rows = pairings_rows(data)
                app.store.replace_pairings(round_no, rows, at=sync.clock.now())

        last = sync.dbw.call(load_item, "pairings")
        if last:
            show("pairings", last)
        loop = asyncio.get_running_loop()
        with build_gong(gong_cfg, clock=sync.clock, with_button=False) as outputs:
            outputs_ref.append(outputs)
            runner = SignalRunner(schedule, sync.clock, outputs, on_fired=lambda f: sync.nudge())
            sync.on("plan", schedule.apply)
            sync.on("show", show)
            manual: set[asyncio.Task[None]] = set()

            def gong_now(name: str, at: float) -> None:
                async def ring_at() -> None:
                    await asyncio.sleep(max(0.0, at - sync.clock.now()))
                    await outputs.ring(name)

                task = loop.create_task(ring_at())
                manual.add(task)
                task.add_done_callback(manual.discard)

            sync.on("gong", gong_now)
            from samoobsluha.station import rehearse
            from samoobsluha.station.screens.rehearse import ask

            rehearsal = rehearse.attach(
                sync, outputs, cfg, db_path, keyboard=lambda text, wait: ask(app, text, wait)
            )
            tasks = [asyncio.create_task(sync.run()), asyncio.create_task(runner.run())]
            try:
                code = await app.run_async(headless=args.headless)
            finally:
                sync.stop()
                runner.stop()
                for task in [*tasks, *manual]:
                    task.cancel()
                await asyncio.gather(*tasks, *manual, return_exceptions=True)
                rehearsal.close()
                app.store.close()
        schedule.close()
        sync.close()
        return int(code or 0)

    guard_outputs()
    # The bell must not wait for the UI thread to hand over the GIL (as station run).
    sys.setswitchinterval(0.001)
    return asyncio.run(main())

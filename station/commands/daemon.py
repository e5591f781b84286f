"""``station daemon``: the station without its screen: hub sync, hub clock and gongs.

Runs :class:`station.sync.StationSync` (outbox → hub, plans ← hub, the hub clock) and
the gong's :class:`station.rounds.SignalRunner` on that clock, so every signal rings at
its instant in **hub time**; the lamp blinks until the clock is synced; a "gong now"
from the hub rings at the instant the hub chose. Used on stations without a kiosk, by
the multi-process tests, the benchmark and the demo; the kiosk runs the same pieces in
its own event loop.

Each ring is also printed on stdout as one JSON line (``{"event": "ring", ...}`` with
the local and hub time of the first stroke), which is how the tests measure the spread.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.station import config as station_config
from samoobsluha.station.config import ConfigError


class ObservedGong:
    """Wraps the station's outputs: notes the instant of every first stroke."""

    def __init__(self, outputs: Any, sync: Any) -> None:
        self.outputs = outputs
        self.sync = sync

    async def ring(self, name: str) -> None:
        clock = self.sync.clock
        hub, local = clock.now(), clock.local.now()
        task = asyncio.ensure_future(self.outputs.ring(name))
        event = {"signal": name, "hub_time": hub, "local_time": local, "synced": clock.synced}
        self.sync.note_signal(event)
        print(json.dumps({"event": "ring", **event}), flush=True)
        await task


def _daemon(args: argparse.Namespace) -> int:
    from samoobsluha.station.gong import GongConfig, build_gong
    from samoobsluha.station.hardware import HardwareError, guard_outputs
    from samoobsluha.station.rounds import RoundSchedule, SignalRunner
    from samoobsluha.station.sync import NetworkConfig, SkewedClock, StationSync

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format=f"%(asctime)s {args.station_id or 'station'} %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        cfg = station_config.load(args.config)
        net = NetworkConfig.from_config(cfg)
        gong_cfg = GongConfig.from_station(cfg)
        if args.hub:
            net.hub = args.hub
        if args.tournament:
            net.tournament_id = args.tournament
        if args.psk_file:
            net.psk_file = Path(args.psk_file)
        if args.mdns_interface:
            net.mdns_interfaces = [args.mdns_interface]
        if args.station_id:
            net.station_id = args.station_id
        psk = net.psk()
    except ConfigError as exc:
        print(f"station daemon: {exc}", file=sys.stderr)
        return 2
    if not net.tournament_id:
        print("station daemon: no tournament id ([network] tournament_id)", file=sys.stderr)
        return 2

    local: Clock = SkewedClock(args.clock_skew) if args.clock_skew else SystemClock()

    async def main() -> None:
        sync = StationSync(
            station_config.station_db_path(),
            net,
            psk=psk,
            local_clock=local,
            lexicon_path=cfg.lexicon,
            station_name=cfg.name,
        )
        schedule = RoundSchedule.open(
            station_config.station_db_path(),
            clock=sync.clock,
            tournament=net.tournament_id,
            grace=gong_cfg.grace,
            playout_display=gong_cfg.playout_display_minutes * 60,
        )
        loop = asyncio.get_running_loop()
        with build_gong(gong_cfg, clock=sync.clock, with_button=False) as outputs:
            gong = ObservedGong(outputs, sync)
            runner = SignalRunner(schedule, sync.clock, gong, on_fired=lambda f: sync.nudge())
            if outputs.lamp is not None:
                outputs.lamp.show(synced=False)  # blinking until the hub clock is known
                sync.on("clock", lambda st, lamp=outputs.lamp: lamp.show(synced=st.clock_synced))
            sync.on("plan", schedule.apply)
            manual: set[asyncio.Task[None]] = set()

            def gong_now(name: str, at: float) -> None:
                async def ring_at() -> None:
                    delay = at - sync.clock.now()
                    if delay < -gong_cfg.grace:
                        logging.getLogger("station.daemon").warning("gong %s too late", name)
                        return
                    await asyncio.sleep(max(0.0, delay))
                    await gong.ring(name)

                task = loop.create_task(ring_at())
                manual.add(task)
                task.add_done_callback(manual.discard)

            sync.on("gong", gong_now)
            from samoobsluha.station import rehearse

            rehearsal = rehearse.attach(sync, outputs, cfg, station_config.station_db_path())
            stop = asyncio.Event()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            tasks = [asyncio.create_task(sync.run())]

            # A networked station rings only on the hub's clock: after a reboot its own
            # clock may be minutes off, and a gong at the wrong time confuses the hall.
            def start_runner(status: Any) -> None:
                if status.clock_synced and len(tasks) == 1:
                    tasks.append(loop.create_task(runner.run()))

            sync.on("clock", start_runner)
            logging.getLogger("station.daemon").info("signals wait for the hub clock")
            await stop.wait()
            sync.stop()
            runner.stop()
            for task in [*tasks, *manual]:
                task.cancel()
            await asyncio.gather(*tasks, *manual, return_exceptions=True)
            rehearsal.close()
        schedule.close()
        sync.close()

    try:
        guard_outputs()
        asyncio.run(main())
    except HardwareError as exc:
        print(f"station daemon: {exc}", file=sys.stderr)
        return 3
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser(
        "daemon",
        help="run hub sync, the hub clock and the gongs without the kiosk screen",
        description=(
            "Headless station: finds the hub of its tournament (mDNS or [network] hub), "
            "sends the outbox, follows the hub clock and rings the round signals."
        ),
    )
    d.add_argument("--config", metavar="FILE", help="station.toml")
    d.add_argument("--hub", metavar="HOST:PORT", help="hub address (skip mDNS)")
    d.add_argument("--tournament", help="tournament id (overrides [network] tournament_id)")
    d.add_argument("--psk-file", metavar="FILE", help="tournament key file")
    d.add_argument("--station-id", help="station id (default: host name)")
    d.add_argument("--mdns-interface", metavar="IP", help="browse mDNS only on this address")
    d.add_argument(
        "--clock-skew",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="pretend the local clock is off by this much (tests and demos)",
    )
    d.add_argument("-v", "--verbose", action="store_true")
    d.set_defaults(func=_daemon)

"""``station daemon``: the station without its screen: hub sync, hub clock and gongs.

Runs :class:`station.sync.StationSync` and rings every signal of the plans the hub sends
at its instant in hub time. Used by the multi-process tests, the benchmark and the demo;
on a real station the kiosk runs the same pieces in its own event loop.
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

from shared.clock import Clock, SystemClock
from station import config as station_config
from station.config import ConfigError


def _daemon(args: argparse.Namespace) -> int:
    from station.signals import MinimalSignalFirer
    from station.sync import NetworkConfig, SkewedClock, StationSync

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format=f"%(asctime)s {args.station_id or 'station'} %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        cfg = station_config.load(args.config)
        net = NetworkConfig.from_config(cfg)
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

        def tell(event: dict[str, Any]) -> None:
            sync.note_signal(event)
            sync.nudge()
            print(json.dumps({"event": "signal", **event}), flush=True)

        firer = MinimalSignalFirer(station_config.station_db_path(), sync.clock, on_fired=tell)
        sync.on("plan", firer.apply)
        sync.on("gong", firer.gong_now)
        for plan in sync.plans():
            firer.apply(plan)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        tasks = [asyncio.create_task(sync.run()), asyncio.create_task(firer.run())]
        await stop.wait()
        sync.stop()
        firer.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        sync.close()
        firer.close()

    asyncio.run(main())
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
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

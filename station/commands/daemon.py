"""``station daemon``: the station without its screen: hub sync, hub clock and gongs.

The station runtime (station/runtime.py) without the kiosk, always linked to the hub: the
outbox goes to the hub, plans come from it, and every signal rings at its instant in **hub
time** once the clock is synced; the lamp blinks until then. Used on stations without a
kiosk, by the multi-process tests, the benchmark and the demo.

Each ring is also printed on stdout as one JSON line (``{"event": "ring", ...}`` with
the local and hub time of the first stroke), which is how the tests measure the spread.
"""

from __future__ import annotations

import argparse
import sys

# The config and the runtime are imported when the daemon runs: `station --help` builds
# this parser too.


def _daemon(args: argparse.Namespace) -> int:
    import logging
    from pathlib import Path

    from samoobsluha.shared.i18n import cli_language, error_text
    from samoobsluha.station import config as station_config
    from samoobsluha.station.config import ConfigError
    from samoobsluha.station.hardware import HardwareError
    from samoobsluha.station.runtime import RuntimeOptions, StationRuntime

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format=f"%(asctime)s {args.station_id or 'station'} %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    options = RuntimeOptions(
        kiosk=False,
        link=True,
        hub=args.hub,
        tournament=args.tournament,
        psk_file=Path(args.psk_file) if args.psk_file else None,
        station_id=args.station_id,
        mdns_interface=args.mdns_interface,
        clock_skew=args.clock_skew,
        report_rings=True,
    )
    try:
        runtime = StationRuntime(station_config.load(args.config), options)
    except ConfigError as exc:
        print(f"station daemon: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    try:
        return runtime.run()
    except ConfigError as exc:  # what the runtime finds as it starts (the key file)
        print(f"station daemon: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    except HardwareError as exc:
        print(f"station daemon: {error_text(exc, cli_language())}", file=sys.stderr)
        return 3


def _hub_address(text: str) -> str:
    from samoobsluha.station.link.discovery import hub_address_arg  # only when given

    return hub_address_arg(text)


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
    d.add_argument(
        "--hub",
        metavar="HOST:PORT",
        type=_hub_address,
        help="hub address, IPv6 in brackets: [::1]:47820 (skip mDNS)",
    )
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

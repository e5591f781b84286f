"""``hub run``: the dashboard.

If no ``hub serve`` answers on this machine's control socket, the dashboard runs the hub
server inside its own process (``--no-serve`` to only watch), so one command runs the
whole hub. Every action of the dashboard is also a ``hub`` subcommand (``hub round start``,
``hub gong``, ``hub result enter``, ``hub challenges`` …) for scripting.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from samoobsluha.shared import protocol
from samoobsluha.shared.i18n import LANGUAGES


def _run(args: argparse.Namespace) -> int:
    from samoobsluha.hub.app import HubApp
    from samoobsluha.hub.service import HubService

    service = HubService(who=args.who)
    serve = None
    if not args.no_serve and not service.server_running():
        _log_to_file(service.data / "hub.log")  # the terminal belongs to the dashboard
        serve = {"host": args.host, "port": args.port, "advertise": not args.no_mdns}
    HubApp(service, lang=args.lang, serve=serve).run()
    return 0


def _log_to_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        filename=str(path),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="the referee's and operator's dashboard (runs the hub server if none runs)",
        description=(
            "The dashboard: stations (F1), round control (F2), challenges (F3), results (F4), "
            "standings and pairings (F5). Ctrl+Q quits."
        ),
    )
    p.add_argument("--lang", choices=LANGUAGES, default="cs", help="language of the screens")
    p.add_argument("--who", default="operator", help="name recorded in the audit trail")
    p.add_argument("--no-serve", action="store_true", help="do not run a hub server")
    p.add_argument("--host", default="0.0.0.0", help="address of the embedded server")
    p.add_argument("--port", type=int, default=protocol.DEFAULT_PORT)
    p.add_argument("--no-mdns", action="store_true", help="do not advertise via zeroconf")
    p.set_defaults(func=_run)

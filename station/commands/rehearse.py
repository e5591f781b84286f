"""``station rehearse type``: answer the keyboard part of ``hub rehearse`` on a station
without a kiosk screen (or from a terminal beside it).

Waits for the hub's rehearsal request, shows the test line and stores what was typed;
the station's rehearsal responder (``station daemon`` / the linked kiosk) reports the
letters that did not arrive.
"""

from __future__ import annotations

import argparse
import sys

from samoobsluha.station.commands import LANGUAGES


def _type(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import t
    from samoobsluha.station import config as station_config
    from samoobsluha.station.rehearse import store_typed, wait_for_request

    db_path = station_config.station_db_path()
    req = wait_for_request(db_path, args.wait)
    if req is None:
        print(t("rehearse.station.no_request", args.lang), file=sys.stderr)
        return 1
    if args.text is not None:
        text = args.text
    else:
        print(t("rehearse.station.type_prompt", args.lang, letters=req["letters"]), flush=True)
        text = sys.stdin.readline().rstrip("\n")
    store_typed(db_path, req["id"], text)
    print(t("rehearse.station.typed", args.lang))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rehearse",
        help="the keyboard test of hub rehearse on a station without a kiosk screen",
        description="Waits for the hub's rehearsal request and asks for the test line.",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    typ = actions.add_parser("type", help="type the test line the hub asks for")
    typ.add_argument("--config", metavar="FILE", help="station.toml")
    typ.add_argument("--text", help="the typed line (default: read from the terminal)")
    typ.add_argument(
        "--wait", type=float, default=120.0, metavar="S", help="how long to wait for a request"
    )
    typ.add_argument("--lang", default="cs", choices=LANGUAGES)
    typ.set_defaults(func=_type)

"""``hub check TABLE WORD…``: the referee checks words for a player (ČAS 13.17).

The same verdict a kiosk gives (its normalisation, its refusal texts, the lexicon the
stations use, the table's limits), logged as that table's check in the hub's challenge log
(station „rozhodčí“): see :mod:`hub.refcheck`. Exit 0 PLATNÉ, 1 NEPLATNÉ, 2 refused
(input, limit, no lexicon) or the referee decides (a word longer than the lexicon covers).
``--json`` prints the logged check.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

EXIT_VALID, EXIT_INVALID, EXIT_REFUSED = 0, 1, 2


def _check(args: argparse.Namespace) -> int:
    from samoobsluha.hub import refcheck
    from samoobsluha.hub.service import HubService, ServiceError
    from samoobsluha.shared.i18n import cli_language, error_text
    from samoobsluha.shared.normalize import split_words

    lang = cli_language()
    service = HubService(who=args.who)
    words = [w for raw in args.words for w in split_words(raw)]
    try:
        done = refcheck.referee_check(service, args.table, words, lang=lang, round_no=args.round)
    except (refcheck.CheckRefused, ServiceError) as exc:
        print(f"hub check: {error_text(exc, lang)}", file=sys.stderr)
        return EXIT_REFUSED
    if args.json:
        print(json.dumps(asdict(done), ensure_ascii=False, indent=1))
    else:
        print(done.line(lang))
    if done.status == "valid":
        return EXIT_VALID
    return EXIT_INVALID if done.status == "invalid" else EXIT_REFUSED


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="the referee checks words for a player (ČAS 13.17): exit 0 valid, 1 not valid, "
        "2 refused",
        description=(
            "Judge the words of one play for table TABLE as a kiosk would (same lexicon, "
            "normalisation, limits and refusals) and log it as that table's check. For "
            "players who cannot use the station (ČAS 13.17)."
        ),
    )
    p.add_argument("table", help="the player's table")
    p.add_argument("words", nargs="+", help="the words of the play (SIT notation, blanks in ( ))")
    p.add_argument("--round", type=int, help="the round (default: the one being played)")
    p.add_argument("--json", action="store_true", help="print the logged check as JSON")
    p.add_argument("--who", default="referee", help=argparse.SUPPRESS)
    p.set_defaults(func=_check)

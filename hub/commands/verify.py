"""``hub verify CODE``: which check a verdict's receipt code stands for, or that it is not
genuine (hub/receipts.py). Exit 0 genuine, 1 not genuine, 2 cannot tell (a malformed code,
no tournament key). ``--json`` prints the check."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

EXIT_GENUINE, EXIT_NOT_GENUINE, EXIT_CANNOT = 0, 1, 2


def _verify(args: argparse.Namespace) -> int:
    from samoobsluha.hub.receipts import describe
    from samoobsluha.hub.service import HubService, ServiceError
    from samoobsluha.shared.i18n import cli_language, error_text, t
    from samoobsluha.shared.receipt import format_code, parse_code

    lang = cli_language()
    service = HubService()
    try:
        row = service.verify_receipt(args.code)
    except ServiceError as exc:
        print(f"hub verify: {error_text(exc, lang)}", file=sys.stderr)
        return EXIT_CANNOT
    code = format_code(parse_code(args.code) or args.code)
    if row is None:
        print(t("receipt.not_genuine", lang, code=code))
        return EXIT_NOT_GENUINE
    if args.json:
        print(json.dumps({"code": code, **asdict(row)}, ensure_ascii=False, indent=1))
        return EXIT_GENUINE
    lines = describe(row, args.code, lang)
    print("\n".join(lines))
    return EXIT_GENUINE


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="which check a verdict's receipt code stands for: exit 0 genuine, 1 not genuine",
        description=(
            "Find the logged check a receipt code (shown with every verdict at a station, "
            "written on a scoresheet) stands for: station, table, round, time, words, "
            "lexicon and verdict. A code that matches no check the stations sent is not "
            "genuine (or its station has not sent that check yet)."
        ),
    )
    p.add_argument(
        "code", help="the receipt code, e.g. 7KQ2M-X4D9A (case and dashes do not matter)"
    )
    p.add_argument("--json", action="store_true", help="print the check as JSON")
    p.set_defaults(func=_verify)

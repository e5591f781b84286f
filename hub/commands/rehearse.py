"""``hub rehearse``: the hall check on the real stations (see :mod:`hub.rehearse`).

``hub rehearse [--wait S] [--no-keyboard] [--no-button] [--html FILE] [--during-round]``
    ask every connected station to ring a test stroke at one instant, take the keyboard
    test and report itself; print a go / no-go line per station; exit 0 when the hall is
    ready, 1 when not. The result is kept in the hub database. Refused (exit 2) while a
    round is being played; ``--during-round`` runs it anyway, quietly: no bell, no
    keyboard test, nothing over a player's screen.
``hub rehearse show [ID] [--html FILE]``  print a stored rehearsal (the last by default)
``hub rehearse list``                     every rehearsal kept with this tournament
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from samoobsluha.shared.i18n import error_text, t


def _service() -> object:
    from samoobsluha.hub.service import HubService

    return HubService()


def _tournament_name(svc: object) -> str:
    try:
        return str(svc.info().get("name", ""))  # type: ignore[attr-defined]
    except Exception:
        return ""


def _rehearse(args: argparse.Namespace) -> int:
    from samoobsluha.hub import rehearse
    from samoobsluha.hub.service import ServiceError

    svc = _service()
    action = getattr(args, "rehearse_action", None)
    try:
        if action == "list":
            for rid, finished, go in rehearse.history(svc):
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(finished))
                verdict = t("rehearse.go" if go else "rehearse.nogo", args.lang)
                print(f"{rid}  {stamp}  {verdict}")
            return 0
        if action == "show":
            result = rehearse.load(svc, args.id)
            if result is None:
                print(t("rehearse.none_stored", args.lang), file=sys.stderr)
                return 2
        else:
            result = rehearse.run(
                svc,
                lead=args.lead,
                wait=args.wait,
                keyboard=not args.no_keyboard,
                button=not args.no_button,
                lang=args.lang,
                progress=lambda text: print(text, file=sys.stderr, flush=True),
                during_round=args.during_round,
            )
    except ServiceError as exc:
        print(f"hub rehearse: {error_text(exc, args.lang)}", file=sys.stderr)
        return 2
    print(rehearse.render_text(result, args.lang), end="")
    if args.html:
        path = rehearse.write_html(result, Path(args.html), _tournament_name(svc))
        print(t("dash.saved", args.lang, path=path))
    return 0 if result.go else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rehearse",
        help="the hall check: every station's link, clock, gong, keyboard … go / no-go",
        description=(
            "The hall check on the real stations: a test stroke on every bell at one "
            "instant, the keyboard test line, the referee button, and a go / no-go line per "
            "station with the reason. Exit 0 when the hall is ready, 1 when not."
        ),
    )
    p.add_argument("--lead", type=float, default=3.0, metavar="S", help="test stroke S s ahead")
    p.add_argument(
        "--wait", type=float, default=60.0, metavar="S", help="time to type the test line"
    )
    p.add_argument("--no-keyboard", action="store_true", help="skip the keyboard test")
    p.add_argument("--no-button", action="store_true", help="do not wait for the button")
    p.add_argument("--html", metavar="FILE", help="also write the A4 page to print")
    p.add_argument(
        "--during-round",
        action="store_true",
        help="run it while a round is being played: quietly (no bell, no keyboard test, "
        "nothing over a player's screen)",
    )
    p.add_argument("--lang", default="cs", choices=("cs", "sk", "en", "pl"))
    actions = p.add_subparsers(dest="rehearse_action", metavar="ACTION")
    show = actions.add_parser("show", help="print a stored rehearsal (the last by default)")
    show.add_argument("id", nargs="?")
    show.add_argument("--html", metavar="FILE")
    show.add_argument("--lang", default="cs", choices=("cs", "sk", "en", "pl"))
    lst = actions.add_parser("list", help="every stored rehearsal")
    lst.add_argument("--lang", default="cs", choices=("cs", "sk", "en", "pl"))
    p.set_defaults(func=_rehearse)

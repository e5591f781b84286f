"""``hub time status|confirm``: the hub's clock after a restart (see :mod:`hub.hubtime`).

``hub time status``    confirmed or not, how the clock was set at boot; exit 1 while unconfirmed
``hub time confirm``   the operator compared the hub's clock with a watch: rounds may start
"""

from __future__ import annotations

import argparse
import time

from samoobsluha.shared.i18n import MESSAGES, cli_language, t


def _fmt(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(epoch)) if epoch else "-"


def _status(args: argparse.Namespace) -> int:
    from samoobsluha.hub.service import HubService

    svc = HubService(who=args.who)
    st = svc.time_status()
    lang = cli_language()
    print(t("cli.time.now", lang, time=_fmt(svc.clock.now())))
    if st.source is None:
        print(t("cli.time.not_restored", lang))
        return 0
    key = f"cli.time.source.{st.source}"
    source = t(key, lang) if key in MESSAGES else st.source
    print(t("cli.time.restored", lang, time=_fmt(st.restored_to), source=source))
    if st.confirmed:
        print(t("cli.time.confirmed", lang, time=_fmt(st.confirmed_at), who=st.confirmed_by))
        return 0
    print(t("cli.time.unconfirmed", lang, why=t("hubtime.refused", lang)))
    return 1


def _confirm(args: argparse.Namespace) -> int:
    from samoobsluha.hub.service import HubService

    svc = HubService(who=args.who)
    before = svc.time_status()
    lang = cli_language()
    if before.confirmed:
        print(t("cli.time.no_need", lang, time=_fmt(svc.clock.now())))
        return 0
    if not args.yes:
        answer = input(t("cli.time.ask", lang, time=_fmt(svc.clock.now())))
        if answer.strip().lower() not in ("y", "yes", "a", "ano", "áno", "t", "tak"):
            print(t("cli.time.declined", lang))
            return 1
    done = svc.confirm_time()
    print(t("hubtime.confirmed", lang, time=_fmt(done.confirmed_at)))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from samoobsluha.hub.cli import command_group

    group = command_group(sub, "time", "the hub's clock after a restart (confirm before rounds)")
    status = group.add_parser("status", help="is the hub's time confirmed since its restart")
    status.set_defaults(func=_status)
    confirm = group.add_parser(
        "confirm", help="confirm the hub's clock against a watch (rounds may start)"
    )
    confirm.add_argument("-y", "--yes", action="store_true", help="do not ask")
    for p in (status, confirm):
        p.add_argument("--who", default="operator", help="who confirms (recorded)")
    confirm.set_defaults(func=_confirm)

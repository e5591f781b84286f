"""``hub time status|confirm``: the hub's clock after a restart (see :mod:`hub.hubtime`).

``hub time status``    confirmed or not, how the clock was set at boot; exit 1 while unconfirmed
``hub time confirm``   the operator compared the hub's clock with a watch: rounds may start
"""

from __future__ import annotations

import argparse
import time

from samoobsluha.shared.i18n import t


def _fmt(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(epoch)) if epoch else "-"


def _status(args: argparse.Namespace) -> int:
    from samoobsluha.hub.service import HubService

    svc = HubService(who=args.who)
    st = svc.time_status()
    print(f"hub time now:   {_fmt(svc.clock.now())}")
    if st.source is None:
        print("confirmed:      yes (not restored from a saved time in this boot)")
        return 0
    print(f"set at boot:    {_fmt(st.restored_to)} (from the {st.source} time)")
    if st.confirmed:
        print(f"confirmed:      yes, {_fmt(st.confirmed_at)} by {st.confirmed_by}")
        return 0
    print("confirmed:      NO - " + t("hubtime.refused", "en"))
    return 1


def _confirm(args: argparse.Namespace) -> int:
    from samoobsluha.hub.service import HubService

    svc = HubService(who=args.who)
    before = svc.time_status()
    if before.confirmed:
        print(f"the hub's time needs no confirmation in this boot (now {_fmt(svc.clock.now())})")
        return 0
    if not args.yes:
        answer = input(f"Is it {_fmt(svc.clock.now())} now (check a watch)? [y/N] ")
        if answer.strip().lower() not in ("y", "yes", "a", "ano"):
            print("not confirmed; set the clock first: sudo date -s 'YYYY-MM-DD HH:MM:SS'")
            return 1
    done = svc.confirm_time()
    print(t("hubtime.confirmed", "en", time=_fmt(done.confirmed_at)))
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

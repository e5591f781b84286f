"""The dashboard's own actions as ``hub`` subcommands, so an operator can script them.

``hub hall``                       stations online vs. ČAS 15.8e (exit 1 when short)
``hub challenges [--round N] [--table T]``   the check log, newest first
``hub challenges mark KEY 1|2|0``  who challenged (the table's first or second player, unknown)
``hub challenges appeal KEY valid|invalid``  the chief referee's second instance
``hub challenges penalties``       SSS: unjustified challenges and 20-point penalties
``hub challenges requests [--all]`` / ``ack KEY``   referee calls
``hub enter ROUND "T S1 S2 [2]" …`` fast result entry as in the dashboard (``--correct``)
``hub rejected``                   station rows the hub refused as malformed, with the reason
``hub overview [ROUND]``           tables in / pending / missing / conflict / dispute, protest
                                   window, every open dispute of the round
``hub dispute [--round N]``        open disputes; ``hub dispute keep|take ID`` resolves one
``hub schedule [--set K=V …]``     the day's timetable; ``hub schedule start N [--at HH:MM]``
``hub publish-round N``            publish round N: its results (protest window), the
                                   standings after it to every station and the hall screen
                                   (the same as ``hub tournament publish N`` and F6)
``hub publish-pairings N``         round N's pairings and the standings before it to stations
``hub sample-players``             a sample field of Czech/Slovak players (CSV, fixed seed)

Round start/change, gong, pairing, finalising and exports are ``hub round …``,
``hub gong``, ``hub tournament finalise`` and ``hub export``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from samoobsluha.hub.entry import EntryError, parse_entry
from samoobsluha.shared.countdown import minutes_left
from samoobsluha.shared.i18n import MESSAGES, cli_language, error_text, localize, t


def _service(args: argparse.Namespace) -> Any:
    return _service_for(getattr(args, "who", "operator"), getattr(args, "db", None))


def _service_for(who: str, db: str | None = None) -> Any:
    from pathlib import Path

    from samoobsluha.hub.service import HubService

    if db is None:
        return HubService(who=who)
    svc = HubService(Path(db).parent, who=who)
    svc.db_path = Path(db)  # ``--db FILE`` of the tournament commands
    return svc


def publish_round(number: int, *, who: str = "operator", db: str | None = None) -> int:
    """``hub publish-round N`` and ``hub tournament publish N``: one operation
    (:meth:`HubService.publish_round`), said in the operator's language."""
    from samoobsluha.hub.service import ServiceError

    lang = cli_language()
    try:
        done = _service_for(who, db).publish_round(number)
    except ServiceError as exc:
        print(f"hub: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    key = "cli.published.first" if done["published"] else "cli.published.again"
    print(t(key, lang, round=number, closes=_at(done["protest_closes"])))
    sent = done["standings"].get("sent_to") or []
    if done["standings"].get("stored"):
        print(t("cli.published.stored", lang))
    else:
        print(t("dash.sent", lang, stations=", ".join(sent) or t("dash.nobody", lang)))
    return 0


def dispute_line(tour_or_row: Any, d: Any, lang: str) -> str:
    """One dispute in one line (the English one contains the word "dispute"): the table,
    the entry, who sent it, the result it disputes and how to resolve it."""
    from samoobsluha.hub.service import DisputeRow

    if isinstance(d, DisputeRow):
        row = d
    else:
        names = {p.id: p.name for p in tour_or_row.players()}
        row = DisputeRow.of(tour_or_row, d, names)
    return t(
        "cli.dispute.line",
        lang,
        id=row.id,
        round=row.round_no,
        table=row.table,
        first=row.first_name,
        second=row.second_name,
        who=row.who,
        at=_at(row.at),
        sent=f"{row.score_first}:{row.score_second}",
        result=f"{row.result_first}:{row.result_second}",
    )


def _guard(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from samoobsluha.hub.service import ServiceError

        try:
            return fn(args)
        except EntryError as exc:
            print(f"hub: {exc.message(cli_language())}", file=sys.stderr)
            return 2
        except ServiceError as exc:
            print(f"hub: {error_text(exc, cli_language())}", file=sys.stderr)
            return 2

    return run


def _at(at: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at)) if at else "-"


@_guard
def _hall(args: argparse.Namespace) -> int:
    report = _service(args).stations()
    if args.json:
        print(json.dumps(asdict(report), ensure_ascii=False, indent=1))
    else:
        lang = cli_language()
        print(
            t(
                "dash.stations.summary",
                lang,
                players=report.players,
                required=report.required,
                online=report.online,
                total=len(report.rows),
                rule=report.rule,
            )
        )
        for w in report.warnings:
            print(t("tsh.warning", lang, text=localize(w, lang)))
    return 1 if report.online < report.required else 0


@_guard
def _challenges(args: argparse.Namespace) -> int:
    svc = _service(args)
    lang = cli_language()
    action = args.challenges_action
    if action == "mark":
        which = {"1": 1, "2": 2, "0": None}[args.which]
        player = svc.mark_challenger(args.key, which)
        if player is None:
            print(t("cli.challenger_unknown", lang, key=args.key))
        else:
            print(t("cli.challenger", lang, key=args.key, who=player))
        return 0
    if action == "appeal":
        svc.record_appeal(args.key, args.verdict, args.note)
        verdict = t(f"dash.verdict.{args.verdict}", lang)
        print(t("cli.appeal", lang, key=args.key, verdict=verdict))
        return 0
    if action == "penalties":
        for p in svc.sss_penalties(args.round):
            print(
                t(
                    "cli.penalty",
                    lang,
                    round=p["round"],
                    table=p["table"],
                    name=p["name"],
                    unjustified=p["unjustified"],
                    penalty=p["penalty"],
                )
            )
        return 0
    if action == "requests":
        for r in svc.referee_requests(pending_only=not args.all):
            state = t("cli.request.acked" if r.acknowledged else "cli.request.waiting", lang)
            reason = _known(f"dash.reason.{r.reason}", lang, r.reason)
            table = t("kiosk.check.table_info", lang, table=r.table_no)
            print(f"{r.key}  {_at(r.at)}  {r.station}  {table}  {reason}  {state}")
        return 0
    if action == "ack":
        svc.acknowledge_request(args.key)
        return 0
    rows = svc.challenges(args.round, args.table)
    if args.json:
        print(json.dumps([asdict(r) for r in rows], ensure_ascii=False, indent=1))
        return 0
    for c in rows:
        verdict = _known(f"dash.verdict.{c.verdict}", lang, c.verdict)
        if c.appealed:
            verdict += " -> " + _known(f"dash.verdict.{c.final}", lang, c.final)
        instance = _known(f"dash.instance.{c.instance}", lang, c.instance)
        who = "  " + t("cli.by", lang, name=c.challenger_name) if c.challenger_name else ""
        pen = "  " + t("cli.penalised", lang) if c.penalised else ""
        where = t("cli.round_table", lang, round=c.round_no, table=c.table_no)
        print(
            f"{c.key}  {_at(c.at)}  {c.station}  {where}  "
            f"{', '.join(c.words)}  {verdict}  {c.variant}  {instance}{who}{pen}"
        )
    return 0


def _known(key: str, lang: str, fallback: Any) -> str:
    """The catalogue's text for a code value (a verdict, a reason), else the value."""
    return t(key, lang) if key in MESSAGES else str(fallback)


@_guard
def _enter(args: argparse.Namespace) -> int:
    from samoobsluha.hub.service import ConfirmationNeeded, ServiceError

    svc = _service(args)
    code = 0
    lang = cli_language()
    for line in args.lines:
        try:
            echo = svc.enter_result(
                args.round, parse_entry(line), correct=args.correct, confirm=args.confirm
            )
        except EntryError as exc:
            print(f"hub: {exc.message(lang)}", file=sys.stderr)
            code = 2
            continue
        except ConfirmationNeeded as exc:  # each line is its own entry: go on with the next
            print(f"hub: {line}: {error_text(exc, lang)} (--confirm)", file=sys.stderr)
            code = 2
            continue
        except ServiceError as exc:
            print(f"hub: {line}: {error_text(exc, lang)}", file=sys.stderr)
            code = 2
            continue
        print(echo.line(lang))
        for w in echo.warnings:
            print("  " + t("tsh.warning", lang, text=localize(w, lang)))
        if echo.outcome == "conflict" and code == 0:
            code = 1
    return code


@_guard
def _rejected(args: argparse.Namespace) -> int:
    rows = _service(args).rejected_rows()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for r in rows:
        print(f"{_at(r['received_at'])}  {r['key']}  {r['kind']}  {r['error']}")
    if not rows:
        print(t("cli.rejected.none", cli_language()))
    return 0


@_guard
def _overview(args: argparse.Namespace) -> int:
    svc = _service(args)
    number = args.round or svc.current_round()
    data = svc.round_results(number)
    if args.json:
        print(json.dumps(asdict(data), ensure_ascii=False, indent=1))
        return 0
    lang = cli_language()
    print(
        t(
            "dash.results.summary",
            lang,
            n=number,
            in_=data.count("in"),
            pending=data.count("pending"),
            missing=data.count("missing"),
            conflict=data.count("conflict"),
            dispute=data.count("dispute"),
        )
    )
    if data.disputes:
        print(t("dash.disputes.badge", lang, n=len(data.disputes)))
    if data.final_at:
        print(t("dash.final", lang))
    elif data.protest_closes:
        left = data.protest_closes - svc.clock.now()
        if left > 0:
            print(t("dash.protest.open", lang, left=f"{minutes_left(left)} min"))
        else:
            print(t("dash.protest.closed", lang))
    for row in data.tables:
        score = f"{row.score_first}:{row.score_second}" if row.score_first is not None else ""
        state = _known(f"dash.state.{row.state}", lang, row.state)
        print(f"{row.table:>3}  {row.first_name} – {row.second_name}  {score}  {state}")
    for d in data.disputes:
        print("     " + dispute_line(None, d, lang))
    for error in data.station_errors:
        print("     " + t("dash.station_errors", lang, errors=localize(error, lang)))
    return 0


@_guard
def _dispute(args: argparse.Namespace) -> int:
    svc = _service(args)
    lang = cli_language()
    if args.dispute_action in ("keep", "take"):
        outcome = svc.resolve_dispute(args.id, take=args.dispute_action == "take")
        print(_known(f"dash.outcome.{outcome}", lang, outcome))
        return 0
    rows = svc.disputes(args.round)
    for d in rows:
        print(dispute_line(None, d, lang))
    if not rows:
        print(t("cli.disputes.none", lang))
    return 1 if rows else 0


@_guard
def _schedule(args: argparse.Namespace) -> int:
    svc = _service(args)
    lang = cli_language()
    if args.schedule_action == "start":
        if args.at:
            from samoobsluha.hub.officiating import today_at

            at = today_at(args.at, svc.clock.now())
            if at is None:
                print("hub: " + t("dash.at.bad", lang, at=args.at), file=sys.stderr)
                return 2
        else:
            slots = [s for s in svc.schedule() if s.round_no == args.number]
            if not slots:
                print("hub: " + t("dash.schedule.none", lang, n=args.number), file=sys.stderr)
                return 2
            at = slots[0].start.timestamp()
        if at <= svc.clock.now():
            print("hub: " + t("dash.at.past", lang), file=sys.stderr)
            return 2
        print(json.dumps(svc.start_round(args.number, at=at, force=args.force), indent=1))
        return 0
    if args.set:
        changes: dict[str, Any] = {}
        for item in args.set:
            key, _, value = item.partition("=")
            if key in ("lunch_after", "refreshment_after") and value.lower() in ("", "none"):
                changes[key] = None
            else:
                changes[key] = value if key == "first_start" else float(value)
        svc.set_schedule(**changes)
    for slot in svc.schedule():
        if slot.is_round:
            what = t("dash.round", lang, n=slot.round_no)
        else:
            what = _known(f"dash.schedule.{slot.label}", lang, slot.label)
        print(f"{slot.start:%H:%M}-{slot.end:%H:%M}  {what}")
    return 0


def _publish_round(args: argparse.Namespace) -> int:
    return publish_round(args.round, who=args.who)


@_guard
def _publish_pairings(args: argparse.Namespace) -> int:
    result = _service(args).publish_to_stations(args.round)
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


def _sample(args: argparse.Namespace) -> int:
    from samoobsluha.hub.sample import sample_csv

    text = sample_csv(args.count, args.seed)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hall", help="stations online against ČAS 15.8e (exit 1 when short)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_hall)

    ch = sub.add_parser("challenges", help="the check log, challengers, appeals, SSS penalties")
    ch.add_argument("--round", type=int)
    ch.add_argument("--table", type=int)
    ch.add_argument("--json", action="store_true")
    ch.add_argument("--who", default="operator", help="name recorded with marks and appeals")
    ch.set_defaults(func=_challenges, challenges_action="list")
    cs = ch.add_subparsers(dest="challenges_action", metavar="ACTION")
    m = cs.add_parser(
        "mark", help="who challenged: 1 = the table's first player, 2 = its second, 0 = unknown"
    )
    m.add_argument("key")
    m.add_argument("which", choices=("1", "2", "0"))
    a = cs.add_parser("appeal", help="record the chief referee's decision (second instance)")
    a.add_argument("key")
    a.add_argument("verdict", choices=("valid", "invalid"))
    a.add_argument("--note", default="")
    pen = cs.add_parser("penalties", help="SSS: unjustified challenges per player and game")
    pen.add_argument("--round", type=int)
    req = cs.add_parser("requests", help="referee calls waiting (--all: also acknowledged)")
    req.add_argument("--all", action="store_true")
    ack = cs.add_parser("ack", help="acknowledge a referee call")
    ack.add_argument("key")

    e = sub.add_parser("enter", help="fast result entry: ROUND 'TABLE S1 S2 [2]' …")
    e.add_argument("round", type=int)
    e.add_argument("lines", nargs="+", metavar="LINE")
    e.add_argument("--correct", action="store_true", help="replace an earlier entry")
    e.add_argument(
        "--confirm", action="store_true", help="store an implausible score (0:0, above max)"
    )
    e.add_argument("--who", default="operator")
    e.set_defaults(func=_enter)

    rj = sub.add_parser("rejected", help="station rows the hub refused as malformed")
    rj.add_argument("--json", action="store_true")
    rj.set_defaults(func=_rejected)

    dp = sub.add_parser("dispute", help="late entries differing from published results")
    dp.add_argument("--round", type=int)
    dp.add_argument("--who", default="operator", help="name recorded in the audit trail")
    dp.set_defaults(func=_dispute, dispute_action="list")
    ds = dp.add_subparsers(dest="dispute_action", metavar="ACTION")
    for action, text in (
        ("keep", "keep the published result (the dispute is closed)"),
        ("take", "take the disputed entry as the result"),
    ):
        d = ds.add_parser(action, help=text)
        d.add_argument("id", type=int, help="the dispute's number (hub dispute)")

    ov = sub.add_parser(
        "overview", help="a round's tables: in, pending, missing, conflict, dispute"
    )
    ov.add_argument("round", type=int, nargs="?")
    ov.add_argument("--json", action="store_true")
    ov.set_defaults(func=_overview)

    sc = sub.add_parser("schedule", help="the day's timetable (SSS model: 9 rounds, breaks)")
    sc.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="first_start=09:00 rounds slot_minutes break_minutes lunch_after lunch_minutes "
        "refreshment_after refreshment_minutes basic_minutes warning_minutes",
    )
    sc.set_defaults(func=_schedule, schedule_action="show")
    ss = sc.add_subparsers(dest="schedule_action", metavar="ACTION")
    st = ss.add_parser("start", help="plan round N on the stations at its scheduled time")
    st.add_argument("number", type=int)
    st.add_argument("--at", metavar="HH:MM", help="at this time today instead")
    st.add_argument(
        "--force", action="store_true", help="start again a round that has begun or has results"
    )

    pb = sub.add_parser(
        "publish-round",
        help="publish round N: results (protest window), standings to stations and hall screen",
    )
    pb.add_argument("round", type=int)
    pb.add_argument("--who", default="operator", help="name recorded in the audit trail")
    pb.set_defaults(func=_publish_round)
    pp = sub.add_parser(
        "publish-pairings", help="send round N's pairings and the standings before it to stations"
    )
    pp.add_argument("round", type=int)
    pp.set_defaults(func=_publish_pairings)

    sp = sub.add_parser(
        "sample-players", help="a sample field (Czech/Slovak names) as CSV, from a fixed seed"
    )
    sp.add_argument("--count", type=int, default=32)
    sp.add_argument("--seed", type=int, default=2026)
    sp.add_argument("-o", "--output", metavar="FILE")
    sp.set_defaults(func=_sample)

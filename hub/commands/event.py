"""The director's commands for the event around the games: sanctions and the suggestions
the stations' logged checks make (the record is :mod:`hub.tournament.sanctions`)::

    hub sanction add PLAYER warning|cross|penalty|expulsion --reason TEXT [--round N]
                     [--table T] [--points N] [--event] [--referee NAME]
    hub sanction list [--round N] [--player ID] [--all]
    hub sanction revoke ID [--note TEXT]
    hub sanction suggest [--round N]
    hub sanction confirm KEY [--player ID] [--reason TEXT]
    hub sanction dismiss KEY

``hub export sanctions`` prints them (A4, CSV); the pairings print of the next round
publishes the warnings and expulsions (ČAS 13.13).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from typing import Any

from samoobsluha.hub.commands.tournament import _db_args
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.sanctions import KINDS
from samoobsluha.shared.i18n import cli_language, date_text, error_text, localize, t


def _run(fn: Any) -> Any:
    def wrapper(args: argparse.Namespace) -> int:
        lang = cli_language()
        try:
            return int(fn(args, lang) or 0)
        except (OSError, ValueError, TournamentError) as exc:
            print(f"hub {args.command} {args.action}: {error_text(exc, lang)}", file=sys.stderr)
            return 2

    return wrapper


def _service(args: argparse.Namespace) -> Any:
    from samoobsluha.hub.commands.dashboard import _service_for

    return _service_for(args.who, args.db)


def _service_errors() -> type[Exception]:
    from samoobsluha.hub.service import ServiceError

    return ServiceError


def _penalty_hint(tour: Tournament, done: Any, lang: str) -> None:
    """SSS takes a penalty's points off the game's score: the correction that does it."""
    if done.kind != "penalty" or done.round is None or done.table is None:
        return
    row = tour.book.result_row(done.round, done.table)
    board = tour.book.board(done.round, done.table)
    if row is None or row["s_first"] is None or board["second"] is None:
        return
    me_first = board["first"] == done.player
    own, opp = (row["s_first"], row["s_second"]) if me_first else (row["s_second"], row["s_first"])
    other = board["second"] if me_first else board["first"]
    command = (
        f"hub result add {done.round} {done.table} {done.player} {other}"
        f" {max(own - done.points, 0)} {opp} --started {row['starter'] or board['first']} --correct"
    )
    print(t("cli.sanction.penalty_hint", lang, points=done.points, command=command))


def sanction_line(row: dict[str, str]) -> str:
    where = f"{row['round']}/{row['table']}" if row["table"] else row["round"]
    return (
        f"{row['name']}: {row['sanction']} · {where} · {row['reason']}"
        f" · {row['referee']} {row['time']}"
    )


@_run
def _add(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        done = tour.sanction(
            args.player,
            args.kind,
            reason=args.reason,
            round_no=args.round,
            table=args.table,
            referee=args.referee or args.who,
            points=args.points,
            scope="event" if args.event else "game",
            who=args.who,
        )
        players = {p.id: p for p in tour.players()}
        row = exports.sanction_rows([done], players, lang)[0]
        print(t("cli.sanction.recorded", lang, id=done.id, line=sanction_line(row)))
        _penalty_hint(tour, done, lang)
    if done.expel_game or (done.kind == "expulsion" and done.scope == "game"):
        print(t("cli.sanction.forfeit_hint", lang, round=done.round, table=done.table))


@_run
def _list(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        given = tour.sanctions(
            round_no=args.round, player=args.player, status=None if args.all else "active"
        )
        players = {p.id: p for p in tour.players()}
    for s, row in zip(given, exports.sanction_rows(given, players, lang), strict=True):
        state = "" if s.active else f" [{t(f'sanction.status.{s.status}', lang)}]"
        print(f"{s.id:>4}  {sanction_line(row)}{state}")


@_run
def _revoke(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        tour.revoke_sanction(args.id, who=args.who, note=args.note)
    print(t("cli.sanction.revoked", lang, id=args.id))


def _suggest(args: argparse.Namespace) -> int:
    lang = cli_language()
    try:
        rows = _service(args).sanction_suggestions(args.round)
    except _service_errors() as exc:
        print(f"hub sanction suggest: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    for r in rows:
        who = r.name or t("cli.sanction.who_unknown", lang, key=r.key)
        what = t(f"cli.sanction.suggest.{r.kind}", lang, points=r.points, id=r.sanction or 0)
        words = ", ".join(r.words)
        print(f"{r.key}  {r.round_no}/{r.table_no}  {words}  → {who}: {what}")
    if not rows:
        print(t("cli.sanction.no_suggestions", lang))
    return 0


def _decide(args: argparse.Namespace) -> int:
    lang = cli_language()
    try:
        svc = _service(args)
        if args.action == "dismiss":
            svc.dismiss_suggestion(args.key)
            print(t("cli.sanction.dismissed", lang, key=args.key))
            return 0
        done = svc.confirm_suggestion(args.key, player=args.player, reason=args.reason or "")
    except _service_errors() as exc:
        print(f"hub sanction {args.action}: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    if done.status == "revoked":
        print(t("cli.sanction.revoked", lang, id=done.id))
        return 0
    with Tournament.open(args.db) as tour:
        players = {p.id: p for p in tour.players()}
        shown = tour.sanction_book.get(done.id)
        row = exports.sanction_rows([shown], players, lang)[0]
        print(t("cli.sanction.recorded", lang, id=done.id, line=sanction_line(row)))
        _penalty_hint(tour, shown, lang)
    return 0


@_run
def _change(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        pairing, broken = tour.change_pairing(args.round, args.action, args.a, args.b, who=args.who)
        players = {p.id: p for p in tour.players()}
    sys.stdout.write(exports.pairings_csv(pairing, players))
    for table, rules in sorted(broken.items()):
        for rule in rules:
            print(
                t("cli.pairing.breaks", lang, table=table, rule=localize(rule, lang)),
                file=sys.stderr,
            )
    if not any(broken.values()):
        print(t("cli.pairing.breaks_nothing", lang), file=sys.stderr)
    print(t("cli.pairing.publish", lang, round=args.round), file=sys.stderr)


@_run
def _unpair(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        tour.unpair(args.round, who=args.who)
    print(t("cli.undo.pairing", lang, round=args.round))


def date(text: str) -> datetime.date:
    """A date as YYYY-MM-DD or D.M.YYYY (argparse names the type "date" when it fails)."""
    text = text.strip()
    if "." in text:
        day, month, year = (int(x) for x in text.split("."))
        return datetime.date(year, month, day)
    return datetime.date.fromisoformat(text)


@_run
def _category(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        book = tour.prize_book
        if args.action == "add":
            book.define(args.name, born_from=args.born_from, born_to=args.born_to, who=args.who)
        elif args.action == "remove":
            book.remove(args.name, who=args.who)
        elif args.action in ("assign", "unassign"):
            book.assign(args.name, args.players, present=args.action == "assign", who=args.who)
        elif args.action == "born":
            book.set_birth(args.player, args.date, who=args.who)
            return
        names = {p.id: p.name for p in tour.players()}
        members = book.membership()
        for c in book.categories():
            rule = []
            if c.born_from:
                rule.append(t("cli.category.born_from", lang, date=date_text(c.born_from, lang)))
            if c.born_to:
                rule.append(t("cli.category.born_to", lang, date=date_text(c.born_to, lang)))
            who = sorted(names[i] for i in members[c.name])
            line = t("cli.category.line", lang, name=c.name, n=len(who), names=", ".join(who))
            print(line + (f" ({'; '.join(rule)})" if rule else ""))


@_run
def _prize(args: argparse.Namespace, lang: str) -> None:
    with Tournament.open(args.db) as tour:
        book = tour.prize_book
        if args.action == "add":
            book.add_prize(
                args.kind, args.rank, args.value, category=args.category or "", who=args.who
            )
        elif args.action == "remove":
            book.remove_prize(args.id, who=args.who)
        if args.action in ("add", "remove", "table"):
            for p in book.prizes():
                where = t("prize.place", lang, place=p.rank)
                if p.category:
                    where = t("prize.in_category", lang, category=p.category, place=where)
                print(f"{p.id:>4}  {where}: {p.value}")
            return
        # one division's list, or (none named in a hall of several) every division's,
        # each under its name: each division is given the prize table on its own
        names = [tour.division(args.division)] if args.division else tour.divisions()
        awards = {d: tour.prize_list(after_round=args.round, division=d) for d in names}
        players = {p.id: p for p in tour.players()}
        if not tour.event_over() and args.round is None:
            print(t("cli.prize.not_over", lang), file=sys.stderr)
    for d, given in awards.items():
        if len(names) > 1:
            print(t("cli.prize.division", lang, division=d))
        for row in exports.prize_rows(given, players, lang):
            share = f" ({t('cli.prize.each', lang, share=row['share'])})" if row["share"] else ""
            note = f" — {row['note']}" if row["note"] else ""
            print(f"{row['award']}: {row['prize']} — {row['name']}{share}{note}")


def _report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from samoobsluha.hub.printpdf import PdfError
    from samoobsluha.hub.report import write_report

    lang = cli_language()
    try:
        made = write_report(
            _service(args),
            Path(args.output),
            lang=args.lang or lang,
            plain=args.plain,
            pdf=args.pdf,
            division=args.division,
        )
    except (OSError, ValueError, TournamentError, PdfError, _service_errors()) as exc:
        print(f"hub report: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    for path in made:
        print(t("cli.wrote", lang, path=path))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from samoobsluha.hub.cli import command_group

    p = sub.add_parser(
        "report",
        help="the association's report: tsh file, results with every tie-break, A4/PDF, CSV",
    )
    _db_args(p)
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write")
    p.add_argument("--lang", choices=("cs", "sk", "en", "pl"), help="default: the operator's")
    p.add_argument("--plain", action="store_true", help="CSV for tools (',' and '.')")
    p.add_argument("--pdf", action="store_true", help="also report.pdf (headless Chromium)")
    p.add_argument(
        "--division", metavar="NAME", help="the division to report (default: the only one)"
    )
    p.set_defaults(func=_report)

    cs = command_group(sub, "category", "categories (junior, women …) and birth dates")
    p = cs.add_parser("add", help="define (or change) a category, with a birth-date rule")
    _db_args(p)
    p.add_argument("name")
    p.add_argument("--born-from", type=date, help="players born on or after (juniors)")
    p.add_argument("--born-to", type=date, help="players born on or before (seniors)")
    p.set_defaults(func=_category)
    for action, text in (
        ("assign", "put players in a category by hand"),
        ("unassign", "take players out of a category (by hand)"),
    ):
        p = cs.add_parser(action, help=text)
        _db_args(p)
        p.add_argument("name")
        p.add_argument("players", type=int, nargs="+", metavar="PLAYER")
        p.set_defaults(func=_category)
    p = cs.add_parser("remove", help="remove a category")
    _db_args(p)
    p.add_argument("name")
    p.set_defaults(func=_category)
    p = cs.add_parser("list", help="categories and who is in them")
    _db_args(p)
    p.set_defaults(func=_category)
    p = cs.add_parser("born", help="a player's birth date (for the birth-date rules)")
    _db_args(p)
    p.add_argument("player", type=int)
    p.add_argument("date", type=date, help="YYYY-MM-DD or D.M.YYYY")
    p.set_defaults(func=_category)

    ps = command_group(sub, "prize", "the prize table and who wins (tsh's prize config)")
    p = ps.add_parser("add", help="a prize: place RANK VALUE, or category RANK VALUE --category C")
    _db_args(p)
    p.add_argument("kind", choices=("place", "category"))
    p.add_argument("rank", type=int, help="the place, overall or in the category")
    p.add_argument("value", help="what is won: '1000 Kč', 'pohár' …")
    p.add_argument("--category", help="the category of a category prize")
    p.set_defaults(func=_prize)
    p = ps.add_parser("remove", help="remove a prize from the table")
    _db_args(p)
    p.add_argument("id", type=int)
    p.set_defaults(func=_prize)
    p = ps.add_parser("table", help="the prize table as defined")
    _db_args(p)
    p.set_defaults(func=_prize)
    p = ps.add_parser("list", help="who wins which prize (one a player, ties shared)")
    _db_args(p)
    p.add_argument("--round", type=int, help="by the standings after round N")
    p.add_argument(
        "--division", metavar="NAME", help="one division's prizes (default: every division's)"
    )
    p.set_defaults(func=_prize)

    rs = command_group(sub, "round", "pair, start and change rounds")
    for action, text, what in (
        ("swap", "swap two players in a round's pairing (each takes the other's place)", "player"),
        ("force", "make two players play each other (their opponents play each other)", "player"),
        ("tables", "swap the numbers of two tables (who sits where)", "table"),
    ):
        p = rs.add_parser(action, help=text + "; says which pairing rule it breaks")
        _db_args(p)
        p.add_argument("round", type=int)
        p.add_argument("a", type=int, metavar=what.upper() + "_A", help=f"{what} id/number")
        p.add_argument("b", type=int, metavar=what.upper() + "_B")
        p.set_defaults(func=_change)
    p = rs.add_parser("unpair", help="take back the latest round's pairing (no results yet)")
    _db_args(p)
    p.add_argument("round", type=int)
    p.set_defaults(func=_unpair)

    ss = command_group(sub, "sanction", "warnings, penalty crosses, penalties, expulsions")
    p = ss.add_parser("add", help="record a sanction (the referee's decision)")
    _db_args(p)
    p.add_argument("player", type=int, help="the player's id (hub players list)")
    p.add_argument("kind", choices=KINDS)
    p.add_argument("--reason", required=True, help="why (printed and published)")
    p.add_argument("--round", type=int, help="default: the latest paired round")
    p.add_argument("--table", type=int, help="default: the player's table in that round")
    p.add_argument("--points", type=int, default=0, help="a penalty's points (SSS: 20)")
    p.add_argument("--event", action="store_true", help="an expulsion from the whole event")
    p.add_argument("--referee", help="who decided (default: --who)")
    p.set_defaults(func=_add)
    p = ss.add_parser("list", help="sanctions in force (--all: also revoked, dismissed)")
    _db_args(p)
    p.add_argument("--round", type=int)
    p.add_argument("--player", type=int)
    p.add_argument("--all", action="store_true")
    p.set_defaults(func=_list)
    p = ss.add_parser("revoke", help="take a sanction back (audited)")
    _db_args(p)
    p.add_argument("id", type=int)
    p.add_argument("--note", default="", help="why")
    p.set_defaults(func=_revoke)
    p = ss.add_parser("suggest", help="what the stations' logged checks suggest (ČAS, SSS)")
    _db_args(p)
    p.add_argument("--round", type=int)
    p.set_defaults(func=_suggest)
    p = ss.add_parser("confirm", help="confirm a suggestion: the sanction is recorded")
    _db_args(p)
    p.add_argument("key", help="the check's key (hub sanction suggest)")
    p.add_argument("--player", type=int, help="who challenged, when not marked")
    p.add_argument("--reason", help="default: the challenged words")
    p.set_defaults(func=_decide)
    p = ss.add_parser("dismiss", help="turn a suggestion down (not suggested again)")
    _db_args(p)
    p.add_argument("key")
    p.set_defaults(func=_decide)

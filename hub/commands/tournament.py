"""Tournament commands.

From a tsh file (the contract other tools rely on)::

    hub standings --rules cas|sss|pfs --tsh FILE [--format csv|text] [--round N]
    hub pair --rules cas|sss|pfs --tsh FILE --round N [--seed S] [--explain]

From the hub database (the operator's workflow; the dashboard calls the same facade)::

    hub tournament init|info|publish|finalise|missing|export-tsh|import-tsh
    hub players import|list|add|checkin|withdraw|return
    hub result add|list|protest|disputes|resolve|audit
    hub round pair N
    hub export standings|pairings|scorecard|stations
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from samoobsluha.hub.tournament import exports, tsh
from samoobsluha.hub.tournament.facade import NeedsConfirmation, Tournament, TournamentError
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.hub.tournament.pairing import PairingError, pair_round
from samoobsluha.hub.tournament.rules import RULES, get_rules
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.shared.i18n import error_text, localize, t


def _overrides(values: list[str] | None) -> dict[str, str]:
    out = {}
    for item in values or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set wants KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _warn(notices: list[tsh.Notice]) -> None:
    for notice in notices:
        print(t("tsh.warning", tsh.ui_lang(), text=notice.text()), file=sys.stderr)


def _games_text(source: tsh.TshFile, games: list[tsh.Game], most: int = 4) -> str:
    names = [
        f"{source.players[g.p1 - 1].display_name} – {source.players[g.p2 - 1].display_name}"
        for g in games
        if g.p2 is not None
    ]
    return ", ".join(names[:most]) + (f" … (+{len(names) - most})" if len(names) > most else "")


def _read_tsh(path: str) -> tsh.TshFile:
    """Read a .t file: warnings to stderr (and the encoding, when it is a guess), a pending
    or partly scored round said so, no players refused."""
    source = tsh.read(path)
    if source.encoding_note is not None:
        _warn([source.encoding_note])
    _warn(source.warnings)
    if not source.players:
        raise tsh.TshError("tsh.no_players", file=path)
    for r in range(1, source.scored_rounds + 1):
        if missing := tsh.incomplete(source, r):
            _warn([tsh.Notice("tsh.partial", {"round": r, "games": _games_text(source, missing)})])
    for r in range(source.scored_rounds + 1, source.rounds + 1):
        games = sum(1 for g in tsh.pending(source) if g.round == r and g.p2 is not None)
        _warn([tsh.Notice("tsh.pending", {"round": r, "games": games})])
    return source


def _load_tsh(path: str) -> tsh.TournamentData:
    return tsh.to_tournament(_read_tsh(path), name=Path(path).stem)


def _present_in(
    data: tsh.TournamentData, round_no: int, pend: list[tsh.Game] | None = None
) -> list[int] | None:
    """Who was paired in ``round_no`` when the file already has that round, scored or
    pending (so a past round is re-paired with the field that really played it: late
    entrants not yet there, players withdrawn later still there); None for a round the file
    has not reached."""
    present = {
        pid
        for g in [*data.games, *(pend or [])]
        if g.round == round_no and g.kind not in (Kind.LATE, Kind.ABSENT)
        for pid in g.players()
    }
    return sorted(present) if present else None


def _say_unsettled(tour: Tournament, after_round: int | None, division: str | None = None) -> None:
    """Tables the standings do not count yet (missing, or a conflict before publication)
    are pending, not lost: say so on stderr, one line each."""
    lang = tsh.ui_lang()
    for m in tour.unsettled(after_round, division=division):
        status = t(f"dash.state.{m['status']}", lang)
        print(
            t("cli.standings.pending", lang, round=m["round"], table=m["table"], status=status),
            file=sys.stderr,
        )


def _standings(args: argparse.Namespace) -> int:
    try:
        rules = get_rules(args.rules or "cas", _overrides(args.set))
        if args.tsh:
            source = _read_tsh(args.tsh)
            data = tsh.to_tournament(source, name=Path(args.tsh).stem)
            last = source.scored_rounds if args.round is None else args.round
            last = min(last, source.scored_rounds)  # a pending round adds nothing
            expelled = {p for p, r in tsh.expelled_rounds(source).items() if r <= last}
            table = compute(
                data.players.values(), data.games_until(last), rules, rounds=last, expelled=expelled
            )
        else:
            with Tournament.open(args.db) as tour:
                if args.rules is None:  # the tournament's own rule set and overrides
                    rules = tour.rules.with_overrides(_overrides(args.set))
                if not tour.players():
                    raise TournamentError(t("tour.no_players", tsh.ui_lang()))
                table = tour.standings(rules=rules, after_round=args.round, division=args.division)
                _say_unsettled(tour, args.round, args.division)
    except (OSError, ValueError, TournamentError) as exc:
        print(f"hub standings: {error_text(exc, tsh.ui_lang())}", file=sys.stderr)
        return 2
    if args.format == "text":
        sys.stdout.write(exports.standings_text(table, rules))
    else:
        sys.stdout.write(exports.standings_csv(table, rules))
    return 0


def _pair(args: argparse.Namespace) -> int:
    try:
        rules = get_rules(args.rules, _overrides(args.set))
        source = _read_tsh(args.tsh)
        data = tsh.to_tournament(source, name=Path(args.tsh).stem)
        scored = source.scored_rounds
        round_no = scored + 1 if args.round is None else args.round
        if round_no < 1 or round_no > scored + 1:
            raise ValueError(
                t("tsh.pair_too_far", tsh.ui_lang(), round=round_no, scored=scored, next=scored + 1)
            )
        missing = tsh.incomplete(source, round_no - 1) if round_no > 1 else []
        if missing and not args.force:  # as the database path refuses (Tournament.pair)
            raise ValueError(
                t(
                    "tsh.pair_incomplete",
                    tsh.ui_lang(),
                    round=round_no,
                    prev=round_no - 1,
                    games=_games_text(source, missing),
                )
            )
        active = _present_in(data, round_no, tsh.pending(source))
        data.games = [g for g in data.games if g.round < round_no]
        pairing = pair_round(
            data,
            rules,
            round_no,
            seed=args.seed,
            method=args.method,
            active=active,
            allow_rematch=args.allow_rematch,
        )
    except (OSError, ValueError, PairingError) as exc:
        print(f"hub pair: {error_text(exc, tsh.ui_lang())}", file=sys.stderr)
        return 2
    sys.stdout.write(exports.pairings_csv(pairing, data.players))
    if args.explain:
        sys.stderr.write(exports.pairings_explain(pairing, data.players, tsh.ui_lang()))
    return 0


def _rules_args(p: argparse.ArgumentParser, required: bool = True) -> None:
    p.add_argument(
        "--rules",
        choices=sorted(RULES),
        required=required,
        help="rule set (cas, sss, pfs)" + ("" if required else "; default: cas / the DB's"),
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="override a rule constant, e.g. --set turcas_a=600 --set bye_score=250",
    )


def register(sub: argparse._SubParsersAction) -> None:
    st = sub.add_parser(
        "standings",
        help="standings from a tsh .t file (or the hub database)",
        description="Standings by the chosen rule set. CSV header starts with "
        "rank,name,wins,spread,points (plus turcas for cas).",
    )
    _rules_args(st, required=False)
    st.add_argument("--tsh", metavar="FILE", help="tsh .t file (default: the hub database)")
    st.add_argument("--db", metavar="FILE", help="hub database (default: DATA/hub.db)")
    st.add_argument("--round", type=int, help="standings after this round (default: last)")
    st.add_argument("--format", choices=("csv", "text"), default="csv")
    _division_arg(st)
    st.set_defaults(func=_standings)

    pr = sub.add_parser(
        "pair",
        help="pair a round from a tsh .t file",
        description="Pair round N (default: the round after the last scored one) from the "
        "results of rounds 1..N-1 in the file. CSV "
        "table,first,second (first starts; a bye has an empty second). --explain writes "
        "the reasons to stderr.",
    )
    _rules_args(pr)
    pr.add_argument("--tsh", metavar="FILE", required=True)
    pr.add_argument(
        "--round",
        type=int,
        help="round to pair (default: the one after the last scored round; a live file's "
        "pending round is re-paired)",
    )
    pr.add_argument(
        "--allow-rematch",
        action="store_true",
        default=None,
        help="director's override: allow a rematch where the rule set forbids it "
        "(only when no pairing without one exists)",
    )
    pr.add_argument(
        "--force",
        action="store_true",
        help="pair although the previous round has games without a result (they count as "
        "not played)",
    )
    pr.add_argument("--seed", type=int, default=0, help="seed for the lot and coin tosses")
    pr.add_argument(
        "--method",
        choices=("lot", "rating", "swiss", "neighbours", "koth", "roundrobin"),
        help="force a method",
    )
    pr.add_argument("--explain", action="store_true", help="why each pair (to stderr)")
    pr.set_defaults(func=_pair)

    _register_db(sub)


# --- the DB-backed workflow ---------------------------------------------------------------


def _run(fn):
    def wrapper(args: argparse.Namespace) -> int:
        try:
            with Tournament.open(args.db) as tour:
                return int(fn(tour, args) or 0)
        except (OSError, ValueError, TournamentError, PairingError) as exc:
            # an implausible entry is stored when typed again with --confirm (as hub enter)
            again = " (--confirm)" if isinstance(exc, NeedsConfirmation) else ""
            print(f"hub {args.command}: {error_text(exc, tsh.ui_lang())}{again}", file=sys.stderr)
            return 2

    return wrapper


def _write(args: argparse.Namespace, text: str) -> None:
    if getattr(args, "output", None):
        Path(args.output).write_text(text, encoding="utf-8")
        print(t("cli.wrote", tsh.ui_lang(), path=args.output), file=sys.stderr)
    else:
        sys.stdout.write(text)


@_run
def _init(tour: Tournament, args: argparse.Namespace) -> None:
    tour.configure(
        name=args.name,
        rules=args.rules,
        rounds=args.rounds,
        protest_minutes=args.protest_minutes,
        max_score=args.max_score,
        overrides=_overrides(args.set),
        place=args.place,
        referee=args.referee,
        date=args.date,
    )
    print(json.dumps(tour.settings(), ensure_ascii=False, indent=1))


@_run
def _info(tour: Tournament, args: argparse.Namespace) -> None:
    print(
        json.dumps(tour.settings() | {"divisions": tour.divisions()}, ensure_ascii=False, indent=1)
    )


@_run
def _players_import(tour: Tournament, args: argparse.Namespace) -> None:
    added = tour.import_players_csv(
        Path(args.file).read_text(encoding="utf-8-sig"), division=args.division, who=args.who
    )
    print(t("cli.players.imported", tsh.ui_lang(), n=len(added)))


@_run
def _players_list(tour: Tournament, args: argparse.Namespace) -> None:
    many = len(tour.divisions()) > 1
    for p in tour.players(args.division):
        status = "withdrawn" if p.withdrawn else "paused" if p.paused else "active"
        state = t(f"cli.player.{status}", tsh.ui_lang())
        mark = "✓" if p.checked_in else " "
        group = f" {p.division:<8}" if many else ""
        print(f"{p.id:4} {mark}{group} {p.name:<30} {p.club:<20} {p.rating:5} {state}")


@_run
def _players_add(tour: Tournament, args: argparse.Namespace) -> None:
    p = tour.add_player(
        args.name, club=args.club, rating=args.rating, division=args.division, who=args.who
    )
    print(t("cli.players.added", tsh.ui_lang(), id=p.id, name=p.name))


@_run
def _players_checkin(tour: Tournament, args: argparse.Namespace) -> None:
    for pid in args.ids:
        tour.check_in(pid, who=args.who, present=not args.undo)


@_run
def _players_withdraw(tour: Tournament, args: argparse.Namespace) -> None:
    if args.rest:
        if args.temporary:
            raise TournamentError(t("cli.withdraw.rest_temporary", tsh.ui_lang()))
        rounds = tour.withdraw_rest(args.id, who=args.who)
        lang = tsh.ui_lang()
        name = tour.player(args.id).name
        for r in rounds:
            print(t("cli.withdraw.forfeited", lang, name=name, round=r))
        print(t("cli.withdraw.rest", lang, name=name))
        return
    tour.withdraw(args.id, temporary=args.temporary, who=args.who)


@_run
def _result_undo(tour: Tournament, args: argparse.Namespace) -> None:
    tour.undo_result(args.round, args.table, who=args.who, note=args.note)
    print(t("cli.undo.result", tsh.ui_lang(), round=args.round, table=args.table))


@_run
def _players_return(tour: Tournament, args: argparse.Namespace) -> None:
    tour.reinstate(args.id, who=args.who)


@_run
def _round_pair(tour: Tournament, args: argparse.Namespace) -> None:
    pairing = tour.pair(
        args.round,
        seed=args.seed,
        force=args.force,
        method=args.method,
        allow_rematch=args.allow_rematch,
        beyond=args.beyond,
        division=args.division,
    )
    players = {p.id: p for p in tour.players()}
    sys.stdout.write(exports.pairings_csv(pairing, players))
    if args.explain:
        sys.stderr.write(exports.pairings_explain(pairing, players, tsh.ui_lang()))


@_run
def _result_add(tour: Tournament, args: argparse.Namespace) -> None:
    outcome = tour.record_result(
        args.round,
        args.table,
        args.player,
        args.opponent,
        args.score,
        args.opponent_score,
        started=args.started,
        source=args.source,
        who=args.who,
        correct=args.correct,
        kind=args.kind,
        forfeited=args.forfeited,
        confirm=args.confirm,
    )
    lang = tsh.ui_lang()
    for warning in outcome.warnings:
        print(t("tsh.warning", lang, text=localize(warning, lang)), file=sys.stderr)
    print(t(f"dash.outcome.{outcome.status}", lang))


@_run
def _result_list(tour: Tournament, args: argparse.Namespace) -> None:
    for r in tour.results(args.round):
        print(json.dumps(r, ensure_ascii=False))


@_run
def _missing(tour: Tournament, args: argparse.Namespace) -> int:
    if args.round is None:
        args.round = tour.last_round()
    missing = tour.missing_results(args.round, division=args.division)
    lang = tsh.ui_lang()
    for m in missing:
        status = t(f"dash.state.{m['status']}", lang)
        table = t("kiosk.check.table_info", lang, table=m["table"])
        print(f"{table}: {m['first']} – {m['second']} ({status})")
    return 1 if missing else 0


def _publish(args: argparse.Namespace) -> int:
    """The one publication of a round (as ``hub publish-round N`` and the dashboard's F6):
    results, protest window, standings to the stations, the hall screen."""
    from samoobsluha.hub.commands.dashboard import publish_round

    return publish_round(args.round, who=args.who, db=args.db)


@_run
def _disputes(tour: Tournament, args: argparse.Namespace) -> int:
    from samoobsluha.hub.commands.dashboard import dispute_line

    lang = tsh.ui_lang()
    rows = tour.disputes(args.round)
    for d in rows:
        print(dispute_line(tour, d, lang))
    if not rows:
        print(t("cli.disputes.none", lang))
    return 1 if rows else 0


@_run
def _resolve(tour: Tournament, args: argparse.Namespace) -> None:
    outcome = tour.resolve_dispute(args.id, take=args.decision == "take", who=args.who)
    print(t(f"dash.outcome.{outcome.status}", tsh.ui_lang()))


@_run
def _finalise(tour: Tournament, args: argparse.Namespace) -> None:
    done = tour.finalise(args.round, early=args.early, who=args.who)
    print(t("cli.finalised", tsh.ui_lang(), round=args.round, n=done))


@_run
def _protest(tour: Tournament, args: argparse.Namespace) -> None:
    if args.close:
        tour.close_protest(args.round, args.table, who=args.who, note=args.note)
        print(t("cli.protest.closed", tsh.ui_lang(), round=args.round, table=args.table))
    else:
        tour.lodge_protest(args.round, args.table, who=args.who, note=args.note)
        print(t("cli.protest.lodged", tsh.ui_lang(), round=args.round, table=args.table))


@_run
def _audit(tour: Tournament, args: argparse.Namespace) -> None:
    for row in tour.audit(args.round):
        print(json.dumps(row, ensure_ascii=False))


@_run
def _export(tour: Tournament, args: argparse.Namespace) -> None:
    link = None
    pdf = args.pdf or (args.output or "").lower().endswith(".pdf")
    fmt = "html" if pdf else args.format
    if args.what == "pairings" and fmt == "html":
        from samoobsluha.hub.service import HubService
        from samoobsluha.hub.web.qr import print_link

        link = print_link(HubService())  # the running hub's hall screen, if any
    text = exports.render(
        tour,
        args.what,
        fmt,
        round_no=args.round,
        player=args.player,
        lang=args.lang,
        plain=args.plain,
        link=link,
        division=args.division,
    )
    if not pdf:
        _write(args, text)
        return
    from samoobsluha.hub.printpdf import html_to_pdf

    if not args.output:
        raise TournamentError("--pdf needs -o FILE.pdf")
    html_to_pdf(text, Path(args.output))
    print(t("cli.wrote", tsh.ui_lang(), path=args.output), file=sys.stderr)


@_run
def _export_tsh(tour: Tournament, args: argparse.Namespace) -> None:
    """One division's .t file; with several divisions and none named, the event as tsh
    keeps it: FILE is a folder that gets config.tsh and one .t per division."""
    if args.division is None and len(tour.divisions()) > 1:
        for path in tour.export_tsh_event(args.file):
            print(t("cli.wrote", tsh.ui_lang(), path=str(path)), file=sys.stderr)
        return
    tsh.write(tour.export_tsh(args.division), args.file)


@_run
def _import_tsh(tour: Tournament, args: argparse.Namespace) -> None:
    if tsh.is_config(args.file):
        n = tour.import_tsh_event(args.file, who=args.who)
    else:
        source = _read_tsh(args.file)
        n = tour.import_tsh_file(source, file=args.file, division=args.division, who=args.who)
    print(t("cli.players.imported_tsh", tsh.ui_lang(), n=n))


@_run
def _division_list(tour: Tournament, args: argparse.Namespace) -> None:
    for name in tour.divisions():
        players = tour.players(name)
        print(f"{name:<12} {len(players):4}  {tour.division_tsh_file(name)}")


@_run
def _division_add(tour: Tournament, args: argparse.Namespace) -> None:
    for name in args.names:
        tour.add_division(name, who=args.who)


@_run
def _division_rename(tour: Tournament, args: argparse.Namespace) -> None:
    tour.rename_division(args.old, args.new, who=args.who)


@_run
def _division_remove(tour: Tournament, args: argparse.Namespace) -> None:
    tour.remove_division(args.name, who=args.who)


@_run
def _players_move(tour: Tournament, args: argparse.Namespace) -> None:
    for pid in args.ids:
        tour.move_player(pid, args.division, who=args.who)


def _division_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--division",
        metavar="NAME",
        help="the division (group); default: the only one (hub division list)",
    )


def _db_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="FILE", help="hub database (default: DATA/hub.db)")
    p.add_argument("--who", default="operator", help="name recorded in the audit trail")


def _register_db(sub: argparse._SubParsersAction) -> None:
    tour = sub.add_parser("tournament", help="set up the tournament in the hub database")
    ts = tour.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")
    p = ts.add_parser("init", help="name, rule set, rounds, protest window")
    _db_args(p)
    p.add_argument("--name", default="")
    p.add_argument("--place", help="where it is played (printed on every A4 page)")
    p.add_argument("--referee", help="the chief referee (HR), for the association's report")
    p.add_argument("--date", help="the event's day(s), for the association's report")
    _rules_args(p, required=False)
    p.add_argument("--rounds", type=int, default=0, help="rounds planned (0 = open)")
    p.add_argument("--protest-minutes", type=int, default=30)
    p.add_argument(
        "--max-score",
        type=int,
        help="an operator's score above this needs --confirm (default 1000)",
    )
    p.set_defaults(func=_init)
    p = ts.add_parser("info", help="show the settings")
    _db_args(p)
    p.set_defaults(func=_info)
    p = ts.add_parser("publish", help="publish a round's results (starts the protest window)")
    _db_args(p)
    p.add_argument("round", type=int)
    p.set_defaults(func=_publish)
    p = ts.add_parser("missing", help="list tables without an agreed result (exit 1 if any)")
    _db_args(p)
    p.add_argument("round", type=int, nargs="?", help="default: the last paired round")
    _division_arg(p)
    p.set_defaults(func=_missing)
    p = ts.add_parser("finalise", help="make results final once the protest window closed")
    _db_args(p)
    p.add_argument("round", type=int)
    p.add_argument("--early", action="store_true", help="director approves before the window")
    p.set_defaults(func=_finalise)
    p = ts.add_parser(
        "export-tsh",
        help="write the tournament as a tsh .t file (several divisions: a folder with"
        " config.tsh and a .t per division, or one division's .t with --division)",
    )
    _db_args(p)
    p.add_argument("file")
    _division_arg(p)
    p.set_defaults(func=_export_tsh)
    p = ts.add_parser(
        "import-tsh",
        help="load players and results from a tsh .t file (into --division), or a whole"
        " event from tsh's config.tsh (its division lines)",
    )
    _db_args(p)
    p.add_argument("file")
    _division_arg(p)
    p.set_defaults(func=_import_tsh)

    div = sub.add_parser(
        "division", help="the hall's divisions (groups): each its own players and pairings"
    )
    ds = div.add_subparsers(dest="division_command", required=True, metavar="ACTION")
    p = ds.add_parser("list", help="divisions, their players and tsh files")
    _db_args(p)
    p.set_defaults(func=_division_list)
    p = ds.add_parser("add", help="add divisions (the first replaces an unused default A)")
    _db_args(p)
    p.add_argument("names", nargs="+")
    p.set_defaults(func=_division_add)
    p = ds.add_parser("rename", help="rename a division")
    _db_args(p)
    p.add_argument("old")
    p.add_argument("new")
    p.set_defaults(func=_division_rename)
    p = ds.add_parser("remove", help="remove a division nobody plays in")
    _db_args(p)
    p.add_argument("name")
    p.set_defaults(func=_division_remove)

    players = sub.add_parser("players", help="players: import, check-in, late entry, withdrawal")
    ps = players.add_subparsers(dest="players_command", required=True, metavar="ACTION")
    p = ps.add_parser("import", help="import players from CSV (name[,club][,rating], UTF-8)")
    _db_args(p)
    _division_arg(p)
    p.add_argument("file")
    p.set_defaults(func=_players_import)
    p = ps.add_parser("list", help="list players")
    _db_args(p)
    _division_arg(p)
    p.set_defaults(func=_players_list)
    p = ps.add_parser("add", help="add a player (late entry once round 1 is paired)")
    _db_args(p)
    _division_arg(p)
    p.add_argument("name")
    p.add_argument("--club", default="")
    p.add_argument("--rating", type=int, default=0)
    p.set_defaults(func=_players_add)
    p = ps.add_parser("checkin", help="mark players present (prezence)")
    _db_args(p)
    p.add_argument("ids", type=int, nargs="+")
    p.add_argument("--undo", action="store_true")
    p.set_defaults(func=_players_checkin)
    p = ps.add_parser("withdraw", help="withdraw a player (for good, or --temporary)")
    _db_args(p)
    p.add_argument("id", type=int)
    p.add_argument("--temporary", action="store_true")
    p.add_argument(
        "--rest",
        action="store_true",
        help="he leaves: his unplayed game of the latest round is forfeited against him too",
    )
    p.set_defaults(func=_players_withdraw)
    p = ps.add_parser("move", help="move players to another division (before they play)")
    _db_args(p)
    p.add_argument("ids", type=int, nargs="+")
    p.add_argument("--division", metavar="NAME", required=True)
    p.set_defaults(func=_players_move)
    p = ps.add_parser("return", help="bring back a temporarily withdrawn player")
    _db_args(p)
    p.add_argument("id", type=int)
    p.set_defaults(func=_players_return)

    from samoobsluha.hub.cli import command_group

    rs = command_group(sub, "round", "pair, start and change rounds")
    p = rs.add_parser("pair", help="pair round N and store it (CSV to stdout)")
    _db_args(p)
    _division_arg(p)
    p.add_argument("round", type=int)
    p.add_argument("--seed", type=int, default=None, help="default: a fresh seed, recorded")
    p.add_argument(
        "--method", choices=("lot", "rating", "swiss", "neighbours", "koth", "roundrobin")
    )
    p.add_argument("--force", action="store_true", help="pair despite missing results")
    p.add_argument(
        "--beyond",
        action="store_true",
        help="pair a round past the event's planned rounds (asked for, not silent)",
    )
    p.add_argument(
        "--allow-rematch",
        action="store_true",
        default=None,
        help="director's override: a rematch where the rule set forbids it (only if unavoidable)",
    )
    p.add_argument("--explain", action="store_true")
    p.set_defaults(func=_round_pair)

    res = sub.add_parser("result", help="enter and check results")
    rs = res.add_subparsers(dest="result_command", required=True, metavar="ACTION")
    p = rs.add_parser(
        "add",
        help="enter a result: ROUND TABLE PLAYER OPPONENT SCORE OPPONENT_SCORE --started ID",
    )
    _db_args(p)
    for name in ("round", "table", "player", "opponent", "score", "opponent_score"):
        p.add_argument(name, type=int)
    p.add_argument(
        "--started",
        "--first",  # its former name, kept for scripts
        dest="started",
        type=int,
        help="id of the player who started the game (default: the pairing's first player)",
    )
    p.add_argument("--source", choices=("operator", "station"), default="operator")
    p.add_argument("--correct", action="store_true", help="replace an earlier entry")
    p.add_argument("--kind", choices=("played", "forfeit", "double_forfeit"), default="played")
    p.add_argument("--forfeited", type=int, help="id of the player forfeited against")
    p.add_argument(
        "--confirm", action="store_true", help="store an implausible score (0:0, above max)"
    )
    p.set_defaults(func=_result_add)
    p = rs.add_parser("disputes", help="late entries that differ from published results")
    _db_args(p)
    p.add_argument("round", type=int, nargs="?")
    p.set_defaults(func=_disputes)
    p = rs.add_parser("resolve", help="keep a published result or take the disputed entry")
    _db_args(p)
    p.add_argument("id", type=int, help="the dispute's number (hub result disputes)")
    p.add_argument("decision", choices=("keep", "take"))
    p.set_defaults(func=_resolve)
    p = rs.add_parser("undo", help="take back a mistaken result before publication (audited)")
    _db_args(p)
    p.add_argument("round", type=int)
    p.add_argument("table", type=int)
    p.add_argument("--note", default="", help="why (the audit trail)")
    p.set_defaults(func=_result_undo)
    p = rs.add_parser("list", help="results of a round (JSON lines)")
    _db_args(p)
    p.add_argument("round", type=int)
    p.set_defaults(func=_result_list)
    p = rs.add_parser("protest", help="lodge (or --close) a protest that holds a result")
    _db_args(p)
    p.add_argument("round", type=int)
    p.add_argument("table", type=int)
    p.add_argument("--note", default="")
    p.add_argument("--close", action="store_true")
    p.set_defaults(func=_protest)
    p = rs.add_parser("audit", help="the audit trail (JSON lines)")
    _db_args(p)
    p.add_argument("round", type=int, nargs="?")
    p.set_defaults(func=_audit)

    exp = sub.add_parser(
        "export",
        help="standings, pairings, results, scorecards, prizes, categories, sanctions:"
        " CSV, A4 HTML or PDF, JSON",
    )
    _db_args(exp)
    exp.add_argument("what", choices=exports.EXPORTS)
    exp.add_argument("--round", type=int)
    exp.add_argument("--player", type=int, help="player id for a scorecard")
    exp.add_argument("--format", choices=("csv", "html", "json"), default="csv")
    exp.add_argument("--lang", choices=("cs", "sk", "en", "pl"), default="cs")
    exp.add_argument(
        "--plain",
        action="store_true",
        help="CSV for other tools: English column names, ',' and '.' (default: for Excel in "
        "--lang: BOM, ';', decimal commas in cs/sk)",
    )
    exp.add_argument(
        "--pdf",
        action="store_true",
        help="print the A4 page to -o FILE.pdf with headless Chromium (also when FILE ends .pdf)",
    )
    exp.add_argument("-o", "--output", metavar="FILE")
    _division_arg(exp)
    exp.set_defaults(func=_export)

"""``hub serve`` and the commands that act on the running server.

``hub serve``                  run the hub (TCP + zeroconf + local control socket + hall screen)
``hub stations``               what every station last reported
``hub round start N``          start round N a few seconds from now (``--at``, ``--in``)
``hub round delay|extend N S`` move the start / add minutes; ``pause|resume|cancel N``
``hub round list``             planned rounds and their phase (a table; ``--json`` for scripts)
``hub gong [SIGNAL]``          every station rings now (in unison)
``hub publish KIND FILE``      send config / pairings / standings (JSON file) to stations
``hub push-lexicon FILE``      send a lexicon to every station that lacks it
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import signal
import sys
import time
from pathlib import Path
from typing import Any

from samoobsluha.shared import protocol
from samoobsluha.shared.address import format_hostport
from samoobsluha.shared.i18n import Phrase, cli_language, decimal, error_text, localize, t
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.protocol import HallKeys

# seconds a thread may keep the GIL while another waits (Python's default: 5 ms); the
# same as the station's (station/bell.py)
SWITCH_INTERVAL = 0.001


def _serve(args: argparse.Namespace) -> int:
    from samoobsluha.hub import control, quota, store
    from samoobsluha.hub.server import HubServer
    from samoobsluha.hub.web import start_for_hub
    from samoobsluha.shared.storage import open_db

    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    db = open_db(store.db_path(), store.migrations)
    tournament, hub_id, created = store.ensure_identity(db)
    db.close()
    key_file = store.key_path()
    psk, key_created = store.ensure_key(key_file)
    if created or key_created:
        # never the secret itself: stdout ends up in the journal
        public = HallKeys(psk).public_key.hex()
        print(
            f"New tournament {tournament} (hub {hub_id}).\n"
            f"The hall secret is in {key_file} (readable only by you); it never leaves this\n"
            f"machine. Each station gets its own key: `hub provision station …` writes it onto\n"
            f"the card, or `hub key station NAME --out FILE`. Hub public key: {public}\n",
            flush=True,
        )

    from samoobsluha.hub.backup import BackupError, load_settings

    try:
        backup = load_settings(data_dir(), args.backup_dir)
    except BackupError as exc:
        print(f"hub serve: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    from samoobsluha.hub import standby

    standby_port = args.standby_port
    if standby_port is None:  # the hub card's configuration: [standby] port in hub.toml
        try:
            standby_port = standby.load_settings(data_dir()).port
        except ValueError as exc:
            print(f"hub serve: {error_text(exc, cli_language())}", file=sys.stderr)
            return 2
    budget = quota.Budget(
        rows=args.budget_rows or quota.BUDGET.rows,
        bytes=int((args.budget_mb or quota.BUDGET.bytes / 2**20) * 2**20),
    )

    async def main() -> None:
        server = HubServer(
            store.db_path(),
            psk,
            host=args.host,
            port=args.port,
            advertise=not args.no_mdns,
            budget=budget,
            backup=backup,
            standby_port=standby_port,
            online_every=args.online_every,
        )
        await server.start()
        ctl = await control.start_control(server)
        screen = await start_for_hub(
            server, data_dir(), port=args.screen_port, enabled=False if args.no_screen else None
        )
        if args.port_file:
            Path(args.port_file).write_text(f"{server.port}\n")
        # hub serve's output is its log (the journal; tests and tools read "listening on"
        # and "hall screen"): English, like every log.
        print(
            f"hub {server.hub_id} of tournament {server.tournament} listening on "
            f"{format_hostport(args.host, server.port)}"
            + ("" if args.no_mdns else " (advertised via mDNS)"),
            flush=True,
        )
        if screen is not None:
            # the projector's address carries its token: it keeps a place of its own on
            # the hall screen however many streams other devices hold (hub.web.limits)
            for url, projector in zip(screen.urls(), screen.projector_urls(), strict=True):
                print(f"hall screen: {url} (projector: {projector})", flush=True)
        # Everything loaded so far lives as long as the process: out of the collector's
        # sight (gc.freeze), its collections scan only what ingest allocates. Measured
        # with bench/sync.py's light client (200,000 rows): the collector's time in a run
        # halved (0.22 -> 0.10 s), and two A/B pairs gave the hub 64 % and 57 % of the raw
        # baseline with it, 57 % and 48 % without.
        gc.collect()
        gc.freeze()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        ctl.close()
        control.socket_path().unlink(missing_ok=True)
        if screen is not None:
            await screen.close()
        await server.close()

    # The database thread gives up the GIL around every statement SQLite steps through;
    # with the event loop busy decoding frames it then waits up to the switch interval
    # each time to get it back. Ingest keeps those hand-overs few (store.store_received);
    # the interval bounds what each one costs (an executemany of 500 rows beside a busy
    # thread took nearly twice as long at Python's default 5 ms, ~20 % longer at 1 ms).
    sys.setswitchinterval(SWITCH_INTERVAL)
    asyncio.run(main())
    return 0


def _call(op: str, **args: Any) -> Any:
    from samoobsluha.hub.control import ControlError, request

    try:
        return request(op, **args)
    except ControlError as exc:
        print(f"hub: {error_text(exc, cli_language())}", file=sys.stderr)
        raise SystemExit(2) from None


def _show(result: Any) -> int:
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _stations(args: argparse.Namespace) -> int:
    rows = _call("stations")
    if args.json:
        return _show(rows)
    now = time.time()
    lang = cli_language()
    info = _call("info")
    if info.get("replaced_by"):
        print(t("warn.replaced", lang, hub=info["replaced_by"]))
    elsewhere = dict(info.get("followed_elsewhere") or {})
    for where in sorted(set(elsewhere.values())):  # stations follow another seat
        n = sum(1 for a in elsewhere.values() if a == where)
        print(t("warn.follows_elsewhere", lang, address=where, count=n))
    for rival in info.get("rivals") or []:  # first: nothing on this screen matters more
        print(_rival_line(rival, lang))
    backup_line = _backup_line(info.get("backup") or {}, lang, now)
    if backup_line:
        print(backup_line)
    for peer in info.get("standbys") or []:
        last = peer.get("last_copy_at")
        print(
            t(
                "cli.stations.standby",
                lang,
                address=peer.get("address", "?"),
                at=time.strftime("%H:%M:%S", time.localtime(last)) if last else "-",
                ago=f"{now - last:.0f}" if last else "-",
            )
        )
    for row in rows:
        st = row["status"]
        state = t("dash.online" if row["connected"] else "dash.offline", lang)
        flags = "".join(
            " " + t(f"cli.stations.{flag}", lang)
            for flag in ("stalled", "revoked", "cut_off", "over_budget")
            if row.get(flag)
        )
        synced = "synced" if st.get("clock_synced") else "unsynced"
        clock = t(f"cli.stations.{synced}", lang)
        value = float(st.get("clock_offset", 0.0))
        offset = ("+" if value >= 0 else "−") + decimal(abs(value), lang, 3) + " s"
        line = t(
            "cli.stations.row",
            lang,
            station=f"{row['station_id']:<16}",
            state=f"{state:<7}",
            ago=t("dash.ago", lang, s=f"{now - row['last_seen']:6.0f}"),
            rows=f"{row['contiguous']:>6}",
            backlog=f"{st.get('backlog', '?'):>5}",
            flags=flags,
            clock=clock,
            offset=offset + _uncertainty(st.get("clock_uncertainty"), lang),
            version=st.get("version", "?"),
            # the lexicon the station judges with (its file on disk without a kiosk)
            lexicon=str(st.get("lexicon_in_use_sha256") or st.get("lexicon_sha256") or "-")[:12],
        )
        if isinstance(st.get("config_version"), int):  # the hall configuration in use
            line += "  " + t("cli.stations.config", lang, version=_published_at(st))
        if row.get("rejected"):
            line += "  " + t("cli.stations.refused", lang, n=row["rejected"])
        for claimed, n in sorted((row.get("impersonated") or {}).items()):
            # the rows it sent in another station's name (a copied card?), all refused
            line += "  " + t("cli.stations.impersonated", lang, claimed=claimed, n=n)
        trust = st.get("lexicon_trust")  # shared/lextrust.py: whose word its lexicon is
        if trust in ("unsigned", "bad_signature"):
            line += "  " + t("cli.stations.lexicon_untrusted", lang)
        elif trust == "referee":
            line += "  " + t("cli.stations.lexicon_referee", lang)
        if isinstance(st.get("rows_lost"), int) and st["rows_lost"] > 0:  # station/log.py
            line += "  " + t("cli.stations.rows_lost", lang, n=st["rows_lost"])
        print(line)
    return 0


def _rival_line(rival: dict[str, Any], lang: str) -> str:
    """Another hub of this tournament announced on the hall network (hub.rivals)."""
    where = ", ".join(rival.get("addresses") or []) or "?"
    return t(
        "warn.two_hubs" if rival.get("same_key") else "warn.two_hubs_other_key",
        lang,
        hub=rival.get("hub") or rival.get("name") or "?",
        address=f"{where}:{rival.get('port', '?')}",
    )


def _backup_line(status: dict[str, Any], lang: str, now: float) -> str:
    """How the automatic backups go, for ``hub stations``: loud when they fail."""
    if not status.get("folder"):
        return t("cli.stations.backup_off", lang)
    if status.get("error"):
        return t(
            "cli.stations.backup_failing",
            lang,
            folder=status["folder"],
            error=backup_reason(status, lang),
        )
    if status.get("last_at") is None:
        return t("cli.stations.backup_none", lang, folder=status["folder"])
    return t(
        "cli.stations.backup_ok",
        lang,
        folder=status["folder"],
        at=time.strftime("%H:%M:%S", time.localtime(status["last_at"])),
        minutes=max(0, int((now - status["last_at"]) // 60)),
    )


def backup_reason(status: dict[str, Any], lang: str) -> str:
    """Why the automatic backups fail, in ``lang``: the reason the hub sent as data (the
    system's error as a catalogue message); the English text of a hub that sent none."""
    why = status.get("error_reason")
    if why is None:
        return str(status.get("error") or "")
    return localize(Phrase.from_data(why), lang)


def _published_at(status: dict[str, Any]) -> str:
    """When the hub published the configuration a station uses (its version is the hub's
    time in milliseconds)."""
    return time.strftime("%H:%M:%S", time.localtime(status["config_version"] / 1000))


JSON_HELP = "the hub's record as JSON (epoch seconds), for scripts"


def _uncertainty(value: Any, lang: str = "en") -> str:
    if not isinstance(value, int | float):
        return ""
    return f" ±{decimal(value * 1000, lang, 1)} ms"


def _round(args: argparse.Namespace) -> int:
    from samoobsluha.hub.commands.round_list import AtError, parse_at, render_rounds

    if args.action == "list":
        rows = _rounds_anyhow()
        if args.json:
            return _show(rows)
        print(render_rounds(rows, cli_language(), time.time()), end="")
        return 0
    if args.action == "start":
        req: dict[str, Any] = {"number": args.number}
        if args.at is not None:
            try:
                req["at"] = parse_at(args.at, time.time())
            except AtError as exc:
                print(f"hub round start: {error_text(exc, cli_language())}", file=sys.stderr)
                return 2
        if args.in_ is not None:
            req["lead"] = args.in_
        if args.basic is not None:
            req["basic_seconds"] = args.basic
        if args.warning is not None:
            req["warning_seconds"] = args.warning
        if args.force:
            req["force"] = True
        return _said(args, _call("start_round", **req), _plan_lines)
    changed = _call(
        "change_round", number=args.number, action=args.action, seconds=args.seconds or 0
    )
    return _said(args, changed, _plan_lines)


def _said(args: argparse.Namespace, result: Any, lines: Any) -> int:
    """What the hub did, for the operator in his language (``lines(result, lang)``), or the
    hub's own record as JSON with ``--json`` (scripts, the tests' real processes)."""
    if getattr(args, "json", False):
        return _show(result)
    for line in lines(result, cli_language()):
        print(line)
    return 0


def _sent_line(result: dict[str, Any], lang: str) -> str:
    """Which stations took it: a hall with none online is said as a warning, not hidden."""
    sent = sorted(result.get("sent_to") or [])
    if not sent:
        return t("cli.sent.nobody", lang)
    return t("dash.sent", lang, stations=", ".join(sent))


def _plan_lines(result: dict[str, Any], lang: str) -> list[str]:
    """A round plan the hub sent: its start, warning and end on this machine's clock (or
    paused, cancelled), and the stations that took it."""
    from samoobsluha.hub.commands.round_list import hms
    from samoobsluha.shared.rounds import RoundPlan

    plan = RoundPlan.from_dict(dict(result["plan"]))
    if plan.cancelled:
        head = t("cli.plan.cancelled", lang, n=plan.number)
    elif plan.paused_at is not None:
        head = t("cli.plan.paused", lang, n=plan.number, at=hms(plan.paused_at))
    else:
        head = t(
            "cli.plan.times",
            lang,
            n=plan.number,
            start=hms(plan.start_at),
            minutes=round(plan.warning_seconds / 60),
            warning=hms(plan.warning_at()),
            end=hms(plan.end_at()),
        )
    return [head, _sent_line(result, lang)]


def _gong_lines(result: dict[str, Any], lang: str, signal: str = "start") -> list[str]:
    from samoobsluha.hub.commands.round_list import hms

    what = t(f"cli.signal.{signal}", lang)
    return [
        t("cli.gong.at", lang, signal=what, at=hms(result["at"])),
        _sent_line(result, lang),
    ]


def _rounds_anyhow() -> list[dict[str, Any]]:
    """The running hub's round plans; with no hub running, the same records read from its
    database (the plans the stations were sent), said so on stderr."""
    from samoobsluha.hub import store
    from samoobsluha.hub.control import ControlError, request

    try:
        return list(request("rounds"))
    except ControlError as exc:
        if not store.db_path().exists():
            print(f"hub: {error_text(exc, cli_language())}", file=sys.stderr)
            raise SystemExit(2) from None
    from samoobsluha.shared.storage import open_db

    db = open_db(store.db_path(), store.migrations)
    try:
        plans = store.load_plans(db)
    finally:
        db.close()
    print(t("cli.round.from_db", cli_language(), path=store.db_path()), file=sys.stderr)
    now = time.time()
    out = []
    for plan in plans:
        status = plan.status(now)
        out.append(
            {"plan": plan.to_dict(), "phase": str(status.phase), "remaining": status.remaining}
        )
    return out


def _gong(args: argparse.Namespace) -> int:
    rung = _call("gong", signal=args.signal)
    return _said(args, rung, lambda r, lang: _gong_lines(r, lang, args.signal))


def _publish(args: argparse.Namespace) -> int:
    """Send a JSON file to the stations. The hub refuses (naming the key, exit code 2,
    nothing stored or sent) a config that is not what every station would use: only the
    keys of ``shared.checks.HALL_KEYS``, each valid as in a station's ``[kiosk]``."""
    lang = cli_language()
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(
            f"hub publish: {t('cli.publish.unreadable', lang, path=args.file, error=exc)}",
            file=sys.stderr,
        )
        return 2
    if args.kind == "config":  # refused here too: a bad file is told even with no hub running
        from samoobsluha.shared.checks import SettingsError, hall_settings

        try:
            hall_settings(data)
        except SettingsError as exc:
            print(f"hub publish: {error_text(exc, lang)}", file=sys.stderr)
            return 2
    return _show(_call("publish", kind=args.kind, data=data))


def _pin_set(args: argparse.Namespace) -> int:
    """Read the referee PIN (twice on a terminal, one line on stdin) and send its hash to
    every station over the hub link."""
    import getpass

    from samoobsluha.hub.auth import referee_pin_payload
    from samoobsluha.shared.pin import PinError, check_new_pin

    lang = cli_language()
    if args.per_station:
        from samoobsluha.hub.auth import per_station_pins

        try:
            pins, data = per_station_pins(_call("stations"))
        except PinError as exc:
            print(f"hub pin set: {error_text(exc, lang)}", file=sys.stderr)
            return 2
        result = _call("publish", kind="referee_pin", data=data)
        print(t("pin.per_station", lang))
        for name, pin in pins.items():
            print(f"  {name:<20} {pin}")
        _print_pin_result(result, lang)
        return 0
    if sys.stdin.isatty():
        pin = getpass.getpass(t("pin.ask", lang))
        if getpass.getpass(t("pin.again", lang)) != pin:
            print(t("pin.differ", lang), file=sys.stderr)
            return 2
    else:
        pin = sys.stdin.readline().rstrip("\n")
    try:
        check_new_pin(pin)
        data = referee_pin_payload(pin, _call("stations"))
    except PinError as exc:
        print(f"hub pin set: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    result = _call("publish", kind="referee_pin", data=data)
    _print_pin_result(result, lang)
    return 0


def _print_pin_result(result: dict[str, Any], lang: str) -> None:
    pending = sorted(set(result.get("stations", [])) - set(result.get("sent_to", [])))
    print(t("pin.sent", lang, stations=", ".join(result.get("sent_to") or []) or "-"))
    if pending:
        print(t("pin.pending", lang, stations=", ".join(pending)))


def _push_lexicon(args: argparse.Namespace) -> int:
    from samoobsluha.shared.lexicon import LexiconError, read_info

    try:
        read_info(args.file)  # refused here, in the operator's language, before the hub
    except LexiconError as exc:
        print(f"hub push-lexicon: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    pushed = _call("push_lexicon", file=str(Path(args.file).resolve()), timeout=60.0)
    return _said(args, pushed, lambda r, lang: [_sent_line(r, lang)])


def _key(args: argparse.Namespace) -> int:

    from samoobsluha.hub import auth, store
    from samoobsluha.shared.storage import open_db

    secret, _ = store.ensure_key(store.key_path())
    keys = HallKeys(secret)
    if args.action == "public":
        print(keys.public_key.hex())
        return 0
    if args.action == "revoke":
        from samoobsluha.hub.control import ControlError, request

        try:
            return _show(request("revoke", station=args.station))
        except ControlError:  # the hub is not running: record it for its next start
            db = open_db(store.db_path(), auth.migrations)
            try:
                bound = auth.revoke(db, args.station, time.time())
            finally:
                db.close()
            return _show({"station": args.station, "revoked_before": bound})
    out = Path(args.out)
    auth.write_station_key(store.db_path(), keys, args.station, out, time.time())
    print(t("cli.key.written", cli_language(), station=args.station, path=out))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    from samoobsluha.shared.cli import Text

    serve = sub.add_parser(
        "serve",
        help="run the hub: stations sync with it, it keeps the one clock",
        description=Text(
            "Run the hub. Data lives in {data} (or $SAMOOBSLUHA_DATA). The first run "
            "creates the tournament id and key and prints how to give them to the stations.",
            data=data_dir(),
        ),
    )
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=protocol.DEFAULT_PORT, help="TCP port")
    serve.add_argument("--no-mdns", action="store_true", help="do not advertise via zeroconf")
    serve.add_argument("--port-file", metavar="FILE", help="write the bound port here")
    serve.add_argument(
        "--screen-port", type=int, help="port of the hall screen (default: hub.toml, 8080)"
    )
    serve.add_argument("--no-screen", action="store_true", help="do not serve the hall screen")
    serve.add_argument(
        "--budget-rows",
        type=int,
        metavar="N",
        help="rows a station may have stored per round (default 8000; docs/network.md)",
    )
    serve.add_argument(
        "--budget-mb",
        type=float,
        metavar="MB",
        help="megabytes of rows a station may have stored per round (default 8)",
    )
    serve.add_argument(
        "--standby-port",
        type=int,
        metavar="PORT",
        help="serve copies to a standby hub (hub standby) on PORT (default: [standby] port "
        "in hub.toml; none: no standby link; docs/hall-setup.md)",
    )
    serve.add_argument(
        "--online-every",
        type=float,
        default=60.0,
        metavar="S",
        help="send results online (hub online target) every S seconds; 0: only by hand",
    )
    serve.add_argument(
        "--backup-dir",
        metavar="DIR",
        help="automatic backups into DIR (default: [backup] folder in hub.toml)",
    )
    serve.add_argument("-v", "--verbose", action="store_true")
    serve.set_defaults(func=_serve)

    st = sub.add_parser("stations", help="list stations and what they last reported")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=_stations)

    from samoobsluha.hub.cli import command_group

    rnd_sub = command_group(sub, "round", "pair, start and change rounds")
    start = rnd_sub.add_parser("start", help="start round N a few seconds from now")
    start.add_argument("number", type=int)
    when = start.add_mutually_exclusive_group()
    when.add_argument(
        "--at", metavar="HH:MM", help="start at this local time today (or epoch seconds)"
    )
    when.add_argument("--in", dest="in_", type=float, help="seconds from now (default 5)")
    start.add_argument("--basic", type=float, help="basic time in seconds (default 2400)")
    start.add_argument("--warning", type=float, help="warning before the end (default 600)")
    start.add_argument(
        "--force",
        action="store_true",
        help="start again a round that has begun, ended or has results (the referee confirmed)",
    )
    start.add_argument("--json", action="store_true", help=JSON_HELP)
    start.set_defaults(func=_round)
    for action, text in (("delay", "move the start later"), ("extend", "add time")):
        p = rnd_sub.add_parser(action, help=f"{text} by SECONDS")
        p.add_argument("number", type=int)
        p.add_argument("seconds", type=float)
        p.add_argument("--json", action="store_true", help=JSON_HELP)
        p.set_defaults(func=_round)
    for action in ("pause", "resume", "cancel"):
        p = rnd_sub.add_parser(action, help=f"{action} round N")
        p.add_argument("number", type=int)
        p.add_argument("--json", action="store_true", help=JSON_HELP)
        p.set_defaults(seconds=0, func=_round)
    lst = rnd_sub.add_parser("list", help="planned rounds: phase, local start and end, time left")
    lst.add_argument("--json", action="store_true", help="the records as JSON (epoch seconds)")
    lst.set_defaults(func=_round)

    gong = sub.add_parser("gong", help="every station rings now, in unison")
    gong.add_argument("signal", nargs="?", default="start", choices=("start", "warning", "end"))
    gong.add_argument("--json", action="store_true", help=JSON_HELP)
    gong.set_defaults(func=_gong)

    pub = sub.add_parser("publish", help="send config, pairings or standings to the stations")
    pub.add_argument("kind", choices=("config", "pairings", "standings"))
    pub.add_argument("file", help="JSON file")
    pub.set_defaults(func=_publish)

    key_sub = command_group(sub, "key", "station keys: issue, revoke, the hub's public key")
    k = key_sub.add_parser("station", help="write a key for station NAME (mode 0600)")
    k.add_argument("station")
    k.add_argument("--out", required=True, metavar="FILE")
    k.set_defaults(func=_key)
    k = key_sub.add_parser("revoke", help="refuse every key issued so far to station NAME")
    k.add_argument("station")
    k.set_defaults(func=_key)
    key_sub.add_parser("public", help="print the hub's public key").set_defaults(func=_key)
    pin = command_group(sub, "pin", "the referee PIN of every station")
    pin_set = pin.add_parser(
        "set",
        help="send a new referee PIN to every station the hub knows, each its own salted "
        "hash (asked twice; or one line on stdin)",
    )
    pin_set.add_argument(
        "--per-station",
        action="store_true",
        help="a different random 6-digit PIN for each station, printed here once: a PIN "
        "cracked from a copied card then opens that station only",
    )
    pin_set.set_defaults(func=_pin_set)

    lex = sub.add_parser("push-lexicon", help="send a lexicon file to the stations")
    lex.add_argument("file")
    lex.add_argument("--json", action="store_true", help=JSON_HELP)
    lex.set_defaults(func=_push_lexicon)

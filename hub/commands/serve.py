"""``hub serve`` and the commands that act on the running server.

``hub serve``                  run the hub (TCP + zeroconf + local control socket)
``hub stations``               what every station last reported
``hub round start N``          start round N a few seconds from now (``--at``, ``--in``)
``hub round delay|extend N S`` move the start / add minutes; ``pause|resume|cancel N``
``hub round list``             planned rounds and their phase
``hub gong [SIGNAL]``          every station rings now (in unison)
``hub publish KIND FILE``      send config / pairings / standings (JSON file) to stations
``hub push-lexicon FILE``      send a lexicon to every station that lacks it
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
import time
from pathlib import Path
from typing import Any

from samoobsluha.shared import protocol
from samoobsluha.shared.paths import data_dir


def _serve(args: argparse.Namespace) -> int:
    from samoobsluha.hub import control, store
    from samoobsluha.hub.server import HubServer
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
        print(
            f"New tournament {tournament} (hub {hub_id}).\n"
            f"The tournament key is in {key_file} (readable only by you). Give every station\n"
            f"this key and id (provisioning writes them onto the station's card):\n\n"
            f"    [network]\n"
            f'    tournament_id = "{tournament}"\n'
            f'    psk_file = "/etc/samoobsluha/tournament.key"   # a copy of {key_file.name}\n\n'
            # Never the key itself: this goes to the terminal and the journal.
            f"    (hub provision station --psk-file {key_file} ... copies it)\n",
            flush=True,
        )

    async def main() -> None:
        server = HubServer(
            store.db_path(), psk, host=args.host, port=args.port, advertise=not args.no_mdns
        )
        await server.start()
        ctl = await control.start_control(server)
        if args.port_file:
            Path(args.port_file).write_text(f"{server.port}\n")
        print(
            f"hub {server.hub_id} of tournament {server.tournament} listening on "
            f"{args.host}:{server.port}" + ("" if args.no_mdns else " (advertised via mDNS)"),
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        ctl.close()
        control.socket_path().unlink(missing_ok=True)
        await server.close()

    asyncio.run(main())
    return 0


def _call(op: str, **args: Any) -> Any:
    from samoobsluha.hub.control import ControlError, request

    try:
        return request(op, **args)
    except ControlError as exc:
        print(f"hub: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


def _show(result: Any) -> int:
    print(json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def _stations(args: argparse.Namespace) -> int:
    rows = _call("stations")
    if args.json:
        return _show(rows)
    now = time.time()
    for row in rows:
        st = row["status"]
        print(
            f"{row['station_id']:<16} {'online ' if row['connected'] else 'OFFLINE'} "
            f"seen {now - row['last_seen']:6.0f}s ago  rows {row['contiguous']:>6}  "
            f"backlog {st.get('backlog', '?'):>5}  clock "
            f"{'synced' if st.get('clock_synced') else 'NOT SYNCED'} "
            f"offset {st.get('clock_offset', 0.0):+.3f}s  "
            f"v{st.get('version', '?')} lex {str(st.get('lexicon_sha256') or '-')[:12]}"
        )
    return 0


def _round(args: argparse.Namespace) -> int:
    if args.action == "list":
        return _show(_call("rounds"))
    if args.action == "start":
        req: dict[str, Any] = {"number": args.number}
        if args.at is not None:
            req["at"] = args.at
        if args.in_ is not None:
            req["lead"] = args.in_
        if args.basic is not None:
            req["basic_seconds"] = args.basic
        if args.warning is not None:
            req["warning_seconds"] = args.warning
        return _show(_call("start_round", **req))
    return _show(
        _call("change_round", number=args.number, action=args.action, seconds=args.seconds or 0)
    )


def _gong(args: argparse.Namespace) -> int:
    return _show(_call("gong", signal=args.signal))


def _publish(args: argparse.Namespace) -> int:
    data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    return _show(_call("publish", kind=args.kind, data=data))


def _push_lexicon(args: argparse.Namespace) -> int:
    return _show(_call("push_lexicon", path=str(Path(args.file).resolve()), timeout=60.0))


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser(
        "serve",
        help="run the hub: stations sync with it, it keeps the one clock",
        description=(
            f"Run the hub. Data lives in {data_dir()} (or $SAMOOBSLUHA_DATA). The first run "
            "creates the tournament id and key and prints how to give them to the stations."
        ),
    )
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=protocol.DEFAULT_PORT, help="TCP port")
    serve.add_argument("--no-mdns", action="store_true", help="do not advertise via zeroconf")
    serve.add_argument("--port-file", metavar="FILE", help="write the bound port here")
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
    when.add_argument("--at", type=float, help="start instant (hub time, epoch seconds)")
    when.add_argument("--in", dest="in_", type=float, help="seconds from now (default 5)")
    start.add_argument("--basic", type=float, help="basic time in seconds (default 2400)")
    start.add_argument("--warning", type=float, help="warning before the end (default 600)")
    start.set_defaults(func=_round)
    for action, text in (("delay", "move the start later"), ("extend", "add time")):
        p = rnd_sub.add_parser(action, help=f"{text} by SECONDS")
        p.add_argument("number", type=int)
        p.add_argument("seconds", type=float)
        p.set_defaults(func=_round)
    for action in ("pause", "resume", "cancel"):
        p = rnd_sub.add_parser(action, help=f"{action} round N")
        p.add_argument("number", type=int)
        p.set_defaults(seconds=0, func=_round)
    rnd_sub.add_parser("list", help="planned rounds").set_defaults(func=_round)

    gong = sub.add_parser("gong", help="every station rings now, in unison")
    gong.add_argument("signal", nargs="?", default="start", choices=("start", "warning", "end"))
    gong.set_defaults(func=_gong)

    pub = sub.add_parser("publish", help="send config, pairings or standings to the stations")
    pub.add_argument("kind", choices=("config", "pairings", "standings"))
    pub.add_argument("file", help="JSON file")
    pub.set_defaults(func=_publish)

    lex = sub.add_parser("push-lexicon", help="send a lexicon file to the stations")
    lex.add_argument("file")
    lex.set_defaults(func=_push_lexicon)

"""``station simulate``: simulated players at this station (demo, training); see
:mod:`station.simulate`. Run it beside ``station daemon`` on the same data directory."""

from __future__ import annotations

import argparse
import sys
import time


def _simulate(args: argparse.Namespace) -> int:
    import json
    import sqlite3

    from samoobsluha.shared.i18n import cli_language, error_text
    from samoobsluha.shared.lexicon import Lexicon, LexiconError, ensure_default_lexicon
    from samoobsluha.station import config as station_config
    from samoobsluha.station import rounds
    from samoobsluha.station.log import KioskStore
    from samoobsluha.station.simulate import Simulator
    from samoobsluha.station.sync import migrations as sync_migrations

    try:
        cfg = station_config.load(args.config)
        path = args.lexicon or cfg.lexicon or ensure_default_lexicon("cs")
        lexicon = Lexicon.open(path)
    except (station_config.ConfigError, LexiconError) as exc:
        print(f"station simulate: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    for attempt in range(50):  # the daemon may be creating the same tables right now
        try:
            store = KioskStore.open(station_config.station_db_path(), cfg.name)
            with store._lock:
                rounds.migrations.apply(store.db)  # round_plans: the hub's plans
                sync_migrations.apply(store.db)  # hub_items (the sync's tables)
            break
        except sqlite3.OperationalError:
            if attempt == 49:
                raise
            time.sleep(0.2)
    sim = Simulator(store, lexicon, seed=args.seed, index=args.index, of=args.of)
    done = 0
    try:
        while args.count == 0 or done < args.count:
            logged = sim.check()
            if logged:
                done += 1
                print(json.dumps({"event": "check", **logged}, ensure_ascii=False), flush=True)
            if args.results:
                for table in sim.enter_results(time.time() + args.hub_offset):
                    print(json.dumps({"event": "result", "table": table}), flush=True)
            time.sleep(args.every * (0.5 + sim.rng.random()))
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="simulated players checking words here (demo); run beside station daemon",
    )
    p.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    p.add_argument("--lexicon", metavar="FILE")
    p.add_argument("--every", type=float, default=20.0, help="mean seconds between checks")
    p.add_argument("--count", type=int, default=0, help="stop after this many checks (0: never)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--results", action="store_true", help="enter results after each round")
    p.add_argument("--index", type=int, default=0, help="this station's share of tables")
    p.add_argument("--of", type=int, default=1, help="number of stations sharing the tables")
    p.add_argument(
        "--hub-offset", type=float, default=0.0, help="hub time minus local time (seconds)"
    )
    p.set_defaults(func=_simulate)

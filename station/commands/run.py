"""``station run`` (the kiosk) and ``station pin set`` (the referee PIN).

``station run`` needs no arguments: the default Czech lexicon (built from the system
hunspell dictionary on first use), the station name from the hostname, tables 1–100, the
data directory from :func:`shared.paths.data_dir`. ``--lexicon FILE`` and ``--config FILE``
override; the ``[kiosk]`` section is described in docs/kiosk.md.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from collections.abc import Callable
from typing import Any

from samoobsluha.shared.clock import SystemClock
from samoobsluha.shared.i18n import LANGUAGES, t
from samoobsluha.station import config as station_config
from samoobsluha.station.checks import KioskSettings, SettingsError, hash_pin, is_pin_hash

# The lexicon (marisa-trie), the database (sqlite-utils) and GPIO (gpiozero) are
# imported where they are used: `station --help` builds this parser too.

EXIT_OK, EXIT_CONFIG = 0, 2


def load_settings(cfg: station_config.StationConfig) -> KioskSettings:
    return KioskSettings.from_section(cfg.section("kiosk"))


def build_app(
    args: argparse.Namespace,
    *,
    round_status: Callable[[], Any] | None = None,
    hub_status: Callable[[], Any] | None = None,
    gong_test: Callable[[], Any] | None = None,
    app_class: type | None = None,
) -> Any:
    """The kiosk app as ``station run`` starts it (also used by bench/kiosk.py)."""
    from samoobsluha.shared.lexicon import Lexicon, ensure_default_lexicon
    from samoobsluha.station import outbox
    from samoobsluha.station.app import KioskApp

    app_class = app_class or KioskApp
    from samoobsluha.station.log import KioskStore

    cfg = station_config.load(args.config)
    settings = load_settings(cfg)
    lang = settings.ui_language or cfg.ui_language
    lexicon_path = args.lexicon or cfg.lexicon
    if lexicon_path is None:
        lexicon_path = ensure_default_lexicon(
            args.lang, log=lambda msg: print(msg, file=sys.stderr)
        )
    # The content hash is checked in a thread while the screen starts; the first lookup
    # waits for it (a tampered file never judges).
    lexicon = Lexicon.open(lexicon_path, verify="background")
    store = KioskStore.open(station_config.station_db_path(), cfg.name)
    with store._lock:
        if outbox.meta(store.db, "station_id") != cfg.name:
            outbox.set_station_id(store.db, cfg.name)
    return app_class(
        lexicon=lexicon,
        store=store,
        settings=settings,
        station_name=cfg.name,
        ui_language=lang if lang in LANGUAGES else "cs",
        clock=SystemClock(),
        round_status=round_status,
        hub_status=hub_status,
        gong_test=gong_test,
    )


def is_networked(cfg: station_config.StationConfig) -> bool:
    """A station of a tournament (``[network] tournament_id``, written by provisioning)
    links to its hub; without one it runs standalone on its own clock."""
    return bool(str(cfg.section("network").get("tournament_id", "")).strip())


def _run(args: argparse.Namespace) -> int:
    """The kiosk together with the round clock and the gong in one asyncio loop, and with
    the hub link when the station belongs to a tournament."""
    from samoobsluha.shared.lexicon import LexiconError
    from samoobsluha.station.hardware import HardwareError

    try:
        linked = getattr(args, "linked", False)
        if not linked and (args.standalone or not is_networked(station_config.load(args.config))):
            return _run_standalone(args)
        from samoobsluha.station.linked import run_linked

        return run_linked(args)
    except (station_config.ConfigError, SettingsError) as exc:
        print(f"station run: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except LexiconError as exc:
        print(t("lexicon.unusable", "cs", error=exc), file=sys.stderr)
        return EXIT_CONFIG
    except HardwareError as exc:
        print(f"station run: {exc}", file=sys.stderr)
        return EXIT_CONFIG


def _run_standalone(args: argparse.Namespace) -> int:
    """A station on its own: rounds are started here (referee button, ``station round
    start``), kept on this machine's clock, and rung on its bell while the kiosk runs."""
    import asyncio

    from samoobsluha.station.commands.gong import tournament_of
    from samoobsluha.station.gong import GongConfig, RefereeActions, attach_button, build_gong
    from samoobsluha.station.hardware import guard_outputs
    from samoobsluha.station.rounds import RoundSchedule, SignalRunner

    cfg = station_config.load(args.config)
    gong_cfg = GongConfig.from_station(cfg)
    clock = SystemClock()

    async def main() -> int:
        schedule = RoundSchedule.open(
            station_config.station_db_path(),
            clock=clock,
            tournament=tournament_of(cfg),
            grace=gong_cfg.grace,
            playout_display=gong_cfg.playout_display_minutes * 60,
        )
        try:
            with build_gong(gong_cfg, clock=clock) as outputs:
                app = build_app(
                    args,
                    round_status=lambda: schedule.status(clock.now()),
                    gong_test=lambda: outputs.ring("start"),
                )
                runner = SignalRunner(schedule, clock, outputs)
                if outputs.button is not None:
                    actions = RefereeActions(
                        schedule, outputs.ring, config=gong_cfg, standalone=True
                    )
                    attach_button(outputs.button, actions, asyncio.get_running_loop())
                ringing = asyncio.create_task(runner.run())
                try:
                    code = await app.run_async(headless=args.headless)
                finally:
                    runner.stop()
                    ringing.cancel()
                    await asyncio.gather(ringing, return_exceptions=True)
                    app.store.close()
        finally:
            schedule.close()
        return int(code or 0)

    guard_outputs()
    # The bell must not wait for the UI thread to hand over the GIL (bench/gong.py).
    sys.setswitchinterval(0.001)
    return asyncio.run(main())


def _pin_set(args: argparse.Namespace) -> int:
    """Set the referee PIN in the station database (it overrides ``referee_pin_hash`` in
    the config file). Reads the PIN twice from the terminal, or once from stdin."""
    from samoobsluha.station.app import SETTING_PIN
    from samoobsluha.station.log import KioskStore

    if sys.stdin.isatty():
        pin = getpass.getpass("referee PIN: ")
        if getpass.getpass("again: ") != pin:
            print("station pin set: the two PINs differ; nothing changed", file=sys.stderr)
            return EXIT_CONFIG
    else:
        pin = sys.stdin.readline().rstrip("\n")
    try:
        stored = hash_pin(pin)
    except SettingsError as exc:
        print(f"station pin set: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if args.print_hash:
        print(stored)
        return EXIT_OK
    cfg = station_config.load(args.config)
    store = KioskStore.open(station_config.station_db_path(), cfg.name)
    try:
        store.set_setting(SETTING_PIN, stored)
        store.record_pin_attempt(True, time.time())  # a new PIN clears a lockout
    finally:
        store.close()
    print(f"referee PIN set in {station_config.station_db_path()}")
    return EXIT_OK


def _pin_clear(args: argparse.Namespace) -> int:
    from samoobsluha.station.app import SETTING_PIN
    from samoobsluha.station.log import KioskStore

    cfg = station_config.load(args.config)
    store = KioskStore.open(station_config.station_db_path(), cfg.name)
    try:
        store.set_setting(SETTING_PIN, None)
    finally:
        store.close()
    configured = cfg.section("kiosk").get("referee_pin_hash", "")
    if configured and is_pin_hash(str(configured)):
        print("station PIN removed; the config file's referee_pin_hash applies again")
    else:
        print("station PIN removed; the kiosk asks for a new one at the hidden key")
    return EXIT_OK


def _kiosk_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lexicon", metavar="FILE", help="lexicon file (default: built-in Czech)")
    p.add_argument(
        "--lang", default="cs", choices=("cs", "sk"), help="language of the default lexicon"
    )
    p.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    p.add_argument(
        "--hub", metavar="HOST:PORT", help="hub address, skipping mDNS (networked stations)"
    )
    p.add_argument("--log", metavar="FILE", help="write the sync and gong log here")
    p.add_argument("--headless", action="store_true", help=argparse.SUPPRESS)


def register(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser(
        "run",
        help="the word-check kiosk (full screen; only the referee's PIN quits it)",
        description=(
            "Start the kiosk with the round clock and the gong. No arguments needed: the "
            "default Czech lexicon, the station name from the hostname, tables 1-100. The "
            "[kiosk] section of the config file sets tables, limits, timeouts and keys "
            "(docs/kiosk.md). With [network] tournament_id the station links to its hub "
            "(rounds, clock, pairings come from there; docs/network.md); without it, rounds "
            "are started here and kept on this machine's clock."
        ),
    )
    _kiosk_arguments(run)
    run.add_argument(
        "--standalone",
        action="store_true",
        help="ignore [network]: rounds on this station's own clock, no hub",
    )
    run.set_defaults(func=_run)

    linked = sub.add_parser(
        "linked",
        help="station run, always linked to the hub (what ./dev demo runs in its kiosk pane)",
        description=(
            "The kiosk together with the hub link ([network] in the config), the round clock "
            "on the hub's time and the gong — station run of a tournament's station, also "
            "when the config names no tournament (mDNS finds the hub)."
        ),
    )
    _kiosk_arguments(linked)
    linked.set_defaults(func=_run, linked=True, standalone=False)

    pin = sub.add_parser(
        "pin",
        help="set or clear the referee PIN of this station",
        description="The referee PIN opens the kiosk's referee screen (hidden key, F12).",
    )
    pin_sub = pin.add_subparsers(dest="pin_command", required=True, metavar="ACTION")
    pin_set = pin_sub.add_parser("set", help="set the PIN (asked twice; or one line on stdin)")
    pin_set.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    pin_set.add_argument(
        "--print-hash",
        action="store_true",
        help="only print the salted hash, for referee_pin_hash in a config file",
    )
    pin_set.set_defaults(func=_pin_set)
    pin_clear = pin_sub.add_parser("clear", help="remove the PIN set on this station")
    pin_clear.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    pin_clear.set_defaults(func=_pin_clear)

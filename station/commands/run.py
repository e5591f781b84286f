"""``station run`` (the kiosk), ``station pin set`` (the referee PIN) and ``station
settings`` (the kiosk settings in effect, and where each comes from).

``station run`` needs no arguments: the default Czech lexicon (built from the system
hunspell dictionary on first use), the station name from the hostname, tables 1–100, the
data directory from :func:`shared.paths.data_dir`. ``--lexicon FILE`` and ``--config FILE``
override; the ``[kiosk]`` section is described in docs/kiosk.md.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # not `typing`'s: `station --help` builds this parser too
if TYPE_CHECKING:
    from typing import Any

    from samoobsluha.station.runtime import RuntimeOptions

# The runtime (asyncio), the lexicon (marisa-trie), the database (sqlite-utils), GPIO
# (gpiozero), the config and the catalogue are imported where they are used:
# `station --help` builds this parser too.

EXIT_OK, EXIT_CONFIG = 0, 2


def options_from(args: argparse.Namespace, **overrides: Any) -> RuntimeOptions:
    """The runtime options ``station run`` / ``station linked`` parsed."""
    from pathlib import Path

    from samoobsluha.station.runtime import RuntimeOptions

    link: bool | None = None
    if getattr(args, "linked", False):
        link = True
    elif getattr(args, "standalone", False):
        link = False
    values: dict[str, Any] = {
        "kiosk": True,
        "link": link,
        "headless": args.headless,
        "lexicon": Path(args.lexicon) if args.lexicon else None,
        "lexicon_lang": args.lang,
        "hub": args.hub,
    }
    values.update(overrides)
    return RuntimeOptions(**values)


#: Imported by sqlite-utils when installed, only to accept their values as column types.
ARRAY_LIBRARIES = ("numpy", "pandas")


def _without_array_libraries() -> None:
    """Keep numpy and pandas out of the kiosk's process. sqlite-utils imports them at its
    own import when they are installed (a station venv sees the image's system packages;
    a development venv has numpy for the test extras' matplotlib) — a tenth of a second
    of start-up here, more on a Raspberry Pi, for types the station never stores. A
    ``None`` in ``sys.modules`` makes ``import numpy`` raise ImportError, which
    sqlite-utils handles as "not installed"."""
    for name in ARRAY_LIBRARIES:
        if name not in sys.modules:
            sys.modules[name] = None  # type: ignore[assignment]


def _run(args: argparse.Namespace) -> int:
    """The kiosk together with the round clock (on its own bell thread) and the gong, and with
    the hub link when the station belongs to a tournament (station/runtime.py)."""
    from samoobsluha.station.startup import defer_unused_imports, hold_collector

    hold_collector()  # released by the kiosk once its idle screen is painted
    _without_array_libraries()
    defer_unused_imports()  # sqlite-utils' recipes (dateutil): loaded if ever used
    import logging

    from samoobsluha.shared.checks import SettingsError
    from samoobsluha.shared.i18n import cli_language, error_text, reason, t
    from samoobsluha.shared.lexicon import LexiconError
    from samoobsluha.station import config as station_config
    from samoobsluha.station.hardware import HardwareError
    from samoobsluha.station.runtime import StationRuntime

    try:
        cfg = station_config.load(args.config)
        if args.log:
            logging.basicConfig(
                level=logging.INFO,
                filename=args.log,
                format=f"%(asctime)s {cfg.name} %(name)s %(levelname)s %(message)s",
            )
        return StationRuntime(cfg, options_from(args)).run()
    except (station_config.ConfigError, SettingsError) as exc:
        print(f"station run: {error_text(exc, cli_language())}", file=sys.stderr)
        return EXIT_CONFIG
    except LexiconError as exc:
        print(t("lexicon.unusable", cli_language(), error=reason(exc)), file=sys.stderr)
        return EXIT_CONFIG
    except HardwareError as exc:
        print(f"station run: {error_text(exc, cli_language())}", file=sys.stderr)
        return EXIT_CONFIG


def _pin_set(args: argparse.Namespace) -> int:
    """Set the referee PIN in the station database (it overrides ``referee_pin_hash`` in
    the config file). Reads the PIN twice from the terminal, or once from stdin."""
    import getpass
    import time

    from samoobsluha.shared.i18n import cli_language, t
    from samoobsluha.shared.pin import PIN_MIN_LENGTH, PinError, hash_pin
    from samoobsluha.station import config as station_config
    from samoobsluha.station.log import KioskStore

    lang = cli_language()
    if sys.stdin.isatty():
        pin = getpass.getpass(t("pin.ask", lang))
        if getpass.getpass(t("pin.again", lang)) != pin:
            print(f"station pin set: {t('pin.differ', lang)}", file=sys.stderr)
            return EXIT_CONFIG
    else:
        pin = sys.stdin.readline().rstrip("\n")
    try:
        stored = hash_pin(pin)
    except PinError:
        print(f"station pin set: {t('pin.too_short', lang, min=PIN_MIN_LENGTH)}", file=sys.stderr)
        return EXIT_CONFIG
    if args.print_hash:
        print(stored)
        return EXIT_OK
    cfg = station_config.load(args.config)
    store = KioskStore.open(station_config.station_db_path(), cfg.name)
    try:
        store.set_referee_pin(stored, time.time())  # a new PIN also clears a lockout
    finally:
        store.close()
    print(t("pin.set", lang, path=station_config.station_db_path()))
    return EXIT_OK


def _pin_clear(args: argparse.Namespace) -> int:
    import time

    from samoobsluha.shared.i18n import cli_language, t
    from samoobsluha.shared.pin import is_pin_hash
    from samoobsluha.station import config as station_config
    from samoobsluha.station.log import KioskStore

    cfg = station_config.load(args.config)
    store = KioskStore.open(station_config.station_db_path(), cfg.name)
    try:
        store.set_referee_pin(None, time.time())
    finally:
        store.close()
    configured = cfg.section("kiosk").get("referee_pin_hash", "")
    key = "pin.cleared_config" if configured and is_pin_hash(str(configured)) else "pin.cleared"
    print(t(key, cli_language()))
    return EXIT_OK


def _settings(args: argparse.Namespace) -> int:
    """Print the kiosk settings in effect and where each came from (the station's file,
    the hub's hall configuration with its version, the referee on this station, the
    default): what the kiosk uses from its next idle moment, and after a restart."""
    from samoobsluha.shared.checks import SettingsError
    from samoobsluha.shared.i18n import cli_language, error_text
    from samoobsluha.station import config as station_config
    from samoobsluha.station.log import KioskStore
    from samoobsluha.station.settings import SettingsInUse

    lang = cli_language()
    try:
        cfg = station_config.load(args.config)
        store = KioskStore.open(station_config.station_db_path(), cfg.name)
        try:
            with store._lock:
                owner = SettingsInUse.from_section(
                    cfg.section("kiosk"), store.db, file_path=cfg.path
                )
        finally:
            store.close()
    except (station_config.ConfigError, SettingsError) as exc:
        print(f"station settings: {error_text(exc, lang)}", file=sys.stderr)
        return EXIT_CONFIG
    print("\n".join(owner.describe(lang, cfg.name)))
    return EXIT_OK


def _kiosk_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lexicon", metavar="FILE", help="lexicon file (default: built-in Czech)")
    p.add_argument(
        "--lang", default="cs", choices=("cs", "sk", "pl"), help="language of the default lexicon"
    )
    p.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    p.add_argument(
        "--hub",
        metavar="HOST:PORT",
        type=_hub_address,
        help="hub address, IPv6 in brackets: [::1]:47820 (skips mDNS; networked stations)",
    )
    p.add_argument("--log", metavar="FILE", help="write the sync and gong log here")
    p.add_argument("--headless", action="store_true", help=argparse.SUPPRESS)


def _hub_address(text: str) -> str:
    from samoobsluha.station.link.discovery import hub_address_arg  # only when given

    return hub_address_arg(text)


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

    settings = sub.add_parser(
        "settings",
        help="the kiosk settings in effect and where each comes from (file, hub, referee)",
        description=(
            "Print the kiosk settings this station uses: its config file's [kiosk], the hall "
            "configuration the hub published last (hub publish config; its keys win), the "
            "table range the referee set on this station (the newer of it and the hall's "
            "wins), the defaults. docs/kiosk.md."
        ),
    )
    settings.add_argument("--config", metavar="FILE", help="station config file (TOML)")
    settings.set_defaults(func=_settings)

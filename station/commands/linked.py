"""``station linked``: the kiosk with the hub link, the hub clock and the gong in one
process (what ``./dev demo`` runs in the station's pane); see :mod:`station.linked`."""

from __future__ import annotations

import argparse
import sys


def _linked(args: argparse.Namespace) -> int:
    from shared.lexicon import LexiconError
    from station.checks import SettingsError
    from station.config import ConfigError
    from station.hardware import HardwareError
    from station.linked import run_linked

    try:
        return run_linked(args)
    except (ConfigError, SettingsError, LexiconError, HardwareError) as exc:
        print(f"station linked: {exc}", file=sys.stderr)
        return 2


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from station.linked import register_arguments

    p = sub.add_parser(
        "linked",
        help="the kiosk linked to the hub: sync, hub clock and gong in one process",
        description=(
            "The word-check kiosk together with the hub link ([network] in the config), the "
            "round clock on the hub's time and the gong (mock GPIO: audio or terminal bell)."
        ),
    )
    register_arguments(p)
    p.set_defaults(func=_linked)

"""``station`` command line."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module adds its subcommands with register(subparsers).
COMMAND_MODULES = (
    "station.commands.check",
    "station.commands.daemon",
    "station.commands.run",
    "station.commands.gong",
    "station.commands.linked",
    "station.commands.simulate",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="station",
        description="Samoobsluha station: the word-check kiosk in the hall.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``station`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from samoobsluha.shared import cli

# Each module adds its subcommands with register(subparsers).
COMMAND_MODULES = (
    "samoobsluha.station.commands.check",
    "samoobsluha.station.commands.run",
    "samoobsluha.station.commands.gong",
    "samoobsluha.station.commands.daemon",
    "samoobsluha.station.commands.simulate",
    "samoobsluha.station.commands.rehearse",
)
# Which module registers each command: running one imports only that module.
COMMANDS = {
    "check": "samoobsluha.station.commands.check",
    "run": "samoobsluha.station.commands.run",
    "linked": "samoobsluha.station.commands.run",
    "pin": "samoobsluha.station.commands.run",
    "settings": "samoobsluha.station.commands.run",
    "gong": "samoobsluha.station.commands.gong",
    "round": "samoobsluha.station.commands.gong",
    "daemon": "samoobsluha.station.commands.daemon",
    "simulate": "samoobsluha.station.commands.simulate",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; with ``argv``, only the module of the command in it is imported."""
    return cli.build_parser(
        "station",
        "Samoobsluha station: the word-check kiosk in the hall.",
        COMMAND_MODULES,
        commands=COMMANDS,
        argv=argv,
    )


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    return cli.run(build_parser(argv), argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

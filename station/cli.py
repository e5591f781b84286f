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


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "station",
        "Samoobsluha station: the word-check kiosk in the hall.",
        COMMAND_MODULES,
    )


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(build_parser(), argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

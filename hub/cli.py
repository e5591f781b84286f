"""``hub`` command line. Every dashboard action is also a subcommand here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from shared import cli

# Each module adds its subcommands with register(subparsers).
COMMAND_MODULES = (
    "hub.commands.lexicon",
    "hub.commands.tournament",
    "hub.commands.provision",
    "hub.commands.serve",
)


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "hub",
        "Samoobsluha hub: the referee's machine (lexicons, rounds, results, pairings).",
        COMMAND_MODULES,
    )


def main(argv: Sequence[str] | None = None) -> int:
    return cli.run(build_parser(), argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""``hub`` command line. Every dashboard action is also a subcommand here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from samoobsluha.shared import cli

# Each module adds its subcommands with register(subparsers).
COMMAND_MODULES = (
    "samoobsluha.hub.commands.lexicon",
    "samoobsluha.hub.commands.tournament",
    "samoobsluha.hub.commands.event",
    "samoobsluha.hub.commands.serve",
    "samoobsluha.hub.commands.run",
    "samoobsluha.hub.commands.dashboard",
    "samoobsluha.hub.commands.provision",
    "samoobsluha.hub.commands.rehearse",
    "samoobsluha.hub.commands.hubtime",
    "samoobsluha.hub.commands.refcheck",
    "samoobsluha.hub.commands.verify",
    "samoobsluha.hub.commands.rejudge",
    "samoobsluha.hub.commands.online",
)


def command_group(
    sub: argparse._SubParsersAction,
    name: str,
    help: str,
) -> argparse._SubParsersAction:
    """The actions of command group ``name`` (``hub round …``), created by the first module
    that asks, so several modules can add actions to one group (the engine's ``round pair``
    and the server's ``round start``). The chosen action is in ``args.action``."""
    groups = getattr(sub, "_samoobsluha_groups", None)
    if groups is None:
        groups = {}
        sub._samoobsluha_groups = groups  # type: ignore[attr-defined]
    if name not in groups:
        parser = sub.add_parser(name, help=help)
        groups[name] = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    return groups[name]


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

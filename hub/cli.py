"""``hub`` command line. Every dashboard action is also a subcommand here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module adds its subcommands with register(subparsers).
COMMAND_MODULES = (
    "hub.commands.lexicon",
    "hub.commands.tournament",
    "hub.commands.serve",
    "hub.commands.run",
    "hub.commands.dashboard",
)


def command_group(
    sub: argparse._SubParsersAction,  # type: ignore[type-arg]
    name: str,
    help: str,
) -> argparse._SubParsersAction:  # type: ignore[type-arg]
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
    parser = argparse.ArgumentParser(
        prog="hub",
        description="Samoobsluha hub: the referee's machine (lexicons, rounds, results, pairings).",
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

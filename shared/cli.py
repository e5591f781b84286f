"""The command-line frame both ``station`` and ``hub`` use: subcommand groups come from
modules that each provide ``register(subparsers)``, so a feature adds its commands in
its own module.

With ``commands`` (command name → the module that registers it) only the module of the
command being run is imported: ``station check`` on a Raspberry Pi must not pay for
importing the kiosk, SQLite helpers and GPIO just to build a parser. ``--help``, an
unknown command or no command at all register every module, so the listing is complete."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterable, Mapping, Sequence


def build_parser(
    prog: str,
    description: str,
    modules: Iterable[str],
    *,
    commands: Mapping[str, str] | None = None,
    argv: Sequence[str] | None = None,
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = _chosen_module(commands, argv)
    for name in [chosen] if chosen else modules:
        importlib.import_module(name).register(sub)
    return parser


def _chosen_module(commands: Mapping[str, str] | None, argv: Sequence[str] | None) -> str:
    """The one module needed for ``argv``, or "" when every module is (help, errors)."""
    if commands is None or argv is None:
        return ""
    for arg in argv:
        if arg.startswith("-"):
            return ""  # an option before the command: -h, or a typo argparse reports
        return commands.get(arg, "")
    return ""


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    args = parser.parse_args(argv)
    return int(args.func(args))

"""The command-line frame both ``station`` and ``hub`` use: subcommand groups come from
modules that each provide ``register(subparsers)``, so a feature adds its commands in
its own module."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Iterable, Sequence


def build_parser(prog: str, description: str, modules: Iterable[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    args = parser.parse_args(argv)
    return int(args.func(args))

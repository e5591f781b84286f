"""docs/tournament.md's director's walk through the event day and the ``hub`` command line
cannot drift apart: every command the walk names exists, is listed by its group's help
(``hub --help``, ``hub round --help`` …), and takes every option the walk gives it."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from samoobsluha.hub.cli import build_parser

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text()
WALK = DOCS[DOCS.index("## A director's event day") : DOCS.index("## Rules implemented")]


def _snippets() -> list[str]:
    # a command may break across lines in the docs
    return [" ".join(s.split()) for s in re.findall(r"`(hub [^`]+)`", WALK)]


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction | None:
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)


def test_the_walk_names_the_issues_commands() -> None:
    named = {" ".join(s.split()[:3]) for s in _snippets()}
    for command in (
        "hub category add",
        "hub prize add",
        "hub prize table",
        "hub sanction suggest",
        "hub sanction confirm",
        "hub sanction add",
        "hub result undo",
        "hub round force",
        "hub round swap",
        "hub players withdraw",
        "hub report -o",
        "hub export prizes",
    ):
        assert command in named, command


@pytest.mark.parametrize("snippet", _snippets())
def test_a_command_of_the_walk_exists_in_the_help_with_its_options(snippet: str) -> None:
    parser = build_parser()
    words = snippet.split()[1:]
    path = []
    while words and (sub := _subparsers(parser)) is not None:
        word = words[0]
        if not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        assert word in sub.choices, f"{snippet}: no {word!r}"
        # listed on its group's help page, not only accepted
        assert word in parser.format_help(), f"{snippet}: {word!r} not in the help"
        path.append(word)
        parser = sub.choices[word]
        words = words[1:]
    assert path, snippet
    known = {o for a in parser._actions for o in a.option_strings}
    for option in re.findall(r"(?<!\S)(--?[a-z][a-z-]*)", " ".join(words)):
        assert option in known, f"{snippet}: hub {' '.join(path)} takes no {option}"

"""docs/dashboard.md and the ``hub`` command line cannot drift apart: every command the
docs name for a dashboard action exists, and every dashboard subcommand is documented."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from samoobsluha.hub.cli import build_parser

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "dashboard.md").read_text()


def _commands() -> list[list[str]]:
    found = []
    for snippet in re.findall(r"`(hub [^`]+)`", DOCS):
        words = []
        for word in snippet.split()[1:]:
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            words.append(word)
        if words:
            found.append(words)
    return found


@pytest.mark.parametrize("words", _commands(), ids=lambda w: " ".join(w))
def test_documented_command_exists(words: list[str]) -> None:
    parser = build_parser()
    for word in words:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None:
            break  # the rest are arguments
        assert word in sub.choices, f"hub {' '.join(words)}: no {word!r}"
        parser = sub.choices[word]


def test_every_dashboard_subcommand_is_documented() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in (
        "run",
        "hall",
        "challenges",
        "enter",
        "overview",
        "schedule",
        "publish-round",
        "sample-players",
    ):
        assert name in sub.choices
        assert f"hub {name}" in DOCS or f"`{name}`" in DOCS, name
    for verb in sub.choices["challenges"]._actions[-1].choices:
        assert f"hub challenges {verb}" in DOCS, verb

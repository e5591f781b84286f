"""The words the README tells a new user to type are judged PLATNÉ by ``station check``
with the real Czech lexicon (hunspell-cs expanded, as the demo builds it): an example that
is judged NEPLATNÉ (the blank example was once ``REC(I)E``) teaches the wrong thing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
BIN = Path(sys.executable).parent


def _demo_words() -> list[str]:
    text = README.read_text(encoding="utf-8")
    line = re.search(r"to check words \((.*?)\), and watch", text, re.S)
    assert line, "the README's demo paragraph names the words to check"
    return re.findall(r"`([^`]+)`", line.group(1))


def test_the_readme_examples_are_valid_words(cs_lexicon_path: Path) -> None:
    words = _demo_words()
    assert any("(" in w for w in words), words  # a blank example among them
    checks = [[w] for w in words]
    checks.append(re.search(r"station check (kůň c\+a-p)", README.read_text()).group(1).split())
    for play in checks:
        out = subprocess.run(
            [str(BIN / "station"), "check", "--lexicon", str(cs_lexicon_path), *play],
            capture_output=True,
            text=True,
            timeout=120,
            env={"SAMOOBSLUHA_LANG": "cs", "PATH": "/usr/bin:/bin"},
        )
        assert out.returncode == 0 and "PLATNÉ" in out.stdout, (play, out.stdout, out.stderr)

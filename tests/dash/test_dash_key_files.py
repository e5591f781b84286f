"""Key files are readable by their owner only (0600) whatever was at the path before:
``hub key station --out`` and ``hub provision key --force`` over an existing 0644 file,
run through ``hub.cli.main`` on a real hub database."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.shared.protocol import StationKey


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_station_key_over_a_world_readable_file(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "st-1.key"
    out.write_text("an old key\n")
    out.chmod(0o644)
    assert main(["key", "station", "st-1", "--out", str(out)]) == 0
    assert mode(out) == 0o600
    text = out.read_text()
    assert "an old key" not in text
    assert StationKey.from_text(text).station == "st-1"
    # and again over its own file: still 0600, a fresh key id
    out.chmod(0o644)
    assert main(["key", "station", "st-1", "--out", str(out)]) == 0
    assert mode(out) == 0o600
    assert mode(data_dir / "tournament.key") == 0o600


def test_hall_secret_over_a_world_readable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hall.key"
    out.write_text("old\n")
    out.chmod(0o644)
    assert main(["provision", "key", "-o", str(out)]) == 2  # exists: refused without --force
    assert mode(out) == 0o644 and out.read_text() == "old\n"
    assert main(["provision", "key", "-o", str(out), "--force"]) == 0
    assert mode(out) == 0o600 and out.read_text() != "old\n"

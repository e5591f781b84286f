"""A station whose kiosk cannot start says so on its screen, instead of a blank
restart loop: kiosk-inner runs station.fallback when ``station run`` fails."""

from __future__ import annotations

import os
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from samoobsluha.station import fallback

PAYLOAD = resources.files("samoobsluha.hub.provision").joinpath("payload")
REPO = Path(__file__).resolve().parents[2]
VENV_PY = REPO / ".venv" / "bin" / "python"


def test_classify_the_errors_station_run_prints() -> None:
    assert fallback.classify("Slovník nelze použít: /srv/x.lex: cannot read lexicon") == "lexicon"
    assert fallback.classify("station run: station.toml: [gong] bell_pin: 99 is not") == "config"
    assert fallback.classify("station run: GPIO busy: lgpio error") == "hardware"
    assert fallback.classify("Segmentation fault") == "unknown"


@pytest.mark.parametrize("lang", ["cs", "sk", "en", "pl"])
def test_classify_what_station_run_says_in_the_operators_language(
    tmp_path: Path, lang: str
) -> None:
    """``station run`` says its refusals in the operator's language (error_text): the
    fallback screen still tells a lexicon, a configuration and a full disk apart."""
    import errno

    from samoobsluha.shared.i18n import error_text, reason, t
    from samoobsluha.shared.lexicon import Lexicon, LexiconError
    from samoobsluha.station import config as station_config

    with pytest.raises(LexiconError) as lexicon:
        Lexicon.open(tmp_path / "missing-words")  # no ".lex" to give it away
    said = t("lexicon.unusable", lang, error=reason(lexicon.value))
    assert fallback.classify(said) == "lexicon", said
    with pytest.raises(station_config.ConfigError) as config:
        station_config.load(tmp_path / "missing.toml")
    said = f"station run: {error_text(config.value, lang)}"
    assert fallback.classify(said) == "config", said
    full = OSError(errno.ENOSPC, "No space left on device", "/srv/samoobsluha/station.db")
    said = f"station run: {error_text(full, lang)}"
    assert fallback.classify(said) == "disk", said


def test_screen_fits_80x24_in_czech_and_shows_text_as_text() -> None:
    reason = fallback.clean_reason(
        "Traceback (most recent call last):\n"
        "\x1b[31mSlovník nelze použít:\x1b[0m /srv/samoobsluha/lexicons/cs.lex\x07: cannot read\n"
    )
    assert reason == ["Slovník nelze použít: /srv/samoobsluha/lexicons/cs.lex: cannot read"]
    lines = fallback.render("lexicon", reason, "cs", 60, 80, 24)
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    text = "\n".join(lines)
    assert "STANICE SE NESPUSTILA" in text and "Chybí slovník" in text
    assert "Rozhodčí:" in text and "náhradní kartu" in text and "push-lexicon" in text
    assert "zkusí znovu za 60 s" in text
    assert "Reason" not in text and "referee" not in text.lower()  # no English on a Czech screen
    slovak = "\n".join(fallback.render("config", [], "sk", 5, 80, 24))
    assert "STANICA SA NESPUSTILA" in slovak and "Rozhodca:" in slovak


def test_tiny_screen_keeps_title_and_retry() -> None:
    lines = fallback.render("hardware", ["x" * 300], "cs", 9, 30, 10)
    assert len(lines) == 10 and all(len(line) <= 30 for line in lines)
    assert "STANICE" in lines[0] and "9 s" in " ".join(lines[-2:])


def test_language_comes_from_the_station_config(tmp_path: Path) -> None:
    toml = tmp_path / "station.toml"
    toml.write_text('[station]\nui_language = "sk"\n')
    assert fallback.station_language(toml) == "sk"
    toml.write_text("not toml [")
    assert fallback.station_language(toml) == "cs"


def kiosk_inner(tmp_path: Path, station_script: str) -> subprocess.CompletedProcess[str]:
    station = tmp_path / "station"
    station.write_text("#!/bin/bash\n" + station_script)
    station.chmod(0o755)
    (tmp_path / "run").mkdir(exist_ok=True)
    return subprocess.run(
        ["bash", str(PAYLOAD / "kiosk-inner")],
        env={
            **os.environ,
            "SAMOOBSLUHA_DATA": str(tmp_path),
            "SAMOOBSLUHA_CONFIG": str(tmp_path / "none.toml"),
            "STATION_BIN": str(station),
            "FALLBACK_PYTHON": str(VENV_PY) if VENV_PY.exists() else "python3",
            "FALLBACK_SECONDS": "0",
        },
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )


def test_kiosk_inner_shows_the_message_when_station_run_fails(tmp_path: Path) -> None:
    done = kiosk_inner(
        tmp_path, 'echo "Slovník nelze použít: /srv/x.lex: cannot read lexicon" >&2\nexit 2\n'
    )
    assert done.returncode == 2  # systemd restarts the kiosk after the message
    assert "STANICE SE NESPUSTILA" in done.stdout and "Chybí slovník" in done.stdout
    assert "/srv/x.lex" in done.stdout
    assert "cannot read lexicon" in done.stderr  # still in the journal
    assert "cannot read lexicon" in (tmp_path / "run" / "last-start-error.txt").read_text()


def test_kiosk_inner_stays_quiet_when_the_kiosk_ends_normally(tmp_path: Path) -> None:
    done = kiosk_inner(tmp_path, "echo kiosk\nexit 0\n")
    assert done.returncode == 0
    assert done.stdout == "kiosk\n"

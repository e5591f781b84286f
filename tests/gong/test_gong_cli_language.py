"""``station gong`` and ``station round`` at the console speak the command line's
language: summaries and refusals in Czech and Slovak with nothing English in them."""

from __future__ import annotations

import pytest
from gpiozero import Device
from language_guard import english_on_screen

from samoobsluha.station import cli

CONFIG = """
[gong]
audio = "off"
"""

# (argv, exit code)
COMMANDS: list[tuple[list[str], int]] = [
    (["gong", "off"], 0),
    (["round", "pause"], 1),  # nothing on the clock
    (["round", "start", "--in", "60"], 0),
    (["round", "pause"], 1),  # not started yet: delay it instead
    (["round", "start"], 1),  # one is already scheduled
    (["round", "start", "--number", "1", "--in", "5"], 1),
    (["round", "delay", "5"], 0),
    (["round", "extend", "3", "--number", "4"], 1),  # round 4 is not planned
    (["round", "cancel"], 0),
    (["round", "status"], 0),
]


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_station_commands_speak_the_language(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    conf = tmp_path / "station.toml"
    conf.write_text(CONFIG + f'[station]\nui_language = "{lang}"\n')
    for argv, expected in COMMANDS:
        code = cli.main([*argv, "--config", str(conf)])
        out, err = capsys.readouterr()
        text = out + err
        assert code == expected, f"{argv}: exit {code}\n{text}"
        assert text.strip() and "Traceback" not in text, argv
        leaks = english_on_screen(text, allowed={argv[0]}, lang=lang)
        assert not leaks, f"{lang} station {' '.join(argv)}: English {leaks} in:\n{text}"

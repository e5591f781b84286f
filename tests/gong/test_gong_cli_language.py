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


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_gong_test_and_the_rounds_signals_speak_the_language(
    tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """``station gong test``'s pattern line (its strokes and gap) and the given and missed
    signals ``station round status`` lists: the station's words, its decimal comma."""
    from samoobsluha.station.rounds import GIVEN, MISSED, RoundSchedule

    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)
    conf = tmp_path / "station.toml"
    patterns = "[gong.patterns]\ngap = 0.5\nstart = [0.25]\n"
    conf.write_text(CONFIG + patterns + f'[station]\nui_language = "{lang}"\n')
    assert cli.main(["gong", "test", "start", "--config", str(conf)]) == 0
    out = capsys.readouterr().out
    (line,) = [row for row in out.splitlines() if "0,25 s" in row]
    want = {"cs": "začátek: 0,25 s (mezera 0,5 s)", "sk": "začiatok: 0,25 s (medzera 0,5 s)",
            "pl": "start: 0,25 s (przerwa 0,5 s)"}  # fmt: skip
    assert line == want[lang]
    # ("gong outputs: …" above it is the startup log's line, left in English)
    assert not english_on_screen(line, lang=lang), line

    assert cli.main(["round", "start", "--in", "60", "--config", str(conf)]) == 0
    capsys.readouterr()
    schedule = RoundSchedule.open()
    try:
        first, second, *_ = schedule.due_signals()
        schedule.record(first, GIVEN, first.due + 0.0123)
        schedule.record(second, MISSED, second.due + 0.25)
    finally:
        schedule.close()
    assert cli.main(["round", "status", "--config", str(conf)]) == 0
    out = capsys.readouterr().out
    given = {"cs": "zazněl", "sk": "zaznel", "pl": "zabrzmiał"}[lang]
    missed = {"cs": "zmeškán", "sk": "zmeškaný", "pl": "pominięty"}[lang]
    rows = [row.split() for row in out.splitlines()[1:]]
    assert rows[0][1:] == [given, "+12,3", "ms"], out
    assert rows[1][1:] == [missed, "+250,0", "ms"], out
    assert not english_on_screen(out, lang=lang), out

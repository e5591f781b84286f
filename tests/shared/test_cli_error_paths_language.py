"""The refusals an operator meets on the command line, in his language: every subcommand
of ``hub`` and ``station`` without its required positional, every one given a bad whole
number, and every command that reads a file given one that is not there — each run
through the real ``main``, its output scanned in cs, sk and pl with
tests/language_guard.py for English (or, on a Polish screen, Czech and Slovak) and for
argparse's internal names of arguments (``id``, ``ACTION``) where the usage line shows
the localised ones (``ČÍSLO``, ``AKCE``)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from language_guard import english_on_screen
from test_cli_help_language import NAMES, code_free, commands, typed_words

from samoobsluha.hub.cli import build_parser as hub_parser
from samoobsluha.hub.cli import main as hub_main
from samoobsluha.shared.i18n import t
from samoobsluha.station.cli import build_parser as station_parser
from samoobsluha.station.cli import main as station_main

PROGS = {"hub": (hub_parser, hub_main), "station": (station_parser, station_main)}
MISSING = "/nonexistent-samoobsluha"

# Every command that reads a file (or a folder) the operator names, with one that is not
# there: a lexicon, a word list, a dictionary, a tsh file, a player list, a backup, a
# configuration, a key file, a published copy.
FILE_COMMANDS: list[list[str]] = [
    ["hub", "lexicon", "sign", f"{MISSING}/cs.lex"],
    ["hub", "lexicon", "info", f"{MISSING}/cs.lex"],
    ["hub", "lexicon", "diff", f"{MISSING}/a.lex", f"{MISSING}/b.lex"],
    ["hub", "lexicon", "build", "--wordlist", f"{MISSING}/words.txt", "--lang", "cs",
     "--variant", "PLUS", "-o", "{tmp}/out.lex"],
    ["hub", "lexicon", "build", "--hunspell", f"{MISSING}/cs_CZ", "--lang", "cs",
     "--variant", "PLUS", "-o", "{tmp}/out.lex"],
    ["hub", "rejudge", "--lexicon", f"{MISSING}/cs.lex"],
    ["hub", "push-lexicon", f"{MISSING}/cs.lex"],
    ["hub", "standings", "--rules", "cas", "--tsh", f"{MISSING}/a.t"],
    ["hub", "pair", "--rules", "cas", "--tsh", f"{MISSING}/a.t"],
    ["hub", "tournament", "import-tsh", f"{MISSING}/a.t"],
    ["hub", "tournament", "export-tsh", f"{MISSING}/a.t"],
    ["hub", "players", "import", f"{MISSING}/players.csv"],
    ["hub", "export", "standings", "-o", f"{MISSING}/standings.csv"],
    ["hub", "restore", f"{MISSING}/hub.db"],
    ["hub", "online", "verify", f"{MISSING}/copy"],
    ["hub", "provision", "station", "--name", "station-01", "--target", "{tmp}/boot",
     "--psk-file", f"{MISSING}/tournament.key"],
    ["station", "check", "--lexicon", f"{MISSING}/cs.lex", "kůň"],
    ["station", "simulate", "--lexicon", f"{MISSING}/cs.lex"],
    ["station", "simulate", "--config", f"{MISSING}/station.toml"],
    ["station", "settings", "--config", f"{MISSING}/station.toml"],
    ["station", "gong", "test", "--config", f"{MISSING}/station.toml"],
    ["station", "round", "status", "--config", f"{MISSING}/station.toml"],
    ["station", "daemon", "--config", f"{MISSING}/station.toml"],
    ["station", "daemon", "--tournament", "t-1", "--psk-file", f"{MISSING}/station.key"],
]  # fmt: skip


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _positionals(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions if not a.option_strings]


def _required(action: argparse.Action) -> bool:
    if isinstance(action, argparse._SubParsersAction):
        return bool(action.required)
    return action.nargs not in ("?", "*", argparse.REMAINDER)


def _bad_int_argv(parser: argparse.ArgumentParser) -> list[str] | None:
    """Arguments that give ``parser``'s first whole-number argument ``abc``: its first
    positional when that takes an int, else its first int option; None when it has none."""
    positionals = _positionals(parser)
    if positionals and positionals[0].type is int:
        return ["abc"]
    for action in parser._actions:
        if action.option_strings and action.type is int:
            return [action.option_strings[-1], "abc"]
    return None


def _run(main, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    try:
        code = main(argv)
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 2
    out, err = capsys.readouterr()
    return int(code or 0), out + err


def _leaks(text: str, prog: str, path: tuple[str, ...], parser: argparse.ArgumentParser,
           lang: str) -> list[str]:  # fmt: skip
    """English (or foreign) words in ``text``, what is typed and named left out."""
    typed = typed_words(parser)
    said = code_free(text.replace(" ".join((prog, *path)), " "), typed)
    said = said.replace(MISSING, " ")
    return list(english_on_screen(said, allowed=NAMES | typed, lang=lang, typed=True))


def _raw_names(text: str, parser: argparse.ArgumentParser) -> list[str]:
    """argparse's internal names of ``parser``'s positionals (their dest) in ``text``,
    where the usage line shows another name (the command's own name is typed: left out)."""
    from samoobsluha.shared.cli import _usage_name, localise
    from samoobsluha.shared.i18n import cli_language

    localise(parser, cli_language())  # the names its usage line shows
    text = text.replace(parser.prog, " ")
    found = []
    for action in _positionals(parser):
        dest = str(action.dest)
        if isinstance(action, argparse._SubParsersAction):
            dest = "ACTION" if action.metavar == "ACTION" else dest
        if len(dest) < 2 or dest == _usage_name(action):
            continue
        if re.search(rf"(?<![\w-]){re.escape(dest)}(?![\w-])", text):
            found.append(dest)
    return found


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
@pytest.mark.parametrize("prog", ["hub", "station"])
def test_a_missing_positional_is_refused_in_the_operators_language(
    prog: str, lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("COLUMNS", "100")
    build, main = PROGS[prog]
    parser = build()
    required = t("cli.arg.required", lang, args="").strip()
    seen = 0
    for path, sub in _parsers(parser):
        if not path or not any(_required(a) for a in _positionals(sub)):
            continue
        code, text = _run(main, list(path), capsys)
        seen += 1
        assert code == 2, (prog, *path, text)
        assert required in text, (prog, *path, text)
        assert not _raw_names(text, sub), (prog, *path, _raw_names(text, sub), text)
        leaks = _leaks(text, prog, path, parser, lang)
        assert not leaks, (prog, *path, leaks, text)
    assert seen > (60 if prog == "hub" else 4), seen


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
@pytest.mark.parametrize("prog", ["hub", "station"])
def test_a_bad_whole_number_is_refused_in_the_operators_language(
    prog: str, lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("COLUMNS", "100")
    build, main = PROGS[prog]
    parser = build()
    said = t("cli.arg.invalid_int", lang, value="'abc'")
    seen = 0
    for path, sub in _parsers(parser):
        extra = _bad_int_argv(sub)
        if extra is None or any(isinstance(a, argparse._SubParsersAction) for a in sub._actions):
            continue
        code, text = _run(main, [*path, *extra], capsys)
        seen += 1
        assert code == 2 and said in text, (prog, *path, text)
        assert not _raw_names(text, sub), (prog, *path, _raw_names(text, sub), text)
        leaks = _leaks(text, prog, path, parser, lang)
        assert not leaks, (prog, *path, leaks, text)
    assert seen > (40 if prog == "hub" else 3), seen


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_a_missing_file_is_refused_in_the_operators_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for argv in FILE_COMMANDS:
        prog, *rest = (arg.replace("{tmp}", str(tmp_path)) for arg in argv)
        build, main = PROGS[prog]
        code, text = _run(main, rest, capsys)
        assert code != 0, (argv, text)
        assert "Traceback" not in text, (argv, text)
        assert MISSING in text, (argv, text)  # it names what it could not find
        assert "[Errno" not in text and "No such file" not in text, (argv, text)
        parser = build()
        known = set(commands(parser))
        path = max((tuple(rest[:n]) for n in range(len(rest) + 1) if tuple(rest[:n]) in known),
                   key=len)  # fmt: skip
        leaks = _leaks(text, prog, path, parser, lang)
        assert not leaks, (argv, leaks, text)


# A configuration the operator got wrong, and an address written the IPv6 way without
# brackets: (the file and its text, the command).
BAD_SETTINGS: list[tuple[str, str, list[str]]] = [
    ("station.toml", "[gong\nbell_pin = 5\n", ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "gong = 5\n", ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "[gong]\nbell_pin = 99\n", ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "[gong]\nbell = 1\n", ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "[gong]\nbell_pin = 5\nlamp_pin = 'GPIO5'\n",
     ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "[gong.patterns]\nstart = [99]\n",
     ["station", "gong", "test", "--config", "{file}"]),
    ("station.toml", "[gong]\naudio = 'loud'\n", ["station", "gong", "test", "--config", "{file}"]),
    ("data/hub.toml", "[standby]\nport = 'x'\n", ["hub", "standby"]),
    ("data/hub.toml", "[standby]\nprimray = 'a'\n", ["hub", "standby"]),
    ("data/hub.toml", "", ["hub", "standby", "--primary", "fe80::2:47820"]),
    ("station.toml", "", ["station", "daemon", "--hub", "::1:47820"]),
    ("backup.db", "not a database, a letter\n" * 200, ["hub", "restore", "{file}"]),
    # a card for a station: a host name with capitals; a Wi-Fi password file not there
    ("tournament.key", "ab" * 32 + "\n", ["hub", "provision", "station", "--name", "Stanice_1",
     "--target", "{tmp}/boot", "--psk-file", "{file}", "--tournament", "t-1"]),
    ("tournament.key", "ab" * 32 + "\n", ["hub", "provision", "station", "--name", "station-01",
     "--target", "{tmp}/boot", "--psk-file", "{file}", "--tournament", "t-1",
     "--wifi-ssid", "sal", "--wifi-password-file", "{tmp}/wifi-password"]),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_a_bad_setting_is_refused_in_the_operators_language(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for name, text, argv in BAD_SETTINGS:
        file = tmp_path / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
        prog, *rest = (arg.replace("{file}", str(file)).replace("{tmp}", str(tmp_path))
                       for arg in argv)  # fmt: skip
        build, main = PROGS[prog]
        code, said = _run(main, rest, capsys)
        assert code != 0 and said.strip(), (argv, text, said)
        assert "Traceback" not in said, (argv, text, said)
        parser = build()
        path = tuple(rest[:2]) if rest[0] == "provision" else tuple(rest[:1])
        leaks = _leaks(said.replace(str(tmp_path), " "), prog, path, parser, lang)
        assert not leaks, (argv, text, leaks, said)
        file.unlink()

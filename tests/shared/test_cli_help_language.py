"""``hub --help`` and every subcommand's ``--help`` (and ``station``'s) in the operator's
language: argparse's own words ("usage", "options", "show this help message and exit"),
every help text, description and value name come from the catalogues (cs, sk, en, pl).

The scan runs each command's real ``--help`` through ``main`` and looks for English (and,
on a Polish screen, Czech or Slovak) with tests/language_guard.py; what the operator types
— command and option names, choices, file names, keys of a config — is not language."""

from __future__ import annotations

import argparse
import re

import pytest
from language_guard import english_on_screen

from samoobsluha.hub.cli import build_parser as hub_parser
from samoobsluha.hub.cli import main as hub_main
from samoobsluha.shared.cli import help_key, help_texts
from samoobsluha.shared.i18n import catalogue
from samoobsluha.station.cli import build_parser as station_parser
from samoobsluha.station.cli import main as station_main

# names of programs, formats and protocols: the same in every language
NAMES = {
    "hub", "tsh", "CSV", "JSON", "HTML", "PDF", "UTF", "TOML", "SQLite", "mDNS", "zeroconf",
    "Chromium", "Excel", "BOM", "hunspell", "Raspberry", "cloud", "init", "firstrun",
    "Wayland", "cage", "foot", "Ethernet", "DHCP", "Wi", "Fi", "openssl", "passwd", "crypt",
    "trixie", "bookworm", "Debian", "bearer", "PUT", "http", "https", "URL", "SHA", "TCP",
    "IPv6", "Ctrl", "stdin", "stdout", "stderr", "systemd", "ExecStopPost", "KLASIK", "PLUS",
    "SIT", "SSS", "ČAS", "PFS", "HR", "DATA", "cmdline", "txt", "lex", "ID", "id", "PIN",
    "HASH", "hash", "MB", "PORT", "port", "Samoobsluha", "cas", "sss", "pfs", "TEXT", "IPv",
    "tty", "rozhodci", "CIDR", "rsync", "SSH", "HEX",
}  # fmt: skip


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path (``()``, ``("round",)``, ``("round", "start")`` …)."""
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += commands(sub, (*path, name))
    return out


def typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """What the operator types: command names, option names and choices, as words."""
    words: set[str] = set()
    for action in parser._actions:
        for option in action.option_strings:
            words.update(re.findall(r"[^\W\d_]+", option))
        for choice in action.choices or ():
            words.update(re.findall(r"[^\W\d_]+", str(choice)))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                words |= typed_words(sub)
    return words


def help_page(main, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def code_free(text: str, typed: set[str]) -> str:
    """The text without what is typed or named, not said: commands (``hub result
    disputes``), options, paths and file names, keys and values (``a=b``, ``snake_case``,
    ``a,b,c``), choice lists, quoted commands."""

    def command(m: re.Match[str]) -> str:
        words = m.group(2).split()
        while words and words[0] in typed:
            words.pop(0)
        return " " + " ".join(words)

    text = re.sub(r"\b(hub|station)((?: [a-z][\w-]*)+)", command, text)
    text = re.sub(r"'[^']*'|`[^`]*`", " ", text)
    text = re.sub(r"\S+,\S+", " ", text)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"--?[\w-]+", " ", text)
    text = re.sub(r"\S*[_=./$\\\[\]|:]\S*", " ", text)
    return text


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
@pytest.mark.parametrize("prog", ["hub", "station"])
def test_every_help_page_is_in_the_operators_language(
    prog: str, lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    monkeypatch.setenv("COLUMNS", "100")
    parser = hub_parser() if prog == "hub" else station_parser()
    main = hub_main if prog == "hub" else station_main
    allowed = NAMES | typed_words(parser)
    pages = 0
    for path in commands(parser):
        page = help_page(main, list(path), capsys)
        pages += 1
        said = code_free(page.replace(" ".join((prog, *path)), " "), typed_words(parser))
        found = english_on_screen(said, allowed=allowed, lang=lang, typed=True)
        assert not found, (prog, *path, found)
        assert "usage:" not in page and "show this help" not in page, (prog, *path)
    assert pages > (80 if prog == "hub" else 10)


def test_every_help_text_has_its_key_in_every_catalogue() -> None:
    for parser in (hub_parser(), station_parser()):
        for key, english in help_texts(parser):
            if key.startswith("cli.metavar."):
                continue  # a value name without a key (N, IP, CIDR) is shown as it is
            for lang in ("cs", "sk", "en", "pl"):
                assert key in catalogue(lang), (lang, key, english)
            assert catalogue("en")[key] == english, key  # the key is the English text's


def test_the_english_help_is_the_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    page = help_page(hub_main, ["report"], capsys)
    assert page.startswith("usage: hub report")
    assert "the division to report (default: the only one)" in page
    assert "-o DIR, --output DIR" in page
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    page = help_page(hub_main, ["report"], capsys)
    assert page.startswith("použití: hub report")
    assert "-o SLOŽKA, --output SLOŽKA" in page and "skupina, o které se podává zpráva" in page
    assert help_key("the division to report (default: the only one)") in catalogue("cs")


def test_a_run_time_value_is_filled_into_the_translated_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from samoobsluha.shared.paths import data_dir

    monkeypatch.setenv("SAMOOBSLUHA_LANG", "sk")
    monkeypatch.setenv("COLUMNS", "400")
    page = help_page(hub_main, ["serve"], capsys)
    assert f"Spustí hub. Dáta sú v {data_dir()} (alebo v $SAMOOBSLUHA_DATA)." in page


@pytest.mark.parametrize("lang", ["cs", "sk", "en", "pl"])
def test_every_positional_is_shown_in_capitals_as_the_options_values_are(lang: str) -> None:
    """``hub push-lexicon SOUBOR`` as ``--db SOUBOR``: a value the operator supplies is
    one kind of name in the usage line, whether it follows an option or not. A choice
    list (``{keep,take}``) and a file's extension (``A.lex``) are what is typed."""
    from samoobsluha.shared.cli import _walk, localise

    lower = set()
    for parser in (hub_parser(), station_parser()):
        localise(parser, lang)
        for action in _walk(parser):
            if not isinstance(action, argparse.Action) or action.option_strings:
                continue
            if isinstance(action, argparse._SubParsersAction._ChoicesPseudoAction):
                continue  # a subcommand's line in its parent's help
            if action.metavar is None and action.choices is not None:
                continue
            shown = re.sub(r"\.[a-z]+$", "", str(action.metavar or action.dest))
            if shown != shown.upper():
                lower.add((action.dest, shown))
    assert not lower, sorted(lower)

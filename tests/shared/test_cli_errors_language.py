"""argparse's own refusals reach the operator in his language, with where the help is."""

from __future__ import annotations

import os

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.shared.cli import argparse_message


@pytest.mark.parametrize(
    ("argv", "lang", "says"),
    [
        (["round", "pair", "abc"], "cs", "argument KOLO: 'abc' není celé číslo"),
        (["round", "pair", "abc"], "sk", "argument KOLO: 'abc' nie je celé číslo"),
        (["round", "pair", "abc"], "en", "argument ROUND: 'abc' is not a whole number"),
        (["result", "add", "1", "2"], "cs", "chybí tyto argumenty: HRÁČ, SOUPEŘ, SKÓRE,"),
        (["dispute", "keep"], "cs", "chybí tyto argumenty: ČÍSLO"),
        (["tournament"], "cs", "chybí tyto argumenty: AKCE"),
        (["result", "resolve", "3"], "sk", "chýbajú tieto argumenty: {keep,take}"),
        (["tournament"], "pl", "brakuje tych argumentów: AKCJA"),
        (["export", "nic"], "cs", "'nic' není žádná z možností 'standings'"),
        (["round", "pair", "1", "--bogus"], "cs", "neznámé argumenty: --bogus"),
    ],
)
def test_argparse_errors_in_the_operators_language(
    argv: list[str], lang: str, says: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert says in err, err
    assert "usage:" not in err if lang != "en" else "usage:" in err
    assert err.rstrip().endswith("--help") and "hub" in err.splitlines()[-1]


def test_an_unknown_argparse_message_is_kept_as_it_is() -> None:
    assert argparse_message("something new in Python 3.14", "cs") == (
        "something new in Python 3.14"
    )


def test_the_systems_errors_are_said_in_the_operators_language() -> None:
    """``shared.i18n.reason``: an OSError as its path and a catalogue reason, never the C
    library's English; a TOML error as its line and column; a phrase as itself."""
    import errno
    import tomllib

    from samoobsluha.shared.i18n import Phrase, error_text, reason

    def os_error(code: int, path: str | None = "/srv/x") -> OSError:
        return OSError(code, os.strerror(code), *([path] if path else []))

    assert error_text(os_error(errno.ENOENT), "cs") == (
        "/srv/x: takový soubor ani složka neexistuje"
    )
    assert error_text(os_error(errno.EACCES), "sk") == "/srv/x: prístup zamietnutý"
    assert error_text(os_error(errno.EPERM), "pl") == "/srv/x: brak dostępu"
    assert error_text(os_error(errno.ENOSPC, None), "pl") == "brak miejsca na dysku"
    assert error_text(os_error(errno.EROFS), "en") == "/srv/x: the disk is read-only"
    assert error_text(os_error(errno.ECONNREFUSED, None), "cs") == "spojení odmítnuto"
    other = error_text(os_error(errno.EBUSY), "cs")
    assert other.startswith("/srv/x: systémová chyba EBUSY (")  # the rest: the system's
    with pytest.raises(tomllib.TOMLDecodeError) as bad:
        tomllib.loads("[gong\nx = 1\n")
    assert error_text(bad.value, "sk") == "riadok 1, stĺpec 6"
    said = Phrase("lexicon.err.magic", path="/x.lex")
    assert reason(ValueError(said)) is said and str(said) == (
        "/x.lex: not a Samoobsluha lexicon (bad magic)"  # a log's English, as before
    )
    assert error_text(ValueError("plain words"), "cs") == "plain words"


def test_a_full_database_is_said_as_a_full_disk(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SQLite's "database or disk is full" (a backup onto a full stick), a real one: the
    catalogue's words for a full disk, not SQLite's English."""
    import sqlite3

    from samoobsluha.shared.i18n import error_text

    conn = sqlite3.connect(tmp_path / "full.db")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("PRAGMA max_page_count = 2")
    with pytest.raises(sqlite3.OperationalError) as full:
        for _ in range(100):
            conn.execute("INSERT INTO t VALUES (?)", ("x" * 1000,))
    conn.close()
    assert "full" in str(full.value)
    assert error_text(full.value, "cs") == "na disku už není místo"
    assert error_text(full.value, "pl") == "brak miejsca na dysku"

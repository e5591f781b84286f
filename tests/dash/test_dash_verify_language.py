"""What the receipt, re-judging, lexicon-diff and results-online commands say — answers
and refusals alike — is in the operator's language (``SAMOOBSLUHA_LANG`` cs, sk, pl): no
English left on a Czech, Slovak or Polish command line, no traceback; and in English
when asked. The hub's own CLI (``hub.cli.main``) over a real hub database whose check a
kiosk store logged with its station's receipt key."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import deliver, station_store
from language_guard import english_on_screen

from samoobsluha.hub import publisher
from samoobsluha.hub.cli import main
from samoobsluha.hub.service import HubService
from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon, build_from_wordlist
from samoobsluha.shared.protocol import HallKeys
from samoobsluha.shared.receipt import ALPHABET, ReceiptKey, format_code

SECRET = bytes(range(32))


def _setting(service: HubService, clock: FakeClock, tmp_path: Path) -> dict[str, str]:
    """A logged check with its receipt, two lexicons, a published copy with one page
    changed; the values the commands below are given."""
    (Path(service.data) / "tournament.key").write_text(SECRET.hex() + "\n")
    keys = HallKeys(SECRET)
    words = tmp_path / "words.txt"
    words.write_text("kůň\nčáp\nkočka\npes\n", encoding="utf-8")
    fewer = tmp_path / "fewer.txt"
    fewer.write_text("kůň\npes\nryba\n", encoding="utf-8")
    old, new = tmp_path / "stary.lex", tmp_path / "novy.lex"
    build_from_wordlist(words, old, language="cs", variant="STARY")
    build_from_wordlist(fewer, new, language="cs", variant="NOVY")
    kiosk = station_store(tmp_path, "st-1")
    kiosk.receipts = ReceiptKey.from_station_key("st-1", 5, keys.station_key("st-1", 5))
    lexicon = Lexicon.open(old)
    record = kiosk.record_check(
        lexicon.judge(prepare_words(["čáp"], lexicon.alphabet)),
        lexicon.info,
        table_no=4,
        round_no=1,
        at=clock.now(),
    )
    deliver(service, kiosk, clock.now())
    code = format_code(record.receipt)
    changed = code[:-1] + ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    copy = tmp_path / "copy"
    copy.mkdir()
    pages = {"index.html": b"<p>1. kolo</p>\n"}
    text, sig = publisher.manifest(pages, [1], "t-test", keys)
    for path, data in {**pages, publisher.MANIFEST: text, publisher.SIGNATURE: sig}.items():
        publisher.FolderTarget(copy).put(path, data)
    (copy / "index.html").write_bytes(b"<p>2. kolo</p>\n")
    return {
        "code": code,
        "changed": changed,
        "old": str(old),
        "new": str(new),
        "words": str(words),
        "missing": str(tmp_path / "nic.lex"),
        "copy": str(copy),
        "nowhere": str(tmp_path / "nikde"),
        "public": keys.public_key.hex(),
    }


# (argv with {placeholders}, exit code)
COMMANDS: list[tuple[list[str], int]] = [
    (["verify", "{code}"], 0),
    (["verify", "{changed}"], 1),
    (["verify", "ABC"], 2),
    (["rejudge", "--lexicon", "{new}"], 1),
    (["rejudge", "--lexicon", "{old}"], 0),
    (["rejudge", "--lexicon", "{missing}"], 2),
    (["rejudge", "--lexicon", "{words}"], 2),  # a word list, not a lexicon
    (["lexicon", "diff", "{old}", "{new}"], 0),
    (["lexicon", "diff", "{old}", "{missing}"], 2),
    (["lexicon", "info", "{words}"], 2),
    (["online", "status"], 0),
    (["online", "send"], 2),  # no target yet
    (["online", "target", "{nowhere}"], 0),
    (["online", "send"], 0),  # nothing published: the embargo
    (["online", "status"], 0),  # with the pass just made
    (["online", "target", "vysledky"], 2),  # not absolute
    (["online", "target", "https://example.org/dav/", "--token-file", "{missing}"], 2),
    (["online", "verify", "{copy}", "--public-key", "{public}"], 1),  # a page changed
    (["online", "verify", "{copy}", "--public-key", "00"], 1),  # someone else's key
    (["online", "verify", "{nowhere}"], 1),
    (["online", "verify", "{copy}", "--public-key", "zz"], 2),
]
# the words of the commands typed (an option's name, a file's) and of the data
TYPED = {"verify", "public", "key", "hub", "manifest", "sig", "json", "html", "index", "sha"}
DATA = {"STARY", "NOVY", "TEST"}


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_receipt_rejudge_diff_and_online_speak_the_operators_language(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
) -> None:
    values = _setting(service, clock, tmp_path)
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    for template, expected in COMMANDS:
        argv = [a.format(**values) for a in template]
        code = main(argv)
        out, err = capsys.readouterr()
        text = out + err
        assert code == expected, f"{argv}: exit {code}\n{text}"
        assert text.strip(), f"{argv}: said nothing"
        assert "Traceback" not in text
        leaks = english_on_screen(text, allowed=TYPED | DATA, lang=lang)
        assert not leaks, f"{lang} hub {' '.join(argv)}: English {leaks} in:\n{text}"


def test_the_same_answers_in_english_when_asked(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = _setting(service, clock, tmp_path)
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    assert main(["rejudge", "--lexicon", values["missing"]]) == 2
    assert capsys.readouterr().err == (
        f"hub rejudge: {values['missing']}: cannot read lexicon (no such file or directory)\n"
    )
    assert main(["lexicon", "info", values["words"]]) == 2
    assert "not a Samoobsluha lexicon (bad magic)" in capsys.readouterr().err
    assert main(["online", "verify", values["copy"], "--public-key", values["public"]]) == 1
    assert capsys.readouterr().out == "index.html: its SHA-256 is not the manifest's\n"
    assert main(["online", "target", "vysledky"]) == 2
    assert "a target is an absolute folder" in capsys.readouterr().err
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")  # and the Czech of the same
    assert main(["online", "verify", values["copy"], "--public-key", values["public"]]) == 1
    assert capsys.readouterr().out == "index.html: SHA-256 nesouhlasí s manifestem\n"
    assert main(["online", "verify", values["copy"], "--public-key", "00" * 32]) == 1
    assert capsys.readouterr().out.splitlines()[0] == "manifest.sig: podpis neplatí"

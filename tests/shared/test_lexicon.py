from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import pytest

from samoobsluha.shared.alphabet import CZECH
from samoobsluha.shared.lexicon import (
    MAGIC,
    Lexicon,
    LexiconError,
    Status,
    build_from_wordlist,
    classify_entry,
    read_info,
    write_lexicon,
)
from samoobsluha.shared.normalize import normalize_word


def words(*raw: str):
    return [normalize_word(w, CZECH) for w in raw]


def test_header_describes_the_content(small_lexicon_path: Path):
    lex = Lexicon.open(small_lexicon_path)
    info = lex.info
    assert (info.language, info.variant, info.min_length, info.max_length) == ("cs", "TEST", 2, 15)
    assert info.words == len(lex) == len(set(lex.iter_words()))
    payload = small_lexicon_path.read_bytes()[-info.payload_bytes :]
    assert hashlib.sha256(payload).hexdigest() == info.sha256
    assert "small-cs.txt" in info.source
    assert info.built_at.endswith("Z")


def test_contains_is_exact_and_canonical(small_lexicon_path: Path):
    lex = Lexicon.open(small_lexicon_path)
    assert lex.contains("kůň")
    assert "kůň" in lex
    assert not lex.contains("ků")  # no prefixes
    assert not lex.contains("KŮŇ")  # callers normalise first
    assert 42 not in lex


def test_judge_gives_one_verdict_for_the_play(small_lexicon_path: Path):
    lex = Lexicon.open(small_lexicon_path)
    ok = lex.judge(words("kůň", "čáp"))
    assert ok.status is Status.VALID and ok.valid and ok.failed == ()
    bad = lex.judge(words("kůň", "čápx", "rybka"))
    assert bad.status is Status.INVALID and not bad.valid
    assert bad.failed == ("čápx", "rybka")  # kept for the log, never for the screen
    assert [w.text for w in bad.words] == ["kůň", "čápx", "rybka"]


def test_words_longer_than_the_list_covers_go_to_the_referee(tmp_path: Path):
    wordlist = tmp_path / "novex.txt"
    wordlist.write_text("KŮŇ\nČÁP\nSTROMY\n", encoding="utf-8")
    out = tmp_path / "short.lex"
    info, _ = build_from_wordlist(wordlist, out, language="cs", variant="KLASIK", max_length=9)
    assert info.max_length == 9
    lex = Lexicon.open(out)
    assert lex.judge(words("kůň")).valid
    verdict = lex.judge(words("kůň", "nejkrásnější"))
    assert verdict.status is Status.REFEREE
    assert verdict.too_long == ("nejkrásnější",)


def test_wordlist_build_reports_what_it_dropped(tmp_path: Path):
    wordlist = tmp_path / "list.txt"
    wordlist.write_text("# comment\nkůň\nKŮŇ\n\nmäso\na\n" + "x" * 16 + "\nčáp\n", encoding="utf-8")
    info, report = build_from_wordlist(wordlist, tmp_path / "o.lex", language="cs", variant="T")
    assert info.words == report.kept == 2
    assert info.max_length == 3  # the longest word present
    assert report.dropped == {
        "character outside the alphabet": 1,
        "fewer than 2 letters": 1,
        "more than 15 letters": 1,
    }
    assert any("mäso" in line for line in report.lines())


def test_non_utf8_wordlist_is_refused(tmp_path: Path):
    wordlist = tmp_path / "latin2.txt"
    wordlist.write_bytes("kůň\n".encode("iso8859-2"))
    with pytest.raises(LexiconError, match=r"latin2\.txt.*not UTF-8"):
        build_from_wordlist(wordlist, tmp_path / "o.lex", language="cs", variant="T")


@pytest.mark.parametrize(
    ("entry", "reason"),
    [("Praha", "proper noun"), ("ČSSD", "abbreviation"), ("mRNA", "abbreviation"),
     ("atd.", "abbreviation"), ("3D", "abbreviation"), ("kůň", None)],
)  # fmt: skip
def test_classify_dictionary_entries(entry, reason):
    result = classify_entry(entry)
    assert (result.value.split(" (")[0] if result else None) == reason


def _corrupt(path: Path, tmp_path: Path, mutate) -> Path:
    data = bytearray(path.read_bytes())
    out = tmp_path / "bad.lex"
    out.write_bytes(bytes(mutate(data)))
    return out


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d[: len(d) // 2], "truncated"),
        (lambda d: d[:-1] + bytes([d[-1] ^ 0xFF]), "SHA-256"),
        (lambda d: b"NOTALEX!" + d[8:], "bad magic"),
        (lambda d: d[:8] + struct.pack("<I", 10**6) + d[12:], "header"),
        (lambda d: d[:12] + b"X" + d[13:], "header is unreadable"),
        (lambda d: b"", "bad magic"),
    ],
    ids=["truncated", "flipped-byte", "magic", "header-length", "header-json", "empty"],
)
def test_corrupt_files_are_refused_with_the_file_named(
    small_lexicon_path: Path, tmp_path: Path, mutate, message
):
    bad = _corrupt(small_lexicon_path, tmp_path, mutate)
    with pytest.raises(LexiconError, match=message) as info:
        Lexicon.open(bad)
    assert str(bad) in str(info.value)


def test_wrong_language_is_refused(small_lexicon_path: Path):
    with pytest.raises(LexiconError, match="language 'cs', expected 'sk'"):
        Lexicon.open(small_lexicon_path, language="sk")


def test_unknown_language_in_header_is_refused(small_lexicon_path: Path, tmp_path: Path):
    data = small_lexicon_path.read_bytes()
    (hlen,) = struct.unpack_from("<I", data, 8)
    header = json.loads(data[12 : 12 + hlen])
    header["language"] = "de"
    raw = json.dumps(header).encode()
    bad = tmp_path / "de.lex"
    bad.write_bytes(MAGIC + struct.pack("<I", len(raw)) + raw + data[12 + hlen :])
    with pytest.raises(LexiconError, match="unknown language 'de'"):
        Lexicon.open(bad)


def test_missing_file_is_named(tmp_path: Path):
    with pytest.raises(LexiconError, match=r"nothere\.lex"):
        Lexicon.open(tmp_path / "nothere.lex")
    with pytest.raises(LexiconError, match=r"nothere\.lex"):
        read_info(tmp_path / "nothere.lex")


def test_write_is_atomic_and_refuses_empty(tmp_path: Path):
    out = tmp_path / "x.lex"
    with pytest.raises(LexiconError, match="empty"):
        write_lexicon([], out, language="cs", variant="T", source="t")
    assert not out.exists()
    write_lexicon(["kůň"], out, language="cs", variant="T", source="t")
    assert [p.name for p in tmp_path.iterdir()] == ["x.lex"]  # no temp files left
    assert oct(out.stat().st_mode & 0o777) == "0o644"


def test_same_words_give_the_same_sha(tmp_path: Path):
    a = write_lexicon(["kůň", "čáp"], tmp_path / "a.lex", language="cs", variant="A", source="1")
    b = write_lexicon(["čáp", "kůň"], tmp_path / "b.lex", language="cs", variant="B", source="2")
    c = write_lexicon(["čáp", "koň"], tmp_path / "c.lex", language="cs", variant="A", source="1")
    assert a.sha256 == b.sha256 != c.sha256


def _with_header(path: Path, tmp_path: Path, **changes) -> Path:
    """A copy of ``path`` whose JSON header has ``changes`` (same payload)."""
    data = path.read_bytes()
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    header = json.loads(data[start : start + length])
    header.update(changes)
    raw = json.dumps(header).encode()
    out = tmp_path / "altered.lex"
    out.write_bytes(MAGIC + struct.pack("<I", len(raw)) + raw + data[start + length :])
    return out


def test_background_verification_judges_once_the_hash_matches(small_lexicon_path: Path):
    lex = Lexicon.open(small_lexicon_path, verify="background")
    assert lex.judge(words("kůň", "čáp")).valid
    assert "kůň" in lex and not lex.contains("čápx")


@pytest.mark.parametrize("sha256", [None, "0" * 64], ids=["intact", "tampered"])
def test_a_check_started_later_is_started_by_the_first_lookup_if_need_be(
    small_lexicon_path: Path, tmp_path: Path, sha256: str | None
):
    """The kiosk starts the hash check after its first paint (start_check=False): until
    then nothing is hashed, and a lookup that comes first starts it and waits for it —
    a tampered file is refused all the same."""
    path = (
        small_lexicon_path
        if sha256 is None
        else _with_header(small_lexicon_path, tmp_path, sha256=sha256)
    )
    lex = Lexicon.open(path, verify="background", start_check=False)
    assert lex._verifier is not None and lex._verifier.ident is None  # not started
    if sha256 is None:
        assert lex.judge(words("kůň", "čáp")).valid
    else:
        with pytest.raises(LexiconError, match="SHA-256"):
            lex.judge(words("kůň"))
    lex.start_check()  # later, as the kiosk does: nothing more to do
    assert not lex._verifier.is_alive()


def test_a_tampered_file_opened_in_the_background_never_judges(
    small_lexicon_path: Path, tmp_path: Path
):
    # The trie is intact (it maps), only its content does not match the recorded hash:
    # the background check must stop every lookup, not just log.
    bad = _with_header(small_lexicon_path, tmp_path, sha256="0" * 64)
    with pytest.raises(LexiconError, match="SHA-256"):
        Lexicon.open(bad)  # verify="now"
    lex = Lexicon.open(bad, verify="background")
    for attempt in (
        lambda: lex.judge(words("kůň")),
        lambda: "kůň" in lex,
        lambda: lex.contains("kůň"),
        lambda: list(lex.iter_words()),
    ):
        with pytest.raises(LexiconError, match="SHA-256"):
            attempt()
    with pytest.raises(LexiconError, match="SHA-256"):
        read_info(bad)

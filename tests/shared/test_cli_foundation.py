"""The CLI contract other tools rely on: hub lexicon build/info, station check."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main as hub_main
from samoobsluha.station.cli import main as station_main

BIN = Path(sys.executable).parent


def test_hub_lexicon_build_and_info(tmp_path: Path, small_wordlist: Path, capsys):
    out = tmp_path / "k.lex"
    rc = hub_main(
        ["lexicon", "build", "--wordlist", str(small_wordlist), "--lang", "cs",
         "--variant", "KLASIK", "-o", str(out), "--max-length", "9"]
    )  # fmt: skip
    assert rc == 0
    assert out.exists()
    capsys.readouterr()
    assert hub_main(["lexicon", "info", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    info = dict(line.split(": ", 1) for line in lines)
    assert info["language"] == "cs"
    assert info["variant"] == "KLASIK"
    assert info["max_length"] == "9"
    assert int(info["words"]) > 20
    assert len(info["sha256"]) == 64


def test_hub_lexicon_info_on_garbage_exits_2(tmp_path: Path, capsys):
    bad = tmp_path / "bad.lex"
    bad.write_bytes(b"garbage")
    assert hub_main(["lexicon", "info", str(bad)]) == 2
    assert "bad.lex" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("lang", "kept", "dropped", "wrote"),
    [
        ("cs", "ponechány: 3 tvary", "vyřazen 1: vlastní jméno", "h.lex: 3 slova, cs/PLUS, délky"),
        ("sk", "ponechané: 3 tvary", "vyradený 1: vlastné meno", "h.lex: 3 slová, cs/PLUS, dĺžky"),
        ("pl", "zachowano: 3 formy", "odrzucono 1: nazwa własna", "h.lex: 3 słowa, cs/PLUS"),
        ("en", "kept: 3 forms", "dropped 1: proper noun", "h.lex: 3 words, cs/PLUS, lengths"),
    ],
)
def test_hub_lexicon_build_from_hunspell_prefix(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch, lang, kept, dropped, wrote
):
    """The build's report is in the operator's language (SAMOOBSLUHA_LANG)."""
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    prefix = tmp_path / "xx"
    prefix.with_suffix(".aff").write_text("SET UTF-8\nSFX A Y 1\nSFX A 0 y .\n", "utf-8")
    prefix.with_suffix(".dic").write_text("3\nstrom/A\nPraha/A\nkůň\n", "utf-8")
    out = tmp_path / "h.lex"
    rc = hub_main(["lexicon", "build", "--hunspell", str(prefix), "--lang", "cs",
                   "--variant", "PLUS", "-o", str(out)])  # fmt: skip
    assert rc == 0
    captured = capsys.readouterr()
    assert kept in captured.err and dropped in captured.err and "Praha" in captured.err
    assert wrote in captured.out


@pytest.mark.parametrize(
    ("argv", "rc", "shown"),
    [
        (["kůň"], 0, "KŮŇ: PLATNÉ"),
        (["c+a-p"], 0, "ČÁP: PLATNÉ"),
        (["kůň", "čápx"], 1, "NEPLATNÉ"),
        (["kůň1"], 2, "„kůň1“ obsahuje znak „1“"),
        (["a"], 2, "alespoň 2 písmena"),
        (["--ui", "en", "kůň"], 0, "VALID"),
        (["--ui", "sk", "xyzzy"], 1, "NEPLATNÉ"),
    ],
)
def test_station_check_exit_codes(small_lexicon_path: Path, capsys, argv, rc, shown):
    assert station_main(["check", "--lexicon", str(small_lexicon_path), *argv]) == rc
    captured = capsys.readouterr()
    assert shown in captured.out + captured.err


def test_station_check_unusable_lexicon_exits_2(tmp_path: Path, capsys):
    bad = tmp_path / "bad.lex"
    bad.write_bytes(b"SAMOLEX1")
    assert station_main(["check", "--lexicon", str(bad), "kůň"]) == 2
    assert "bad.lex" in capsys.readouterr().err


def test_station_check_without_any_lexicon_says_what_to_install(data_dir, monkeypatch, capsys):
    monkeypatch.setattr("samoobsluha.shared.paths.HUNSPELL_DIRS", (data_dir / "none",))
    assert station_main(["check", "kůň"]) == 2
    assert "hunspell-cs" in capsys.readouterr().err


def test_station_check_reads_plays_from_stdin(small_lexicon_path: Path):
    proc = subprocess.run(
        [BIN / "station", "check", "--lexicon", str(small_lexicon_path)],
        input="kůň čáp\nkůňx\n\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0
    assert "KŮŇ ČÁP: PLATNÉ" in proc.stdout
    assert "KŮŇX: NEPLATNÉ" in proc.stdout


@pytest.mark.parametrize(
    ("word", "rc", "shown"), [("kůň", 0, "KŮŇ: PLATNÉ"), ("c+a-p", 0, "ČÁP: PLATNÉ"),
                              ("kůňů", 1, "KŮŇŮ: NEPLATNÉ")]
)  # fmt: skip
def test_installed_station_check_uses_the_real_czech_lexicon(cs_data_dir: Path, word, rc, shown):
    proc = subprocess.run(
        [BIN / "station", "check", word],
        capture_output=True, text=True, timeout=60, env={**os.environ},
    )  # fmt: skip
    assert proc.returncode == rc, proc.stderr
    assert shown in proc.stdout
    assert "(HUNSPELL)" in proc.stdout


def test_a_reader_that_stops_early_gets_no_traceback() -> None:
    """``hub challenges | head``: the command stops quietly with the shell's SIGPIPE
    status, not a BrokenPipeError traceback on the operator's terminal."""
    import subprocess
    import sys

    code = (
        "import argparse, sys\n"
        "from samoobsluha.shared import cli\n"
        "p = argparse.ArgumentParser()\n"
        "p.set_defaults(func=lambda a: [print('row', i) for i in range(200_000)] and 0)\n"
        "sys.exit(cli.run(p, []))\n"
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert writer.stdout is not None and writer.stderr is not None
    assert writer.stdout.readline() == b"row 0\n"
    writer.stdout.close()  # what head does after its lines
    err = writer.stderr.read().decode()
    assert writer.wait(timeout=60) == 141, err
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_lexicon_build_and_sign_use_the_hubs_key(
    tmp_path: Path, data_dir: Path, small_wordlist: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hub lexicon build`` signs with the hub's key when the machine has one (else says
    that it did not); ``hub lexicon sign`` signs a lexicon built elsewhere. A station
    pinning that hub trusts the result (shared/lextrust.py)."""
    from samoobsluha.hub import store
    from samoobsluha.shared.lexicon import read_info
    from samoobsluha.shared.lextrust import Trust, decide, signature_path
    from samoobsluha.shared.protocol import HallKeys

    build = ["lexicon", "build", "--wordlist", str(small_wordlist), "--lang", "cs",
             "--variant", "KLASIK", "--max-length", "9", "-o"]  # fmt: skip
    unsigned = tmp_path / "before.lex"
    assert hub_main([*build, str(unsigned)]) == 0
    assert "nepodepsán" in capsys.readouterr().err  # the operator's language (cs)
    assert not Path(signature_path(unsigned)).exists()

    secret, _ = store.ensure_key(store.key_path())  # the hub's key (as hub serve makes it)
    pinned = HallKeys(secret).public_key
    assert decide(read_info(unsigned), unsigned, pinned) is Trust.UNSIGNED
    signed = tmp_path / "after.lex"
    assert hub_main([*build, str(signed)]) == 0
    assert "podepsán:" in capsys.readouterr().out
    assert decide(read_info(signed), signed, pinned) is Trust.HUB
    assert hub_main(["lexicon", "sign", str(unsigned)]) == 0
    assert decide(read_info(unsigned), unsigned, pinned) is Trust.HUB
    other = HallKeys(bytes(32)).public_key
    assert decide(read_info(unsigned), unsigned, other) is Trust.BAD_SIGNATURE

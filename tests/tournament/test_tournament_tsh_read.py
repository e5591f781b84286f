"""tsh files as tsh reads them (TFile.pm): ``00`` is undefined — the round is skipped, never
a 0, a 0:0 draw or a bye; CR, LF and CRLF all end lines; a stored file is never re-split on
the other characters str.splitlines() takes for line ends; a Windows-1250 (or ISO-8859-2)
file of Czech and Slovak names is read as such even without a byte in 0x80–0x9F, and the
guess is said on stderr; ``hub pair --tsh`` refuses to pair after a partly scored round as
the database path does. Small files written here."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.hub.tournament.model import Kind

# Round 2: Adam's score is 00 (undefined) against Cyril's 380; Dana was not paired in
# round 1 (00) though a score stands there; Eva's round-2 bye is 00 00.
UNDEFINED = (
    "Adam 1500 2 3; 400 00\n"
    "Bob 1400 1 0; 350 50\n"
    "Cyril 1300 0 1; 50 380\n"
    "Dana 1200 00 5; 50 410\n"
    "Eva 1100 0 4; -50 390\n"
)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def games(f: tsh.TshFile) -> set[tuple[int, int, int | None, str]]:
    return {(g.round, g.p1, g.p2, g.kind.value) for g in tsh.to_tournament(f).games}


def test_00_is_undefined_and_the_round_is_skipped(tmp_path: Path) -> None:
    f = tsh.read(write(tmp_path, "u.t", UNDEFINED.encode()))
    adam, _, _, dana, _ = f.players
    assert adam.scores == [400, None] and not adam.scored(2) and adam.paired(2)
    assert dana.opponents == [None, 5] and not dana.paired(1)
    got = games(f)
    # Adam–Cyril of round 2 is no game (not 0:380); Dana has nothing in round 1 (not a
    # 50-point bye, not a late arrival); Eva's real forfeit stays
    assert (2, 1, 3, "played") not in got
    assert not {g for g in got if g[0] == 1 and 4 in (g[1], g[2])}
    assert (1, 5, None, Kind.ABSENT.value) in got
    assert (1, 1, 2, "played") in got and (2, 4, 5, "played") in got
    # Adam's round 2 is a result still to come; Dana's unpaired round is not
    assert [(g.round, g.p1, g.p2) for g in tsh.pending(f)] == [(2, 1, 3)]
    assert [(g.round, g.p1, g.p2) for g in tsh.incomplete(f, 2)] == [(2, 1, 3)]
    notes = [w for w in f.warnings if w.key == "tsh.warn_undefined"]
    assert [w.values["name"] for w in notes] == ["Adam", "Dana"]
    assert "rounds skipped: 2, as tsh does" in notes[0].text("en")
    assert "přeskočená kola: 1" in notes[1].text("cs")


def test_00_survives_the_database_and_a_rewritten_line(tmp_path: Path) -> None:
    path = write(tmp_path, "u.t", UNDEFINED.encode())
    with Tournament.open(tmp_path / "u.db") as tour:
        tour.import_tsh(path)
        assert tsh.encode(tour.export_tsh()) == path.read_bytes()
    # a line written anew (tsh's own layout) writes 00 back where the value is undefined
    f = tsh.read(path)
    dana = f.players[3]
    dana.raw = None
    line = tsh.format_player(dana)
    assert line.split(";")[0].split()[-2:] == ["00", "5"] and line.split(";")[1].split() == [
        "50",
        "410",
    ]
    again = tsh.parse(tsh.format_file(f))
    assert again.players[3].opponents == [None, 5]


def test_a_00_score_before_a_later_score_keeps_its_place(tmp_path: Path) -> None:
    """Round 1 undefined, round 2 scored: the export must not slide round 2's score into
    round 1 (it writes 00 there)."""
    text = "Adam 1500 2 2; 00 410\nBob 1400 1 1; 00 390\n"
    path = write(tmp_path, "slide.t", text.encode())
    f = tsh.read(path)
    assert games(f) == {(2, 1, 2, "played")}
    data = tsh.to_tournament(f)
    out = tsh.from_tournament(data, pending_games=tsh.pending(f))
    assert [p.scores for p in out.players] == [[None, 410], [None, 390]]
    assert "00 410" in tsh.format_player(out.players[0])


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_every_line_ending_reads_the_same_and_writes_back(tmp_path: Path, eol: str) -> None:
    text = "#tourney Brno\nDvořák 1500 2; 400\n\nNovák 1400 1; 350\n".replace("\n", eol)
    path = write(tmp_path, "eol.t", text.encode())
    f = tsh.read(path)
    assert [(p.name, p.opponents, p.scores, p.line) for p in f.players] == [
        ("Dvořák", [2], [400], 2),
        ("Novák", [1], [350], 4),
    ]
    assert tsh.encode(f) == path.read_bytes()
    with Tournament.open(tmp_path / "eol.db") as tour:
        tour.import_tsh(path)
        assert tsh.encode(tour.export_tsh()) == path.read_bytes()


def test_mixed_line_endings_and_a_cr_at_a_block_edge(tmp_path: Path) -> None:
    """A CRLF split between two reads is one line end, not a CR and an empty line."""
    first = "Adam 1500 2; 400"
    data = (first + "\r\n" + "Bob 1400 1; 350\r" + "Cyril 1300 0; 50\n").encode()
    stream = io.BytesIO(data)
    f = tsh.read_stream(stream, limit=len(first) + 1)  # blocks end right after the CR
    assert [p.name for p in f.players] == ["Adam", "Bob", "Cyril"]
    assert [p.eol for p in f.players] == ["\r\n", "\r", "\n"]
    assert len(f.lines) == 3 and tsh.encode(f) == data


@pytest.mark.parametrize("odd", ["\x85", "\u2028", "\x0c", "\x1e"])
def test_a_stored_file_is_not_split_on_unicode_line_separators(
    tmp_path: Path, odd: str
) -> None:
    name = f"Jan{odd}Novák"
    path = write(tmp_path, "odd.t", f"{name} 1500 2; 400\nEva 1400 1; 350\n".encode())
    with Tournament.open(tmp_path / "odd.db") as tour:
        tour.import_tsh(path)
        back = tour.export_tsh()
        assert [p.name for p in back.players] == [name, "Eva"]
        assert tsh.encode(back) == path.read_bytes()


def test_byte_0x85_in_a_latin1_name_imports_and_exports(tmp_path: Path) -> None:
    data = b"M\xfcller\x85 1500 2; 400\nEva 1400 1; 350\n"
    path = write(tmp_path, "nel.t", data)
    with Tournament.open(tmp_path / "nel.db") as tour:
        tour.import_tsh(path)
        assert tsh.encode(tour.export_tsh()) == data


CZECH = "Dvořák, Jiří 1500 2; 400\nČech, Luděk 1400 1; 350\nKůrka, Ondřej 1300 0; 50\n"
SLOVAK = "Ľupták, Ľubomír 1500 2; 400\nKováč, Ďuro 1400 1; 350\n"


@pytest.mark.parametrize("text", [CZECH, SLOVAK], ids=["czech", "slovak"])
def test_windows_1250_without_bytes_in_0x80_0x9f_is_read_as_czech(
    tmp_path: Path, text: str
) -> None:
    data = text.encode("cp1250")
    assert not any(0x80 <= b <= 0x9F for b in data)  # what used to fool the reader
    f = tsh.read(write(tmp_path, "cz.t", data))
    assert f.encoding == "cp1250"
    assert [p.name for p in f.players] == [line.split(" 1")[0] for line in text.splitlines()]
    assert f.encoding_note is not None and f.encoding_note.key == "tsh.encoding_czech"
    assert "Windows-1250" in f.encoding_note.text("cs") and not f.warnings
    assert tsh.encode(f) == data


def test_iso_8859_2_is_told_from_windows_1250(tmp_path: Path) -> None:
    data = "Šťastný, Řehoř 1500 2; 400\nŽák, Tomáš 1400 1; 350\n".encode("iso-8859-2")
    f = tsh.read(write(tmp_path, "l2.t", data))
    assert f.encoding == "iso-8859-2" and f.players[0].name == "Šťastný, Řehoř"
    assert tsh.encode(f) == data


@pytest.mark.parametrize(
    "names",
    [
        ["Bjørn Sørensen", "Jørgen Møller"],  # ø is ř's byte: before r, n, l it is not Czech
        ["Hélène Thérèse", "Michèle Adèle"],  # è is č's byte
        ["Håkan Ståhl", "Anaïs Loïc"],  # å is ĺ's, ï is ď's
        ["Randy Rößler", "Lynn Hàynes-Ørsted"],  # the public corpus's own Latin-1 names
    ],
)
def test_western_names_stay_iso_8859_1(tmp_path: Path, names: list[str]) -> None:
    text = f"{names[0]} 1500 2; 400\n{names[1]} 1400 1; 350\n"
    data = text.encode("iso-8859-1")
    f = tsh.read(write(tmp_path, "w.t", data))
    assert f.encoding == "iso-8859-1" and [p.name for p in f.players] == names
    assert f.encoding_note is not None and f.encoding_note.key == "tsh.encoding_default"
    assert tsh.encode(f) == data


def test_utf8_and_ascii_are_no_guess(tmp_path: Path) -> None:
    assert tsh.read(write(tmp_path, "u.t", CZECH.encode())).encoding_note is None
    assert tsh.read(write(tmp_path, "a.t", b"Adam 1500 0; 50\n")).encoding_note is None


def test_the_guess_is_said_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    path = write(tmp_path, "cz.t", CZECH.encode("cp1250"))
    assert main(["standings", "--rules", "cas", "--tsh", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "odhadnuto jako Windows-1250" in err and "Dvořák, Jiří" in err
    assert "Dvořák, Jiří" in out  # and the standings have the names right


PARTIAL = (
    "Adam 1500 2 3; 400 410\n"
    "Bob 1400 1 4; 350 300\n"
    "Cyril 1300 4 1; 380 390\n"
    "Dana 1200 3 2; 360\n"
)


def test_pair_refuses_after_a_partly_scored_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 2 has Adam–Cyril scored, Bob–Dana only on Bob's side: pairing round 3 is
    refused as the database path refuses (Tournament.pair), unless --force."""
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    path = write(tmp_path, "p.t", PARTIAL.encode())
    assert main(["pair", "--rules", "cas", "--tsh", str(path)]) == 2
    err = capsys.readouterr().err
    assert "round 3 cannot be paired: round 2 is not complete" in err
    assert "Bob – Dana" in err and "--force" in err
    assert main(["pair", "--rules", "cas", "--tsh", str(path), "--force"]) == 0
    out, err = capsys.readouterr()
    assert len(out.strip().splitlines()) == 1 + 2  # header and two tables
    assert "round 2 is only partly scored" in err
    assert main(["standings", "--rules", "cas", "--tsh", str(path)]) == 0
    assert "round 2 is only partly scored (without a result: Bob – Dana)" in (
        capsys.readouterr().err
    )
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    assert main(["pair", "--rules", "cas", "--tsh", str(path)]) == 2
    assert "2. kolo není úplné" in capsys.readouterr().err

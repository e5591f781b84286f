"""tsh's grammar whole, live files, bad input and the lossless round trip — on generated
files (the suite stands alone; the public corpus is in test_tournament_tsh_real.py)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.hub.tournament.rules import CAS
from samoobsluha.hub.tournament.standings import compute

NAMES = ["Novák, Jan", "Dvořák, Čeněk", "IBex7", "Team 2 (7/7)", "Müller, Jürg", "O'Brien"]


def generate(
    seed: int,
    players: int,
    rounds: int,
    *,
    live: bool = False,
    latin: bool = False,
    crlf: bool = False,
    bom: bool = False,
    tsh_layout: bool = True,
) -> bytes:
    """A plausible tsh file: Swiss-ish random pairings, byes scored 50 or 1, absences 0 or
    −50 between games, p12 (sometimes contradictory), unknown keys with tsh's 00 and an
    escaped ``\\;``, comments, names with digits and cross-tables ids, dotted and team
    ratings; ``live``: one more round paired but not scored."""
    rnd = random.Random(seed)
    opps: list[list[int]] = [[] for _ in range(players)]
    scores: list[list[int]] = [[] for _ in range(players)]
    p12: list[list[int]] = [[] for _ in range(players)]
    for r in range(rounds + (1 if live else 0)):
        order = list(range(players))
        rnd.shuffle(order)
        if len(order) % 2:
            order.append(-1)
        for a, b in zip(order[::2], order[1::2], strict=True):
            if b == -1 or (rnd.random() < 0.05 and r < rounds):
                for x in (a,) if b == -1 else (a, b):
                    opps[x].append(0)
                    if r < rounds:
                        scores[x].append(rnd.choice([50, 1, 0, -50]) if b == -1 else 0)
                    p12[x].append(0)
                continue
            opps[a].append(b + 1)
            opps[b].append(a + 1)
            if r < rounds:
                scores[a].append(rnd.randint(200, 600))
                scores[b].append(rnd.randint(200, 600))
            code = rnd.choice([1, 1, 1, 3])
            p12[a].append(code)
            p12[b].append({1: 2, 3: 3}[code] if rnd.random() > 0.1 else 1)
    eol = "\r\n" if crlf else "\n"
    lines = ["# generated" + eol] if rnd.random() < 0.5 else []
    for i in range(players):
        # Digits inside names, never as a last word of their own: tsh's grammar itself
        # would read "Team 7 1500 …" as the name "Team" rated 7.
        name = f"{rnd.choice(NAMES)} {chr(65 + i % 26)}{i}"
        if rnd.random() < 0.3:
            name += f":XT{rnd.randint(1, 99999):06d}"
        if latin:
            name = name.replace("ř", "r").replace("Č", "C").replace("ě", "e")
        rating = rnd.choice(["1500", "1500.5", "0+0+0", "0", "2101"])
        fields = [("p12", " ".join(map(str, p12[i])))]
        fields.append(("rrank", " ".join(["00"] * len(scores[i]))))
        fields.append(("newr", " ".join(str(rnd.randint(900, 2000)) for _ in scores[i])))
        if rnd.random() < 0.2:
            fields.append(("team", "A\\;B"))
        if rnd.random() < 0.1:
            fields.append(("off", "-50"))
        fields.sort()
        p = tsh.TshPlayer(name, rating, opps[i], scores[i], fields)
        text = tsh.format_player(p)
        if not tsh_layout:
            text = text.replace(f"{name:<22} ", f"{name}\t", 1)
        lines.append(text + eol)
        if rnd.random() < 0.05:
            lines.append(eol)
    body = "".join(lines).encode("iso-8859-1" if latin else "utf-8")
    return (b"\xef\xbb\xbf" if bom else b"") + body


def reading(f: tsh.TshFile) -> list[tuple[object, ...]]:
    return [(p.name, p.rating, p.opponents, p.scores, p.fields) for p in f.players]


FILES = st.builds(
    generate,
    seed=st.integers(0, 10**6),
    players=st.integers(1, 14),
    rounds=st.integers(0, 6),
    live=st.booleans(),
    latin=st.booleans(),
    crlf=st.booleans(),
    bom=st.booleans(),
    tsh_layout=st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=FILES)
def test_round_trip_through_the_database_is_lossless(raw: bytes) -> None:
    source = tsh.read_stream(io.BytesIO(raw))
    assert tsh.encode(source) == raw
    with Tournament.open(":memory:") as tour:
        tour.import_tsh_file(source)
        back = tour.export_tsh()
        assert tsh.encode(back) == raw  # byte for byte, encoding, BOM and line ends included
        again = tsh.read_stream(io.BytesIO(tsh.encode(back)))
        assert reading(again) == reading(source)
        # The database's standings are the engine's reading of the file.
        data = tsh.to_tournament(source)
        want = compute(data.players.values(), data.games, CAS, rounds=source.scored_rounds)
        got = tour.standings()
        assert [(s.player.id, s.wins, s.spread) for s in got] == [
            (s.player.id, s.wins, s.spread) for s in want
        ]


@settings(max_examples=40, deadline=None)
@given(raw=FILES)
def test_export_without_the_source_means_the_same_games(raw: bytes) -> None:
    """A tournament built in the hub (no source file) is written in tsh's own layout; tsh's
    reading of it gives the same games and the same pending pairings."""
    source = tsh.read_stream(io.BytesIO(raw))
    data = tsh.to_tournament(source)
    pend = tsh.pending(source)
    fresh = tsh.from_tournament(data, pending_games=pend, scored_rounds=source.scored_rounds)
    again = tsh.parse(tsh.format_file(fresh))
    back = tsh.to_tournament(again)
    assert back.games == data.games
    assert [(g.round, g.p1, g.p2) for g in tsh.pending(again)] == [
        (g.round, g.p1, g.p2) for g in pend
    ]
    assert [p.withdrawn for p in back.players.values()] == [
        p.withdrawn for p in data.players.values()
    ]


def test_grammar_whole() -> None:
    text = (
        "\ufeff# Division A\r\n"
        "Tunnicliffe, Matthew:XT017175  2109 2 0; 550 50; board 1 1; p12 1 0\r\n"
        "IBex7\t1500.5 1 0; 356 1; team Brno\\; Praha; rrank 00 1; p12 2 0\r\n"
        "\r\n"
        "Team 7 (7/7):XC000001 0+0+0 0 0; -50 0; off 0\r\n"
    )
    f = tsh.parse(text)
    assert [p.name for p in f.players] == [
        "Tunnicliffe, Matthew:XT017175",
        "IBex7",
        "Team 7 (7/7):XC000001",
    ]
    assert [p.display_name for p in f.players][::2] == ["Tunnicliffe, Matthew", "Team 7 (7/7)"]
    assert [p.rating for p in f.players] == ["2109", "1500.5", "0+0+0"]
    assert f.players[1].get("team") == "Brno\\; Praha"  # an escaped ; is not a separator
    assert f.players[1].get("rrank") == "00 1"
    assert f.bom and tsh.format_file(f) == text
    data = tsh.to_tournament(f)
    assert data.players[1].name == "Tunnicliffe, Matthew"
    kinds = {(g.round, g.p1): g.kind for g in data.games if g.p2 is None}
    assert kinds == {(2, 1): Kind.BYE, (2, 2): Kind.BYE, (1, 3): Kind.ABSENT}
    assert data.players[3].withdrawn


def test_live_file_pending_round(tmp_path: Path) -> None:
    text = (
        "Adam 1500 2 3; 400 380\nBob  1400 1 4; 350 420\nCyril 1300 4 1; 300\nDan 1200 3 2; 310\n"
    )
    f = tsh.parse(text)
    assert f.scored_rounds == 2 and f.rounds == 2
    data = tsh.to_tournament(f)
    assert [(g.round, g.p1, g.p2) for g in data.games] == [(1, 1, 2), (1, 3, 4)]
    # Adam and Bob have round-2 scores but their opponents do not: the games are pending,
    # with a warning — not 0:0 draws.
    assert [(g.round, g.p1, g.p2) for g in tsh.pending(f)] == [(2, 1, 3), (2, 2, 4)]
    assert any(w.key == "tsh.warn_half_scored" for w in f.warnings)


def test_live_file_in_the_database_and_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    path = tmp_path / "live.t"
    path.write_bytes(generate(7, 9, 3, live=True))
    db = str(tmp_path / "hub.db")
    assert main(["tournament", "import-tsh", "--db", db, str(path)]) == 0
    err = capsys.readouterr().err
    assert "round 4 is paired but has no results" in err
    with Tournament.open(db) as tour:
        assert (tour.last_round(), tour.last_scored_round()) == (4, 3)
        missing = tour.missing_results(4)
        assert missing and not tour.results(4)
        table = tour.standings()
        assert all(len(s.lines) <= 3 for s in table)
    assert main(["tournament", "missing", "--db", db]) == 1
    assert capsys.readouterr().out.count("table ") == len(missing)
    # hub pair pairs the pending round again by default and refuses to skip ahead.
    assert main(["pair", "--rules", "cas", "--tsh", str(path)]) == 0
    capsys.readouterr()
    assert main(["pair", "--rules", "cas", "--tsh", str(path), "--round", "5"]) == 2
    assert "results go up to round 3 only; the next round to pair is 4" in capsys.readouterr().err


def test_encodings(tmp_path: Path) -> None:
    latin = tmp_path / "latin.t"
    latin.write_bytes("Müller, Jürg 1500 2; 400\nNovák 1400 1; 350\n".encode("iso-8859-1"))
    f = tsh.read(latin)
    assert f.encoding == "iso-8859-1" and f.players[0].name == "Müller, Jürg"
    assert tsh.encode(f) == latin.read_bytes()
    mixed = tmp_path / "mixed.t"
    mixed.write_bytes("Dvořák 1500 2; 400\n".encode() + "Novák 1400 1; 350\n".encode("iso-8859-1"))
    with pytest.raises(tsh.TshError) as caught:
        tsh.read(mixed)
    assert "line 1 is UTF-8, line 2 is not" in caught.value.text("en")
    assert "řádek 1 je v UTF-8, řádek 2 ne" in caught.value.text("cs")
    cp1250 = tmp_path / "cp1250.t"
    cp1250.write_bytes("Šťastný 1500 2; 400\nNovák 1400 1; 350\n".encode("cp1250"))
    f = tsh.read(cp1250)  # š, ť are in 0x80-0x9F: Windows-1250, no longer a warning
    assert (f.encoding, f.players[0].name, f.warnings) == ("cp1250", "Šťastný", [])
    assert f.encoding_note is not None and f.encoding_note.key == "tsh.encoding_czech"
    assert tsh.encode(f) == cp1250.read_bytes()
    western = tmp_path / "cp1252.t"  # quotes in 0x80-0x9F, Western letters: still Latin-1
    western.write_bytes("Jörg “Jo” Bjørnstad 1500 2; 400\nNovák 1400 1; 350\n".encode("cp1252"))
    f = tsh.read(western)
    assert f.encoding == "iso-8859-1" and [w.key for w in f.warnings] == ["tsh.warn_c1"]
    bom = tmp_path / "bom.t"
    bom.write_bytes(b"\xef\xbb\xbfNovak, Jan 1500 0; 50\n")
    assert tsh.read(bom).players[0].name == "Novak, Jan"


def test_a_huge_line_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Only the refusal is tested; time and memory for a 10 MB line are in bench/."""
    path = tmp_path / "huge.t"
    path.write_bytes(b"Adam 1500 " + b"1 " * 200_000 + b"; 400\n")
    with pytest.raises(tsh.TshError) as caught:
        tsh.read(path)
    assert caught.value.notice.key == "tsh.line_too_long"
    assert caught.value.notice.values["line"] == 1
    # A small limit shows the stream stops at the limit, not at the end of the line.
    stream = io.BytesIO(b"Adam 1500 0; 50\n" + b"x" * 1000)
    with pytest.raises(tsh.TshError):
        tsh.read_stream(stream, limit=100)
    assert stream.tell() <= 16 + 101


def test_warnings_for_suspicious_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    path = tmp_path / "w.t"
    path.write_text("Adam 1500 2; 400 380 390; p12 1; p12 1\nBob 1400 1; 350; p12 7\n")
    assert main(["standings", "--rules", "cas", "--tsh", str(path)]) == 0
    err = capsys.readouterr().err
    assert "line 1 (Adam): 3 scores but only 1 pairings" in err
    assert "line 1 (Adam): key p12 appears more than once" in err
    assert "line 2 (Bob): p12 has values other than 0–3" in err


@pytest.mark.parametrize("command", [["standings", "--rules", "cas"], ["pair", "--rules", "cas"]])
def test_empty_roster_exits_non_zero(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    path = tmp_path / "empty.t"
    path.write_text("# nothing yet\n\n")
    assert main([*command, "--tsh", str(path)]) == 2
    assert "v souboru nejsou žádní hráči" in capsys.readouterr().err
    db = str(tmp_path / "hub.db")
    assert main(["tournament", "import-tsh", "--db", db, str(path)]) == 2
    capsys.readouterr()
    assert main(["standings", "--db", db]) == 2
    assert "turnaj nemá žádné hráče" in capsys.readouterr().err


def test_bad_p12_names_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "sk")
    with pytest.raises(tsh.TshError) as caught:
        tsh.parse("Adam 1500 2; 400; p12 1\nBob 1400 1; 350; p12 x\n")
    assert str(caught.value) == "riadok 2 (Bob): p12 obsahuje „x“, čo nie je číslo"


def test_latin1_file_keeps_its_encoding_and_refuses_what_it_cannot_hold(
    tmp_path: Path,
) -> None:
    raw = generate(3, 6, 2, latin=True)
    source = tsh.read_stream(io.BytesIO(raw))
    with Tournament.open(":memory:") as tour:
        tour.import_tsh_file(source)
        tour.add_player("Řehoř, Šimon")  # not in ISO-8859-1
        with pytest.raises(tsh.TshError) as caught:
            tsh.encode(tour.export_tsh())
    assert "cannot be written in iso-8859-1" in caught.value.text("en")


def test_a_repaired_pending_round_is_exported_with_the_hubs_tables() -> None:
    text = (
        "Adam A 1500 2 3; 400; board 1 1; p12 1 1\n"
        "Bob B 1400 1 4; 350; board 1 2; p12 2 1\n"
        "Cyril C 1300 4 1; 300; board 2 1; p12 1 2\n"
        "Dan D 1200 3 2; 310; board 2 2; p12 2 2\n"
    )
    source = tsh.parse(text)
    with Tournament.open(":memory:") as tour:
        tour.import_tsh_file(source)
        assert tsh.format_file(tour.export_tsh()) == text
        pairing = tour.pair(2, seed=1)  # the pending round, paired again by the hub
        back = tsh.parse(tsh.format_file(tour.export_tsh()))
    for board in pairing.boards:
        assert board.second is not None
        for me, other in ((board.first, board.second), (board.second, board.first)):
            line = back.players[me - 1]
            assert line.opponents == [source.players[me - 1].opponents[0], other]
            assert line.scores == source.players[me - 1].scores  # round 2 still pending
            assert line.ints("board") == [source.players[me - 1].ints("board")[0], board.table]
            assert line.ints("p12")[1] == (1 if me == board.first else 2)

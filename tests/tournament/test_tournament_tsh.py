"""tsh .t files: the real samples import, round-trip, and give consistent standings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.hub.tournament.rules import CAS, SSS
from samoobsluha.hub.tournament.standings import compute

DATA = Path(__file__).resolve().parent / "data"  # copies of shared/data/tsh
SAMPLES = sorted(DATA.glob("*.t"))


def test_samples_are_there() -> None:
    assert {p.name for p in SAMPLES} >= {"anon1.t", "tournament1-a.t"}


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_read_and_write_back_unchanged(path: Path, tmp_path: Path) -> None:
    parsed = tsh.read(path)
    assert tsh.format_file(parsed) == path.read_text(encoding="utf-8")
    out = tmp_path / path.name
    tsh.write(parsed, out)
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_games_survive_export_and_reimport(path: Path) -> None:
    data = tsh.to_tournament(tsh.read(path))
    again = tsh.to_tournament(tsh.parse(tsh.format_file(tsh.from_tournament(data))))
    assert again.players.keys() == data.players.keys()
    assert [p.name for p in again.players.values()] == [p.name for p in data.players.values()]
    assert [p.withdrawn for p in again.players.values()] == [
        p.withdrawn for p in data.players.values()
    ]
    assert again.games == data.games
    for rules in (CAS, SSS):
        a = [
            (s.player.id, s.wins, s.spread, round(s.turcas, 6))
            for s in compute(data.players.values(), data.games, rules)
        ]
        b = [
            (s.player.id, s.wins, s.spread, round(s.turcas, 6))
            for s in compute(again.players.values(), again.games, rules)
        ]
        assert a == b


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_interpretation_matches_the_raw_lines(path: Path) -> None:
    raw = tsh.read(path)
    data = tsh.to_tournament(raw)
    # Every pairing with an opponent appears once, scores from both lines.
    for g in data.games:
        if g.p2 is None:
            continue
        p1, p2 = raw.players[g.p1 - 1], raw.players[g.p2 - 1]
        assert p1.opponents[g.round - 1] == g.p2
        assert p2.opponents[g.round - 1] == g.p1
        assert (p1.scores[g.round - 1], p2.scores[g.round - 1]) == (g.s1, g.s2)
    paired = sum(1 for p in raw.players for o in p.opponents if o)
    assert paired == 2 * sum(1 for g in data.games if g.p2 is not None)
    # Points in the standings are the raw scores of real games plus what byes/absences
    # are worth under the rule set.
    table = {s.player.id: s for s in compute(data.players.values(), data.games, CAS)}
    for pid, p in enumerate(raw.players, start=1):
        real = sum(s for o, s in zip(p.opponents, p.scores, strict=False) if o)
        extra = sum(line.own for line in table[pid].lines if line.opponent is None)
        assert table[pid].points == real + extra


def test_tournament1_reads_byes_late_entries_and_withdrawals() -> None:
    data = tsh.to_tournament(tsh.read(DATA / "tournament1-a.t"))
    kinds = Counter(g.kind for g in data.games)
    assert kinds[Kind.BYE] > 0 and kinds[Kind.LATE] > 0 and kinds[Kind.ABSENT] > 0
    withdrawn = {p.name for p in data.players.values() if p.withdrawn}
    raw = tsh.read(DATA / "tournament1-a.t")
    assert withdrawn == {p.name for p in raw.players if p.get("off") is not None}
    # A late entrant (no games in round 1..k, then games) has LATE rounds only before entry.
    for pid in data.players:
        late = [g.round for g in data.games if g.p1 == pid and g.kind is Kind.LATE]
        played = [g.round for g in data.games if pid in g.players() and g.p2 is not None]
        if late and played:
            assert max(late) < min(played)


def test_iso_8859_1_and_utf8_names(tmp_path: Path) -> None:
    line = "Dvořák, Čeněk             1500 2; 400; p12 1\nNovák, Jiří 1400 1; 350; p12 2\n"
    utf = tmp_path / "u.t"
    utf.write_text(line, encoding="utf-8")
    assert tsh.read(utf).players[0].name == "Dvořák, Čeněk"
    latin = tmp_path / "l.t"
    latin.write_bytes("Müller, Jürg 1500 2; 400\nNovák 1400 1; 350\n".encode("iso-8859-1"))
    parsed = tsh.read(latin)
    assert parsed.encoding == "iso-8859-1"
    assert parsed.players[0].name == "Müller, Jürg"
    tsh.write(parsed, tmp_path / "back.t")
    assert tsh.read(tmp_path / "back.t") == parsed  # written back in ISO-8859-1
    data = tsh.to_tournament(tsh.read(utf))
    (game,) = data.games
    assert (game.p1, game.p2, game.s1, game.s2, game.first) == (1, 2, 400, 350, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "Adam 1500 2; 400\nBob 1400 3; 350\nCyril 0 0; 0\n",
            "line 1 (Adam): round 1 opponent Bob does not list him back",
        ),
        (
            "Adam 1500 5; 400\nBob 1400 1; 350\n",
            "line 1 (Adam): round 1 opponent 5 is not a player number",
        ),
        ("Adam 1500 1; 400\n", "line 1 (Adam): round 1 paired with himself"),
        ("Adam 1500 0; 50\n# comment\nno rating here; 400\n", "line 3: expected 'NAME RATING"),
        ("Adam 1500 0; four\n", "line 1 (Adam): score 'four' is not a number"),
        ("Adam 1500 0; 50; p12 x\n", "line 1 (Adam): p12 has 'x', which is not a number"),
    ],
)
def test_broken_files_are_refused_with_the_reason(
    text: str, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    with pytest.raises(tsh.TshError) as caught:
        tsh.to_tournament(tsh.parse(text))
    assert message in str(caught.value)
    # The same refusal in Czech and Slovak names the same line.
    line = message.split(":")[0].split()[1]
    assert f"řádek {line}" in caught.value.text("cs")
    assert f"riadok {line}" in caught.value.text("sk")


def test_contradictory_p12_means_unknown_starter() -> None:
    text = "Adam 0 2; 400; p12 1\nBob 0 1; 350; p12 1\nCyril 0 4; 300; p12 3\nDan 0 3; 200; p12 2\n"
    games = tsh.to_tournament(tsh.parse(text)).games
    assert [g.first for g in games] == [None, 3]

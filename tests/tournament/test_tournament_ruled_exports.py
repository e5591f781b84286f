"""What the file says is what the hall ruled: every export carries the ruled result, and an
export read back gives the same standings — forfeits (200:0 and kept score), a double
forfeit, a late entrant, a temporary absence and byes included.

The event is the one an operator tried: 11 players, ČAS rules, 4 rounds, a forfeit scored
250:180 at the moment (ČAS 14.2 rules it 200:0)."""

from __future__ import annotations

from pathlib import Path

import pytest
from event_kit import figures, play_event

from samoobsluha.hub.tournament import exports, tsh
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text


@pytest.fixture
def event(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as t:
        forfeits = play_event(t)
        yield t, forfeits


def test_the_event_has_every_kind(event) -> None:  # type: ignore[no-untyped-def]
    t, forfeits = event
    kinds = {g.kind for g in t.data().games}
    assert kinds == set(Kind)
    assert set(forfeits) == {"ruled", "kept", "kept_behind", "double"}


def test_tsh_export_reads_back_to_identical_standings(event, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t, _ = event
    out = tmp_path / "prebor.t"
    tsh.write(t.export_tsh(), out)
    back = tsh.to_tournament(tsh.read(out))
    again = compute(back.players.values(), back.games, t.rules)
    assert figures(again) == figures(t.standings())
    # and into a fresh hub, as the next event's director would load it
    with Tournament.open(tmp_path / "other.db", clock=FakeClock()) as other:
        other.configure(rules="cas", rounds=4)
        other.import_tsh(out)
        assert figures(other.standings()) == figures(t.standings())
        # the file is the same file once more
        assert tsh.format_file(other.export_tsh()) == tsh.format_file(tsh.read(out))


def test_tsh_file_carries_the_ruled_forfeit_score(event) -> None:  # type: ignore[no-untyped-def]
    t, forfeits = event
    r, table = forfeits["ruled"]
    board = t.pairing(r).boards[table - 1]
    written = t.export_tsh()
    first = written.players[board.first - 1]
    second = written.players[board.second - 1]
    assert (first.scores[r - 1], second.scores[r - 1]) == (200, 0)
    # other tools that do not know the forfeit key still see a win and the ruled spread
    plain = tsh.parse(
        "".join(
            line.split(";")[0] + ";" + line.split(";")[1] + "\n"
            for line in tsh.format_file(written).splitlines()
            if line and not line.startswith("#")
        )
    )
    back = tsh.to_tournament(plain)
    game = next(g for g in back.games if g.round == r and board.first in g.players())
    assert game.score_of(board.first) == (200, 0)


def test_results_export_shows_the_ruled_score(event) -> None:  # type: ignore[no-untyped-def]
    t, forfeits = event
    r, table = forfeits["ruled"]
    plain = exports.render(t, "results", "csv", round_no=r, plain=True)
    row = plain.splitlines()[table]
    assert row.split(",")[2] == "200:0", row
    cs = exports.render(t, "results", "csv", round_no=r, lang="cs")
    row = cs.splitlines()[table]
    assert "200:0" in row and "kontumace" in row and "250:180" in row, row
    html = exports.render(t, "results", "html", round_no=r, lang="cs")
    assert "200:0" in html and "250:180" in html


def test_pairing_past_the_planned_rounds_asks_first(event) -> None:  # type: ignore[no-untyped-def]
    t, _ = event
    with pytest.raises(TournamentError) as refused:
        t.pair(5, seed=1)
    text = error_text(refused.value, "cs")
    assert "4" in text and "--beyond" in text
    assert t.last_round() == 4
    t.pair(5, seed=1, beyond=True)
    assert t.last_round() == 5

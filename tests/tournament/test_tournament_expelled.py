"""What an expulsion from the event does to the expelled player's results, by rule set.

PFS 1.3 (seeds/pfs-game-and-swiss-rules.pl.txt): on a repeated violation "sędzia może
wykluczyć danego gracza z dalszych rozgrywek, zerując jego dorobek punktowy" — his tally is
zeroed (``expelled_results = "void"``). ČAS 13.12–13.14 and the SSS rules only exclude him
from further play: his games stand (``keep``). Either way his opponents keep their games
against him: the rule zeroes his tally, not theirs."""

from __future__ import annotations

from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.hub.tournament.rules import get_rules
from samoobsluha.shared.clock import FakeClock

FIELD = [("Kowalski Jan", 180), ("Nowak Piotr", 170), ("Wiśniewska Anna", 160), ("Wójcik Ewa", 150)]
CHEAT = "Kowalski Jan"


def play_two_rounds(db: Path, rules: str) -> dict[str, int]:
    """Two rounds in which the cheat wins both games 500:300 (the others' starters win
    400:350); then he is expelled from the event in round 2."""
    with Tournament.open(db, clock=FakeClock(1000.0)) as tour:
        tour.configure(name="Turniej", rules=rules, rounds=3)
        ids = {name: tour.add_player(name, rating=rating).id for name, rating in FIELD}
        for r in (1, 2):
            for b in tour.pair(r, seed=r).boards:
                assert b.second is not None
                first, second = (500, 300) if b.first == ids[CHEAT] else (400, 350)
                if b.second == ids[CHEAT]:
                    first, second = 300, 500
                tour.record_result(r, b.table, b.first, b.second, first, second, started=b.first)
            tour.publish(r)
        assert tour.standings()[0].player.name == CHEAT  # 2 wins, 1000 points: first
        tour.sanction(ids[CHEAT], "expulsion", scope="event", reason="oszustwo", who="sędzia")
    return ids


def test_pfs_voids_an_expelled_players_tally(tmp_path: Path) -> None:
    ids = play_two_rounds(tmp_path / "hub.db", "pfs")
    with Tournament.open(tmp_path / "hub.db") as tour:
        table = tour.standings()
        last = table[-1]
        assert last.player.name == CHEAT and last.voided
        assert (last.wins, last.losses, last.balance, last.points) == (0, 0, 0, 0)
        assert last.rank == len(FIELD)  # below everybody, a zero balance included
        # his opponents keep their games against him: each lost to him, and still did
        for s in table[:-1]:
            assert not s.voided
            met = [line for line in s.lines if line.opponent == ids[CHEAT]]
            assert all(line.wins == 0 and line.own == 300 for line in met)
        # his games stay on his scorecard
        assert [line.own for line in last.lines] == [500, 500]
        # the standings after round 1, before the expulsion, are as they were published
        assert tour.standings(after_round=1)[0].player.name == CHEAT
        # a revoked expulsion gives his tally back
        expulsion = tour.sanctions(player=ids[CHEAT])[0]
        tour.revoke_sanction(expulsion.id, who="sędzia", note="odwołanie")
        assert tour.standings()[0].player.name == CHEAT


@pytest.mark.parametrize("rules", ["cas", "sss"])
def test_cas_and_sss_keep_an_expelled_players_games(tmp_path: Path, rules: str) -> None:
    play_two_rounds(tmp_path / "hub.db", rules)
    with Tournament.open(tmp_path / "hub.db") as tour:
        top = tour.standings()[0]
        assert top.player.name == CHEAT and not top.voided and top.wins == 2
        assert top.player.withdrawn  # expelled from the event: never paired again


def test_the_setting_is_the_rule_sets_and_may_be_changed(tmp_path: Path) -> None:
    assert get_rules("pfs").expelled_results == "void"
    assert get_rules("cas").expelled_results == get_rules("sss").expelled_results == "keep"
    with pytest.raises(ValueError, match="expelled_results"):
        get_rules("pfs", {"expelled_results": "maybe"})
    play_two_rounds(tmp_path / "hub.db", "pfs")
    with Tournament.open(tmp_path / "hub.db") as tour:
        tour.configure(overrides={"expelled_results": "keep"})  # the event's propositions
        assert tour.standings()[0].player.name == CHEAT


def test_the_operator_sees_the_voided_tally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "pl")
    play_two_rounds(tmp_path / "hub.db", "pfs")
    assert main(["standings", "--db", str(tmp_path / "hub.db")]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[-1].startswith(f"4,{CHEAT},0,0,0,")


@pytest.mark.parametrize("rules", ["pfs", "cas"])
def test_the_tsh_file_reads_back_to_the_same_standings(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rules: str,
) -> None:
    """The file carries the expulsion (``expelled 2``, a key tsh keeps): read by ``hub
    standings --tsh`` or imported into another hub, the standings are the hall's — the
    voided tally under PFS, the games kept under ČAS — and the file comes back byte for byte."""
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    db, again = tmp_path / "hub.db", tmp_path / "again.db"
    play_two_rounds(db, rules)

    def hub(*argv: str) -> str:
        assert main(list(argv)) == 0, argv
        return capsys.readouterr().out

    file = tmp_path / "turniej.t"
    hub("tournament", "export-tsh", str(file), "--db", str(db))
    line = next(x for x in file.read_text(encoding="utf-8").splitlines() if x.startswith(CHEAT))
    assert "expelled 2" in line and "off" in line
    in_hub = hub("standings", "--db", str(db))
    assert hub("standings", "--rules", rules, "--tsh", str(file)) == in_hub
    hub("tournament", "init", "--name", "Kopie", "--rules", rules, "--db", str(again))
    hub("tournament", "import-tsh", str(file), "--db", str(again))
    assert hub("standings", "--db", str(again)) == in_hub
    with Tournament.open(again) as tour:
        (gone,) = tour.sanctions()
        assert gone.kind == "expulsion" and gone.scope == "event" and gone.round == 2
    second = tmp_path / "znovu.t"
    hub("tournament", "export-tsh", str(second), "--db", str(again))
    assert second.read_bytes() == file.read_bytes()

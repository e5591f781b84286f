"""Refused actions, typed as an operator would with ``SAMOOBSLUHA_LANG=cs``: each refusal
is Czech and names what to do instead (the command, option or key that does it).

One 4-player ČAS event of 2 planned rounds, played through the real ``hub`` command line
(``hub.cli.main``) on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from language_guard import english_on_screen

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.clock import FakeClock

NAMES = ["Novák Jan", "Dvořák Petr", "Malá Eva", "Veselý Jiří"]


def test_every_refusal_says_what_to_do_instead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    db = tmp_path / "hub.db"
    clock = FakeClock(1_000_000.0)  # setting up; the commands run on the real clock
    with Tournament.open(db, clock=clock) as tour:
        tour.configure(name="Přebor", rules="cas", rounds=2, protest_minutes=30)
        for name in NAMES:
            tour.add_player(name)
        boards = tour.pair(1, seed=1).boards
        for b in boards:
            assert b.second is not None
            tour.record_result(1, b.table, b.first, b.second, 400, 300, started=b.first)
        t1 = boards[0]

    def refused(*argv: str) -> str:
        code = main([*argv, "--db", str(db)])
        out, err = capsys.readouterr()
        assert code == 2, (argv, out, err)
        assert err and not english_on_screen(err, allowed=set(" ".join(NAMES).split())), (argv, err)
        return err

    # finalising before publication: publish first
    assert "hub publish-round 1" in refused("tournament", "finalise", "1")
    # a category prize without its category
    assert "--category NÁZEV" in refused("prize", "add", "category", "1", "kniha")
    # a sanction in a round that is not paired
    assert "bez --round" in refused("sanction", "add", "1", "cross", "--reason", "x",
                                    "--round", "5")  # fmt: skip
    # a protest before publication: the result is simply entered again or taken back
    assert f"hub result undo 1 {t1.table}" in refused("result", "protest", "1", str(t1.table))
    # a scorecard as CSV is one player's
    assert "--player" in refused("export", "scorecard", "--format", "csv")
    # a hand-made change where a result is in, before publication: undo it first
    assert f"hub result undo 1 {t1.table}" in refused(
        "round", "swap", "1", str(t1.first), str(boards[1].first)
    )

    # published by the command, on the real clock the next commands read: its 30-minute
    # protest window is open while they run
    assert main(["tournament", "publish", "1", "--db", str(db)]) == 0
    capsys.readouterr()
    # lodged after publication, it says how it is closed
    assert main(["result", "protest", "1", str(t1.table), "--db", str(db)]) == 0
    assert f"hub result protest 1 {t1.table} --close" in capsys.readouterr().out
    # the protest window is open: finalising early is the chief referee's --early
    assert "hub tournament finalise 1 --early" in refused("tournament", "finalise", "1")
    # a published result is corrected, not undone; its pairing no longer changes
    assert "--correct" in refused("result", "undo", "1", str(t1.table))
    assert "--correct" in refused("round", "swap", "1", str(t1.first), str(boards[1].first))
    # a round past the planned ones is asked for
    with Tournament.open(db, clock=clock) as tour:
        first2 = tour.pair(2, seed=2).boards[0]
        two = (first2.first, first2.second)
    assert "hub round pair 3 --beyond" in refused("round", "pair", "3")
    # bringing back a player who plays, or one expelled while the expulsion stands
    assert "hub players list" in refused("players", "return", str(t1.first))
    gone = boards[1].second
    assert gone is not None
    assert main(["sanction", "add", str(gone), "expulsion", "--event", "--reason", "podvod",
                 "--db", str(db)]) == 0  # fmt: skip
    capsys.readouterr()
    assert "hub sanction revoke 1" in refused("players", "return", str(gone))
    # a forfeit names whom it is against; a sanction's table is the player's own
    a, b = boards[0].first, boards[0].second
    assert f"--forfeited {a} nebo --forfeited {b}" in refused(
        "result", "add", "1", str(t1.table), str(a), str(b), "400", "300", "--started", str(a),
        "--kind", "forfeit", "--correct",
    )  # fmt: skip
    assert "bez --table se doplní sám" in refused(
        "sanction", "add", str(a), "warning", "--reason", "x", "--round", "1", "--table", "9"
    )
    # 0:0 in a played game is stored only when typed again with --confirm
    assert "(--confirm)" in refused(
        "result", "add", "2", "1", *(str(x) for x in two[:2]), "0", "0", "--started", str(two[0])
    )
    # a tsh file goes into an empty division or another database
    tsh_file = tmp_path / "prebor.t"
    assert main(["tournament", "export-tsh", str(tsh_file), "--db", str(db)]) == 0
    assert "hub division add NÁZEV" in refused("tournament", "import-tsh", str(tsh_file))

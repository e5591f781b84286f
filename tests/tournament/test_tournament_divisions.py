"""Several divisions in one hall: the record's model (migration of an existing database
included), pairing per division with tables across the hall, and tsh's multi-division
events read and written as tsh keeps them (real files from ../shared/data/tsh-real)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import sqlite_utils

from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.rules import CAS
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.hub.tournament.store import migrations
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text


def test_an_existing_database_becomes_the_one_division_a(tmp_path: Path) -> None:
    """A hub.db written before divisions existed: after the migration it is division A,
    with its pairing's seed and notes and its imported tsh file, and works unchanged."""
    path = tmp_path / "hub.db"
    old = sqlite_utils.Database(path)
    migrations.apply(old, stop_before="m008_divisions")
    for pid, name in ((1, "Novák Jan"), (2, "Dvořák Petr"), (3, "Malá Eva")):
        old["tour_players"].insert({"id": pid, "name": name, "created_at": 0})
    old["tour_rounds"].insert(
        {"round": 1, "seed": 42, "method": "lot", "notes": "[]", "paired_at": 0}
    )
    old["tour_boards"].insert_all(
        [
            {"round": 1, "table_no": 1, "first": 1, "second": 2},
            {"round": 1, "table_no": 2, "first": 3, "second": None},
        ]
    )
    old["tour_results"].insert(
        {
            "round": 1,
            "table_no": 1,
            "s_first": 420,
            "s_second": 380,
            "starter": 1,
            "kind": "played",
            "status": "confirmed",
            "sources": '["operator"]',
            "updated_at": 0,
        }
    )
    text = "Novák Jan 0 2; 420\nDvořák Petr 0 1; 380\nMalá Eva 0 0; 50\n"
    old["tour_tsh_source"].insert(
        {"id": 1, "file": "a.t", "encoding": "utf-8", "text": text, "imported_at": 0}
    )
    old.close()

    with Tournament.open(path, clock=FakeClock(1000.0)) as tour:
        assert tour.divisions() == ["A"]
        assert {p.division for p in tour.players()} == {"A"}
        assert tour.pairing(1).seed == 42 and tour.pairing(1, "a").seed == 42
        assert tour.standings()[0].player.name == "Novák Jan"
        source = tour.tsh_source()
        assert source is not None and tsh.format_file(source) == text
        assert not tour.db["tour_tsh_source"].exists()
        # nothing asks for a division while there is one
        tour.pair(2, seed=1)
        assert len(tour.pairing(2).boards) == 2


def two_divisions(tour: Tournament) -> None:
    tour.configure(name="Dvě skupiny", rules="cas", rounds=3)
    tour.add_division("KLASIK")
    tour.add_division("PLUS")
    for i in range(7):
        tour.add_player(f"Klasik {i + 1}", division="KLASIK")
    for i in range(4):
        tour.add_player(f"Plus {i + 1}", division="plus")  # the name's case does not matter


def test_pairing_per_division_tables_across_the_hall(tmp_path: Path) -> None:
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock(1000.0)) as tour:
        two_divisions(tour)
        assert tour.divisions() == ["KLASIK", "PLUS"]  # the unused default A is gone
        with pytest.raises(TournamentError) as refused:
            tour.pair(1, seed=1)
        assert error_text(refused.value, "cs") == (
            "turnaj má několik skupin (KLASIK, PLUS): zvolte jednu přepínačem --division NÁZEV"
        )
        with pytest.raises(TournamentError) as unknown:
            tour.standings(division="JUNIOŘI")
        assert "skupiny jsou: KLASIK, PLUS" in error_text(unknown.value, "cs")

        # PLUS first: its block still follows KLASIK's 4 tables (7 players and a bye)
        plus = tour.pair(1, seed=2, division="PLUS")
        assert [b.table for b in plus.boards] == [5, 6]
        klasik = tour.pair(1, seed=1, division="KLASIK")
        assert [b.table for b in klasik.boards] == [1, 2, 3, 4]
        assert klasik.boards[-1].second is None  # the bye stays in its division
        division = {p.id: p.division for p in tour.players()}
        for b in tour.pairing(1).boards:
            assert b.second is None or division[b.first] == division[b.second]
        assert tour.board_divisions(1) == {1: "KLASIK", 2: "KLASIK", 3: "KLASIK", 4: "KLASIK",
                                           5: "PLUS", 6: "PLUS"}  # fmt: skip

        # the wall's pairings of the hall say whose each table is
        from samoobsluha.hub.tournament import exports

        wall = exports.render(tour, "pairings", "html", round_no=1, lang="cs")
        assert "<th>Skupina</th>" in wall and "<td>PLUS</td>" in wall
        one = exports.render(tour, "pairings", "html", round_no=1, lang="cs", division="KLASIK")
        assert "Skupina" not in one and "Plus 1" not in one

        # re-pairing one division leaves the other's tables alone
        again = tour.pair(1, seed=9, division="PLUS")
        assert [b.table for b in again.boards] == [5, 6]
        assert [b.table for b in tour.pairing(1, "KLASIK").boards] == [1, 2, 3, 4]

        # a division's results do not hold the other's next round
        for b in plus.boards:
            assert b.second is not None
        for b in tour.pairing(1, "PLUS").boards:
            tour.record_result(1, b.table, b.first, b.second or 0, 400, 350, started=b.first)
        assert tour.missing_results(1, division="PLUS") == []
        assert len(tour.missing_results(1)) == 3  # KLASIK's three games
        tour.pair(2, seed=3, division="PLUS")
        with pytest.raises(TournamentError):
            tour.pair(2, seed=3, division="KLASIK")  # its round 1 is not complete
        # standings are per division: PLUS players only, winners first
        table = tour.standings(division="PLUS")
        assert {s.player.division for s in table} == {"PLUS"} and len(table) == 4
        assert table[0].wins == 1

        # a player who has played cannot change division; one registered wrongly can
        late = tour.add_player("Omylem", division="PLUS")
        tour.move_player(late.id, "KLASIK")
        assert tour.player(late.id).division == "KLASIK"
        first = tour.pairing(1, "PLUS").boards[0].first
        with pytest.raises(TournamentError):
            tour.move_player(first, "KLASIK")
        with pytest.raises(TournamentError):
            tour.remove_division("PLUS")  # it has players


@pytest.mark.interop
def test_a_tsh_archive_of_two_divisions_imports_and_exports_as_tsh_files(
    tsh_real_dir: Path, tmp_path: Path
) -> None:
    """Woogles' tsh archive (config and both .t files in one) imports as two divisions;
    the export is tsh's event: its configuration and each .t byte for byte as extracted
    from the archive, with standings as tsh reads each file."""
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock(1000.0)) as tour:
        assert tour.import_tsh(tsh_real_dir / "woogles_wtf5.tsh") == 12
        assert tour.divisions() == ["CSW", "NWL"]
        for division, file in (("CSW", "woogles_wtf5_CSW.t"), ("NWL", "woogles_wtf5_NWL.t")):
            data = tsh.to_tournament(tsh.read(tsh_real_dir / file))
            want = [(s.player.name, s.wins, s.spread) for s in compute(
                data.players.values(), data.games, CAS, rounds=4)]  # fmt: skip
            got = [(s.player.name, s.wins, s.spread) for s in tour.standings(division=division)]
            assert got == want
        written = tour.export_tsh_event(tmp_path / "out")
    assert [p.name for p in written] == ["woogles_wtf5.tsh", "CSW.t", "NWL.t"]
    for name, real in (("CSW.t", "woogles_wtf5_CSW.t"), ("NWL.t", "woogles_wtf5_NWL.t")):
        assert (tmp_path / "out" / name).read_bytes() == (tsh_real_dir / real).read_bytes()
    config = (tmp_path / "out" / "woogles_wtf5.tsh").read_text()
    assert "division CSW CSW.t\ndivision NWL NWL.t\n" in config
    assert "#begin_file" not in config  # the files are beside it now, as tsh keeps them
    assert tsh.read_config(tmp_path / "out" / "woogles_wtf5.tsh").divisions == [
        ("CSW", "CSW.t"),
        ("NWL", "NWL.t"),
    ]


@pytest.mark.interop
def test_three_real_divisions_round_trip_byte_for_byte(tsh_real_dir: Path, tmp_path: Path) -> None:
    """Albany 2024's three divisions (27 rounds, byes, withdrawals, forfeits): imported from
    a config.tsh naming them, exported again — every .t file identical, and again after a
    second import of the export."""
    event = tmp_path / "event"
    event.mkdir()
    for d in "ABC":
        shutil.copy(tsh_real_dir / "converted" / f"albany2024_{d}.t", event / f"{d.lower()}.t")
    (event / "config.tsh").write_text(
        "# Albany 2024\nconfig max_rounds = 27\ndivision a a.t\ndivision B b.t\nDivision c c.t\n"
    )
    with Tournament.open(tmp_path / "one.db", clock=FakeClock(1000.0)) as tour:
        tour.import_tsh(event / "config.tsh")
        assert tour.divisions() == ["a", "B", "c"]  # as the configuration spells them
        tour.export_tsh_event(tmp_path / "out")
    for name in ("config.tsh", "a.t", "b.t", "c.t"):
        assert (tmp_path / "out" / name).read_bytes() == (event / name).read_bytes(), name
    with Tournament.open(tmp_path / "two.db", clock=FakeClock(1000.0)) as tour:
        tour.import_tsh(tmp_path / "out" / "config.tsh")
        tour.export_tsh_event(tmp_path / "out2")
    for name in ("config.tsh", "a.t", "b.t", "c.t"):
        assert (tmp_path / "out2" / name).read_bytes() == (event / name).read_bytes(), name


def test_config_division_lines_follow_the_divisions() -> None:
    text = "# event\n  division a a.t\nconfig x = 1\ndivision b b.t\n"
    assert tsh.config_with_divisions(text, [("a", "a.t"), ("b", "b.t")]) == text
    renamed = tsh.config_with_divisions(text, [("a", "open.t"), ("c", "c.t")])
    # a changed line in its place, a gone one dropped, a new one after the last division line
    assert renamed == "# event\n  division a open.t\ndivision c c.t\nconfig x = 1\n"
    assert tsh.config_with_divisions("", [("A", "a.t")]).endswith("\ndivision A a.t\n")


def test_the_division_commands_as_the_operator_types_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from samoobsluha.hub.cli import main

    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    db = str(tmp_path / "hub.db")

    def hub(*argv: str, code: int = 0) -> str:
        got = main([*argv, "--db", db])
        out, err = capsys.readouterr()
        assert got == code, (argv, out, err)
        return out + err

    hub("tournament", "init", "--name", "Skupiny", "--rounds", "2")
    hub("division", "add", "KLASIK", "PLUS")
    hub("players", "add", "Novák Jan", "--division", "KLASIK")
    hub("players", "add", "Dvořák Petr", "--division", "KLASIK")
    hub("players", "add", "Malá Eva", "--division", "PLUS")
    hub("players", "add", "Veselý Jiří", "--division", "KLASIK")  # meant for PLUS
    assert "turnaj má několik skupin (KLASIK, PLUS)" in hub("players", "add", "X", code=2)
    assert "skupina „OPEN“ neexistuje" in hub("players", "list", "--division", "OPEN", code=2)
    hub("players", "move", "4", "--division", "PLUS")
    listed = hub("players", "list", "--division", "plus")
    assert "Malá Eva" in listed and "Veselý Jiří" in listed and "Novák" not in listed
    assert "KLASIK" in hub("players", "list")  # the hall's list names each one's division

    assert "--division" in hub("round", "pair", "1", code=2)
    assert hub("round", "pair", "1", "--division", "KLASIK", "--seed", "1").count("\n") == 2
    assert hub("round", "pair", "1", "--division", "PLUS", "--seed", "1").startswith(
        "table,first,second\n2,"
    )
    assert "hráč č. 4 už hrál ve skupině PLUS" in hub(
        "players", "move", "4", "--division", "KLASIK", code=2
    )
    hub("result", "add", "1", "1", "1", "2", "400", "300", "--started", "1")
    assert hub("tournament", "missing", "1", "--division", "KLASIK") == ""
    assert "stůl 2" in hub("tournament", "missing", "1", code=1)
    assert "zvolte jednu" in hub("standings", code=2)
    standings = hub("standings", "--division", "KLASIK")
    assert standings.splitlines()[1].startswith("1,Novák Jan,1,")
    assert "nezapočteno" not in standings  # PLUS's open table is not KLASIK's business
    assert "stůl 2: nezapočteno" in hub("standings", "--division", "PLUS", "--round", "1")

    hub("tournament", "export-tsh", str(tmp_path / "klasik.t"), "--division", "KLASIK")
    assert len(tsh.read(tmp_path / "klasik.t").players) == 2
    hub("tournament", "export-tsh", str(tmp_path / "event"))
    assert sorted(p.name for p in (tmp_path / "event").iterdir()) == [
        "config.tsh",
        "klasik.t",
        "plus.t",
    ]
    hub("division", "rename", "PLUS", "JUNIOR")
    assert "JUNIOR" in hub("division", "list")
    assert "jsou hráči" in hub("division", "remove", "JUNIOR", code=2)


@pytest.mark.interop
def test_a_real_config_with_a_missing_division_file_is_refused_whole(
    tsh_real_dir: Path, tmp_path: Path
) -> None:
    """MGI 2022's config.tsh names divisions A and B; only a.t is public. The import is
    refused naming B's file, and nothing of A is stored (one transaction)."""
    config = tsh.read_config(tsh_real_dir / "mgi2022_config.tsh")
    assert config.divisions == [("A", "a.t"), ("B", "b.t")]
    assert "prize rank 1 A" in config.text  # everything else is kept for the export
    event = tmp_path / "mgi"
    event.mkdir()
    shutil.copy(tsh_real_dir / "mgi2022_config.tsh", event / "config.tsh")
    shutil.copy(tsh_real_dir / "mgi2022_a.t", event / "a.t")
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock(1000.0)) as tour:
        with pytest.raises(TournamentError) as refused:
            tour.import_tsh(event / "config.tsh")
        assert error_text(refused.value, "cs") == (
            f"skupina B: soubor {event / 'b.t'} nenalezen (tsh ho hledá vedle konfigurace)"
        )
        assert tour.players() == [] and tour.divisions() == ["A"]


def test_one_roster_with_a_division_column(tmp_path: Path) -> None:
    """The director's one spreadsheet for the hall: a „skupina“ column places each player."""
    roster = "jméno;klub;rating;skupina\nNovák Jan;Praha;1500;OPEN\nMalá Eva;Brno;0;junior\n"
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock(1000.0)) as tour:
        tour.add_division("OPEN")
        tour.add_division("JUNIOR")
        added = tour.import_players_csv(roster)
        assert [(p.name, p.division) for p in added] == [
            ("Novák Jan", "OPEN"),
            ("Malá Eva", "JUNIOR"),
        ]
        with pytest.raises(TournamentError) as refused:
            tour.import_players_csv("jméno;skupina\nVeselý Jiří;KADETI\nBílý Ota;OPEN\n")
        assert "skupina „KADETI“ neexistuje" in error_text(refused.value, "cs")
        assert len(tour.players()) == 2  # nothing of the refused file
        # a row without a division takes --division; with several and none, a refusal
        tour.import_players_csv("jméno;skupina\nBílý Ota;\n", division="JUNIOR")
        assert tour.players()[-1].division == "JUNIOR"
        with pytest.raises(TournamentError):
            tour.import_players_csv("jméno\nČerný Jan\n")

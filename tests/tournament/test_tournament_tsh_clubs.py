"""A player's club in tsh files: tsh's ``team`` key is the hub's club, both ways.

The import reads it (the real MGI 2022 file's teams), the export writes what the import read
— an imported file byte for byte, a hub-made event with every club — and a file the hub
wrote reads back, in tsh's grammar, to the same players, clubs and standings. The real files
are read where they are (../shared/data/tsh-real), never copied.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.clock import FakeClock

# tsh's own reader (TFile.pm): a line it cannot read is not a tsh file
TFILE = re.compile(r"^(.+?\S)\s+(\d+(?:[.+]\d+)*)\s*([\d\s]*);\s*([-\d\s]*)((?:;[^;]*)*)$")


def tsh_keys(line: str) -> dict[str, str]:
    """A line's keys as tsh splits them (at ``;`` not escaped)."""
    m = TFILE.match(line.replace("\\;", "\x00"))
    assert m is not None, line
    out = {}
    for part in m.group(5).split(";")[1:]:
        key, _, value = part.strip().partition(" ")
        out[key] = value.strip().replace("\x00", "\\;")
    return out


def standings(tour: Tournament) -> list[tuple[str, str, float, int]]:
    return [(s.player.name, s.player.club, s.wins, s.spread) for s in tour.standings()]


@pytest.mark.interop
def test_a_real_files_teams_are_the_clubs_and_come_back_byte_for_byte(
    tsh_real_dir: Path, tmp_path: Path
) -> None:
    path = tsh_real_dir / "mgi2022_a.t"
    source = tsh.read(path)
    teams = {p.display_name: p.get("team") for p in source.players}
    assert len(set(teams.values())) > 5 and all(teams.values())  # a real team event
    with Tournament.open(tmp_path / "mgi.db") as tour:
        tour.import_tsh(path)
        assert {p.name: p.club for p in tour.players()} == teams
        assert tsh.encode(tour.export_tsh()) == path.read_bytes()
        hall = standings(tour)
        registered = [(p.name, p.club, p.rating) for p in tour.players()]
    # The same players registered in a hub of its own (no source file): the export writes
    # every club, and the file reads back to the same players and clubs.
    with Tournament.open(tmp_path / "made.db", clock=FakeClock()) as made:
        for name, club, rating in registered:
            made.add_player(name, club=club, rating=rating)
        written = tsh.format_file(made.export_tsh())
    lines = [x for x in written.splitlines() if x.strip()]
    assert [tsh_keys(x).get("team") for x in lines] == [club for _, club, _ in registered]
    with Tournament.open(tmp_path / "back.db") as back:
        back.import_tsh_file(tsh.parse(written))
        assert [(p.name, p.club, p.rating) for p in back.players()] == registered
    assert hall and all(club for _, club, _, _ in hall)


def test_a_hub_made_event_exports_its_clubs_and_reads_back(tmp_path: Path) -> None:
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as tour:
        tour.configure(name="Kluby", rules="cas", rounds=2)
        clubs = ["SK Brno", "Brno; Praha", "", "Scrabble klub Ostrava", "KŠ Žilina", "x\\"]
        names = ["Adámek, Jan", "Bílá, Eva", "Cáp, Ota", "Dvořák, Jiří", "Éder, Ivo", "Fňuk, Max"]
        for n, (name, club) in enumerate(zip(names, clubs, strict=True), start=1):
            tour.add_player(name, club=club, rating=1500 + n)
        for r in (1, 2):
            for b in tour.pair(r, seed=r).boards:
                if b.second is not None:
                    tour.record_result(r, b.table, b.first, b.second, 400 + b.table, 350, b.first)
            tour.publish(r)
        withdrawn = tour.players()[3].id
        tour.withdraw(withdrawn)
        exported = tour.export_tsh()
        want = standings(tour)
    text = tsh.format_file(exported)
    keys = [tsh_keys(x) for x in text.splitlines() if x.strip()]
    assert [k.get("team") for k in keys] == [
        "SK Brno",
        "Brno\\; Praha",  # escaped: tsh would split at a bare ;
        None,  # no club, no key
        "Scrabble klub Ostrava",
        "KŠ Žilina",
        "x",  # a trailing backslash would escape the next separator
    ]
    assert "off" in keys[3]
    with Tournament.open(tmp_path / "back.db") as back:
        back.configure(rules="cas", rounds=2)
        back.import_tsh_file(tsh.parse(text))
        assert [p.club for p in back.players()] == [*clubs[:5], "x"]
        assert standings(back) == [
            (name, "x" if club == "x\\" else club, wins, spread)
            for name, club, wins, spread in want
        ]
        # read back and exported again: the file the hub wrote, byte for byte
        assert tsh.format_file(back.export_tsh()) == text


def test_an_imported_files_club_changed_in_the_hub_is_written(tmp_path: Path) -> None:
    text = "Novák, Jan 1600 2; 420; p12 1; team Brno\nSvoboda, Petr 1500 1; 380; p12 2\n"
    with Tournament.open(tmp_path / "hub.db") as tour:
        tour.import_tsh_file(tsh.parse(text))
        assert [p.club for p in tour.players()] == ["Brno", ""]
        assert tsh.format_file(tour.export_tsh()) == text  # nothing changed: as read
        # the director corrects the clubs: one the file did not have, one it had wrong
        tour.set_club(2, "Praha")
        tour.set_club(1, "")
        assert [a["action"] for a in tour.audit()][-2:] == ["club", "club"]
        again = tsh.format_file(tour.export_tsh()).splitlines()
    assert "team" not in tsh_keys(again[0])
    assert tsh_keys(again[1])["team"] == "Praha"

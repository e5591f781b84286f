"""Sanctions as a record, through ``hub sanction …`` on a real hub database: the stations'
logged unjustified challenges suggest crosses (ČAS) or the SSS 20 points, the referee
confirms; three crosses in a game lose a turn; an expulsion is published with the next
round's pairings (ČAS 13.13)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dash_testkit import check, deliver, station_store

from samoobsluha.hub.cli import main
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament import exports
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def unjustified_checks(
    service: HubService, clock: FakeClock, folder: Path, lexicon_path: Path, n: int
) -> list[str]:
    """``n`` checks of a valid word at table 2 (each an unjustified challenge), made by a
    real kiosk store and delivered as the server stores them; their keys, oldest first."""
    lexicon = Lexicon.open(lexicon_path)
    st = station_store(folder, "st-1")
    for i in range(n):
        assert check(st, lexicon, ["kůň"], 2, clock.now() + i) == "valid"
    deliver(service, st, clock.now())
    return sorted((c.key for c in service.challenges(table_no=2)), key=lambda k: int(k[-1]))


def test_three_crosses_lose_a_turn_and_an_appeal_takes_one_back(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    small_lexicon_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    keys = unjustified_checks(service, clock, tmp_path, small_lexicon_path, 3)
    code, out, _ = run(capsys, "sanction", "suggest")
    assert code == 0 and len(out.splitlines()) == 3
    assert all("kdo namítal? (hub challenges mark" in line for line in out.splitlines())
    code, _, err = run(capsys, "sanction", "confirm", keys[0])
    assert code == 2 and "není známo, kdo namítal" in err and "hub challenges mark" in err
    second = service.table_players(1, 2)[1]
    for key in keys:
        assert run(capsys, "challenges", "mark", key, "2")[0] == 0
    name = service.player_names()[second]
    code, out, _ = run(capsys, "sanction", "suggest")
    assert out.count(f"{name}: trestný křížek (neoprávněná námitka)") == 3
    said = [run(capsys, "sanction", "confirm", key, "--who", "HR Novák")[1] for key in keys]
    assert "1. trestný křížek v partii" in said[0] and "ztráta tahu" not in said[0]
    assert "3. trestný křížek v partii — ztráta tahu" in said[2]
    assert re.search(r"· 1/2 · KŮŇ · HR Novák \d\d:\d\d$", said[2].strip()), said[2]
    assert run(capsys, "sanction", "suggest")[1] == "žádné návrhy trestů\n"
    with service._tour() as tour:
        html = exports.render(tour, "sanctions", "html", lang="cs")
    assert "ztráta tahu" in html and name in html

    # the chief referee finds the second challenge justified: its cross goes
    assert run(capsys, "challenges", "appeal", keys[1], "invalid")[0] == 0
    code, out, _ = run(capsys, "sanction", "suggest")
    assert "zrušit trest 2 (odvolání uznalo námitku za oprávněnou)" in out
    assert run(capsys, "sanction", "confirm", keys[1])[1] == "trest 2 zrušen\n"
    code, out, _ = run(capsys, "sanction", "list")
    assert [line.split()[0] for line in out.splitlines()] == ["1", "3"]
    assert "ztráta tahu" not in out  # two crosses in force: no turn lost
    code, out, _ = run(capsys, "sanction", "list", "--all")
    assert "[zrušen]" in out.splitlines()[1]


def test_sss_third_unjustified_challenge_suggests_20_points(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    small_lexicon_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with service._tour() as tour:
        tour.configure(rules="sss")
    keys = unjustified_checks(service, clock, tmp_path, small_lexicon_path, 3)
    for key in keys:
        assert run(capsys, "challenges", "mark", key, "1")[0] == 0
    code, out, _ = run(capsys, "sanction", "suggest")
    [line] = out.splitlines()  # the first two are free (SSS)
    assert line.startswith(keys[2]) and "srážka bodů: 20 (třetí či další" in line
    from samoobsluha.hub.entry import Entry

    service.enter_result(1, Entry(2, 400, 350))  # the game's scoresheet: ZH 400, DH 350
    first, second = service.table_players(1, 2)
    code, out, _ = run(capsys, "sanction", "confirm", keys[2])
    assert code == 0 and "srážka bodů: 20" in out
    # SSS takes the points off the game's score: the hub names the correction that does it
    hint = f"hub result add 1 2 {first} {second} 380 350 --started {first} --correct"
    assert hint in out
    assert run(capsys, *hint.split()[1:])[0] == 0
    with service._tour() as tour:
        mine = next(s for s in tour.standings(after_round=1) if s.player.id == first)
        assert (mine.points, mine.opp_points) == (380, 350)
    with service._tour() as tour:
        [given] = tour.sanctions()
        assert (given.kind, given.points, given.check_key) == ("penalty", 20, keys[2])
        assert given.player == service.table_players(1, 2)[0]
    # a dismissed suggestion is kept and not made again
    assert run(capsys, "sanction", "revoke", "1", "--note", "omyl")[0] == 0
    assert run(capsys, "sanction", "dismiss", keys[2])[0] == 0
    assert run(capsys, "sanction", "suggest")[1] == "žádné návrhy trestů\n"


def test_an_expulsion_is_published_with_the_next_rounds_pairings(
    service: HubService, capsys: pytest.CaptureFixture[str]
) -> None:
    from samoobsluha.hub.entry import Entry

    names = service.player_names()
    first, second = service.table_players(1, 3)
    assert second is not None
    code, out, _ = run(
        capsys, "sanction", "add", str(first), "warning", "--reason", "hlučné chování"
    )
    assert code == 0 and "1. napomenutí v partii" in out and "1/3" in out
    code, out, _ = run(
        capsys,
        "sanction",
        "add",
        str(second),
        "expulsion",
        "--event",
        "--reason",
        "manipulace s písmeny",
        "--who",
        "HR",
    )
    assert code == 0 and "vyloučení z turnaje" in out
    with service._tour() as tour:
        assert tour.player(second).withdrawn  # never paired again
    for table in range(1, 5):
        service.enter_result(1, Entry(table, 400 + table, 350))
    service.pair(2)
    with service._tour() as tour:
        tables = [b for b in tour.pairing(2).boards]
        assert all(second not in (b.first, b.second) for b in tables)
        html = exports.render(tour, "pairings", "html", round_no=2, lang="cs")
        later = exports.render(tour, "pairings", "html", round_no=1, lang="cs")
    assert "Napomenutí a vyloučení (zveřejněno před tímto kolem)" in html
    assert names[second] in html and "vyloučení z turnaje" in html
    assert "manipulace s písmeny" in html and "hlučné chování" in html
    assert "zveřejněno před tímto kolem" not in later  # nothing before round 1


def test_refusals_say_what_to_do(service: HubService, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sanction", "add", "1", "penalty", "--reason", "x")
    assert code == 2 and "--points N" in err
    code, _, err = run(capsys, "sanction", "add", "1", "cross", "--reason", " ")
    assert code == 2 and "--reason TEXT" in err
    code, _, err = run(capsys, "sanction", "revoke", "9")
    assert code == 2 and "trest 9 neexistuje (hub sanction list)" in err
    code, _, err = run(capsys, "sanction", "confirm", "no/such/1")
    assert code == 2 and "hub sanction suggest" in err


async def test_the_dashboard_confirms_a_suggested_cross(
    service: HubService, clock: FakeClock, tmp_path: Path, small_lexicon_path: Path
) -> None:
    from dash_testkit import cells, label_text, settle
    from textual.widgets import DataTable

    from samoobsluha.hub.app import HubApp

    keys = unjustified_checks(service, clock, tmp_path, small_lexicon_path, 1)
    service.mark_challenger(keys[0], 2)
    name = service.player_names()[service.table_players(1, 2)[1]]
    app = HubApp(service, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#checks", DataTable)
        assert cells(table)[0][8] == name
        await pilot.press("x")
        await settle(pilot)
        question = label_text(app.screen, "#confirm-question")
        assert "stůl 2" in question and "KŮŇ" in question
        assert f"{name}: trestný křížek (neoprávněná námitka)?" in question
        await pilot.press("enter")
        for _ in range(25):  # dismiss, act, reload: loop rounds, not seconds
            if "Trest 1: platí." in label_text(screen, "#message"):
                break
            await settle(pilot)
        assert "Trest 1: platí." in label_text(screen, "#message")
    with service._tour() as tour:
        [given] = tour.sanctions()
        assert (given.kind, given.check_key, given.referee) == ("cross", keys[0], "operator")


def test_a_sanction_without_a_referee_name_shows_the_role_in_the_readers_language(
    service: HubService, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hub sanction add`` without ``--referee``/``--who`` records the default role
    ("operator"); the prints say it in their language, the machine CSV keeps the value,
    and a typed name is shown as typed."""
    first, second = service.table_players(1, 1)
    assert second is not None
    assert run(capsys, "sanction", "add", str(first), "warning", "--reason", "hluk")[0] == 0
    assert (
        run(
            capsys,
            "sanction",
            "add",
            str(second),
            "warning",
            "--reason",
            "hluk",
            "--referee",
            "HR Novák",
        )[0]
        == 0
    )
    with service._tour() as tour:
        pages = {
            lang: exports.render(tour, "sanctions", "html", lang=lang)
            for lang in ("cs", "sk", "pl", "en")
        }
        machine = exports.render(tour, "sanctions", "csv", plain=True)
    assert ">operátor<" in pages["cs"] and ">operátor<" in pages["sk"]
    assert ">operator<" in pages["pl"] and ">operator<" in pages["en"]
    assert all("HR Novák" in page for page in pages.values())
    assert "operator" in machine and "operátor" not in machine

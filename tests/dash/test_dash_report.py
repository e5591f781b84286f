"""The association's report from a whole event (forfeits, a late entrant, an absence, byes,
a sanction, prizes): the tsh file reads back to the hall's standings, the results CSV has
every tie-break figure, the A4 page and event.json carry the metadata with the lexicon's
variant and SHA (the one sent to the stations and the ones the checks were judged with)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
from dash_testkit import check, deliver, station_store
from event_kit import figures, play_event

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.cli import main
from samoobsluha.hub.service import HubService
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon


@pytest.fixture
def service(tmp_path: Path) -> HubService:
    svc = HubService(tmp_path / "data", clock=FakeClock())
    svc.prepare()
    with svc._tour() as tour:
        play_event(tour)
        tour.configure(place="Brno, hotel Slovan", referee="Jana Nová", date="14. 3. 2026")
        tour.sanction(2, "warning", reason="hlučné chování", round_no=4, who="HR")
        tour.prize_book.add_prize("place", 1, "1000 Kč")
    return svc


def test_report_files_agree_with_the_hall(service: HubService, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "zprava"
    code = main(["report", "-o", str(out), "--db", str(service.db_path), "--plain"])
    assert code == 0
    written = sorted(p.name for p in out.iterdir())
    assert written == ["event.json", "prebor.t", "report.html", "results.csv"]
    assert "prebor.t" in capsys.readouterr().out
    with service._tour() as tour:
        hall = tour.standings()
        rules = tour.rules
    back = tsh.to_tournament(tsh.read(out / "prebor.t"))
    assert figures(compute(back.players.values(), back.games, rules)) == figures(hall)
    rows = list(csv.DictReader(io.StringIO((out / "results.csv").read_text(encoding="utf-8"))))
    assert [r["name"] for r in rows] == [s.player.name for s in hall]
    top, last = rows[0], rows[-1]
    assert top["turcas"] == f"{hall[0].turcas:.2f}" and top["opp_wins"] == f"{hall[0].opp_wins:g}"
    assert int(last["spread"]) == hall[-1].spread
    assert {k for k in top} >= {"wins", "losses", "spread", "points", "opp_points", "starts"}
    meta = json.loads((out / "event.json").read_text(encoding="utf-8"))
    assert meta["referee"] == "Jana Nová" and meta["rounds_played"] == 4
    assert meta["players"] == 12 and meta["rules"] == "ČAS"
    page = (out / "report.html").read_text(encoding="utf-8")
    for expected in ("Zpráva pro asociaci", "Brno, hotel Slovan", "Jana Nová", "hlučné chování"):
        assert expected in page
    assert "Ceny" in page and "1000 Kč" in page


def test_report_names_the_lexicons(
    service: HubService, tmp_path: Path, small_lexicon_path: Path
) -> None:
    lexicon = Lexicon.open(small_lexicon_path)
    st = station_store(tmp_path, "st-1")
    check(st, lexicon, ["kůň"], 1, 1000.0)
    check(st, lexicon, ["pes"], 2, 1001.0)
    deliver(service, st, 1002.0)
    with service._db() as db:
        record = {"path": str(small_lexicon_path), "lexicon_sha256": lexicon.info.sha256}
        sync_store.save_published(db, "lexicon", "lexicon:1:x", record, 1003.0)
    out = tmp_path / "zprava"
    assert main(["report", "-o", str(out), "--db", str(service.db_path)]) == 0
    meta = json.loads((out / "event.json").read_text(encoding="utf-8"))
    [use] = meta["lexicons"]
    assert use == {
        "variant": "TEST",
        "sha256": lexicon.info.sha256,
        "language": "cs",
        "checks": 2,
        "published": True,
    }
    page = (out / "report.html").read_text(encoding="utf-8")
    assert lexicon.info.sha256 in page and "odeslán na stanice, 2 kontroly" in page
    # the spreadsheet form for the association's Excel: BOM, ';', decimal commas
    text = (out / "results.csv").read_text(encoding="utf-8")
    assert text.startswith("\ufeff") and ";" in text.splitlines()[0]


def test_report_pdf_reads_as_the_association_gets_it(service: HubService, tmp_path: Path) -> None:
    """The A4 report printed by Debian's headless Chromium, read back by pdftotext."""
    out = tmp_path / "zprava"
    assert main(["report", "-o", str(out), "--db", str(service.db_path), "--pdf"]) == 0
    text = subprocess.run(
        ["pdftotext", "-layout", str(out / "report.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    for expected in ("Zpráva pro asociaci", "Hlavní rozhodčí", "Jana Nová", "TurČAS", "Ceny"):
        assert expected in text, expected
    with service._tour() as tour:
        leader = tour.standings()[0].player.name
    assert leader in text


JUNIORS = ("Malá Eva", "Tóth Pavel", "Veselá Lucie", "Černý Ota")


def test_report_is_one_division_at_a_time(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """In a hall of two divisions each is rated on its own: ``--division`` reports one (its
    tsh file and results hold only its players); without it the refusal names them."""
    svc = HubService(tmp_path / "data", clock=FakeClock())
    svc.prepare()
    with svc._tour() as tour:
        tour.configure(name="Dvě skupiny")
        tour.add_division("OPEN")
        tour.add_division("JUNIOR")
        for i, name in enumerate("ABCDEF"):
            tour.add_player(f"Open {name}", rating=1500 - i, division="OPEN")
        for i, name in enumerate(JUNIORS):
            tour.add_player(name, rating=900 - i, division="JUNIOR")
        for d in ("OPEN", "JUNIOR"):
            for b in tour.pair(1, seed=1, division=d).boards:
                tour.record_result(1, b.table, b.first, b.second or 0, 400, 350, started=b.first)
    db = ["--db", str(svc.db_path), "--plain"]
    assert main(["report", "-o", str(tmp_path / "all"), *db]) == 2
    assert "OPEN, JUNIOR" in capsys.readouterr().err
    out = tmp_path / "junior"
    assert main(["report", "-o", str(out), *db, "--division", "junior"]) == 0
    back = tsh.to_tournament(tsh.read(next(out.glob("*.t"))))
    assert sorted(p.name for p in back.players.values()) == sorted(JUNIORS)
    rows = list(csv.DictReader(io.StringIO((out / "results.csv").read_text(encoding="utf-8"))))
    assert sorted(r["name"] for r in rows) == sorted(JUNIORS)
    meta = json.loads((out / "event.json").read_text(encoding="utf-8"))
    assert meta["players"] == 4 and meta["rounds_played"] == 1

"""Every command about one division's field, typed without ``--division`` in a hall of two
divisions: it either acts on every division (each under its name) or refuses in Czech,
naming ``--division`` and the divisions — never a refusal that names an option the command
does not take. With ``--division`` each gives that division's own figures only.

The hall: KLASIK and PLUS, four players each, one round (the planned last) played and
published; a place prize table and a "ženy" category with a book, one woman per division;
a warning in PLUS."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.clock import FakeClock

KLASIK = ["Adámek Jan", "Bílý Petr", "Cibulka Eva", "Dušek Karel"]
PLUS = ["Erbenová Jana", "Fiala Tomáš", "Gregor Ivan", "Horák Leoš"]
NEED = "turnaj má několik skupin (KLASIK, PLUS): zvolte jednu přepínačem --division NÁZEV"


@pytest.fixture
def hall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    db = tmp_path / "data" / "hub.db"
    db.parent.mkdir()
    winners: dict[str, list[str]] = {}
    women: dict[str, str] = {}
    with Tournament.open(db, clock=FakeClock(1000.0)) as tour:
        tour.configure(name="Dvě skupiny", rules="cas", rounds=1)
        tour.add_division("KLASIK")
        tour.add_division("PLUS")
        ids = {}
        for division, names in (("KLASIK", KLASIK), ("PLUS", PLUS)):
            for name in names:
                ids[name] = tour.add_player(name, division=division).id
        book = tour.prize_book
        book.add_prize("place", 1, "1000 Kč")
        book.add_prize("place", 2, "500 Kč")
        book.define("ženy")
        by_id = {p.id: p.name for p in tour.players()}
        for division in ("KLASIK", "PLUS"):
            boards = tour.pair(1, seed=1, division=division).boards
            # the first table's starter wins 450:300, the second's 400:300: two winners apart
            for b, score in zip(boards, (450, 400), strict=True):
                assert b.second is not None
                tour.record_result(1, b.table, b.first, b.second, score, 300, started=b.first)
            winners[division] = [by_id[b.first] for b in boards]
            women[division] = by_id[boards[0].second or 0]  # a loser: the category's book
            book.assign("ženy", [ids[women[division]]])
        book.add_prize("category", 1, "kniha", category="ženy")
        tour.sanction(ids[PLUS[0]], "warning", reason="rušení", who="HR")
        tour.publish(1)
        assert tour.event_over()
    return {"db": str(db), "winners": winners, "women": women}


def hub(capsys: pytest.CaptureFixture[str], db: str, *argv: str, code: int = 0) -> str:
    got = main([*argv, "--db", db])
    out, err = capsys.readouterr()
    assert got == code, (argv, out, err)
    return out + err


def test_prize_list_of_every_division_or_one(hall, capsys) -> None:  # type: ignore[no-untyped-def]
    db, winners, women = hall["db"], hall["winners"], hall["women"]
    text = hub(capsys, db, "prize", "list")
    lines = text.splitlines()
    # each division under its name, with its own winners of the same prize table
    assert lines == [
        "Skupina KLASIK:",
        f"1. místo: 1000 Kč — {winners['KLASIK'][0]}",
        f"2. místo: 500 Kč — {winners['KLASIK'][1]}",
        f"ženy: 1. místo: kniha — {women['KLASIK']}",
        "Skupina PLUS:",
        f"1. místo: 1000 Kč — {winners['PLUS'][0]}",
        f"2. místo: 500 Kč — {winners['PLUS'][1]}",
        f"ženy: 1. místo: kniha — {women['PLUS']}",
    ]
    only = hub(capsys, db, "prize", "list", "--division", "plus").splitlines()
    assert only == lines[5:]  # no heading: one division's list, as a one-division hall's


def test_prize_and_category_exports_cover_every_division(hall, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db, winners, women = hall["db"], hall["winners"], hall["women"]
    out = tmp_path / "ceny.csv"
    hub(capsys, db, "export", "prizes", "--format", "csv", "--plain", "-o", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [(r["division"], r["award"], r["name"]) for r in rows] == [
        ("KLASIK", "place 1", winners["KLASIK"][0]),
        ("KLASIK", "place 2", winners["KLASIK"][1]),
        ("KLASIK", "category ženy 1", women["KLASIK"]),
        ("PLUS", "place 1", winners["PLUS"][0]),
        ("PLUS", "place 2", winners["PLUS"][1]),
        ("PLUS", "category ženy 1", women["PLUS"]),
    ]
    hub(capsys, db, "export", "prizes", "--format", "csv", "--plain", "--division", "KLASIK",
        "-o", str(out))  # fmt: skip
    one = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert "division" not in one[0] and [r["name"] for r in one] == [
        *winners["KLASIK"],
        women["KLASIK"],
    ]
    page = tmp_path / "ceny.html"
    hub(capsys, db, "export", "prizes", "--format", "html", "-o", str(page))
    text = page.read_text(encoding="utf-8")
    assert text.index("Ceny — skupina KLASIK") < text.index("Ceny — skupina PLUS")

    cats = tmp_path / "kategorie.json"
    hub(capsys, db, "export", "categories", "--format", "json", "-o", str(cats))
    got = json.loads(cats.read_text(encoding="utf-8"))
    # the category's standings in each division: its woman first in her division
    assert [(r["division"], r["name"], r["rank"]) for r in got["ženy"]] == [
        ("KLASIK", women["KLASIK"], "1"),
        ("PLUS", women["PLUS"], "1"),
    ]
    hub(capsys, db, "export", "categories", "--format", "json", "--division", "PLUS",
        "-o", str(cats))  # fmt: skip
    got = json.loads(cats.read_text(encoding="utf-8"))
    assert [r["name"] for r in got["ženy"]] == [women["PLUS"]] and "division" not in got["ženy"][0]
    hub(capsys, db, "export", "categories", "--format", "html", "-o", str(page))
    assert "Pořadí — kategorie ženy, skupina PLUS" in page.read_text(encoding="utf-8")


def test_sanctions_are_the_halls_or_one_divisions(hall, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = hall["db"]
    assert f"{PLUS[0]}: 1. napomenutí v partii" in hub(capsys, db, "sanction", "list")
    out = tmp_path / "tresty.csv"
    hub(capsys, db, "export", "sanctions", "--format", "csv", "--plain", "-o", str(out))
    assert [r["name"] for r in csv.DictReader(io.StringIO(out.read_text("utf-8")))] == [PLUS[0]]
    hub(capsys, db, "export", "sanctions", "--format", "csv", "--plain", "--division", "KLASIK",
        "-o", str(out))  # fmt: skip
    assert list(csv.DictReader(io.StringIO(out.read_text("utf-8")))) == []
    hub(capsys, db, "export", "sanctions", "--format", "csv", "--plain", "--division", "PLUS",
        "-o", str(out))  # fmt: skip
    assert [r["name"] for r in csv.DictReader(io.StringIO(out.read_text("utf-8")))] == [PLUS[0]]


def test_one_division_commands_refuse_naming_the_option_they_take(hall, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Standings, scorecards and the report are one division's: refused without it, in
    Czech, naming ``--division`` and both divisions — and each command takes the option."""
    db, winners = hall["db"], hall["winners"]
    refused = [
        ("standings",),
        ("export", "standings", "--format", "csv"),
        ("export", "scorecard", "--format", "json"),
        ("report", "-o", str(tmp_path / "zprava")),
    ]
    for argv in refused:
        assert NEED in hub(capsys, db, *argv, code=2), argv
        # the option the refusal names is the command's own
        hub(capsys, db, *argv, "--division", "PLUS")
    top = hub(capsys, db, "standings", "--division", "KLASIK").splitlines()[1]
    assert top.startswith(f"1,{winners['KLASIK'][0]},1,")
    assert sorted(p.name for p in (tmp_path / "zprava").iterdir() if p.suffix == ".t")
    back = tsh.read(next((tmp_path / "zprava").glob("*.t")))
    assert len(back.players) == len(PLUS)
    # the whole hall's: the categories' members, pairings, missing tables, the tsh event
    members = hub(capsys, db, "category", "list")
    assert all(w in members for w in hall["women"].values())
    assert hub(capsys, db, "export", "pairings", "--format", "csv").count("\n") == 1 + 4
    hub(capsys, db, "tournament", "export-tsh", str(tmp_path / "tsh"))
    assert sorted(p.name for p in (tmp_path / "tsh").iterdir()) == [
        "config.tsh",
        "klasik.t",
        "plus.t",
    ]

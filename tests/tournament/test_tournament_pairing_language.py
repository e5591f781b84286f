"""Why this pair: the pairing engine keeps its reasons as catalogue phrases (keys and
values) in the database, so each reader gets them in cs, sk or en — with Czech and Slovak
plurals and decimal commas — and pairings stored as English sentences still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from language_guard import english_on_screen

from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import Phrase, localize, t

PLAYERS = """jméno;klub;rating
Dvořák Čeněk;ŠK Žďár;1650
Šťastná Růžena;Brno;1720
Novák Jiří;;1500
Kováčová Ľudmila;Bratislava;
Černý Ondřej;Praha;1580
"""


@pytest.fixture
def tour(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as t:
        t.configure(name="Turnaj", rules="cas", rounds=5)
        t.import_players_csv(PLAYERS)
        yield t


def _names(tour: Tournament) -> set[str]:
    return {w for p in tour.players() for w in p.name.split()}


def test_round_two_reasons_read_back_in_each_language(tour: Tournament) -> None:
    first = tour.pair(1, seed=3)
    boards = [b for b in first.boards if b.second is not None]
    a, b = boards[0], boards[1]
    tour.record_result(1, a.table, a.first, a.second, 400, 400, a.first)  # a draw: ½ win
    tour.record_result(1, b.table, b.first, b.second, 420, 380, b.first)
    tour.pair(2, seed=3)

    stored = tour.pairing(2)  # read from SQLite, not the object pair() returned
    assert all(isinstance(c, Phrase) for board in stored.boards for c in board.why)
    assert all(isinstance(n, Phrase) for n in stored.notes)
    raw = tour.db.execute("SELECT reason FROM tour_boards WHERE round = 2").fetchall()
    assert all(json.loads(r[0])[0]["key"].startswith("pair.") for r in raw)

    for lang in ("cs", "sk"):
        text = exports.pairings_explain(stored, {p.id: p for p in tour.players()}, lang)
        assert not english_on_screen(text, allowed=_names(tour)), text
        assert "0,5" in text and "0.5" not in text, text  # the drawn players' half win
    cs = exports.pairings_explain(stored, {p.id: p for p in tour.players()}, "cs")
    assert "# stůl 1: " in cs and "volný los" in cs and "švýcarský systém" in cs
    en = exports.pairings_explain(stored, {p.id: p for p in tour.players()}, "en")
    assert "# table 1: " in en and "0.5" in en and "score group" in en
    # The English reason stays available to code (logs, scripts) as before.
    assert "starts" in next(b for b in stored.boards if b.second is not None).reason


def test_plural_and_nested_values_follow_the_language() -> None:
    one = Phrase("pair.why.starts_of", started=1, games=1)
    few = Phrase("pair.why.starts_of", started=1, games=3)
    assert localize(one, "cs") == "1 z 1 známé partie"
    assert localize(few, "cs") == "1 z 3 známých partií"
    assert localize(one, "sk") == "1 z 1 známej partie"
    assert str(one) == "1 of 1 known game" and str(few) == "1 of 3 known games"
    who = Phrase("pair.who", name="Nová Eva", rank=3, score=2.5)
    avoided = Phrase("pair.why.avoided", name="Dvořák", met=[who, who])
    assert localize(avoided, "cs") == (
        "opakovanému zápasu se předešlo: Dvořák – dřívější soupeři "
        "Nová Eva (3. místo, 2,5), Nová Eva (3. místo, 2,5)"
    )
    assert "Nová Eva (#3, 2.5)" in avoided  # the English text
    byes = {n: Phrase("pair.why.bye_lowest", who=who, byes=n) for n in (1, 2)}
    assert byes[1].endswith("with 1 bye") and byes[2].endswith("with 2 byes")
    assert localize(byes[2], "cs").endswith("dosavadní volné losy: 2")


def test_phrases_survive_json_and_unknown_keys_do_not_break_a_reader() -> None:
    nested = Phrase(
        "pair.note.rematches", rematches=2, who=Phrase("pair.note.allowed_rules", rules="CAS")
    )
    back = Phrase.from_data(json.loads(json.dumps(nested.to_data())))
    assert isinstance(back, Phrase) and back == nested
    assert localize(back, "sk") == localize(nested, "sk")
    assert "pravidlá CAS ich povoľujú" in localize(back, "sk")
    assert Phrase.from_data("round 2 drawn by lot") == "round 2 drawn by lot"
    assert Phrase.from_data({"key": "pair.no_such_key", "values": {"x": 1}}).startswith(
        "pair.no_such_key"
    )


def test_a_pairing_stored_as_english_sentences_still_reads(tour: Tournament) -> None:
    """Databases written before the reasons became phrases hold English sentences: the
    dashboard and --explain show them as stored instead of failing."""
    tour.pair(1, seed=1)
    tour.db.execute(
        "UPDATE tour_boards SET reason = ? WHERE round = 1",
        ["Novák (#3, 1) – Dvořák (#4, 1): same score group (1); Novák starts: drawn by lot"],
    )
    tour.db.execute(  # where the divisions' migration keeps an old round's notes
        "UPDATE tour_division_rounds SET notes = ? WHERE round = 1",
        [json.dumps(["round 1 drawn by lot with seed 1", "[odd] text"])],
    )
    tour.db.conn.commit()
    old = tour.pairing(1)
    assert old.boards[0].why == [
        "Novák (#3, 1) – Dvořák (#4, 1): same score group (1); Novák starts: drawn by lot"
    ]
    assert old.notes == ["round 1 drawn by lot with seed 1", "[odd] text"]
    text = exports.pairings_explain(old, {p.id: p for p in tour.players()}, "cs")
    assert t("pair.explain.table", "cs", table=1, why="") in text
    assert "same score group (1)" in text  # shown as stored


def test_pfs_reasons_read_back_in_polish(tmp_path: Path) -> None:
    """A PFS event's reasons — round 1 by ranking, round 2 by neighbours — stored as
    phrases and read in Polish with nothing Czech, Slovak or English in them."""
    from samoobsluha.hub.sample import sample_csv

    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as tour:
        tour.configure(name="Turniej", rules="pfs", rounds=5)
        tour.import_players_csv(sample_csv(21, 7, "pl"))
        first = tour.pair(1, seed=3)
        assert first.method == "rating"
        for i, b in enumerate(first.boards):
            if b.second is not None:
                tour.record_result(1, b.table, b.first, b.second, 400 + i, 380, b.first)
        tour.pair(2, seed=3)
        players = {p.id: p for p in tour.players()}
        allowed = {w for p in tour.players() for w in p.name.split()}
        for round_no, must in ((1, "według rankingu"), (2, "sąsiedzi w klasyfikacji")):
            stored = tour.pairing(round_no)
            text = exports.pairings_explain(stored, players, "pl")
            assert must in text and "# stolik 1: " in text and "pauza" in text, text
            assert not english_on_screen(text, allowed=allowed, lang="pl"), text

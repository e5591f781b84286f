"""Categories and prizes against a hand-worked example: birth-date rules and assignments,
category standings, one prize a player, ties shared (an amount split, a cup jointly)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.prizes import Bar, award, category_ranks
from samoobsluha.hub.tournament.standings import Standing
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text

D = datetime.date

# name, rank in the standings (equal ranks: equal on every criterion), born, assigned to
FIELD = [
    ("Adam", 1, D(1980, 5, 1), []),
    ("Běla", 2, D(1985, 1, 1), ["ženy"]),
    ("Cyril", 3, D(2009, 3, 3), []),
    ("Dana", 3, D(2010, 7, 7), ["ženy"]),
    ("Emil", 5, D(1990, 1, 1), ["junioři"]),  # assigned by hand (a junior by the federation)
    ("Fany", 6, D(1975, 2, 2), ["ženy"]),
    ("Hana", 6, D(1950, 9, 9), ["ženy"]),
    ("Gustav", 8, D(1955, 4, 4), []),
]

# The hand-worked prize list (the prize table below, in this order):
#   place 1 1500 Kč -> Adam; place 2 1000 Kč -> Běla;
#   place 3 600 Kč  -> Cyril and Dana tie on places 3–4: they share it, 300 Kč each;
#   junioři 1 kniha -> juniors are Cyril, Dana (born 2008 or later) and Emil (assigned);
#                      Cyril and Dana have a prize already: Emil;
#   ženy 1 300 Kč, ženy 2 200 Kč -> women without a prize: Fany and Hana, tied: places 1–2
#                      of the category, both prizes pooled, 250 Kč each;
#   senioři 1 pohár -> seniors (born 1960 or earlier) are Hana and Gustav; Hana has a
#                      prize: Gustav.
EXPECTED = [
    ("place", "", (1, 1), ["Adam"], ["1500 Kč"], ""),
    ("place", "", (2, 2), ["Běla"], ["1000 Kč"], ""),
    ("place", "", (3, 4), ["Cyril", "Dana"], ["600 Kč"], "300 Kč"),
    ("category", "junioři", (1, 1), ["Emil"], ["kniha"], ""),
    ("category", "ženy", (1, 2), ["Fany", "Hana"], ["300 Kč", "200 Kč"], "250 Kč"),
    ("category", "senioři", (1, 1), ["Gustav"], ["pohár"], ""),
]


@pytest.fixture
def tour(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Tournament.open(tmp_path / "hub.db", clock=FakeClock()) as t:
        t.configure(name="Ceny", rules="cas", rounds=2)
        book = t.prize_book
        book.define("junioři", born_from=D(2008, 1, 1))
        book.define("ženy")
        book.define("senioři", born_to=D(1960, 12, 31))
        for name, _, born, cats in FIELD:
            p = t.add_player(name)
            book.set_birth(p.id, born)
            for c in cats:
                book.assign(c, [p.id])
        book.add_prize("category", 1, "kniha", category="junioři")  # listed first: places
        for rank, value in ((1, "1500 Kč"), (2, "1000 Kč"), (3, "600 Kč")):  # go first anyway
            book.add_prize("place", rank, value)
        book.add_prize("category", 1, "300 Kč", category="ženy")
        book.add_prize("category", 2, "200 Kč", category="ženy")
        book.add_prize("category", 1, "pohár", category="senioři")
        yield t


def hand_standings(t: Tournament) -> list[Standing]:
    by_name = {p.name: p for p in t.players()}
    return [Standing(player=by_name[name], rank=rank) for name, rank, _, _ in FIELD]


def test_membership_by_birth_date_and_by_hand(tour: Tournament) -> None:
    names = {p.id: p.name for p in tour.players()}
    got = {c: sorted(names[i] for i in ids) for c, ids in tour.prize_book.membership().items()}
    assert got == {
        "junioři": ["Cyril", "Dana", "Emil"],
        "ženy": ["Běla", "Dana", "Fany", "Hana"],
        "senioři": ["Gustav", "Hana"],
    }


def test_category_standings_share_ranks(tour: Tournament) -> None:
    who = tour.prize_book.membership()["ženy"]
    ranked = [(r, s.player.name) for r, s in category_ranks(hand_standings(tour), who)]
    assert ranked == [(1, "Běla"), (2, "Dana"), (3, "Fany"), (3, "Hana")]


def test_the_prize_list_matches_the_hand_worked_example(tour: Tournament) -> None:
    names = {p.id: p.name for p in tour.players()}
    awards = award(hand_standings(tour), tour.prize_book.prizes(), tour.prize_book.membership())
    got = [
        (
            a.kind,
            a.category,
            a.places,
            [names[p] for p in a.players],
            [p.value for p in a.prizes],
            a.share,
        )
        for a in awards
    ]
    assert got == EXPECTED
    winners = [p for a in awards for p in a.players]
    assert len(winners) == len(set(winners))  # one prize a player
    rows = exports.prize_rows(awards, {p.id: p for p in tour.players()}, "cs")
    assert rows[2] == {
        "award": "3.–4. místo (dělí se)",
        "prize": "600 Kč",
        "name": "Cyril, Dana",
        "share": "300 Kč",
        "note": "",
    }
    assert rows[4]["award"] == "ženy: 1.–2. místo (dělí se)"


def test_prizes_printed_from_a_played_event(tour: Tournament, capsys) -> None:  # type: ignore[no-untyped-def]
    for r in (1, 2):
        for b in tour.pair(r, seed=r).boards:
            if b.second is not None:
                tour.record_result(r, b.table, b.first, b.second, 350 + b.table * 10, 300, b.first)
        tour.publish(r)
    assert tour.event_over()
    table = tour.standings()
    awards = tour.prize_list()
    assert awards[0].players == [table[0].player.id]
    html = exports.render(tour, "prizes", "html", lang="cs")
    assert "Ceny" in html and table[0].player.name in html and "1500 Kč" in html
    cats = exports.render(tour, "categories", "html", lang="cs")
    assert "Pořadí — kategorie junioři" in cats and "Emil" in cats
    plain = exports.render(tour, "prizes", "csv", plain=True)
    assert plain.splitlines()[0] == "award,prize,name,share,note"
    assert plain.splitlines()[1].startswith("place 1,1500 Kč,")
    db = str(tour.db.conn.execute("PRAGMA database_list").fetchone()[2])
    assert main(["prize", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "1. místo" in out and "1500 Kč" in out and table[0].player.name in out


def test_refusals_name_what_to_do(tour: Tournament) -> None:
    with pytest.raises(TournamentError) as refused:
        tour.prize_book.add_prize("category", 1, "x", category="kadeti")
    assert "hub category add kadeti" in error_text(refused.value, "cs")
    with pytest.raises(TournamentError) as refused:
        tour.prize_book.define("x", born_from=D(2010, 1, 1), born_to=D(2000, 1, 1))
    assert "--born-from" in error_text(refused.value, "cs")


def test_assignments_follow_the_record(tour: Tournament) -> None:
    with pytest.raises(TournamentError):
        tour.prize_book.assign("ženy", [99])  # no such player
    tour.prize_book.remove("ženy")
    assert "ženy" not in tour.prize_book.membership()
    actions = [a["action"] for a in tour.audit()]
    assert {"category", "category_assign", "birth_date", "prize", "category_remove"} <= set(actions)


def listed(t: Tournament, awards: list) -> list[tuple]:  # type: ignore[type-arg]
    names = {p.id: p.name for p in t.players()}
    return [
        (a.kind, a.category, a.places, [names[p] for p in a.players], [p.value for p in a.prizes])
        for a in awards
    ]


def test_an_expelled_player_takes_no_prize_and_it_goes_down_the_list(tour: Tournament) -> None:
    by_name = {p.name: p for p in tour.players()}
    tour.sanction(by_name["Adam"].id, "expulsion", scope="event", reason="hrubé porušení fair play")
    tour.sanction(by_name["Gustav"].id, "expulsion", scope="game", reason="telefon v sále")
    bars = tour.prize_bars()
    assert set(bars) == {by_name["Adam"].id}  # expelled from one game only: still eligible
    awards = award(
        hand_standings(tour), tour.prize_book.prizes(), tour.prize_book.membership(), bars
    )
    # Without Adam: Běla is 1st; Cyril and Dana, tied, stand on places 2–3 and share
    # 1000 + 600 Kč; the categories as before; Adam is listed as barred from place 1.
    assert listed(tour, awards) == [
        ("place", "", (1, 1), ["Běla"], ["1500 Kč"]),
        ("place", "", (2, 3), ["Cyril", "Dana"], ["1000 Kč", "600 Kč"]),
        ("category", "junioři", (1, 1), ["Emil"], ["kniha"]),
        ("category", "ženy", (1, 2), ["Fany", "Hana"], ["300 Kč", "200 Kč"]),
        ("category", "senioři", (1, 1), ["Gustav"], ["pohár"]),
        ("barred", "", (1, 1), ["Adam"], ["1500 Kč"]),
    ]
    assert awards[1].share == "800 Kč"
    rows = exports.prize_rows(awards, {p.id: p for p in tour.players()}, "cs")
    assert rows[-1] == {
        "award": "bez ceny",
        "prize": "1. místo: 1500 Kč — připadá dalšímu v pořadí",
        "name": "Adam",
        "share": "",
        "note": "vyloučení z turnaje: hrubé porušení fair play",
    }
    plain = exports.prize_rows(awards, {p.id: p for p in tour.players()}, None)
    assert plain[-1]["award"] == "barred expelled" and plain[-1]["prize"] == "1: 1500 Kč"


def test_a_withdrawn_player_keeps_his_prize_unless_the_rules_say_otherwise(
    tour: Tournament,
) -> None:
    by_name = {p.name: p for p in tour.players()}
    dana = by_name["Dana"].id
    tour.withdraw(dana)
    assert tour.prize_bars() == {}  # ČAS 13.3: a withdrawal takes no prize
    tour.configure(overrides={"prize_withdrawn": "no"})
    assert tour.prize_bars() == {dana: Bar("withdrawn")}
    awards = award(
        hand_standings(tour),
        tour.prize_book.prizes(),
        tour.prize_book.membership(),
        tour.prize_bars(),
    )
    got = listed(tour, awards)
    assert got[2] == ("place", "", (3, 3), ["Cyril"], ["600 Kč"])  # no longer shared
    assert got[-1] == ("barred", "", (3, 4), ["Dana"], ["600 Kč"])
    row = exports.prize_rows(awards, {p.id: p for p in tour.players()}, "pl")[-1]
    assert row["award"] == "bez nagrody" and row["note"] == "wycofanie się z turnieju"


def test_a_revoked_expulsion_gives_the_prize_back(tour: Tournament) -> None:
    adam = next(p for p in tour.players() if p.name == "Adam")
    given = tour.sanction(adam.id, "expulsion", scope="event", reason="omyl")
    assert adam.id in tour.prize_bars()
    tour.revoke_sanction(given.id, note="omyl rozhodčího")
    assert tour.prize_bars() == {}  # still withdrawn, which takes no prize under ČAS


def test_an_expelled_winner_on_the_printed_prize_list(tour: Tournament, capsys) -> None:  # type: ignore[no-untyped-def]
    for r in (1, 2):
        for b in tour.pair(r, seed=r).boards:
            if b.second is not None:
                tour.record_result(r, b.table, b.first, b.second, 350 + b.table * 10, 300, b.first)
        tour.publish(r)
    table = tour.standings()
    winner, runner_up = table[0].player, table[1].player
    tour.sanction(winner.id, "expulsion", scope="event", reason="manipulace s výsledky", round_no=2)
    awards = tour.prize_list()
    assert awards[0].kind == "place" and awards[0].players == [runner_up.id]
    assert [a.players for a in awards if a.kind == "barred"] == [[winner.id]]
    assert winner.id not in {p for a in awards if a.kind != "barred" for p in a.players}
    html = exports.render(tour, "prizes", "html", lang="cs")
    assert "bez ceny" in html and "vyloučení z turnaje: manipulace s výsledky" in html
    assert "Poznámka" in html
    db = str(tour.db.conn.execute("PRAGMA database_list").fetchone()[2])
    assert main(["prize", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if winner.name in x)
    assert line.startswith("bez ceny: 1. místo: 1500 Kč") and "manipulace s výsledky" in line

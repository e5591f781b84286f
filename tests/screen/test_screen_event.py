"""The hall screen in a real browser (Debian's headless Chromium, a real hub on loopback):
the warnings and expulsions published before a round, and the prize list once the planned
last round is published — on the phone and on the projector."""

from __future__ import annotations

from typing import Any

from screen_testkit import PHONE, PROJECTOR, LiveHub
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from samoobsluha.hub.entry import Entry

WAIT = 30.0  # waited for, never timed


def shown(driver: Any, css: str, expected: str) -> str:
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: expected in d.find_element(By.CSS_SELECTOR, css).text,
        message=f"{css} contains {expected!r}",
    )
    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def play_round(hub: LiveHub, round_no: int) -> None:
    for row in hub.service.pairing_table(round_no)[0]:
        if row["second"] != "—":
            hub.service.enter_result(
                round_no, Entry(int(row["table"]), 380 + int(row["table"]), 350)
            )
    hub.service.publish_results(round_no)


def test_sanctions_then_prizes_on_the_hall_screen(hub: LiveHub, browser_factory: Any) -> None:
    with hub.service._tour() as tour:
        tour.configure(rounds=2)
        warned = tour.players()[4]
        tour.sanction(warned.id, "warning", reason="rušení soupeře", round_no=1, who="HR")
        tour.prize_book.define("ženy")
        tour.prize_book.assign("ženy", [p.id for p in tour.players()[:10]])
        tour.prize_book.add_prize("place", 1, "2000 Kč")
        tour.prize_book.add_prize("place", 2, "1000 Kč")
        tour.prize_book.add_prize("category", 1, "kytice", category="ženy")
    hub.publish_round(1)
    play_round(hub, 1)
    hub.service.pair(2, seed=2)
    hub.publish_round(2)
    phone = browser_factory(PHONE)
    phone.get(hub.url)
    said = shown(phone, "#sanctions", "Napomenutí a vyloučení (zveřejněno před tímto kolem)")
    assert warned.name in said and "rušení soupeře" in said and "1. napomenutí v partii" in said
    assert not phone.find_element(By.ID, "prizes").is_displayed()  # the event is not over

    with hub.service._tour() as tour:  # in the last round: shown with the prizes
        tour.sanction(tour.players()[6].id, "warning", reason="telefon v sále", round_no=2)
    play_round(hub, 2)
    hub.call(hub.screen.refresh)
    assert "telefon v sále" in shown(phone, "#sanctions", "telefon v sále")
    with hub.service._tour() as tour:
        first = tour.standings()[0].player.name
    said = shown(phone, "#prizes", "Ceny")
    assert "1. místo" in said and "2000 Kč" in said and first in said
    assert "ženy: 1. místo" in said and "kytice" in said
    projector = browser_factory(PROJECTOR)
    projector.get(hub.url + "projector")
    said = shown(projector, "#prizes", "2000 Kč")
    assert first in said


def test_the_hall_screen_shows_a_forfeit_as_ruled(hub: LiveHub) -> None:
    from samoobsluha.hub.web import snapshot

    hub.publish_round(1)
    with hub.service._tour() as tour:
        b = tour.pairing(1).boards[0]
        assert b.second is not None
        tour.record_result(
            1, b.table, b.first, b.second, 250, 180, b.first, kind="forfeit", forfeited=b.second
        )
    results = {row[0]: row[1:] for row in snapshot.build(hub.service)["results"]}
    assert results[b.table] == [200, 0]  # as the standings count it, not the table's 250:180


def test_an_expelled_winner_is_on_the_hall_screen_without_a_prize(hub: LiveHub) -> None:
    from samoobsluha.hub.web import snapshot

    with hub.service._tour() as tour:
        tour.configure(rounds=1)
        tour.prize_book.add_prize("place", 1, "2000 Kč")
    hub.publish_round(1)
    play_round(hub, 1)
    with hub.service._tour() as tour:
        table = tour.standings()
        winner, second = table[0].player, table[1].player
        tour.sanction(winner.id, "expulsion", scope="event", reason="manipulace s výsledky")
    snap = snapshot.build(hub.service)
    columns = snap["prizes"]["columns"]
    rows = [dict(zip(columns, row, strict=True)) for row in snap["prizes"]["rows"]["cs"]]
    assert [(r["award"], r["name"]) for r in rows] == [
        ("1. místo", second.name),
        ("bez ceny", winner.name),
    ]
    assert rows[1]["note"] == "vyloučení z turnaje: manipulace s výsledky"
    assert snap["prizes"]["rows"]["sk"][1][columns.index("note")].startswith("vylúčenie z turnaja")

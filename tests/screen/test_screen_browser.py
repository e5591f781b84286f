"""The hall screen in a real browser: Debian's headless Chromium opens the page served by
a real hub on loopback. A phone finds a player without diacritics, sees his table, watches
the clock move, sees a result arrive when the operator approves it and his new table when
round 2 is published; the projector's clock says what the kiosk's says, phase by phase."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from screen_testkit import PHONE, PROJECTOR, T0, LiveHub
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from samoobsluha.hub.entry import Entry
from samoobsluha.hub.tournament import exports
from samoobsluha.shared.clock import FakeClock
from samoobsluha.station.rounds import RoundSchedule
from samoobsluha.station.widgets.clock import describe

WAIT = 30.0  # generous: the conditions below are waited for, never timed


def text(driver: Any, css: str) -> str:
    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def wait_for(driver: Any, condition: Any, what: str) -> Any:
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: condition(d), message=what
    )


def wait_text(driver: Any, css: str, expected: str) -> None:
    wait_for(driver, lambda d: text(d, css) == expected, f"{css} == {expected!r}")


def wait_contains(driver: Any, css: str, expected: str) -> str:
    wait_for(driver, lambda d: expected in text(d, css), f"{css} contains {expected!r}")
    return text(driver, css)


def board_of(hub: LiveHub, round_no: int, name: str) -> tuple[int, str, str]:
    """(table, opponent, ZH/DH) of ``name`` in the stored pairing, from the service."""
    rows, _ = hub.service.pairing_table(round_no)
    for row in rows:
        if row["first"] == name:
            return int(row["table"]), row["second"], "ZH"
        if row["second"] == name:
            return int(row["table"]), row["first"], "DH"
    raise AssertionError(f"{name} is not paired in round {round_no}")


def role_sentence(name: str, role: str) -> str:
    """What the phone says of the searched player's own role (never the opponent's)."""
    return f"{name} začíná (ZH)." if role == "ZH" else f"Začíná soupeř, {name} hraje jako DH."


def kiosk_clock(hub: LiveHub, tmp_path: Path, clock: FakeClock, lang: str = "cs") -> list[str]:
    """What the kiosk's clock shows now: the hub's plans applied to a real station round
    schedule, described by the kiosk's own widget code."""
    schedule = RoundSchedule.open(tmp_path / "kiosk.db", clock)
    try:
        for row in hub.service.rounds():
            plan = hub.service.plan(row.number)
            assert plan is not None
            schedule.apply(plan)
        title, digits, big = describe(schedule.status(clock.now()), lang)
    finally:
        schedule.close()
    return [title, digits, big]


def page_clock(driver: Any) -> list[str]:
    return [text(driver, "#clock-title"), text(driver, "#clock-digits"), text(driver, "#clock-big")]


def test_phone_finds_player_and_follows_the_tournament(
    hub: LiveHub, clock: FakeClock, browser_factory: Any, tmp_path: Path
) -> None:
    hub.publish_round(1)
    hub.call(lambda: hub.server.start_round(1, at=T0 + 60))
    phone = browser_factory(PHONE)
    phone.get(hub.url)
    wait_contains(phone, "#conn", "živě")

    # Search without diacritics or capitals, as a player types on his phone.
    players = hub.service.player_names()
    name = next(n for n in players.values() if n != n.encode("ascii", "ignore").decode())
    query = "".join(c for c in unicodedata.normalize("NFD", name.split()[0]) if c.isascii())
    query = query.lower()
    box = phone.find_element(By.ID, "q")
    box.send_keys(query)
    table, opponent, zh = board_of(hub, 1, name)
    card = wait_contains(phone, "#me", f"Stůl {table}, soupeř {opponent}")
    assert "Kolo 1:" in card and name in card
    assert role_sentence(name, zh) in card  # whose role: the searched player's own

    # The clock: round 1 starts in a minute, then runs; the page follows the hub's clock.
    wait_text(phone, "#clock-title", "Kolo 1 začne za")
    wait_text(phone, "#clock-digits", "01:00")
    clock.advance(100)
    wait_text(phone, "#clock-title", "Kolo 1")
    wait_text(phone, "#clock-digits", "39:20")
    clock.advance(60)
    wait_text(phone, "#clock-digits", "38:20")

    # The operator approves table `table`'s result: it appears without a reload.
    assert "Zatím žádné schválené výsledky." in text(phone, "#results")
    first_score, second_score = (431, 377)
    hub.service.enter_result(1, Entry(table, first_score, second_score))
    wait_contains(phone, "#results-table", f"{first_score}:{second_score}")
    assert "Výsledky 1. kola" in text(phone, "#results-title")

    # Every other result, round 1 approved, round 2 paired and published: his new table.
    for row in hub.service.pairing_table(1)[0]:
        if int(row["table"]) != table and row["second"] != "—":
            hub.service.enter_result(1, Entry(int(row["table"]), 400, 350))
    hub.service.publish_results(1)
    hub.service.pair(2, seed=2)
    hub.publish_round(2)
    table2, opponent2, zh2 = board_of(hub, 2, name)
    card = wait_contains(phone, "#me", "Kolo 2:")
    assert f"Stůl {table2}, soupeř {opponent2}" in card
    assert role_sentence(name, zh2) in card
    # his results so far, and the standings after round 1 (ČAS: TurČAS column)
    wait_contains(phone, "#standings-title", "Pořadí po 1. kole")
    assert "TurČAS" in text(phone, "#standings-table")
    mine = f"{first_score}:{second_score}" if zh == "ZH" else f"{second_score}:{first_score}"
    assert mine in card


def test_projector_clock_matches_the_kiosk(
    hub: LiveHub, clock: FakeClock, browser_factory: Any, tmp_path: Path
) -> None:
    hub.publish_round(1)
    projector = browser_factory(PROJECTOR)
    projector.get(hub.url + "projector?page=3")
    wait_contains(projector, "#conn", "živě")
    assert page_clock(projector) == kiosk_clock(hub, tmp_path, clock)  # no round yet

    hub.call(lambda: hub.server.start_round(1, at=T0 + 30, basic_seconds=2400))
    # every phase: scheduled, running, the last ten minutes, DOHRÁVKA
    for step in (0.0, 45.5, 1900.0, 300.0, 600.0):
        clock.advance(step)
        expected = kiosk_clock(hub, tmp_path, clock)
        wait_for(projector, lambda d, e=expected: page_clock(d) == e, f"clock {expected}")
    assert page_clock(projector)[2] == "DOHRÁVKA"

    # „Kde hraji?“: every player by name with his table, alphabetically (Czech order),
    # on pages that turn by themselves
    wait_contains(projector, "#where-page", "strana 1 z 2")
    names: list[str] = []
    for page in (1, 2):
        wait_contains(projector, "#where-page", f"strana {page} z 2")
        rows = projector.find_elements(By.CSS_SELECTOR, ".wrow")
        names += [
            r.find_element(By.CSS_SELECTOR, ".wname").get_attribute("textContent") for r in rows
        ]
        for r in rows:
            who = r.find_element(By.CSS_SELECTOR, ".wname").get_attribute("textContent")
            table, _, _ = board_of(hub, 1, who)
            assert r.find_element(By.CSS_SELECTOR, ".wtable").text == f"Stůl {table}"
    assert sorted(names) == sorted(hub.service.player_names().values())
    assert names == sorted(names, key=exports._collate)


def test_page_reconnects_after_the_hub_restarts(
    hub: LiveHub, clock: FakeClock, browser_factory: Any
) -> None:
    hub.publish_round(1)
    phone = browser_factory(PHONE)
    phone.get(hub.url + "?lang=sk")
    wait_contains(phone, "#conn", "naživo")
    wait_text(phone, "#clock-title", "Kolo neprebieha")
    hub.stop_screen()
    wait_contains(phone, "#conn", "bez spojenia s hubom")
    # while it is down the round is planned; the page learns it once the hub is back
    hub.call(lambda: hub.server.start_round(1, at=T0 + 120))
    hub.restart_screen()
    wait_contains(phone, "#conn", "naživo")
    wait_text(phone, "#clock-title", "Kolo 1 začne za")
    wait_text(phone, "#clock-digits", "02:00")

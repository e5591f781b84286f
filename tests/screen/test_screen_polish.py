"""The hall screen of a Polish (PFS) event in a real browser, held to Polish: the projector
and a phone (a player found, his games, the results and the standings) show no Czech,
Slovak or English word, and no ZH/DH — the Czech abbreviations for who starts, which a
Polish player reads as „rozpoczynający“ / „drugi“."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from language_guard import english_on_screen
from screen_testkit import PHONE, PROJECTOR, T0, LiveHub
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from samoobsluha.hub.sample import play_sample
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

EVENT = "Mistrzostwa Polski w Scrabble 2026"
PLACE = "Warszawa, Pałac Kultury i Nauki"
WAIT = 30.0  # waited for, never timed
CZECH_ROLE = re.compile(r"\b(ZH|DH)\b")


@pytest.fixture
def polish_hub() -> Iterator[LiveHub]:
    """A 120-player PFS field (the demo's size), three rounds played and published, round 4
    paired and running: what bench/screenshots.py --lang pl pictures."""
    folder = Path(tempfile.mkdtemp(prefix="hscr-pl"))
    clock = FakeClock(T0)
    service = HubService(folder, clock=clock)
    service.prepare()
    with service._tour() as tour:
        play_sample(tour, 3, players=120, name=EVENT, place=PLACE, lang="pl")
    live = LiveHub(folder, clock)
    live.publish_round(4)
    live.call(lambda: live.server.start_round(4, at=T0 + 10, basic_seconds=2400))
    clock.advance(14 * 60)
    live.call(live.screen.refresh)
    yield live
    live.close()
    shutil.rmtree(folder, ignore_errors=True)


def _allowed(hub: LiveHub) -> set[str]:
    data = set(hub.service.player_names().values()) | {EVENT, PLACE}
    with hub.service._tour() as tour:
        data |= {p.club for p in tour.players() if p.club}
    # data (names, clubs, the event) and the language switch's own names (CZ SK EN)
    return {w for item in data for w in re.findall(r"[^\W\d_]+", item)} | {"PFS"}


def _shown(driver: Any) -> str:
    """What the page shows; its soft hyphens (where a long word may break) are unseen."""
    return str(driver.execute_script("return document.body.innerText")).replace("\u00ad", "")


def _connected(driver: Any) -> bool:
    return "on" in (driver.find_element(By.ID, "conn").get_attribute("class") or "")


def test_the_projector_speaks_polish(polish_hub: LiveHub, browser_factory: Any) -> None:
    driver = browser_factory(PROJECTOR)
    driver.get(polish_hub.url + "projector?lang=pl")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(_connected, message="live")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: "Stolik" in _shown(d), message="tables shown"
    )
    text = _shown(driver)
    assert "Runda 4" in text and "Gdzie gram?" in text, text
    assert not english_on_screen(text, allowed=_allowed(polish_hub), lang="pl"), text
    assert not CZECH_ROLE.search(text), text
    assert driver.execute_script("return window.samoobsluhaMissing") == []


def test_a_phone_speaks_polish(polish_hub: LiveHub, browser_factory: Any) -> None:
    """A player searched without his diacritics: his table, his games with who started
    in Polish words, the round's results and the standings — all Polish."""
    driver = browser_factory(PHONE)
    driver.get(polish_hub.url + "?lang=pl")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(_connected, message="live")
    who = sorted(polish_hub.service.player_names().values(), key=len)[-1]
    driver.find_element(By.ID, "q").send_keys(who.split()[0].lower())
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: who in d.find_element(By.ID, "me").text, message=f"{who} found"
    )
    card = driver.find_element(By.ID, "me").text.replace("\u00ad", "")
    assert "Gra jako" in card and ("rozpoczynający" in card or "drugi" in card), card
    assert not CZECH_ROLE.search(card), card
    text = _shown(driver)
    assert "Klasyfikacja po rundzie 3" in text, text
    assert not english_on_screen(text, allowed=_allowed(polish_hub), lang="pl"), text
    assert not CZECH_ROLE.search(text), text
    assert driver.execute_script("return window.samoobsluhaMissing") == []  # none asked in vain
    # the net is live on this page: the Czech page of the same hall is caught
    driver.get(polish_hub.url + "?lang=cs")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(_connected, message="live (cs)")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: "Pořadí" in _shown(d) or "pořadí" in _shown(d), message="cs standings"
    )
    assert english_on_screen(_shown(driver), allowed=_allowed(polish_hub), lang="pl")


def test_a_polish_phone_at_360_px_never_scrolls_sideways(
    polish_hub: LiveHub, browser_factory: Any
) -> None:
    """The Polish words are longer („rozpoczynający“ where Czech writes ZH, „Miejsce“,
    „Wygrane“): the player's card, its games and the standings still fit a 360 px phone,
    as the Czech one does."""
    from test_screen_reading import NARROW_PHONE, PHONE_WIDTH

    driver = browser_factory(NARROW_PHONE)
    driver.get(polish_hub.url + "?lang=pl")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(_connected, message="live")
    with polish_hub.service._tour() as tour:  # the longest name who started a game
        starters = [s.player.name for s in tour.standings(after_round=3)
                    if any(line.started for line in s.lines)]  # fmt: skip
    longest = max(starters, key=len)
    driver.find_element(By.ID, "q").send_keys(longest)
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: longest in d.find_element(By.ID, "me").text, message="card"
    )
    assert "rozpoczynający" in driver.find_element(By.ID, "me").text.replace("\u00ad", "")
    m = driver.execute_script(PHONE_WIDTH)
    assert m["w"] == 360 and m["doc"] <= 360, m
    assert all(right <= 360.5 for right in m["tables"]), m
    inside = driver.execute_script(
        "var c = document.querySelector('#me .card');"
        "return c.querySelector('table').getBoundingClientRect().right"
        " <= c.getBoundingClientRect().right;"
    )
    assert inside, "the games' table runs over the card's border"
    # the standings by what PFS ranks by: the balance, then points
    head = driver.find_element(By.CSS_SELECTOR, "#standings-table tr").text.split()
    assert head == ["Miejsce", "Gracz", "Bilans", "Punkty"], head

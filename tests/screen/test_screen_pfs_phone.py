"""A Polish (PFS) event's phone page in a real browser: a player's card gives his place
with the figures PFS ranks by — the balance (wins − losses), then points —, in Polish and
in Czech terms, while a ČAS card keeps wins and spread; and the header reads a long event
name whole at 360 px instead of cutting it („Mistrzost…“); and a player expelled from the
event is marked („wykluczony“) in his card and beside his name in the standings, in every
language, under PFS (whose zeros it explains) and ČAS (whose rank it leaves)."""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from language_guard import english_on_screen
from screen_testkit import T0, LiveHub
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from samoobsluha.hub.sample import play_sample
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock

# a real event's name, 60 characters: what a PFS director types
EVENT = "Mistrzostwa Polski w Scrabble Klubów Sportowych Wrocław 2026"
NARROW_PHONE = (360, 740)
REASON = "oszustwo"
WAIT = 30.0  # waited for, never timed


def _played(lang: str, name: str) -> Iterator[LiveHub]:
    """A 24-player field (PFS for pl, else ČAS), two rounds played and published, round 3
    paired."""
    folder = Path(tempfile.mkdtemp(prefix="hscr-pfs"))
    clock = FakeClock(T0)
    service = HubService(folder, clock=clock)
    service.prepare()
    with service._tour() as tour:
        play_sample(tour, 2, players=24, name=name, place="Wrocław", lang=lang)
        # the leader after round 2 expelled from the event in round 2 (PFS: his tally void)
        leader = tour.standings(after_round=2)[0].player
        tour.sanction(leader.id, "expulsion", scope="event", round_no=2, reason=REASON)
    live = LiveHub(folder, clock)
    live.expelled = leader.name  # type: ignore[attr-defined]
    live.publish_round(3)
    live.call(live.screen.refresh)
    yield live
    live.close()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def pfs_hub() -> Iterator[LiveHub]:
    yield from _played("pl", EVENT)


@pytest.fixture(scope="module")
def cas_hub() -> Iterator[LiveHub]:
    yield from _played("cs", "Mistrovství sálu")


def _connected(driver: Any) -> bool:
    return "on" in (driver.find_element(By.ID, "conn").get_attribute("class") or "")


def _open(driver: Any, hub: LiveHub, lang: str) -> None:
    driver.get(hub.url + f"?lang={lang}")
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(_connected, message="live")


def _card_of(driver: Any, who: str) -> str:
    driver.find_element(By.ID, "q").clear()
    driver.find_element(By.ID, "q").send_keys(who)
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: who in d.find_element(By.ID, "me").text, message=f"{who}'s card"
    )
    return str(driver.find_element(By.CSS_SELECTOR, "#me .card .rank").get_attribute("textContent"))


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("pl", "Miejsce {rank} · bilans {balance} · punkty {points}"),
        ("cs", "Pořadí {rank} · bilance {balance} · body {points}"),
    ],
)
def test_the_card_gives_the_balance_and_points_pfs_ranks_by(
    pfs_hub: LiveHub, browser_factory: Any, lang: str, line: str
) -> None:
    from samoobsluha.hub.tournament import exports

    with pfs_hub.service._tour() as tour:
        table = tour.standings(after_round=2)
        rules = tour.rules
    rows = exports.standings_rows(table, rules, lang)
    # a player whose balance and wins differ, so that the old line (wins, spread) cannot pass
    pick = next(
        (s, r) for s, r in zip(table, rows, strict=True) if s.balance != s.wins and s.rank > 1
    )
    standing, row = pick
    driver = _open_phone(browser_factory, pfs_hub, lang)
    shown = _card_of(driver, standing.player.name)
    assert shown == line.format(rank=row["rank"], balance=row["balance"], points=row["points"])
    assert driver.execute_script("return window.samoobsluhaMissing") == []


def test_a_cas_card_keeps_wins_and_spread(cas_hub: LiveHub, browser_factory: Any) -> None:
    from samoobsluha.hub.tournament import exports

    with cas_hub.service._tour() as tour:
        table = tour.standings(after_round=2)
        rules = tour.rules
    standing, row = next(
        (s, r)
        for s, r in zip(table, exports.standings_rows(table, rules, "cs"), strict=True)
        if s.rank > 1
    )
    driver = _open_phone(browser_factory, cas_hub, "cs")
    shown = _card_of(driver, standing.player.name)
    assert shown == f"Pořadí {row['rank']} · výhry {row['wins']} · rozdíl {row['spread']}"


def _open_phone(browser_factory: Any, hub: LiveHub, lang: str) -> Any:
    driver = browser_factory(NARROW_PHONE)
    _open(driver, hub, lang)
    return driver


HEADER = """
var n = document.getElementById('name'), r = n.getBoundingClientRect();
var range = document.createRange(); range.selectNodeContents(n);
var text = range.getBoundingClientRect();
return {text: n.textContent, sw: n.scrollWidth, cw: n.clientWidth, sh: n.scrollHeight,
  ch: n.clientHeight, left: r.left, right: r.right, tl: text.left, tr: text.right,
  tt: text.top, tb: text.bottom, top: r.top, bottom: r.bottom,
  doc: document.documentElement.scrollWidth, w: innerWidth};
"""


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_a_long_event_name_reads_whole_at_360_px(
    pfs_hub: LiveHub, browser_factory: Any, lang: str
) -> None:
    assert len(EVENT) == 60
    driver = _open_phone(browser_factory, pfs_hub, lang)
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: d.find_element(By.ID, "name").text.strip(), message="the name drawn"
    )
    m = driver.execute_script(HEADER)
    assert m["text"] == EVENT, m
    # nothing clipped: neither an ellipsis (wider than its box) nor a hidden line
    assert m["sw"] <= m["cw"] and m["sh"] <= m["ch"], m
    # every letter inside the box, the box inside the screen, nothing scrolls sideways
    assert m["left"] - 0.5 <= m["tl"] and m["tr"] <= m["right"] + 0.5, m
    assert m["top"] - 0.5 <= m["tt"] and m["tb"] <= m["bottom"] + 0.5, m
    assert m["left"] >= 0 and m["right"] <= m["w"] and m["doc"] <= 360, m
    # read as a heading, not a column of one word a line: at most three lines
    lines = driver.execute_script(
        "var n = document.getElementById('name'), range = document.createRange();"
        "range.selectNodeContents(n); var tops = {};"
        "[...range.getClientRects()].forEach(r => tops[Math.round(r.top)] = 1);"
        "return Object.keys(tops).length;"
    )
    assert 1 <= lines <= 3, lines


MARK = {"cs": "vyloučen", "sk": "vylúčený", "pl": "wykluczony", "en": "expelled"}


def _allowed(hub: LiveHub) -> set[str]:
    with hub.service._tour() as tour:
        data = {p.name for p in tour.players()} | {p.club for p in tour.players() if p.club}
        data |= {tour.settings()["name"], "Wrocław", REASON}
    return {w for item in data for w in re.findall(r"[^\W\d_]+", item)} | {"PFS"}


def _marked(driver: Any, hub: LiveHub, lang: str) -> tuple[str, str, str]:
    """(the card's mark, the standings row of the expelled player, the page's text)."""
    who = hub.expelled  # type: ignore[attr-defined]
    _open(driver, hub, lang)
    _card_of(driver, who)
    card = driver.find_element(By.CSS_SELECTOR, "#me .card")
    notes = card.find_elements(By.CSS_SELECTOR, ".note")
    row = next(
        r.text
        for r in driver.find_elements(By.CSS_SELECTOR, "#standings-table tr")
        if who in r.text
    )
    text = str(driver.execute_script("return document.body.innerText")).replace("\u00ad", "")
    return (notes[0].text if notes else ""), row, text


@pytest.mark.parametrize("lang", ["pl", "cs", "sk", "en"])
def test_a_voided_pfs_player_is_marked_expelled(
    pfs_hub: LiveHub, browser_factory: Any, lang: str
) -> None:
    from samoobsluha.hub.tournament import exports

    with pfs_hub.service._tour() as tour:
        table = tour.standings(after_round=2)
        rules = tour.rules
    voided = next(s for s in table if s.player.name == pfs_hub.expelled)  # type: ignore[attr-defined]
    assert voided.voided and voided.rank == len(table)
    row = exports.standings_rows([voided], rules, lang)[0]
    driver = _open_phone(browser_factory, pfs_hub, lang)
    note, line, text = _marked(driver, pfs_hub, lang)
    assert note == MARK[lang]
    # his zeros and his mark on one line, where his name is: rank, name · mark, 0, 0
    assert line.split() == [row["rank"], *voided.player.name.split(), "·", MARK[lang], "0", "0"]
    if lang != "en":
        assert not english_on_screen(text, allowed=_allowed(pfs_hub), lang=lang), text
    assert driver.execute_script("return window.samoobsluhaMissing") == []
    assert driver.execute_script("return document.documentElement.scrollWidth") <= 360


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_an_expelled_cas_player_is_marked_where_his_games_put_him(
    cas_hub: LiveHub, browser_factory: Any, lang: str
) -> None:
    with cas_hub.service._tour() as tour:
        table = tour.standings(after_round=2)
    kept = next(s for s in table if s.player.name == cas_hub.expelled)  # type: ignore[attr-defined]
    assert kept.expelled and not kept.voided and kept.rank == 1  # his games kept: still first
    driver = _open_phone(browser_factory, cas_hub, lang)
    note, line, text = _marked(driver, cas_hub, lang)
    assert note == MARK[lang]
    assert line.startswith(f"1 {kept.player.name} · {MARK[lang]} "), line
    assert not english_on_screen(text, allowed=_allowed(cas_hub), lang=lang), text

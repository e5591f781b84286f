"""What the hall reads on the screen, measured in Debian's headless Chromium: the projector
fits its screen on the first load at 1920×1080, 1280×720 and 1024×768 during a round (rows
paged before the first paint, none cut off, the page number clear of them, letters big
enough for 10 m); the phone at 360 px never scrolls sideways and says whose role it shows;
no page shows a catalogue key in cs, sk or en."""

from __future__ import annotations

import re
from typing import Any

import pytest
from screen_testkit import T0, LiveHub
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from samoobsluha.hub.entry import Entry
from samoobsluha.shared.clock import FakeClock

WAIT = 30.0
KEY = re.compile(r"\b[a-z][a-z_]*\.[a-z_]+\.[a-z_]+\b")
PROJECTORS = [(1920, 1080), (1280, 720), (1024, 768)]
NARROW_PHONE = (360, 740)

MEASURE = """
const rect = (el) => { const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
const rows = [...document.querySelectorAll('.wrow')];
return {
  w: innerWidth, h: innerHeight,
  docW: document.documentElement.scrollWidth, docH: document.documentElement.scrollHeight,
  rows: rows.map(rect),
  cut: rows.filter(r => {
    const n = r.querySelector('.wname'), range = document.createRange();
    range.selectNodeContents(n);  /* the text's own width, not rounded */
    return range.getBoundingClientRect().width > n.getBoundingClientRect().width + 0.01; }).length,
  font: rows.length ? parseFloat(getComputedStyle(rows[0]).fontSize) : 0,
  page: rect(document.getElementById('where-page')),
  pageText: document.getElementById('where-page').textContent,
  digits: document.getElementById('clock-digits').textContent,
};
"""


def wait_for(driver: Any, condition: Any, what: str) -> Any:
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(condition, message=what)


def round_two_running(hub: LiveHub, clock: FakeClock) -> None:
    """Round 1 played and published, round 2 paired, published and running: the phone
    has standings and a history, the projector a clock and „Kde hraji?“."""
    hub.publish_round(1)
    for i, row in enumerate(hub.service.pairing_table(1)[0]):
        if row["second"] != "—":
            draw = i == 0
            hub.service.enter_result(1, Entry(int(row["table"]), 400, 400 if draw else 350 + i * 3))
    hub.service.publish_results(1)
    hub.service.pair(2, seed=2)
    hub.publish_round(2)
    hub.call(lambda: hub.server.start_round(2, at=T0 + 10, basic_seconds=2400))
    clock.advance(30)
    hub.call(hub.screen.refresh)


def check_fits(m: dict[str, Any], size: tuple[int, int], when: str) -> None:
    assert (m["w"], m["h"]) == size
    assert m["rows"], f"{when}: no rows on the first paint"
    assert m["digits"], f"{when}: the clock is not running on the first paint"
    for r in m["rows"]:
        assert r["bottom"] <= m["h"] + 0.5, f"{when}: a row cut off at {r} (viewport {size})"
        assert r["right"] <= m["w"] + 0.5 and r["left"] >= 0
    assert m["docH"] <= m["h"] and m["docW"] <= m["w"], f"{when}: the page overflows"
    # the page number is beside the title, clear of every row
    if m["pageText"]:
        assert m["page"]["bottom"] <= min(r["top"] for r in m["rows"]) + 0.5
    # 10 m: a row's letters at least 3.4 % of the screen's height (≈ 37 px at 1080)
    assert m["font"] >= 0.034 * m["h"], m["font"]
    assert m["cut"] == 0, f"{when}: {m['cut']} names cut short"


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_projector_fits_on_first_load(
    hub: LiveHub, clock: FakeClock, browser_factory: Any, size: tuple[int, int]
) -> None:
    round_two_running(hub, clock)
    projector = browser_factory(size)
    projector.get(hub.url + "projector")
    # measured right after the load, before the event stream says anything
    first = projector.execute_script(MEASURE)
    check_fits(first, size, "first load")
    shown = len(first["rows"])
    pages = int(first["pageText"].split()[-1]) if first["pageText"] else 1
    assert shown * pages >= 32 and shown * (pages - 1) < 32  # every player, no empty page
    # and once the stream is live and the round has moved on to its last ten minutes
    wait_for(projector, lambda d: "živě" in d.find_element(By.ID, "conn").text, "live")
    clock.advance(34 * 60)  # 340 s left
    wait_for(
        projector,
        lambda d: "phase-warning" in d.find_element(By.ID, "clock").get_attribute("class"),
        "warning",
    )
    check_fits(projector.execute_script(MEASURE), size, "live")


PHONE_WIDTH = """
return {doc: document.documentElement.scrollWidth, w: innerWidth,
  tables: [...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right)};
"""


def test_phone_at_360_px_never_scrolls_sideways(
    hub: LiveHub, clock: FakeClock, browser_factory: Any
) -> None:
    round_two_running(hub, clock)
    longest = max(hub.service.player_names().values(), key=len)
    phone = browser_factory(NARROW_PHONE)
    phone.get(hub.url)
    phone.find_element(By.ID, "q").send_keys(longest)
    wait_for(phone, lambda d: longest in d.find_element(By.ID, "me").text, "card")
    card = phone.find_element(By.ID, "me").text
    assert "začíná (ZH)." in card or "hraje jako DH." in card  # whose role, in words
    assert "Hraje jako" in card  # the history's role column, never „tour.col.zh“
    m = phone.execute_script(PHONE_WIDTH)
    assert m["w"] == 360 and m["doc"] <= 360, m
    assert all(right <= 360.5 for right in m["tables"]), m
    standings = phone.find_element(By.ID, "standings-table").text
    assert re.search(r"\b0,5\b|\b1,5\b", standings)  # the draw: decimal comma, from the hub


@pytest.mark.parametrize("lang", ["cs", "sk", "en", "pl"])
def test_no_page_shows_a_catalogue_key(
    hub: LiveHub, clock: FakeClock, browser_factory: Any, lang: str
) -> None:
    round_two_running(hub, clock)
    name = next(iter(hub.service.player_names().values()))
    phone = browser_factory(NARROW_PHONE)
    phone.get(hub.url + f"?lang={lang}")
    phone.find_element(By.ID, "q").send_keys(name)
    wait_for(phone, lambda d: name in d.find_element(By.ID, "me").text, "card")
    projector = browser_factory(PROJECTORS[1])
    projector.get(hub.url + f"projector?lang={lang}")
    for driver in (phone, projector):
        shown = driver.execute_script("return document.body.innerText")
        assert not KEY.search(shown), KEY.search(shown)
        assert "{" not in shown
        # a message the page asked for and the hub did not send (shown as nothing)
        assert driver.execute_script("return window.samoobsluhaMissing") == []

"""The pictures in docs/ of the event's end: the prize list and the category standings as
printed, and the hall screen showing the prizes (projector and phone), in Czech.

    .venv/bin/python bench/screenshots_event.py [--out docs] [--lang cs]

The sample tournament of bench/screenshots.py (hub/sample.py: 32 players, ČAS rules) with
three rounds played and the planned rounds set to 3, categories (junioři by birth date,
ženy by hand) and a prize table; a warning and a penalty cross in round 3. Writes
``print-prizes.png``, ``print-categories.png``, ``print-sanctions.png``,
``screen-prizes.png`` (projector 1920×1080) and ``screen-phone-prizes.png`` (360 px).

Then a hall of two divisions (OPEN 12 players, JUNIOR 8, one round, the same prize table
given to each): ``print-prizes-divisions.png`` and ``screen-phone-prizes-divisions.png``.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "screen"))  # the screen tests' LiveHub and browser
sys.path.insert(0, str(REPO / "bench"))

from conftest import T0, LiveHub, make_browser  # noqa: E402
from screenshots import DAY, page_png  # noqa: E402

from samoobsluha.hub.printpdf import html_to_pdf  # noqa: E402
from samoobsluha.hub.sample import play_sample  # noqa: E402
from samoobsluha.hub.service import HubService  # noqa: E402
from samoobsluha.hub.tournament import exports  # noqa: E402
from samoobsluha.shared.clock import FakeClock  # noqa: E402


def set_up(service: HubService) -> None:
    with service._tour() as tour:
        play_sample(tour, 3)
        tour.configure(rounds=3)
        book = tour.prize_book
        book.define("junioři", born_from=datetime.date(2008, 1, 1))
        book.define("ženy")
        players = tour.players()
        for i, p in enumerate(players):
            book.set_birth(p.id, datetime.date(1960 + i * 2, 1 + i % 12, 1 + i % 28))
            if p.name.split()[0].endswith(("á", "ová")):
                book.assign("ženy", [p.id])
        for rank, value in ((1, "3000 Kč"), (2, "2000 Kč"), (3, "1000 Kč")):
            book.add_prize("place", rank, value)
        book.add_prize("category", 1, "500 Kč", category="junioři")
        book.add_prize("category", 1, "500 Kč", category="ženy")
        book.add_prize("category", 2, "kytice", category="ženy")
        tour.sanction(players[5].id, "warning", reason="rušení hrou v sále", round_no=3)
        tour.sanction(players[9].id, "cross", reason="neoprávněná námitka: ŽIRAFA", round_no=3)


def set_up_divisions(service: HubService) -> None:
    """Two divisions, one round played: each division's own prizes (a tie in JUNIOR)."""
    from samoobsluha.hub.sample import sample_players

    with service._tour() as tour:
        tour.configure(name="Přebor Brna 2026", rules="cas", rounds=1)
        tour.add_division("OPEN")
        tour.add_division("JUNIOR")
        for i, (name, club, rating) in enumerate(sample_players(20, 7)):
            tour.add_player(name, club=club, rating=rating, division="OPEN" if i < 12 else "JUNIOR")
        book = tour.prize_book
        for rank, value in ((1, "2000 Kč"), (2, "1000 Kč")):
            book.add_prize("place", rank, value)
        for division in ("OPEN", "JUNIOR"):
            boards = tour.pair(1, seed=3, division=division).boards
            for i, b in enumerate(boards):
                assert b.second is not None
                # two of JUNIOR's tables end alike (420:350): their winners share a place
                score = 420 if division == "JUNIOR" and i < 2 else 400 + 7 * i
                tour.record_result(1, b.table, b.first, b.second, score, 350, started=b.first)
        tour.publish(1)


def shoot_divisions(out: Path, lang: str, work: Path, clock: FakeClock) -> list[Path]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    made = []
    service = HubService(work, clock=clock)
    service.prepare()
    set_up_divisions(service)
    with service._tour() as tour:
        page = exports.render(tour, "prizes", "html", lang=lang, day=DAY)
    pdf = html_to_pdf(page, work / "prizes-divisions.pdf")
    made.append(page_png(pdf, out / "print-prizes-divisions.png"))
    hub = LiveHub(work, clock)
    try:
        hub.publish_round(1)
        hub.call(hub.screen.refresh)
        driver = make_browser((360, 740))
        try:
            driver.get(hub.url + f"?lang={lang}")
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.ID, "prizes").is_displayed()
            )
            driver.execute_script("document.getElementById('prizes').scrollIntoView()")
            driver.save_screenshot(str(out / "screen-phone-prizes-divisions.png"))
            made.append(out / "screen-phone-prizes-divisions.png")
        finally:
            driver.quit()
            shutil.rmtree(driver._screen_profile, ignore_errors=True)
    finally:
        hub.close()
    return made


def main(argv: list[str] | None = None) -> int:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(REPO / "docs"))
    p.add_argument("--lang", choices=("cs", "sk", "en"), default="cs")
    args = p.parse_args(argv)
    out = Path(args.out)
    work = Path(tempfile.mkdtemp(prefix="samoobsluha-event-shots-"))
    clock = FakeClock(T0)
    made = []
    try:
        service = HubService(work, clock=clock)
        service.prepare()
        set_up(service)
        with service._tour() as tour:
            for what in ("prizes", "categories", "sanctions"):
                page = exports.render(tour, what, "html", lang=args.lang, day=DAY)
                pdf = html_to_pdf(page, work / f"{what}.pdf")
                made.append(page_png(pdf, out / f"print-{what}.png"))
        hub = LiveHub(work, clock)
        try:
            hub.publish_round(4)
            hub.call(hub.screen.refresh)
            for size, name, view in (
                ((1920, 1080), "screen-prizes.png", "projector"),
                ((360, 740), "screen-phone-prizes.png", ""),
            ):
                driver = make_browser(size)
                try:
                    driver.get(hub.url + f"{view}?lang={args.lang}")
                    WebDriverWait(driver, 30).until(
                        lambda d: d.find_element(By.ID, "prizes").is_displayed()
                    )
                    driver.save_screenshot(str(out / name))
                    made.append(out / name)
                finally:
                    driver.quit()
                    shutil.rmtree(driver._screen_profile, ignore_errors=True)
        finally:
            hub.close()
        (work / "divisions").mkdir()
        made += shoot_divisions(out, args.lang, work / "divisions", clock)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for path in made:
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The pictures in docs/ of every print and every hall-screen view, in Czech: one command.

    .venv/bin/python bench/screenshots.py [--out docs] [--lang cs]

A sample tournament (hub/sample.py: 32 players, ČAS rules, three rounds played with a draw
and a forfeit, round 4 paired, published and running) in a temporary hub data folder, then:

* every A4 print as the director gets it — ``hub export … --pdf``'s own path (the exports'
  HTML printed by Debian's headless Chromium, hub/printpdf.py) — its first page (and the
  by-name page of the pairings) turned into a PNG by ``pdftoppm`` (poppler-utils):
  ``print-pairings.png``, ``print-pairings-by-name.png``, ``print-standings.png``,
  ``print-results.png``, ``print-scorecard.png``, ``print-rehearsal.png``;
* the hall screen served by a real hub on loopback (the screen tests' own LiveHub and
  browser, tests/screen/conftest.py), photographed by headless Chromium: the projector at
  1920×1080, 1280×720 and 1024×768 (``screen-projector*.png``) and a 360 px phone that
  searched for a player (``screen-phone.png``).

Needs ``./dev setup`` (chromium, chromium-driver, poppler-utils, the test extra). Writes
nothing but the PNGs in ``--out``.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "screen"))  # the screen tests' LiveHub and browser

from screen_testkit import T0, LiveHub, make_browser  # noqa: E402

from samoobsluha.hub import rehearse  # noqa: E402
from samoobsluha.hub.officiating import stations_rule  # noqa: E402
from samoobsluha.hub.printpdf import html_to_pdf  # noqa: E402
from samoobsluha.hub.sample import play_sample  # noqa: E402
from samoobsluha.hub.service import HubService  # noqa: E402
from samoobsluha.hub.tournament import exports  # noqa: E402
from samoobsluha.hub.web.qr import svg, wifi_svg  # noqa: E402
from samoobsluha.shared.clock import FakeClock  # noqa: E402
from samoobsluha.shared.i18n import t  # noqa: E402

DAY = datetime.date(2026, 3, 14)
WIFI, WIFI_PASSWORD = "SAMOOBSLUHA-HRACI", "scrabble2026"
PRINTED_URL = "http://192.168.60.2:8080/"  # the hub on the players' network (hall-setup.md)
DPI = 60  # an A4 page 496 px wide: readable in docs, small in the repository


def first_page_with(pdf: Path, text: str) -> int:
    """The first page of ``pdf`` whose text (pdftotext) has ``text``: the list by name
    starts after however many pages the list by table takes."""
    pages = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout.split("\f")
    return next(i for i, page in enumerate(pages, start=1) if text in page)


def page_png(pdf: Path, out: Path, page: int = 1) -> Path:
    stem = out.with_suffix("")
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            str(DPI),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(stem),
        ],
        check=True,
    )
    return out


def prints(service: HubService, url: str, work: Path, out: Path, lang: str) -> list[Path]:
    made = []
    # as printed with `[screen] wifi = "SAMOOBSLUHA-HRACI"` in hub.toml (docs/screen.md)
    link = exports.ScreenLink(url, svg(url), WIFI, WIFI_PASSWORD, wifi_svg(WIFI, WIFI_PASSWORD))
    with service._tour() as tour:
        jobs = [
            ("pairings", {"round_no": 4}),
            ("standings", {"round_no": 3}),
            ("results", {"round_no": 3}),
            ("scorecard", {"round_no": 3, "player": tour.standings(after_round=3)[0].player.id}),
        ]
        for what, kw in jobs:
            page = exports.render(tour, what, "html", lang=lang, day=DAY, link=link, **kw)
            pdf = html_to_pdf(page, work / f"{what}.pdf")
            made.append(page_png(pdf, out / f"print-{what}.png"))
            if what == "pairings":
                by_name = first_page_with(pdf, t("tour.by_name", lang))
                made.append(page_png(pdf, out / "print-pairings-by-name.png", page=by_name))
        name = tour.settings()["name"]
    at = datetime.datetime.combine(DAY, datetime.time(8, 30)).timestamp()
    # the checks as the hub judges them, in the picture's language (not texts typed here)
    answer = {
        "clock_synced": True, "clock_delay": 0.004, "clock_offset": 0.003,
        "gong": {"at": 100.0, "switched_at": 100.004, "output": "bell"},
        "keyboard": {"answered": True, "missing": ""}, "bell": "GPIO17", "lamp": "GPIO27",
        "button": {"pressed": True}, "pin_set": True, "tables": "1–16",
        "free_bytes": 2_000_000_000, "min_free_bytes": 200_000_000, "root_read_only": True,
        "watchdog": True,
    }  # fmt: skip
    stations = [
        rehearse.judge_station(
            SimpleNamespace(
                station_id=f"st-{i}",
                online=True,
                address=f"192.168.0.{20 + i}",
                version="1.0",
                lexicon_sha256="ab" * 32,
                lexicon_ok=True,
            ),
            answer,
            hub_version="1.0",
            expected_lexicon=None,
            lang=lang,
        )
        for i in range(1, 5)
    ]
    rules = "pfs" if lang == "pl" else "cas"
    result = rehearse.Rehearsal(
        id="rehearse:1773473400:5e1f",
        started_at=at - 40,
        finished_at=at,
        at=at - 30,
        lang=lang,
        hub_version="1.0",
        expected_lexicon=None,
        players=32,
        required=1,
        go_stations=4,
        online=4,
        spread=0.004,
        stations=stations,
        hall=[
            rehearse.Check(
                "cas_15_8e",
                rehearse.OK,
                t(
                    "rehearse.cas",
                    lang,
                    players=32,
                    required=1,
                    go=4,
                    online=4,
                    rule=t(stations_rule(rules).key, lang),
                ),
            )
        ],
    )
    pdf = html_to_pdf(rehearse.render_html(result, lang, tournament=name), work / "rh.pdf")
    made.append(page_png(pdf, out / "print-rehearsal.png"))
    return made


def screens(hub: LiveHub, clock: FakeClock, out: Path, lang: str) -> list[Path]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    made = []
    for size, name in (
        ((1920, 1080), "screen-projector.png"),
        ((1280, 720), "screen-projector-1280.png"),
        ((1024, 768), "screen-projector-1024.png"),
    ):
        driver = make_browser(size)
        try:
            driver.get(hub.url + f"projector?lang={lang}")
            WebDriverWait(driver, 30).until(
                lambda d: "on" in d.find_element(By.ID, "conn").get_attribute("class")
            )
            driver.save_screenshot(str(out / name))
            made.append(out / name)
        finally:
            driver.quit()
            shutil.rmtree(driver._screen_profile, ignore_errors=True)
    driver = make_browser((360, 740))
    try:
        driver.get(hub.url + f"?lang={lang}")
        who = sorted(hub.service.player_names().values(), key=len)[-1]
        driver.find_element(By.ID, "q").send_keys(who.split()[0].lower())
        WebDriverWait(driver, 30).until(lambda d: who in d.find_element(By.ID, "me").text)
        driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        driver.save_screenshot(str(out / "screen-phone.png"))
        made.append(out / "screen-phone.png")
    finally:
        driver.quit()
        shutil.rmtree(driver._screen_profile, ignore_errors=True)
    return made


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(REPO / "docs"), help="where the PNGs go (docs/)")
    p.add_argument(
        "--lang",
        choices=("cs", "sk", "en", "pl"),
        default="cs",
        help="docs/ holds Czech (cs); pl (into docs/pl): a Polish PFS field of 120 players",
    )
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="samoobsluha-shots-"))
    clock = FakeClock(T0)
    try:
        service = HubService(work, clock=clock)
        service.prepare()
        with service._tour() as tour:
            if args.lang == "pl":
                play_sample(
                    tour, 3, players=120, name="Mistrzostwa Polski w Scrabble 2026",
                    place="Warszawa, Pałac Kultury i Nauki", lang="pl",
                )  # fmt: skip
            else:
                play_sample(tour, 3)
        hub = LiveHub(work, clock)
        try:
            hub.publish_round(4)
            hub.call(lambda: hub.server.start_round(4, at=T0 + 10, basic_seconds=2400))
            clock.advance(14 * 60 + 23)
            hub.call(hub.screen.refresh)
            made = prints(service, PRINTED_URL, work, out, args.lang)
            made += screens(hub, clock, out, args.lang)
        finally:
            hub.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for path in made:
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

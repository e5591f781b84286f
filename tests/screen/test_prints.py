"""Every A4 print as the director gets it: rendered by the exports, printed to PDF by
Debian's headless Chromium (hub export --pdf's own path), read back with pdftotext —
the event, the round, the date and „strana N z M“ on every page, no player's name split
across lines, decimal commas in cs and sk; the CSV opens as columns in a Czech Excel; no
catalogue key reaches a reader in any language."""

from __future__ import annotations

import csv
import datetime
import io
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from samoobsluha.hub import rehearse
from samoobsluha.hub.printpdf import html_to_pdf
from samoobsluha.hub.sample import play_sample
from samoobsluha.hub.tournament import Tournament, exports
from samoobsluha.hub.web.qr import svg
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import LANGUAGES, date_text, t

DAY = datetime.date(2026, 3, 14)
URL = "http://192.168.1.10:8080/"
EVENT = "Mistrovství České republiky v Scrabble 2026"
PLACE = "Praha, Dům dětí a mládeže Karlín"
LONG_NAME = "Kolowratová-Krakovská Maximiliána"
#: something that looks like a catalogue key: word.word.word (tour.col.zh, screen.me.zh)
KEY = re.compile(r"\b[a-z][a-z_]*\.[a-z_]+\.[a-z_]+\b")

# (export, round asked, the round line in the header: "N. kolo" or "po N. kole", pages at
# least: more than one where 56 players fill them, so the repeated header is seen)
PRINTS = [
    ("pairings", 4, "print.round", 2),
    ("standings", 3, "print.after_round", 2),
    ("results", 3, "print.round", 1),
    ("scorecard", 3, "print.after_round", 57),
]


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tournament]:
    path = tmp_path_factory.mktemp("prints") / "hub.db"
    with Tournament.open(path, clock=FakeClock(1_767_258_000.0)) as tour:
        # the longest name and club a Czech/Slovak field is likely to have: still one line
        tour.add_player(LONG_NAME, club="Scrabble klub Slovenská Ľupča a okolie", rating=1500)
        play_sample(tour, 3, players=56, name=EVENT, place=PLACE)  # prints of 2+ pages
        yield tour


def render(tour: Tournament, what: str, round_no: int, lang: str) -> str:
    return exports.render(
        tour, what, "html", round_no=round_no, lang=lang, day=DAY, screen_url=URL, qr_svg=svg(URL)
    )


def pdf_pages(html: str, folder: Path, name: str) -> list[str]:
    pdf = html_to_pdf(html, folder / f"{name}.pdf")
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [page for page in text.split("\f") if page.strip()]


def names_of(tour: Tournament) -> list[str]:
    return [p.name for p in tour.players()]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("what", "round_no", "round_key", "least"), PRINTS)
def test_every_printed_page_says_what_when_and_where(
    tour: Tournament,
    tmp_path: Path,
    what: str,
    round_no: int,
    round_key: str,
    least: int,
    lang: str,
) -> None:
    pages = pdf_pages(render(tour, what, round_no, lang), tmp_path, f"{what}-{lang}")
    assert len(pages) >= least  # the header must be repeated, not only on the first page
    counter = t("print.page", lang, page=0, pages=len(pages)).replace(" 0 ", " {} ")
    for number, page in enumerate(pages, 1):
        assert EVENT in page, f"page {number} has no event name"
        assert PLACE in page and "ČAS" in page
        assert t(round_key, lang, round=round_no) in page, f"page {number} has no round"
        assert date_text(DAY, lang) in page, f"page {number} has no date"
        assert counter.format(number) in page, f"page {number} has no page number"
        assert not KEY.search(page), KEY.search(page)
    text = "\n".join(pages)
    # no name split across lines: every player's whole name is on one line of the print
    for name in names_of(tour):
        assert name in text, f"{name!r} split or missing"
    if what == "standings":
        # the last column is on the paper: the long name made the table smaller, not wider
        assert t("tour.col.club", lang) in text and "Ľupča" in text  # (a club may wrap)
        turcas = r"\d,\d\d\b" if lang != "en" else r"\d\.\d\d\b"
        assert re.search(turcas, text), "TurČAS not in the reader's number form"
        if lang != "en":
            assert not re.search(r"\d\.\d", text), "a decimal point in a Czech/Slovak print"
            assert re.search(r"\b\d,5\b", text)  # the draw's half a win
    if what == "pairings":
        assert URL in text and t("tour.by_name", lang) in text
        # the by-name list says whose role: the named player's own (a header may wrap)
        assert t("tour.col.role", lang).split()[0] in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rehearsal_protocol_prints_with_the_same_header(tmp_path: Path, lang: str) -> None:
    ok = rehearse.Check("link", rehearse.OK, "spojení v pořádku")
    stations = [rehearse.StationResult(f"stanice-{i:02d}", True, [ok] * 6) for i in range(1, 13)]
    at = datetime.datetime(2026, 3, 14, 8, 30).timestamp()
    result = rehearse.Rehearsal(
        id="rehearse:1:abcd",
        started_at=at - 30,
        finished_at=at,
        at=at - 20,
        lang=lang,
        hub_version="1.0",
        expected_lexicon=None,
        players=32,
        required=12,
        go_stations=12,
        online=12,
        spread=0.004,
        stations=stations,
        hall=[ok],
    )
    pages = pdf_pages(rehearse.render_html(result, lang, tournament=EVENT), tmp_path, lang)
    assert len(pages) >= 2
    for page in pages:
        assert EVENT in page and date_text(DAY, lang) in page
        assert not KEY.search(page), KEY.search(page)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("what", ["standings", "pairings", "results", "scorecard"])
def test_csv_opens_as_columns_in_excel(tour: Tournament, what: str, lang: str) -> None:
    raw = exports.render(tour, what, "csv", round_no=3, player=1, lang=lang).encode("utf-8")
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads UTF-8, not cp1250
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) > 2 and len({len(r) for r in rows}) == 1  # columns, every row alike
    assert len(rows[0]) >= 3
    assert not any(KEY.search(cell) for row in rows for cell in row)
    if what == "standings":
        header = rows[0]
        assert header[:3] == [t(f"tour.col.{c}", lang) for c in ("rank", "name", "wins")]
        turcas = [r[header.index("TurČAS")] for r in rows[1:]]
        form = r"^-?\d{1,3}(\u00a0\d{3})*,\d\d$" if lang != "en" else r"^-?\d{1,3}(,\d{3})*\.\d\d$"
        assert all(re.match(form, v) for v in turcas), turcas[:3]
        wins = {r[header.index(t("tour.col.wins", lang))] for r in rows[1:]}
        assert ("1,5" in wins) if lang != "en" else ("1.5" in wins)


def test_plain_csv_keeps_the_machine_form(tour: Tournament) -> None:
    text = exports.render(tour, "standings", "csv", round_no=3, plain=True)
    assert text.startswith("rank,name,wins,spread,points,turcas")
    assert "1.5" in text and "\ufeff" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_key_in_any_html_export(tour: Tournament, lang: str) -> None:
    for what, round_no, _, _ in PRINTS:
        page = render(tour, what, round_no, lang)
        shown = re.sub(r"<style>.*?</style>|<svg.*?</svg>|<[^>]+>", " ", page, flags=re.S)
        assert not KEY.search(shown), (what, KEY.search(shown))
        assert "{" not in shown  # no message left with a hole


def test_pdf_export_from_the_command_line(tour: Any, tmp_path: Path) -> None:
    from samoobsluha.hub.cli import main

    out = tmp_path / "poradi.pdf"
    db = str(tour.db.conn.execute("PRAGMA database_list").fetchone()[2])
    assert main(["export", "standings", "--round", "3", "--db", db, "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("what", [p[0] for p in PRINTS])
def test_a_polish_print_has_no_czech_slovak_or_english_word(tour: Tournament, what: str) -> None:
    """The director of a Polish event reads Polish only: the page's own words (not the
    names, clubs and place, which are data) are none of another catalogue's."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from language_guard import english_on_screen

    round_no = next(r for w, r, _, _ in PRINTS if w == what)
    page = render(tour, what, round_no, "pl")
    shown = re.sub(r"<style>.*?</style>|<svg.*?</svg>|<script.*?</script>|<[^>]+>", " ", page,
                   flags=re.S)  # fmt: skip
    data = {EVENT, PLACE, LONG_NAME, URL, "Scrabble klub Slovenská Ľupča a okolie"}
    data |= {p.name for p in tour.players()} | {p.club for p in tour.players()}
    allowed = {w for item in data for w in re.findall(r"[^\W\d_]+", item)}
    assert not english_on_screen(shown, allowed=allowed, lang="pl"), shown
    czech = re.sub(
        r"<style>.*?</style>|<[^>]+>", " ", render(tour, what, round_no, "cs"), flags=re.S
    )
    assert english_on_screen(czech, allowed=allowed, lang="pl")  # the net catches Czech

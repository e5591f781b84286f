"""Every export of a Polish (PFS) event held to Polish: each of ``exports.EXPORTS`` (the
A4 pages as HTML, the stations' JSON as the kiosk shows it) and the hall rehearsal's
protocol, rendered for a Polish field with a sanction, categories and prizes — no Czech,
Slovak or English word, and no ZH/DH (the Czech abbreviations for who starts)."""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator

import pytest
from language_guard import english_on_screen

from samoobsluha.hub import rehearse
from samoobsluha.hub.sample import play_sample
from samoobsluha.hub.tournament import Tournament, exports
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import t

DAY = datetime.date(2026, 3, 14)
EVENT = "Mistrzostwa Polski w Scrabble 2026"
PLACE = "Warszawa, Pałac Kultury i Nauki"
CZECH_ROLE = re.compile(r"\b(ZH|DH)\b")
MARKUP = re.compile(r"<style>.*?</style>|<svg.*?</svg>|<script.*?</script>|<[^>]+>", re.S)


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tournament]:
    path = tmp_path_factory.mktemp("prints-pl") / "hub.db"
    with Tournament.open(path, clock=FakeClock(1_773_473_400.0)) as tour:
        play_sample(tour, 3, players=40, name=EVENT, place=PLACE, lang="pl")
        book = tour.prize_book
        book.define("kobiety")
        book.define("juniorzy", born_from=datetime.date(2008, 1, 1))
        players = tour.players()
        book.assign("kobiety", [p.id for p in players if p.name.split()[0].endswith("a")])
        book.set_birth(players[3].id, datetime.date(2010, 5, 1))
        for rank, value in ((1, "1000 zł"), (2, "600 zł"), (3, "300 zł")):
            book.add_prize("place", rank, value)
        book.add_prize("category", 1, "puchar", category="kobiety")
        book.add_prize("category", 1, "książka", category="juniorzy")
        tour.sanction(players[5].id, "warning", reason="rozmowa przy stoliku", round_no=3)
        tour.sanction(players[7].id, "expulsion", scope="event", reason="niesportowe", round_no=3)
        yield tour


def _allowed(tour: Tournament) -> set[str]:
    data = {EVENT, PLACE, "rozmowa przy stoliku", "niesportowe", "1000 zł", "puchar",
            "książka", "kobiety", "juniorzy", "PFS"}  # fmt: skip
    data |= {p.name for p in tour.players()} | {p.club for p in tour.players() if p.club}
    return {w for item in data for w in re.findall(r"[^\W\d_]+", item)}


def _render(tour: Tournament, what: str, lang: str) -> str:
    fmt = "json" if what == "stations" else "html"
    round_no = {"pairings": 4, "results": 3, "stations": 4}.get(what, 3)
    player = tour.standings(after_round=3)[0].player.id if what == "scorecard" else None
    page = exports.render(tour, what, fmt, round_no=round_no, player=player, lang=lang, day=DAY)
    if fmt == "json":  # the texts the kiosk shows (names, roles, notes), not the keys
        values: list[str] = []

        def walk(x: object) -> None:
            if isinstance(x, dict):
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
            elif isinstance(x, str):
                values.append(x)

        walk(json.loads(page))
        return "\n".join(values)
    return MARKUP.sub(" ", page)


@pytest.mark.parametrize("what", exports.EXPORTS)
def test_every_polish_export_is_polish(tour: Tournament, what: str) -> None:
    shown = _render(tour, what, "pl")
    assert shown.strip(), what
    assert not english_on_screen(shown, allowed=_allowed(tour), lang="pl"), shown
    assert not CZECH_ROLE.search(shown), CZECH_ROLE.findall(shown)


@pytest.mark.parametrize("what", ["standings", "sanctions", "prizes", "scorecard"])
def test_the_net_catches_a_czech_page(tour: Tournament, what: str) -> None:
    """The same export in Czech fails the Polish net: the test above can fail."""
    assert english_on_screen(_render(tour, what, "cs"), allowed=_allowed(tour), lang="pl")


def test_the_polish_sanctions_and_prizes_say_what_happened(tour: Tournament) -> None:
    sanctions = _render(tour, "sanctions", "pl")
    assert "rozmowa przy stoliku" in sanctions and "niesportowe" in sanctions
    prizes = _render(tour, "prizes", "pl")
    assert "1000 zł" in prizes and "puchar" in prizes
    scorecard = _render(tour, "scorecard", "pl")
    assert t("tour.role.zh", "pl") in scorecard or t("tour.role.dh", "pl") in scorecard


def test_the_polish_rehearsal_protocol_is_polish(tour: Tournament) -> None:
    """The protocol of a hall rehearsal judged in Polish (the judge's own texts for each
    check, from the stations' answers), printed as the director gets it."""
    row = type(
        "Row",
        (),
        dict(station_id="stanowisko-01", online=True, address="192.168.0.21", version="1.0",
             lexicon_sha256="ab" * 32, lexicon_ok=True),
    )()  # fmt: skip
    answer = {
        "clock_synced": True, "clock_delay": 0.004, "clock_offset": 0.003,
        "gong": {"at": 100.0, "switched_at": 100.004, "output": "bell"},
        "keyboard": {"answered": True, "missing": ""}, "bell": "GPIO17", "lamp": "GPIO27",
        "button": {"pressed": True}, "pin_set": True, "tables": "1–20",
        "free_bytes": 2_000_000_000, "min_free_bytes": 200_000_000, "root_read_only": True,
        "watchdog": True,
    }  # fmt: skip
    station = rehearse.judge_station(row, answer, hub_version="1.0", expected_lexicon=None,
                                     lang="pl")  # fmt: skip
    assert station.go and all(c.level == rehearse.OK for c in station.checks), station
    result = rehearse.Rehearsal(
        id="rehearse:1773473400:5e1f", started_at=1_773_473_360.0, finished_at=1_773_473_400.0,
        at=1_773_473_370.0, lang="pl", hub_version="1.0", expected_lexicon=None, players=40,
        required=1, go_stations=1, online=1, spread=0.0, stations=[station],
        hall=[rehearse.Check("cas_15_8e", rehearse.OK, t(
            "rehearse.cas", "pl", players=40, required=1, go=1, online=1,
            rule=t("rule.stations.hall", "pl")))],
    )  # fmt: skip
    shown = MARKUP.sub(" ", rehearse.render_html(result, "pl", tournament=EVENT))
    assert "SALA JEST GOTOWA" in shown, shown
    allowed = _allowed(tour) | {"stanowisko", "GPIO"}
    assert not english_on_screen(shown, allowed=allowed, lang="pl"), shown

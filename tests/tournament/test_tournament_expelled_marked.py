"""The standings say why an expelled player's line reads as it does. PFS 1.3 zeroes his
tally (``expelled_results = "void"``): without a word the print, the CSV and the export
showed a player with 0 wins and 0 points at the bottom and nothing else. ČAS and SSS keep
his games: he stays where his games put him, and the standings say he is expelled all the
same. The mark („vyloučen“, „vylúčený“, „wykluczony“, "expelled") is the catalogues', in
the reader's language; it changes no figure and no rank. Through the facade's one export
path (exports.render, what ``hub export`` and the dashboard call), read back as a
spreadsheet, as JSON and as the printed page's text, each held to its language by the
language guard."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from pathlib import Path

import pytest
from language_guard import english_on_screen
from test_tournament_expelled import CHEAT, FIELD, play_two_rounds

from samoobsluha.hub.tournament import exports
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.i18n import t

MARK = {"cs": "vyloučen", "sk": "vylúčený", "pl": "wykluczony", "en": "expelled"}
NOTE = {"cs": "Poznámka", "sk": "Poznámka", "pl": "Uwaga", "en": "Note"}


def _sheet(text: str) -> list[dict[str, str]]:
    """The spreadsheet's CSV (BOM, ``;``) as rows keyed by its translated headers."""
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))


def _page_text(page: str) -> str:
    body = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _allowed() -> set[str]:
    words = {w for name, _ in FIELD for w in name.split()} | {"Turniej"}
    return words | {"ČAS", "SSS", "PFS"}


@pytest.mark.parametrize("lang", ["cs", "sk", "pl", "en"])
@pytest.mark.parametrize("rules", ["pfs", "cas", "sss"])
def test_every_standings_export_marks_the_expelled_player(
    tmp_path: Path, rules: str, lang: str
) -> None:
    db = tmp_path / "hub.db"
    play_two_rounds(db, rules)
    with Tournament.open(db) as tour:
        table = tour.standings()
        ranks = {s.player.name: s.rank for s in table}
        cheat = next(s for s in table if s.player.name == CHEAT)
        assert cheat.expelled and cheat.voided == (rules == "pfs")
        # ČAS and SSS: his two wins keep him first; PFS: zeros, last — the mark moves nobody
        assert cheat.rank == (len(FIELD) if rules == "pfs" else 1)
        sheet = _sheet(exports.render(tour, "standings", "csv", lang=lang))
        plain = list(
            csv.DictReader(io.StringIO(exports.render(tour, "standings", "csv", plain=True)))
        )
        data = json.loads(exports.render(tour, "standings", "json", lang=lang))
        page = exports.render(tour, "standings", "html", lang=lang)
        before = exports.render(tour, "standings", "html", round_no=1, lang=lang)
    name_col, rank_col = t("tour.col.name", lang), t("tour.col.rank", lang)
    for row in sheet:
        assert row[NOTE[lang]] == (MARK[lang] if row[name_col] == CHEAT else ""), row
        assert int(row[rank_col]) == ranks[row[name_col]], row  # ranks as computed
    assert [r[name_col] for r in sheet][-1 if rules == "pfs" else 0] == CHEAT
    # the machine forms: a tool reads ``expelled``, in English, in the ``note`` column
    assert {r["name"]: r["note"] for r in plain} == {
        name: ("expelled" if name == CHEAT else "") for name, _ in FIELD
    }
    assert {r["name"]: r["note"] for r in data}[CHEAT] == "expelled"
    # the printed page: the column headed in the reader's language, the mark in his row
    text = _page_text(page)
    assert NOTE[lang] in text, text
    rows = [_page_text(r) for r in re.findall(r"<tr.*?</tr>", page, flags=re.S)]
    marked = [r for r in rows if MARK[lang] in r]
    assert len(marked) == 1 and CHEAT in marked[0], rows
    if lang != "en":
        assert not english_on_screen(text, allowed=_allowed(), lang=lang), text
        assert not english_on_screen(" ".join(map(str, sheet)), allowed=_allowed(), lang=lang)
    # before the expulsion (after round 1) nobody is marked, and the print has no such column
    assert NOTE[lang] not in _page_text(before) and MARK[lang] not in _page_text(before)


def test_the_language_guard_catches_the_machine_mark() -> None:
    """The net is live: the machine word on a Czech or Polish page is caught."""
    assert english_on_screen("Kowalski Jan expelled", allowed=_allowed(), lang="pl")
    assert english_on_screen("Kowalski Jan expelled", allowed=_allowed(), lang="cs")


def test_a_revoked_expulsion_takes_the_mark_away(tmp_path: Path) -> None:
    db = tmp_path / "hub.db"
    ids = play_two_rounds(db, "cas")
    with Tournament.open(db) as tour:
        expulsion = tour.sanctions(player=ids[CHEAT])[0]
        tour.revoke_sanction(expulsion.id, who="rozhodčí", note="odvolání")
        assert not any(s.expelled for s in tour.standings())
        assert t("tour.expelled", "cs") not in exports.render(tour, "standings", "csv", lang="cs")

"""ČAS 13.17: the referee checks words for a player at the hub — ``hub check`` and F3 ``k``.
The verdict is the kiosk's (the same judging of the same lexicon, the same refusal texts,
the table's limits over every station's checks), and the check is in the challenge log as
that table's first-instance check by „rozhodčí“, appealable as any other."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dash_testkit import cells, check, deliver, label_text, settle, station_store
from textual.widgets import DataTable

from samoobsluha.hub.app import HubApp
from samoobsluha.hub.refcheck import REFEREE_STATION, CheckRefused, referee_check
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import Phrase, error_text, refusal
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.normalize import WordRefused, normalize_word

BIN = Path(sys.executable).parent


@pytest.fixture
def lexicon_service(service: HubService, cs_lexicon_path: Path) -> HubService:
    """The hub with the real Czech lexicon as its default (what the stations use)."""
    target = Path(service.data) / "lexicons" / "cs.lex"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cs_lexicon_path, target)
    return service


def _refused(svc: HubService, table: str, words: list[str]) -> str:
    with pytest.raises(CheckRefused) as exc:
        referee_check(svc, table, words)
    return error_text(exc.value, "cs")


def test_the_referee_gets_the_kiosks_verdict_logged_as_the_tables_check(
    lexicon_service: HubService, clock: FakeClock, tmp_path: Path, cs_lexicon_path: Path
) -> None:
    svc = lexicon_service
    lexicon = Lexicon.open(cs_lexicon_path)
    done = referee_check(svc, "3", ["žir(a)fa", "c+a-p"])
    assert (done.status, done.words, done.table_no, done.round_no) == (
        "valid",
        ("ŽIR(A)FA", "ČÁP"),
        3,
        1,
    )
    assert done.line("cs") == "stůl 3 · ŽIR(A)FA ČÁP: PLATNÉ (HUNSPELL)"
    # the same play at a kiosk (its store, its judging): the same verdict
    kiosk = station_store(tmp_path, "st-1")
    assert check(kiosk, lexicon, ["žir(a)fa", "c+a-p"], 3, clock.now()) == done.status

    (row,) = svc.challenges()
    assert (row.key, row.station, row.table_no, row.round_no) == (done.key, "hub", 3, 1)
    assert (row.instance, row.verdict, row.words) == ("first", "valid", ["ŽIR(A)FA", "ČÁP"])

    # the table's limit counts every station's checks: st-1's check of table 3 just now
    deliver(svc, kiosk, clock.now())
    text = _refused(svc, "3", ["kůň"])
    assert text.startswith("Pro stůl 3 proběhla kontrola před chvílí. Další je možná za 20 s")
    clock.advance(21)
    wrong = referee_check(svc, "3", ["rec(i)e"])
    assert (wrong.status, wrong.failed) == ("invalid", ("REC(I)E",))
    assert wrong.line("sk") == "stôl 3 · REC(I)E: NEPLATNÉ (HUNSPELL)"
    # the chief referee's appeal works on it as on a kiosk's check
    svc.record_appeal(wrong.key, "valid")
    appealed = next(c for c in svc.challenges() if c.key == wrong.key)
    assert appealed.appealed and appealed.final == "valid"


def test_the_kiosks_refusals_word_for_word(lexicon_service: HubService) -> None:
    svc = lexicon_service
    # round 1 is paired on 4 tables (8 players): the round's tables
    assert _refused(svc, "9", ["kůň"]) == "Stůl 9 v turnaji není (stoly 1-4)."
    assert _refused(svc, "x", ["kůň"]) == "Napište číslo stolu."
    alphabet = Lexicon.open(Path(svc.data) / "lexicons" / "cs.lex").alphabet
    for bad in ("ab1", "k", "(a)(", "ž" * 16):
        with pytest.raises(WordRefused) as kiosk:
            normalize_word(bad, alphabet)
        assert _refused(svc, "2", [bad]) == refusal(kiosk.value, "cs"), bad
    assert _refused(svc, "2", []) == "Napište 1. slovo."
    assert svc.challenges() == []  # nothing refused was logged as a check


@pytest.mark.slow
def test_a_polish_event_is_judged_with_the_polish_lexicon(
    lexicon_service: HubService, pl_lexicon_path: Path
) -> None:
    """The hub keeps a lexicon per language; a PFS event's reference is the Polish one —
    ``hub check`` judges with it and the stations are compared against it — even when the
    Czech one lies beside it (a hub used for a Czech event before)."""
    svc = lexicon_service
    shutil.copyfile(pl_lexicon_path, Path(svc.data) / "lexicons" / "pl.lex")
    assert svc.default_lexicon().name == "cs.lex"
    assert referee_check(svc, "3", ["kůň"]).status == "valid"
    with svc._tour() as tour:
        tour.configure(rules="pfs")
    assert svc.default_lexicon().name == "pl.lex"
    done = referee_check(svc, "1", ["żółw", "źdźbło"])
    assert done.status == "valid" and done.words == ("ŻÓŁW", "ŹDŹBŁO"), done
    assert referee_check(svc, "2", ["kůň"]).status != "valid"  # Ů is no Polish letter
    expected = Lexicon.open(pl_lexicon_path).info.sha256
    assert svc.stations().expected_lexicon == expected


def test_without_a_lexicon_it_says_so(service: HubService) -> None:
    assert "hub push-lexicon" in _refused(service, "1", ["kůň"])


def test_hub_check_command(lexicon_service: HubService) -> None:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(lexicon_service.data), "SAMOOBSLUHA_LANG": "cs"}
    ok = subprocess.run(
        [str(BIN / "hub"), "check", "2", "žir(a)fa"], env=env, capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == "stůl 2 · ŽIR(A)FA: PLATNÉ (HUNSPELL)\n"
    refused = subprocess.run(
        [str(BIN / "hub"), "check", "2", "kůň"], env=env, capture_output=True, text=True
    )
    assert refused.returncode == 2 and "Další je možná za" in refused.stderr
    (row,) = HubService(lexicon_service.data).challenges()
    assert row.station == REFEREE_STATION and row.table_no == 2


async def test_the_referee_checks_on_the_challenges_screen(
    lexicon_service: HubService,
) -> None:
    app = HubApp(lexicon_service, refresh_every=None, tick_every=None, serve=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        await pilot.press("2", "enter", *"c+a-p", "enter")
        await settle(pilot)
        await settle(pilot)
        assert label_text(app.screen, "#refcheck-verdict") == "stůl 2 · ČÁP: PLATNÉ (HUNSPELL)"
        await pilot.press(*"xyz", "enter")  # the next play of table 2: its interval first
        await settle(pilot)
        assert "Pro stůl 2 proběhla kontrola před chvílí" in label_text(
            app.screen, "#refcheck-verdict"
        )
        await pilot.press("escape")
        await settle(pilot)
        rows = cells(app.screen.query_one("#checks", DataTable))
        assert len(rows) == 1
        assert rows[0][1:5] == ["rozhodčí", "1", "2", "ČÁP"]
        assert rows[0][5] == "PLATNÉ" and rows[0][7] == "rozhodčí"


def test_checks_from_two_hub_processes_are_both_logged_once(
    lexicon_service: HubService, tmp_path: Path
) -> None:
    """The dashboard and ``hub check`` (another process, another connection) each store
    their check in one transaction at the next seq of the referee's rows: neither is
    taken for the other's (a row at a seq already stored would be dropped as a resend)."""
    import threading

    other = HubService(lexicon_service.data, clock=lexicon_service.clock)
    done: list[str] = []

    def check_at(service: HubService, table: str, word: str) -> None:
        done.append(referee_check(service, table, [word]).key)

    threads = [
        threading.Thread(target=check_at, args=(svc, str(table), word))
        for svc, table, word in ((lexicon_service, 1, "kůň"), (other, 2, "čáp"), (other, 3, "pes"))
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    rows = sorted((c.table_no, c.words[0], c.station) for c in lexicon_service.challenges())
    assert rows == [(1, "KŮŇ", "hub"), (2, "ČÁP", "hub"), (3, "PES", "hub")]
    assert len(set(done)) == 3
    assert set(done) == {c.key for c in lexicon_service.challenges()}


def test_the_referee_check_uses_the_halls_published_configuration(
    lexicon_service: HubService,
) -> None:
    """``hub check`` follows the hall configuration the hub published (``hub publish
    config``), as every kiosk does: its words per play and its limits, not the defaults."""
    from samoobsluha.hub import store as sync_store

    svc = lexicon_service
    assert referee_check(svc, "1", ["pes", "les"]).status == "valid"  # defaults: 8 words
    with svc._db() as db:
        sync_store.save_published(
            db,
            "config",
            "config:1767258000000:x",
            {"max_words": 1, "min_interval": 0, "max_checks_per_round": 2},
            svc.clock.now(),
        )
    assert "1" in _refused(svc, "2", ["pes", "les"])  # at most 1 word per play now
    assert referee_check(svc, "2", ["pes"]).status == "valid"
    assert referee_check(svc, "2", ["les"]).status == "valid"  # no interval in this hall
    refused = _refused(svc, "2", ["dům"])
    assert "2" in refused and refused == error_text(
        CheckRefused(Phrase("kiosk.refused.cap", table=2, max=2)), "cs"
    )
    # a configuration stored before the hub checked them is left out, as a station does
    with svc._db() as db:
        sync_store.save_published(
            db, "config", "config:1767258000001:y", {"max_words": 99}, svc.clock.now()
        )
    assert referee_check(svc, "3", ["pes", "les"]).status == "valid"

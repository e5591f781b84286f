"""Fixtures for the kiosk tests: a small real lexicon, a real station database, the app
on a fake clock, and (once per session, cached in .cache/) the real Czech lexicon."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from samoobsluha.shared.checks import KioskSettings, parse_tables
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon, write_lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.station.log import KioskStore

SMALL_WORDS = ["čáp", "kočka", "pes", "les", "dům", "máma", "recese", "žába", "ťapka", "ďas"]


@pytest.fixture(scope="session")
def small_lexicon_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Covers words of 2–9 letters, as an official short list would: longer words go to
    the referee."""
    path = tmp_path_factory.mktemp("lexicon") / "small.lex"
    write_lexicon(SMALL_WORDS, path, language="cs", variant="TEST", source="tests", max_length=9)
    return path


@pytest.fixture
def small_lexicon(small_lexicon_path: Path) -> Lexicon:
    return Lexicon.open(small_lexicon_path)


@pytest.fixture
def store(tmp_path: Path) -> KioskStore:
    s = KioskStore.open(tmp_path / "station.db", "test-station")
    yield s
    s.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_app(
    small_lexicon: Lexicon, store: KioskStore, clock: FakeClock
) -> Callable[..., KioskApp]:
    def factory(**overrides: Any) -> KioskApp:
        app_args = {
            key: overrides.pop(key)
            for key in ("round_status", "hub_status", "gong_test", "ui_language", "lexicon")
            if key in overrides
        }
        settings = {
            "tables": parse_tables("1-30"),
            "min_interval": 0.0,
            "station_min_interval": 0.0,
        }
        settings.update(overrides)
        return KioskApp(
            lexicon=app_args.pop("lexicon", small_lexicon),
            store=store,
            settings=KioskSettings(**settings),
            station_name="stanice-01",
            clock=clock,
            **app_args,
        )

    return factory


@pytest.fixture(scope="session")
def real_czech_lexicon(cs_lexicon_path: Path) -> Path:
    """The default Czech lexicon as a station builds it from hunspell-cs on first use: the
    session's one build (tests/conftest.py), not a second one of the same file."""
    return cs_lexicon_path

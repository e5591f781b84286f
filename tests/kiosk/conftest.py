"""Fixtures for the kiosk tests: a small real lexicon, a real station database, the app
on a fake clock, and (once per session, cached in .cache/) the real Czech lexicon."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from samoobsluha.shared.checks import KioskSettings, parse_tables
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon, write_lexicon
from samoobsluha.station.app import KioskApp
from samoobsluha.station.log import KioskStore

REPO = Path(__file__).resolve().parents[2]
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
def real_czech_lexicon() -> Path:
    """The default Czech lexicon built from hunspell-cs, once, cached under .cache/."""
    from samoobsluha.shared.lexicon import ensure_default_lexicon

    cache = REPO / ".cache" / "kiosk-lexicon"
    old = os.environ.get("SAMOOBSLUHA_DATA")
    os.environ["SAMOOBSLUHA_DATA"] = str(cache)
    try:
        return ensure_default_lexicon("cs")
    finally:
        if old is None:
            os.environ.pop("SAMOOBSLUHA_DATA", None)
        else:
            os.environ["SAMOOBSLUHA_DATA"] = old

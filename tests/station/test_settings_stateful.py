"""Three writers of the kiosk settings in effect, driven together (station/settings.py):
the hub's publications arriving over the link (stored as the link stores them), the
referee setting the table range on the kiosk (stored as the referee screen stores it),
and restarts (everything read back from the station's real SQLite file) — with idle
moments in between. After every step the settings in use are what the documented
precedence says: a publication waits for an idle moment; the newer of the referee's
range and the hall's ``tables`` wins; a key the newest publication does not name is the
file's."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings as hyp_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from samoobsluha.shared.checks import KioskSettings, parse_tables
from samoobsluha.station.log import KioskStore
from samoobsluha.station.settings import (
    SETTING_TABLES,
    SETTING_TABLES_AT,
    SettingsInUse,
    read_state,
)
from samoobsluha.station.sync import _store_item, migrations

FILE = {"tables": "1-30", "max_words": 5}

hall_configs = st.fixed_dictionaries(
    {},
    optional={
        "tables": st.sampled_from(["1-10", "1-20", "5-9, 12"]),
        "max_words": st.integers(1, 15),
    },
)


class SettingsMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="settings-"))
        self.store = KioskStore.open(self.folder / "station.db", "st-1")
        migrations.apply(self.store.db)
        self.base = KioskSettings.from_section(FILE)
        self.owner = self._open()
        self.now = 1000.0
        self.version = 0
        self.published: tuple[dict[str, Any], float] | None = None  # data, received at
        self.local: tuple[str, float] | None = None  # the referee's range, set at
        self.in_use = self.expected()

    def _open(self) -> SettingsInUse:
        with self.store._lock:
            published, local = read_state(self.store.db)
        return SettingsInUse(self.base, set(FILE), published=published, local=local)

    def expected(self) -> tuple[frozenset[int], int]:
        """(tables, max_words) by the documented precedence, from what was stored."""
        tables, words = parse_tables(FILE["tables"]), int(FILE["max_words"])
        hall, hall_at = self.published if self.published else ({}, 0.0)
        if "max_words" in hall:
            words = hall["max_words"]
        if "tables" in hall:
            tables = parse_tables(hall["tables"])
        if self.local is not None and ("tables" not in hall or self.local[1] >= hall_at):
            tables = parse_tables(self.local[0])
        return tables, words

    @rule(data=hall_configs)
    def hub_publishes(self, data: dict[str, Any]) -> None:
        self.now += 1
        self.version += 1
        with self.store._lock:  # what the link does: store, then offer
            _store_item(
                self.store.db, "config", f"config:{self.version}:x", data, self.now, self.version
            )
        assert self.owner.offer(data, self.version, self.now)
        self.published = (data, self.now)

    @rule(spec=st.sampled_from(["2-4", "1-40"]))
    def referee_sets_tables(self, spec: str) -> None:
        self.now += 1
        self.store.set_setting(SETTING_TABLES, spec)  # what the referee screen does
        self.store.set_setting(SETTING_TABLES_AT, repr(self.now))
        self.owner.set_local_tables(parse_tables(spec), self.now)
        self.local = (spec, self.now)
        self.in_use = self.expected()  # no check under way: everything in use at once

    @rule()
    def idle_moment(self) -> None:
        self.owner.take_pending()
        self.in_use = self.expected()

    @rule()
    def restart(self) -> None:
        self.owner = self._open()
        self.in_use = self.expected()

    @invariant()
    def settings_in_use_follow_the_precedence(self) -> None:
        settings = self.owner.settings
        assert (settings.tables, settings.max_words) == self.in_use

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)


SettingsMachine.TestCase.settings = hyp_settings(
    max_examples=40, stateful_step_count=12, deadline=None
)
test_settings_in_use = SettingsMachine.TestCase

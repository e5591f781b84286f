"""The demo's simulated station and the linked kiosk's handling of published pairings."""

from __future__ import annotations

import json
from pathlib import Path

from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import outbox, rounds
from samoobsluha.station.log import KioskStore, pairings_rows
from samoobsluha.station.simulate import Simulator
from samoobsluha.station.sync import migrations as sync_migrations

PUBLISHED = {
    "round": 2,
    "tables": [
        {
            "table": 1,
            "first": {"id": 3, "name": "Nováková Jana"},
            "second": {"id": 5, "name": "Kováč Ján"},
            "bye": False,
        },
        {"table": 2, "first": {"id": 7, "name": "Černý Petr"}, "second": None, "bye": True},
    ],
    "standings": [],
}


def test_published_pairings_become_kiosk_rows() -> None:
    assert pairings_rows(PUBLISHED) == (
        2,
        [(1, "Nováková Jana", "Kováč Ján"), (2, "Černý Petr", "")],
    )


def _store(tmp_path: Path) -> KioskStore:
    store = KioskStore.open(tmp_path / "station.db", "st-9")
    rounds.migrations.apply(store.db)
    sync_migrations.apply(store.db)
    return store


def test_simulated_checks_use_the_published_round_and_tables(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    store = _store(tmp_path)
    store.db["hub_items"].insert(
        {"kind": "pairings", "item_id": "p:1", "data": json.dumps(PUBLISHED), "received_at": 0.0}
    )
    sim = Simulator(store, Lexicon.open(small_lexicon_path), seed=4, now=lambda: 1000.0)
    logged = [sim.check() for _ in range(5)]
    assert all(
        entry is not None and entry["round"] == 2 and entry["table"] == 1 for entry in logged
    )  # table 2 has a bye: nobody checks there
    rows = outbox.pending(store.db)
    assert [r["kind"] for r in rows] == ["challenge"] * 5
    assert {r["payload"]["status"] for r in rows} <= {"valid", "invalid", "referee"}
    store.close()


def test_simulated_results_only_after_the_end_and_only_its_share(
    tmp_path: Path, small_lexicon_path: Path
) -> None:
    store = _store(tmp_path)
    store.replace_pairings(1, [(t, f"A{t}", f"B{t}") for t in range(1, 5)], at=0.0)
    plan = RoundPlan(1, start_at=100.0, basic_seconds=60, warning_seconds=10)
    rounds.store_plan(store.db, "t-1", plan, now=0.0)
    sim = Simulator(store, Lexicon.open(small_lexicon_path), seed=1, index=1, of=2)
    assert sim.enter_results(hub_now=150.0) == []  # still playing
    assert sim.enter_results(hub_now=170.0) == [1, 3]
    assert sim.enter_results(hub_now=171.0) == []  # once
    result = store.result(1, 3)
    assert result is not None and result.first == "A3" and result.score_first != result.score_second
    store.close()

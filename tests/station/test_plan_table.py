"""Round plans live in one table on a station (station.rounds' round_plans): the hub link
stores them there, and a station database from before keeps the plans it had received."""

from __future__ import annotations

import json
from pathlib import Path

from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.shared.storage import open_db
from samoobsluha.station import outbox, rounds, sync


def test_an_old_station_database_keeps_its_hub_plans(tmp_path: Path) -> None:
    path = tmp_path / "station.db"
    db = open_db(path, outbox.migrations)
    sync.migrations.apply(db, stop_before="m003_one_plan_table")  # the schema before
    newer = RoundPlan(2, 7000.0, revision=3)
    db.table("hub_plans").insert_all(
        [
            {"tournament": "t-1", "number": 1, "revision": 0,
             "plan": json.dumps(RoundPlan(1, 5000.0).to_dict()), "received_at": 10.0},
            {"tournament": "t-1", "number": 2, "revision": 3,
             "plan": json.dumps(newer.to_dict()), "received_at": 11.0},
        ]
    )  # fmt: skip
    db.close()

    db = open_db(path, outbox.migrations, rounds.migrations, sync.migrations)
    assert "hub_plans" not in db.table_names()
    plans = rounds.load_plans(db, "t-1")
    assert [(p.number, p.revision, p.start_at) for p in plans] == [(1, 0, 5000.0), (2, 3, 7000.0)]
    db.close()
    schedule = rounds.RoundSchedule.open(path, tournament="t-1")
    assert [s.source for s in schedule.plans()] == [rounds.SOURCE_HUB] * 2
    schedule.close()


def test_the_link_and_the_schedule_share_one_rule(tmp_path: Path) -> None:
    db = open_db(tmp_path / "station.db", outbox.migrations, rounds.migrations)
    assert rounds.store_plan(db, "t", RoundPlan(1, 100.0, revision=2), now=1.0)
    assert not rounds.store_plan(db, "t", RoundPlan(1, 100.0, revision=1), now=2.0)
    # a local round is taken over by the hub's plan whatever its revision
    assert rounds.store_plan(db, "t", RoundPlan(2, 50.0, revision=9), source="local", now=3.0)
    assert rounds.store_plan(db, "t", RoundPlan(2, 60.0, revision=0), now=4.0)
    assert [p.start_at for p in rounds.load_plans(db, "t")] == [100.0, 60.0]

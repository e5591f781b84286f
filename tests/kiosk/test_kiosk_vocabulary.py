"""One vocabulary on the station (docs/glossary.md): a card written by the kiosk before the
rename keeps its results and pairings, read as first/second and started."""

from __future__ import annotations

from pathlib import Path

from samoobsluha.shared.storage import open_db
from samoobsluha.station import log, outbox
from samoobsluha.station.log import KioskStore


def test_an_old_station_database_migrates_to_first_second_started(tmp_path: Path) -> None:
    path = tmp_path / "station.db"
    db = open_db(path, outbox.migrations)
    log.migrations.apply(db, stop_before="m002_first_second")
    db.table("results").insert_all(
        [
            {
                "round_no": 1,
                "table_no": 4,
                "player_a": "Novák Jan",
                "player_b": "Dvořáková Eva",
                "score_a": 412,
                "score_b": 398,
                "starter": "b",
                "entered_at": 1.0,
                "entered_by": "players",
                "revision": 1,
            },
            {
                "round_no": 1,
                "table_no": 5,
                "player_a": "",
                "player_b": "",
                "score_a": 300,
                "score_b": 350,
                "starter": "a",
                "entered_at": 2.0,
                "entered_by": "players",
                "revision": 1,
            },
        ]
    )
    db.table("pairings").insert(
        {"round_no": 2, "table_no": 1, "player_a": "Novák Jan", "player_b": "Malý Petr"}
    )
    db.close()

    store = KioskStore.open(path, "st-1")
    try:
        four, five = store.result(1, 4), store.result(1, 5)
        assert four is not None and five is not None
        assert (four.first, four.second, four.started) == ("Novák Jan", "Dvořáková Eva", "second")
        assert (four.score_first, four.score_second) == (412, 398)
        assert five.started == "first"
        pairing = store.pairing(2, 1)
        assert pairing is not None and (pairing.first, pairing.second) == ("Novák Jan", "Malý Petr")
        columns = {c.name for c in store.db.table("results").columns}
        assert not columns & {"player_a", "player_b", "score_a", "score_b", "starter"}
    finally:
        store.close()

"""kill -9 a station mid-sync and the hub mid-commit: after restarts the hub has every
row exactly once (real processes, real SQLite files)."""

from __future__ import annotations

from pathlib import Path

from net_procs import Hub, Station, running, wait_for


def _assert_exactly_once(hub: Hub, station: str, total: int) -> None:
    rows = [r for r in hub.rows() if r["station_id"] == station]
    seqs = [r["seq"] for r in rows]
    assert seqs == list(range(1, total + 1)), (len(seqs), total)
    payload_ids = [r["payload"]["id"] for r in rows]
    assert payload_ids == list(range(total))  # each kiosk record once, in order


def test_kill_station_mid_sync_and_hub_mid_commit(tmp_path: Path) -> None:
    # 24,500 rows from one station in one round: far over a real station's budget
    hub = Hub(tmp_path / "hub", budget_rows=100_000)
    # first life of the hub: it SIGKILLs itself inside the ingest transaction once it has
    # inserted 1500 rows, i.e. with rows written but not committed
    hub.start(kill_in_commit=1500)
    a = Station(tmp_path / "a", hub, "a")
    b = Station(tmp_path / "b", hub, "b")
    a.enqueue(4000)
    b.enqueue(300)
    with running(hub, a, b):
        a.start()
        b.start()
        assert hub.proc is not None
        hub.proc.wait(20)
        assert hub.proc.returncode == -9, hub.log()
        assert hub.count() < 1500  # the transaction that reached 1500 rows never committed
        # second life: the stations reconnect by themselves
        hub.start()
        wait_for(lambda: hub.count("a") == 4000, 30, "a's first rows after the restart")
        # kill -9 station a while it is sending: give it a big backlog, wait until the hub
        # has part of it, kill
        a.enqueue(20000, start=4000)
        wait_for(lambda: hub.count("a") > 4000, 15, "a sending its new backlog")
        a.kill()
        at_kill = hub.count("a")
        assert 4000 < at_kill < 24000, at_kill  # really mid-sync
        a.enqueue(500, start=24000)  # the kiosk kept logging while the daemon was down
        a.start()
        wait_for(lambda: hub.count("a") == 24500 and hub.count("b") == 300, 40, "all rows")
        _assert_exactly_once(hub, "a", 24500)
        _assert_exactly_once(hub, "b", 300)
        # a third, unannounced power cut of the hub; nothing new is lost or doubled
        hub.kill()
        b.enqueue(10, start=300)
        hub.start()
        wait_for(lambda: hub.count("b") == 310, 30, "b's rows after the hub came back")
        _assert_exactly_once(hub, "b", 310)
        _assert_exactly_once(hub, "a", 24500)

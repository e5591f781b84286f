"""A second hub on a copy of the data (a backup restored on another machine, with the hall
key): both dashboards say TWO HUBS, and no station connects to it — it has the hub's id and
keys, but not its seat (hub/seat.py: the machine), and stations follow one seat until a
handover signed with the hub key names another. Each station tells the copy why it refuses
it; the copy's `hub stations` says where the stations are. After `hub takeover` on the
copy (a signed handover naming its seat) the stations move to it and the old one is
refused. Real `hub serve` and `station daemon` processes, mDNS on 127.0.0.1, each hub with
a seat file of its own (two machines)."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.hub import backup, seat, standby
from samoobsluha.hub.service import HubService
from samoobsluha.shared.i18n import localize
from samoobsluha.station import sync

pytestmark = pytest.mark.timeout(240)


def _connected(hub: Hub) -> set[str]:
    return {r["station_id"] for r in json.loads(hub.ctl("stations", "--json")) if r["connected"]}


def _followed(st: Station, tournament: str) -> str | None:
    conn = sqlite3.connect(f"file:{st.db_path}?mode=ro", uri=True, timeout=5)
    try:
        row = conn.execute(
            "SELECT seat FROM hub_seat WHERE tournament = ?", [tournament]
        ).fetchone()
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()
    return str(row[0]) if row else None


def _status(hub: Hub, station: str) -> dict[str, object]:
    rows = {r["station_id"]: r for r in json.loads(hub.ctl("stations", "--json"))}
    return dict(rows[station]["status"]) if station in rows else {}


def test_station_and_hub_agree_on_the_words_of_a_seat_refusal() -> None:
    assert sync.FOLLOWS == standby.FOLLOWS


def test_the_seat_is_the_machines_not_the_datas(tmp_path: Path) -> None:
    a = seat.local_seat(tmp_path / "a.seat")
    assert a == seat.local_seat(tmp_path / "a.seat")  # kept: the same machine
    assert a != seat.local_seat(tmp_path / "b.seat")  # another machine
    assert len(a) == seat.SEAT_CHARS
    with pytest.raises(ValueError, match="inside the hub's data directory"):
        seat.local_seat(tmp_path / "data" / "seat", data=tmp_path / "data")


def test_a_copy_of_the_data_on_another_machine_gets_no_station_until_a_handover(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    primary = Hub(tmp_path / "primary", mdns=True).start()
    stations = [Station(tmp_path / f"st{i}", primary, f"st{i}", use_mdns=True) for i in range(2)]
    names = {st.station_id for st in stations}
    copy = Hub(tmp_path / "copy", mdns=True)
    with running(primary, *stations, copy):
        for i, st in enumerate(stations):
            st.enqueue(5, start=100 * i)
            st.start()
        wait_for(lambda: _connected(primary) == names, 60, "both stations at the primary")
        # a fresh station follows the first hub it meets: the primary's seat
        for st in stations:
            assert _followed(st, primary.tournament) == primary.seat()
        assert primary.seat() != copy.seat()

        # the copy: a backup of the primary restored on another machine, with the hall key
        made = backup.take(primary.db_path, tmp_path / "usb", reason="manual", now=time.time())
        backup.restore(made, copy.db_path, now=time.time())
        shutil.copyfile(primary.key_file, copy.key_file)
        started = time.monotonic()
        copy.start()
        assert copy.tournament == primary.tournament
        wait_for(lambda: "TWO HUBS" in primary.ctl("stations"), 30, "the primary warned")
        wait_for(lambda: "TWO HUBS" in copy.ctl("stations"), 30, "the copy warned")
        print(f"both warned after {time.monotonic() - started:.1f} s")

        # every station tells the copy it follows the primary, and stays there
        def told() -> bool:
            return all(
                str(_status(copy, n).get("last_error") or "").startswith(sync.FOLLOWS)
                for n in names
            )

        wait_for(told, 60, "both stations told the copy why they refuse it")
        print(f"copy told by both stations after {time.monotonic() - started:.1f} s")
        listed = copy.ctl("stations")
        assert f"2 stations follow the hub at 127.0.0.1:{primary.port}" in listed, listed
        assert "Take over only if that hub is dead: hub takeover" in listed
        report = HubService(copy.data).stations()  # what the copy's dashboard shows
        texts = [localize(w, "cs") for w in report.warnings]
        assert any(f"2 stanice poslouchají hub na 127.0.0.1:{primary.port}" in x for x in texts)
        assert _connected(copy) == set() and _connected(primary) == names
        assert "STATIONS FOLLOW ANOTHER HUB" not in primary.ctl("stations")
        # a station restarted now finds both by mDNS and still goes to the primary
        stations[0].stop()
        stations[0].start()
        wait_for(lambda: _connected(primary) == names, 60, "st0 back at the primary")
        held = copy.count()
        for i, st in enumerate(stations):
            st.enqueue(2, start=100 * i + 50)
        wait_for(lambda: primary.count() == 14, 60, "the new rows at the primary")
        assert copy.count() == held  # nothing reaches the copy

        # the primary dies; the referee decides: hub takeover on the copy's machine
        primary.kill()
        copy.stop()
        took = subprocess.run(
            [str(BIN / "hub"), "takeover"], env=copy.env, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert took.returncode == 0, took.stderr
        assert "There is no standby copy here" in took.stdout
        copy.start()
        wait_for(lambda: _connected(copy) == names, 90, "the stations at the new hub")
        for st in stations:
            assert _followed(st, copy.tournament) == copy.seat()
        wait_for(lambda: copy.count() == 14, 60, "what the stations had, at the new hub")
        assert "STATIONS FOLLOW ANOTHER HUB" not in copy.ctl("stations")

        # the old primary comes back on its machine: refused by every station
        primary.start()
        wait_for(lambda: "THIS HUB WAS REPLACED" in primary.ctl("stations"), 60, "told")
        assert "STATIONS FOLLOW ANOTHER HUB" not in primary.ctl("stations")
        assert _connected(primary) == set()


async def test_an_older_handover_naming_another_seat_is_refused(tmp_path: Path) -> None:
    """Two spares took over from the same dead hub: C first (its handover published, its
    id new), B later. A station that follows B refuses C although C's handover is signed
    with the hall key and names C's seat: it is older than the one the station holds. In
    process: real SQLite files, real TCP on 127.0.0.1, one address the hubs take in turn."""
    from net_procs import free_port
    from testkit import until

    from samoobsluha.hub.server import HubServer
    from samoobsluha.shared.protocol import new_psk
    from samoobsluha.station.sync import NetworkConfig, StationSync, load_seat

    psk, port = new_psk(), free_port()

    def hub(name: str) -> HubServer:
        path = tmp_path / name / "hub.db"
        return HubServer(path, psk, host="127.0.0.1", port=port, advertise=False, seat=name)

    first = hub("a")
    await first.start()
    tournament = first.tournament
    net = NetworkConfig(tournament_id=tournament, hub=f"127.0.0.1:{port}", station_id="st")
    station = StationSync(tmp_path / "st" / "station.db", net, psk=psk)
    task = asyncio.ensure_future(station.run())
    try:
        await until(lambda: station.status.connected, 30)
        assert station.dbw.call(load_seat, tournament).seat == "a"
        made = backup.take(first.data_dir / "hub.db", tmp_path / "usb", reason="manual", now=1e9)
        await first.close()  # the hub dies
        for name in ("c", "b"):
            backup.restore(made, tmp_path / name / "hub.db", now=1e9)
        # C takes over first and publishes its handover with no station there to get it
        standby.take_over(tmp_path / "c", time.time())
        spare_c = hub("c")
        await spare_c.start()
        await spare_c.close()
        await asyncio.sleep(0.01)  # B's handover is newer (versions are the hub's ms)
        standby.take_over(tmp_path / "b", time.time())
        spare_b = hub("b")
        await spare_b.start()
        await until(
            lambda: station.status.connected and station.status.hub_id == spare_b.hub_id, 60
        )
        assert station.dbw.call(load_seat, tournament).seat == "b"
        await spare_b.close()
        spare_c = hub("c")  # C again: a valid handover naming its seat, but older
        await spare_c.start()
        try:
            await until(lambda: "st" in spare_c.followed_elsewhere, 60)
            assert str(station.status.last_error).startswith(sync.FOLLOWS)
            assert not station.status.connected
            assert station.dbw.call(load_seat, tournament).seat == "b"
        finally:
            await spare_c.close()
    finally:
        station.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        station.close()

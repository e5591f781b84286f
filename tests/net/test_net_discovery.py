"""Two hubs of different tournaments advertise on 127.0.0.1; each station finds its own."""

from __future__ import annotations

import json
from pathlib import Path

from net_procs import Hub, Station, running, wait_for

from samoobsluha.station.sync import discover_hub


async def test_two_tournaments_on_one_lan(tmp_path: Path) -> None:
    hub1 = Hub(tmp_path / "hub1", mdns=True).start()
    hub2 = Hub(tmp_path / "hub2", mdns=True).start()
    assert hub1.tournament != hub2.tournament
    with running(hub1, hub2):
        found1 = await discover_hub(hub1.tournament, interfaces=["127.0.0.1"])
        found2 = await discover_hub(hub2.tournament, interfaces=["127.0.0.1"])
        assert {(h, p) for h, p, _ in found1} == {("127.0.0.1", hub1.port)}
        assert {(h, p) for h, p, _ in found2} == {("127.0.0.1", hub2.port)}
        assert await discover_hub("t-nobody", interfaces=["127.0.0.1"], timeout=1.0) == []

        # a station of tournament 2 joins hub 2 by mDNS alone (no address configured)
        st = Station(tmp_path / "st", hub2, "s2", use_mdns=True)
        st.enqueue(5)
        with running(st):
            st.start()
            wait_for(lambda: hub2.count("s2") == 5, 20, "rows at hub 2")
        assert hub1.count() == 0
        assert json.loads(hub1.ctl("stations", "--json")) == []

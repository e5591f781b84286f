"""Signed items carry a version and a station keeps only newer ones: a relay that holds a
station's key (a copied card between the station and the hub) can replay an old, validly
signed config, pairings, PIN or lexicon push, and the station refuses it. Real hub and
station link in one process on loopback, real SQLite files."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from net_procs import stop_sync
from testkit import until

from samoobsluha.hub import store
from samoobsluha.hub.server import HubServer, _item_msg
from samoobsluha.hub.store import item_version
from samoobsluha.shared import protocol
from samoobsluha.shared.clock import FakeClock
from samoobsluha.station.sync import NetworkConfig, StationSync, load_item
from samoobsluha.station.sync import item_version as kept_version


@pytest.fixture
async def link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "hubdata"))
    psk = protocol.new_psk()
    clock = FakeClock(1_767_258_000.0)
    hub = HubServer(
        tmp_path / "hub.db", psk, host="127.0.0.1", port=0, advertise=False, clock=clock
    )
    await hub.start()
    net = NetworkConfig(tournament_id=hub.tournament, hub=f"127.0.0.1:{hub.port}", station_id="s1")
    sync = StationSync(tmp_path / "station.db", net, psk=psk)
    events: list[Any] = []
    sync.on("show", lambda kind, data: events.append((kind, data)))
    sync.on("config", lambda data, *_: events.append(("config", data)))
    task = asyncio.create_task(sync.run())
    await until(lambda: "s1" in hub.conns)
    yield hub, sync, events, clock
    await stop_sync(sync, task)
    await hub.close()


def delivered(hub: HubServer, item: str) -> dict[str, Any] | None:
    return hub.dbw.call(store.load_deliveries, item).get("s1")


async def replay(hub: HubServer, msg: dict[str, Any]) -> None:
    """What a relay does: send a frame the hub once signed, again, over the link. The hub
    takes a station's answer only for an item it sent on that link: the test marks this
    one as sent, so the station's refusal is read from the hub's delivery record."""
    conn = hub.conns["s1"]
    conn.sent(msg["id"])
    await conn.channel.send(protocol.sign_item(hub.keys, hub.tournament, msg))


def _item(kind: str, n: int) -> dict[str, Any]:
    """Version ``n`` of a pairings or hall configuration item (each valid of its kind)."""
    if kind == "config":
        return {"max_words": n, "tables": "1-40"}
    return {"round": n, "tables": [[1, "Novák", "Dvořák"]]}


@pytest.mark.parametrize("kind", ["pairings", "config"])
async def test_an_older_signed_item_is_refused(link, kind: str) -> None:
    hub, sync, events, clock = link
    field = "max_words" if kind == "config" else "round"
    old = await hub.publish(kind, _item(kind, 2))
    clock.advance(60)
    new = await hub.publish(kind, _item(kind, 3))
    await until(lambda: (delivered(hub, new["id"]) or {}).get("ok") is True)
    assert item_version(new["id"]) > item_version(old["id"])
    conn = hub.conns["s1"]

    await replay(hub, _item_msg(kind, old["id"], _item(kind, 2)))
    await until(lambda: (delivered(hub, old["id"]) or {}).get("ok") is False)
    assert "older" in delivered(hub, old["id"])["detail"]
    assert sync.dbw.call(load_item, kind)[field] == 3  # the newer one stays
    assert [e[1][field] for e in events if e[0] == kind] == [2, 3]  # nothing shown again
    assert hub.conns["s1"] is conn  # refused, not a broken link


async def test_the_same_item_again_is_confirmed_not_shown_again(link) -> None:
    """A reconnecting station gets everything again: that is no replay, and no news."""
    hub, sync, events, _clock = link
    item = await hub.publish("standings", [{"name": "Nováková", "points": 3}])
    await until(lambda: events)
    await replay(hub, _item_msg("standings", item["id"], [{"name": "Nováková", "points": 3}]))
    # the station handles frames in order: once a later item is confirmed, so is the copy
    later = await hub.publish("config", {"tables": [1]})
    await until(lambda: (delivered(hub, later["id"]) or {}).get("ok") is True)
    assert (delivered(hub, item["id"]) or {})["ok"] is True
    assert [kind for kind, _ in events] == ["standings", "config"]  # the copy not shown
    assert sync.dbw.call(kept_version, "standings") == item_version(item["id"])


async def test_versions_grow_when_the_hub_clock_is_set_back(link) -> None:
    hub, _sync, _events, clock = link
    first = await hub.publish("pairings", {"round": 1})
    clock.set_wall(clock.now() - 3600)  # the referee's laptop corrected its clock
    second = await hub.publish("pairings", {"round": 2})
    assert item_version(second["id"]) > item_version(first["id"])


async def test_a_replayed_lexicon_push_is_refused_and_its_chunks_dropped(link) -> None:
    hub, sync, _events, _clock = link
    # the station holds lexicon version 2000 (what a newer push recorded)
    begin = {"t": "lexicon_begin", "name": "cs.lex", "size": 4, "sha256": "0" * 64}
    await replay(hub, {**begin, "id": "lexicon:2000:aaaa", "ver": 2000})
    await until(lambda: sync.dbw.call(kept_version, "lexicon") == 2000)
    conn = hub.conns["s1"]
    # a relay replays an older push: begin, a chunk, the end
    await replay(hub, {**begin, "id": "lexicon:1000:bbbb", "ver": 1000})
    await conn.channel.send(
        {"t": "lexicon_chunk", "id": "lexicon:1000:bbbb", "offset": 0, "data": b"junk"}
    )
    await conn.channel.send({"t": "lexicon_end", "id": "lexicon:1000:bbbb"})
    await until(lambda: (delivered(hub, "lexicon:1000:bbbb") or {}).get("ok") is False)
    assert sync.dbw.call(kept_version, "lexicon") == 2000
    # the link survived the dropped chunks: the next item still arrives
    item = await hub.publish("pairings", {"round": 4})
    await until(lambda: (delivered(hub, item["id"]) or {}).get("ok") is True)
    assert hub.conns["s1"] is conn

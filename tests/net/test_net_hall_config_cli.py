"""``hub publish config`` as the chief referee types it, against a real ``hub serve`` and a
real ``station daemon``: a file the stations would not use is refused naming the key, in
Czech, with exit code 2, and nothing reaches any station; a good one does, and ``station
settings`` on the station says which values came from the hub."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.hub import store
from samoobsluha.shared.storage import open_db
from samoobsluha.station.settings import published_time


def _publish(hub: Hub, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "hub"), "publish", "config", str(path)],
        env={**hub.env, "SAMOOBSLUHA_LANG": "cs"},
        capture_output=True,
        text=True,
        timeout=30,
    )


def _published(hub: Hub) -> dict[str, object]:
    db = open_db(hub.db_path, store.migrations)
    try:
        return store.load_published(db)
    finally:
        db.close()


def test_hub_publish_config_refuses_then_sends(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    station = Station(tmp_path / "st", hub, "st-1")
    with running(hub, station.start()):
        wait_for(lambda: "st-1" in hub.info()["connected"], 60, "the station to connect")
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"tables": "1-20", "referee_key": "f5"}), encoding="utf-8")
        out = _publish(hub, bad)
        assert out.returncode == 2, out
        assert "„referee_key“ nelze nastavit pro celý sál" in out.stderr
        bad.write_text('{"tables": "1-20", "max_words": 99}', encoding="utf-8")
        out = _publish(hub, bad)
        assert out.returncode == 2 and "max_words: 99 není mezi 1 a 15" in out.stderr
        bad.write_text('{"tables": "1-20",', encoding="utf-8")
        out = _publish(hub, bad)
        assert out.returncode == 2 and "nelze přečíst jako JSON" in out.stderr
        assert "config" not in _published(hub)  # nothing stored, so nothing sent

        good = tmp_path / "hall.json"
        good.write_text(json.dumps({"tables": "1-20", "min_interval": 30}), encoding="utf-8")
        out = _publish(hub, good)
        assert out.returncode == 0, out.stderr
        item = json.loads(out.stdout)
        assert item["sent_to"] == ["st-1"]
        version = int(item["id"].split(":")[1])

        wait_for(
            lambda: _stored_on(station.db_path) == version,
            30,
            "the station to store the configuration",
        )
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(station.data), "SAMOOBSLUHA_LANG": "cs"}
    env.pop("SAMOOBSLUHA_CONFIG", None)
    shown = subprocess.run(
        [str(BIN / "station"), "settings", "--config", str(station.data / "station.toml")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert shown.returncode == 0, shown.stderr
    lines = {line.split()[0]: line for line in shown.stdout.splitlines() if line.startswith("  ")}
    when = published_time(version)
    assert "1-20" in lines["tables"] and f"hub, konfigurace sálu z {when}" in lines["tables"]
    assert " 30 " in lines["min_interval"] and "hub" in lines["min_interval"]
    assert "výchozí" in lines["max_words"]
    assert f"Konfigurace sálu z hubu: {when}" in shown.stdout


def _stored_on(db_path: Path) -> int | None:
    """The version of the hall configuration the station has stored (read only)."""
    from samoobsluha.station.sync import item_version

    if not db_path.exists():
        return None
    db = open_db(db_path)
    try:
        return item_version(db, "config") if "hub_versions" in db.table_names() else None
    finally:
        db.close()

"""Never two hubs unnoticed: a second hub started on a copy of the data (a backup restored
on another machine, with the hall key) is announced over zeroconf like the first; each hub
sees the other and says so loudly, in `hub stations` and on the dashboard's station
screen (HubService.stations warnings), within 10 s; when the copy goes, so does the
warning. Real `hub serve` processes, mDNS on 127.0.0.1."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from net_procs import Hub, running, wait_for

from samoobsluha.hub import backup
from samoobsluha.hub.service import HubService
from samoobsluha.shared.i18n import localize

DETECT_WITHIN = 10.0  # the bound; the figure is in docs/benchmarks.md


def _warned(hub: Hub) -> str:
    out = hub.ctl("stations")
    return out if "TWO HUBS" in out else ""


def test_a_second_hub_on_a_copy_of_the_data_is_reported_on_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    first = Hub(tmp_path / "first", mdns=True).start()
    with running(first):
        assert _warned(first) == ""
        made = backup.take(first.db_path, tmp_path / "usb", reason="manual", now=time.time())
        copy = Hub(tmp_path / "copy", mdns=True)
        backup.restore(made, copy.db_path, now=time.time())
        shutil.copyfile(first.key_file, copy.key_file)
        with running(copy):
            started = time.monotonic()
            copy.start()
            assert copy.tournament == first.tournament
            on_first = wait_for(lambda: _warned(first), DETECT_WITHIN + 20, "first warned")
            on_copy = wait_for(lambda: _warned(copy), DETECT_WITHIN + 20, "copy warned")
            print(f"both warned after {time.monotonic() - started:.1f} s")
            assert f":{copy.port}" in on_first and f":{first.port}" in on_copy
            assert "this hall's key" in on_first
            report = HubService(first.data).stations()  # what the dashboard shows
            texts = [localize(w, "cs") for w in report.warnings]
            assert (
                texts
                and texts[0].startswith("DVA HUBY: jeden vypněte!")
                and f":{copy.port}" in texts[0]
            )
        # the copy stopped: its service is withdrawn, and the warning with it
        wait_for(lambda: not _warned(first), 20, "the warning gone")


async def test_a_renamed_copy_and_a_foreign_key_are_told_apart(tmp_path: Path) -> None:
    """In one process zeroconf renames the copy's service (``…-2``): each hub still sees
    the other by its announcement; a service of the tournament with another key is shown
    as such (stations, which pin the key, never connect to it)."""
    from testkit import until

    from samoobsluha.hub.server import HubServer
    from samoobsluha.shared.protocol import new_psk

    psk = new_psk()
    first = HubServer(tmp_path / "a" / "hub.db", psk, host="127.0.0.1", port=0)
    await first.start()
    made = backup.take(first.data_dir / "hub.db", tmp_path / "usb", reason="manual", now=1e9)
    backup.restore(made, tmp_path / "b" / "hub.db", now=1e9)
    backup.restore(made, tmp_path / "c" / "hub.db", now=1e9)
    copy = HubServer(tmp_path / "b" / "hub.db", psk, host="127.0.0.1", port=0)
    other = HubServer(tmp_path / "c" / "hub.db", new_psk(), host="127.0.0.1", port=0)
    await copy.start()
    await other.start()
    try:
        assert first.rivals is not None and copy.rivals is not None
        await until(lambda: len(first.rivals.list()) == 2 and copy.rivals.list(), timeout=30)
        by_port = {r["port"]: r for r in first.rivals.list()}
        assert by_port[copy.port]["same_key"] is True
        assert by_port[other.port]["same_key"] is False
        assert any(r["port"] == first.port for r in copy.rivals.list())
        await other.close()
        await until(lambda: [r["port"] for r in first.rivals.list()] == [copy.port], timeout=30)
    finally:
        await copy.close()
        await first.close()

"""Results online, offline-first: a real ``hub serve`` and every step a ``hub`` command;
the target a local HTTP server taking PUTs (which cuts the connection once, as a phone
hotspot does) and a folder. Nothing is sent before the protest window closes; a cut
connection resumes without sending any page twice; the pages' signature verifies with
the hub's public key, and a changed page does not."""

from __future__ import annotations

import hashlib
import http.server
import json
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from net_procs import Hub, running, wait_for
from test_net_late_results import hub_cmd, set_up

from samoobsluha.hub.publisher import LABEL
from samoobsluha.hub.tournament import tsh
from samoobsluha.shared.protocol import verify_signature

pytestmark = pytest.mark.timeout(240)


class Site(http.server.ThreadingHTTPServer):
    """A web host taking PUTs under /site/: what it stored, and how often each path."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Put)
        self.pages: dict[str, bytes] = {}
        self.stored: Counter[str] = Counter()
        self.cut_after: int | None = None  # cut the connection after this many pages
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/site/"


class _Put(http.server.BaseHTTPRequestHandler):
    server: Site

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        site = self.server
        with site.lock:
            if site.cut_after is not None and sum(site.stored.values()) >= site.cut_after:
                self.close_connection = True  # the uplink drops: no answer, nothing kept
                return
            path = self.path.removeprefix("/site/")
            site.pages[path] = body
            site.stored[path] += 1
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def site() -> Iterator[Site]:
    server = Site()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _send(hub: Hub, ok: tuple[int, ...] = (0,)) -> str:
    return hub_cmd(hub, "online", "send", ok=ok)


def test_pages_wait_for_the_protest_window_resume_after_a_cut_and_verify(
    tmp_path: Path, site: Site
) -> None:
    hub = Hub(tmp_path / "hub").start()
    with running(hub):
        tables = set_up(hub, tmp_path)
        hub_cmd(hub, "enter", "1", *(f"{t} {400 + t} {300 + t}" for t, _, _ in tables))
        hub_cmd(hub, "publish-round", "1")  # the protest window (30 minutes) starts
        hub_cmd(hub, "online", "target", site.url)

        out = _send(hub)
        assert "nic ke zveřejnění před" in out and "ve frontě 0" in out
        assert site.stored == Counter()  # embargo: not a byte

        # 31 minutes pass (the round was published 31 minutes ago)
        conn = sqlite3.connect(hub.db_path)
        conn.execute("UPDATE tour_rounds SET published_at = published_at - 31 * 60")
        conn.commit()
        conn.close()
        # round 2 is paired and has a result typed, but is not published: never online
        hub_cmd(hub, "round", "pair", "2", "--seed", "3")
        hub_cmd(hub, "enter", "2", "1 555 111")

        site.cut_after = 3  # the hotspot drops after three pages
        out = _send(hub, ok=(1,))
        assert "spojení selhalo" in out
        assert len(site.stored) == 3 and "manifest.json" not in site.pages
        site.cut_after = None
        out = _send(hub)
        assert "ve frontě 0" in out
        expected = {
            "index.html",
            "round-1/pairings.html",
            "round-1/results.html",
            "standings.html",
            "tournament.t",
            "manifest.json",
            "manifest.sig",
        }
        assert set(site.pages) == expected
        assert set(site.stored.values()) == {1}  # no page sent twice
        assert "ve frontě 0" in _send(hub) and set(site.stored.values()) == {1}

        # the signature verifies with the key the hub gives the stations
        public = bytes.fromhex(hub_cmd(hub, "key", "public").split()[-1])
        text = site.pages["manifest.json"]
        verify_signature(public, LABEL + text, bytes.fromhex(site.pages["manifest.sig"].decode()))
        manifest = json.loads(text)
        assert manifest["closed_rounds"] == [1]
        for path, digest in manifest["files"].items():
            assert hashlib.sha256(site.pages[path]).hexdigest() == digest
        # round 2's result is not public yet: the tsh file has round 1's scores only
        online = tsh.parse(site.pages["tournament.t"].decode())
        assert {len([s for s in p.scores if s is not None]) for p in online.players} == {1}
        assert 555 not in {s for p in online.players for s in p.scores}
        for _table, first, _ in tables:
            assert first.encode() in site.pages["round-1/results.html"]

        # a folder target (a USB stick, a synced folder) gets every page, verifiable
        folder = tmp_path / "www"
        hub_cmd(hub, "online", "target", str(folder))
        _send(hub)
        assert {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()} == expected
        ok = hub_cmd(hub, "online", "verify", str(folder), "--public-key", public.hex())
        assert "podpis je platný" in ok
        page = folder / "round-1" / "results.html"
        score = str(400 + tables[0][0]).encode()
        assert score in page.read_bytes()
        page.write_bytes(page.read_bytes().replace(score, b"499", 1))
        bad = hub_cmd(hub, "online", "verify", str(folder), "--public-key", public.hex(), ok=(1,))
        assert "round-1/results.html: jeho SHA-256 není to z manifestu" in bad  # the hub's cs
        other = "00" * 32  # someone else's key: the signature does not verify
        bad = hub_cmd(hub, "online", "verify", str(folder), "--public-key", other, ok=(1,))
        assert "manifest.sig: podpis nesouhlasí" in bad


def test_hub_serve_sends_by_itself_once_the_window_closes_and_after_a_cut(
    tmp_path: Path, site: Site
) -> None:
    """Nobody runs ``hub online send``: ``hub serve`` tries every --online-every seconds."""
    hub = Hub(tmp_path / "hub")
    hub.serve_args = ["--online-every", "1"]
    hub.start()
    with running(hub):
        tables = set_up(hub, tmp_path)
        hub_cmd(hub, "enter", "1", *(f"{t} {400 + t} {300 + t}" for t, _, _ in tables))
        hub_cmd(hub, "publish-round", "1")
        hub_cmd(hub, "online", "target", site.url)
        time.sleep(3.5)  # three passes or more, inside the protest window
        assert site.stored == Counter()  # embargo: not a byte

        site.cut_after = 3  # the uplink drops after three pages
        conn = sqlite3.connect(hub.db_path)
        conn.execute("UPDATE tour_rounds SET published_at = published_at - 31 * 60")
        conn.commit()
        conn.close()
        wait_for(lambda: len(site.stored) == 3, 30, "the first three pages")
        wait_for(lambda: "results online: PUT" in hub.log(), 30, "the cut in the log")
        time.sleep(2.5)  # more passes against the cut uplink: logged once, not each time
        assert hub.log().count("results online: PUT") == 1, hub.log()
        assert "manifest.json" not in site.pages  # the manifest goes last

        site.cut_after = None  # the uplink is back
        wait_for(lambda: "manifest.sig" in site.pages, 30, "the rest, manifest last")
        assert set(site.stored.values()) == {1}  # no page sent twice
        assert len(site.pages) == 7
        wait_for(lambda: "reached again" in hub.log(), 30, "the recovery in the log")
        public = bytes.fromhex(hub_cmd(hub, "key", "public").split()[-1])
        verify_signature(
            public, LABEL + site.pages["manifest.json"],
            bytes.fromhex(site.pages["manifest.sig"].decode()),
        )  # fmt: skip
        assert "stránek ve frontě: 0, odeslaných: 7" in hub_cmd(hub, "online", "status")

"""The hall screen's server without a browser: ``hub serve`` prints its address and
``[screen] enabled = false`` switches it off; it answers only reads, with safe headers;
what it publishes holds no secret; its address reaches F1 (with a QR code) and the printed
pairings."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import segno
from screen_testkit import LiveHub

from samoobsluha.hub.web.config import ScreenConfigError, load
from samoobsluha.hub.web.qr import matrix, screen_urls, terminal

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def serve(data: Path, *extra: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``hub serve`` on loopback; returns the process and its first lines of output."""
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data)}
    proc = subprocess.Popen(
        [str(BIN / "hub"), "serve", "--host", "127.0.0.1", "--port", "0", "--no-mdns", *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    while True:  # the first run prints the new key first; the "listening" line comes last
        line = proc.stdout.readline()
        assert line, f"hub serve ended: {lines}"
        lines.append(line.rstrip())
        if "listening on" in line:
            break
    return proc, lines


def stop(proc: subprocess.Popen[str]) -> list[str]:
    proc.terminate()
    out, _ = proc.communicate(timeout=30)
    return out.splitlines()


def test_hub_serve_prints_the_address_and_the_config_switches_it_off(tmp_path: Path) -> None:
    port = free_port()
    (tmp_path / "hub.toml").write_text(f"[screen]\nport = {port}\n")
    proc, _ = serve(tmp_path)
    try:
        address = proc.stdout.readline() if proc.stdout else ""
        assert "hall screen" in address
        assert f"http://127.0.0.1:{port}/" in address  # bound to the hub's own address
        status, _, body = get(f"http://127.0.0.1:{port}/projector")
        assert status == 200 and b'data-view="projector"' in body
    finally:
        stop(proc)

    (tmp_path / "hub.toml").write_text(f"[screen]\nenabled = false\nport = {port}\n")
    proc, _ = serve(tmp_path)
    try:
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        rest = stop(proc)
    assert not any("hall screen" in line for line in rest)

    (tmp_path / "hub.toml").unlink()
    proc, _ = serve(tmp_path, "--screen-port", str(port), "--no-screen")
    try:
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        stop(proc)


def test_config_is_checked(tmp_path: Path) -> None:
    assert load(tmp_path).enabled is True  # no file: on, port 8080, the hub's address
    for text in (
        "[screen]\nenabled = 'no'\n",
        "[screen]\nport = 70000\n",
        "[screen]\nlang = 'de'\n",
        "[screen]\nbind = '1.2.3.4'\n",
        "[screen\n",
    ):
        (tmp_path / "hub.toml").write_text(text)
        with pytest.raises(ScreenConfigError):
            load(tmp_path)
    (tmp_path / "hub.toml").write_text("[screen]\ninterface = 'lo'\nport = 9000\n")
    settings = load(tmp_path)
    assert settings.bind_address("0.0.0.0") == "127.0.0.1"  # one interface, not all
    (tmp_path / "hub.toml").write_text("[screen]\ninterface = 'no-such-nic'\n")
    with pytest.raises(ScreenConfigError, match="no network interface"):
        load(tmp_path).bind_address("0.0.0.0")


def test_read_only_safe_and_without_secrets(hub: LiveHub) -> None:
    base = hub.url
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for path in ("", "events", "snapshot.json", "projector"):
            status, _, _ = get(base + path, method)
            assert status == 405, (method, path)
    for path in ("static/../hub.db", "static/hub.db", "hub.db", "tournament.key", "admin"):
        status, _, _ = get(base + path)
        assert status == 404, path
    status, headers, body = get(base)
    assert status == 200
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert len(body) < 100_000
    # nothing in the state but what the hall may see
    hub.publish_round(1)
    hub.call(hub.screen.refresh)
    _, _, raw = get(base + "snapshot.json")
    snap = json.loads(raw)
    assert set(snap) == {
        "name", "rules", "round", "players", "division", "tables", "where", "results",
        "standings", "cards", "plans", "playout", "v",
        "prizes", "sanctions",  # public: the prize list, sanctions published (ČAS 13.13)
    }  # fmt: skip
    # neither the hall secret nor any station's key appears, raw or hex
    keys = hub.server.keys
    for secret in (keys._secret, keys.station_key("st-1", 1), bytes(keys.signing_key)):
        assert secret not in raw and secret.hex().encode() not in raw
    assert b"station" not in raw and b"inbox" not in raw


def test_a_page_that_went_away_is_forgotten(hub: LiveHub) -> None:
    """A phone that left (its connection closed) stops costing the hub anything."""
    sock = socket.create_connection(("127.0.0.1", hub.screen.port))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    deadline = time.monotonic() + 60
    while not hub.screen.clients and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.screen.clients
    sock.close()
    while hub.screen.clients and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not hub.screen.clients  # the closed page was noticed and forgotten
    status, _, _ = get(hub.url + "snapshot.json")
    assert status == 200


def test_address_reaches_the_printed_pairings_as_a_qr_code(hub: LiveHub) -> None:
    urls = screen_urls(hub.service)
    assert urls == [hub.url]
    path = hub.service.export("pairings", "html", 1)
    page = path.read_text(encoding="utf-8")
    assert hub.url in page and "<svg" in page
    assert "Naskenujte telefonem" in page
    # the players' network of hub.toml: its name, password and a join code, printed first
    (hub.data / "hub.toml").write_text(
        '[screen]\nwifi = "SAMOOBSLUHA-HRACI"\nwifi_password = "scrabble2026"\n',
        encoding="utf-8",
    )
    page = hub.service.export("pairings", "html", 1).read_text(encoding="utf-8")
    assert "1. Připojte telefon k Wi-Fi pro hráče „SAMOOBSLUHA-HRACI“" in page
    assert "heslo: scrabble2026" in page and "2. Naskenujte telefonem" in page
    assert page.count("<svg") == 4  # two codes, on the by-table and the by-name page


def test_qr_codes_are_segnos_matrix() -> None:
    url = "http://192.168.8.1:8080/"
    rows = matrix(url, border=2)
    code = segno.make(url, micro=False, error="m")
    assert len(rows) == code.symbol_size(scale=1, border=2)[1]
    text = terminal(url)
    lines = text.plain.split("\n")
    assert len(lines) == (len(rows) + 1) // 2 and all(len(x) == len(rows[0]) for x in lines)
    # each "▀" stands for two modules: its colour the upper, its background the lower
    width = len(rows[0]) + 1  # a newline ends every text row
    drawn = [[False] * len(rows[0]) for _ in range(2 * len(lines))]
    for span in text.spans:
        style: Any = span.style
        for offset in range(span.start, span.end):
            y, x = divmod(offset, width)
            if x < len(rows[0]):
                drawn[2 * y][x] = style.color.name == "black"
                drawn[2 * y + 1][x] = style.bgcolor.name == "black"
    assert drawn[: len(rows)] == rows


def test_only_changes_the_page_shows_rebuild_it(hub: LiveHub) -> None:
    """Stations' statuses and word checks commit all day; they must not cost a rebuild."""
    from samoobsluha.hub import store as sync_store
    from samoobsluha.hub.entry import Entry
    from samoobsluha.hub.web import snapshot
    from samoobsluha.shared.storage import open_db

    before = snapshot.signature(hub.service)
    db = open_db(hub.service.db_path, sync_store.migrations)
    try:
        sync_store.save_status(db, "st-1", "e1", "127.0.0.1:1", {"backlog": 0}, hub.clock.now())
        sync_store.ingest(db, [("st-1", "e1", [[1, "challenge", "{}", hub.clock.now()]])], 1.0)
    finally:
        db.close()
    assert snapshot.signature(hub.service) == before
    rows, _ = hub.service.pairing_table(1)
    hub.service.enter_result(1, Entry(int(rows[0]["table"]), 400, 300))
    after_result = snapshot.signature(hub.service)
    assert after_result != before
    hub.publish_round(1)
    after_publish = snapshot.signature(hub.service)
    assert after_publish != after_result
    hub.call(lambda: hub.server.start_round(1, lead=30, force=True))  # it has a result
    assert snapshot.signature(hub.service) != after_publish

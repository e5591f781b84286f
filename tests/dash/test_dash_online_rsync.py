"""Results online to another machine through rsync: a real rsync daemon (Debian's rsync)
on 127.0.0.1 with a password, the pages the publisher renders over a real hub database.
Every page arrives whole and verifies; a wrong password is refused and nothing is marked
sent; a daemon that is down is a cut connection, and the next pass sends the rest."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dash_testkit import publish_round_one

from samoobsluha.hub import publisher
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.protocol import HallKeys
from samoobsluha.shared.storage import open_db

pytestmark = pytest.mark.skipif(shutil.which("rsync") is None, reason="rsync (./dev installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Daemon:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.site = root / "site"
        self.site.mkdir(parents=True)
        self.port = _free_port()
        secrets = root / "secrets"
        secrets.write_text("hub:hall-pass-2026\n")
        secrets.chmod(0o600)
        self.conf = root / "rsyncd.conf"
        self.conf.write_text(
            f"pid file = {root / 'rsyncd.pid'}\nuse chroot = no\n"
            f"uid = {os.getuid()}\ngid = {os.getgid()}\n"
            f"[results]\npath = {self.site}\nread only = no\n"
            f"auth users = hub\nsecrets file = {secrets}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        (self.root / "rsyncd.pid").unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            ["rsync", "--daemon", "--no-detach", f"--config={self.conf}",
             "--address=127.0.0.1", f"--port={self.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("the rsync daemon did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Daemon]:
    d = Daemon(tmp_path / "rsyncd")
    d.start()
    yield d
    d.stop()


def test_pages_reach_an_rsync_daemon_whole_and_a_wrong_password_sends_nothing(
    service: HubService, clock: FakeClock, daemon: Daemon, tmp_path: Path
) -> None:
    closes = publish_round_one(service)
    keys = HallKeys(bytes(32))
    wrong, right = tmp_path / "wrong.txt", tmp_path / "password.txt"
    wrong.write_text("guess\n")
    right.write_text("hall-pass-2026\n")
    url = f"rsync://hub@127.0.0.1:{daemon.port}/results/mcr-2026"
    db = open_db(service.db_path, publisher.migrations)
    try:
        # the right password a second before the protest window closes: not a byte
        publisher.set_target(db, url, str(right))
        done = publisher.publish_pass(db, keys, "t-test", closes - 1, "cs")
        assert done.code == 0 and done.sent == [] and publisher.pending(db) == (0, 0)
        assert not any(daemon.site.rglob("*"))

        # a wrong password: refused by the daemon, nothing marked sent
        publisher.set_target(db, url, str(wrong))
        done = publisher.publish_pass(db, keys, "t-test", closes, "cs")
        assert done.code == 1 and done.sent == [] and "auth failed" in done.error, done
        queued, sent = publisher.pending(db)
        assert queued == 7 and sent == 0
        assert not any(daemon.site.rglob("*.html"))

        # the daemon is down: a cut connection, still nothing marked sent
        publisher.set_target(db, url, str(right))
        daemon.stop()
        done = publisher.publish_pass(db, keys, "t-test", closes, "cs")
        assert done.code == 1 and done.sent == [] and done.error.startswith("rsync ")
        assert publisher.pending(db) == (7, 0)

        # back up: every page arrives, the manifest last, and the copy verifies
        daemon.start()
        done = publisher.publish_pass(db, keys, "t-test", closes, "cs")
        assert done.code == 0 and done.sent[-2:] == ["manifest.json", "manifest.sig"], done
        assert publisher.pending(db) == (0, 7)
        copy = daemon.site / "mcr-2026"
        names = {str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file()}
        assert names == {
            "index.html", "round-1/pairings.html", "round-1/results.html", "standings.html",
            "tournament.t", "manifest.json", "manifest.sig",
        }  # fmt: skip
        assert publisher.verify_copy(copy, keys.public_key) == []
        assert all(p.stat().st_mode & 0o777 == 0o644 for p in copy.rglob("*") if p.is_file())
        # the next pass has nothing to send: no page twice
        sent_at = {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()}
        assert publisher.publish_pass(db, keys, "t-test", closes + 60, "cs").sent == []
        assert {p: p.stat().st_mtime_ns for p in copy.rglob("*") if p.is_file()} == sent_at
        # a page changed on the far side is caught by the signature check
        page = copy / "round-1" / "results.html"
        page.write_bytes(page.read_bytes().replace(b"400", b"499", 1))
        assert publisher.verify_copy(copy, keys.public_key)
    finally:
        db.close()


def test_an_rsync_target_is_told_from_a_folder_and_a_url() -> None:
    assert isinstance(publisher.parse_target("rsync://h/m/p"), publisher.RsyncTarget)
    over_ssh = publisher.parse_target("vysledky@example.org:/srv/www")
    assert isinstance(over_ssh, publisher.RsyncTarget)
    assert isinstance(publisher.parse_target("/media/usb/vysledky"), publisher.FolderTarget)
    assert isinstance(publisher.parse_target("file:///media/usb"), publisher.FolderTarget)
    assert isinstance(publisher.parse_target("https://example.org/dav/"), publisher.HttpTarget)
    with pytest.raises(publisher.PublishError, match="rsync over SSH"):
        publisher.parse_target("relative/folder")

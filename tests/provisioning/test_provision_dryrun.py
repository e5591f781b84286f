"""The card, proven on every change: provisioning/dry-run.sh on this machine's architecture
(debootstrap of a Debian root like Raspberry Pi OS Lite, the offline bundle, "hub provision"
onto a stock-like boot partition, install.sh with no network, then its checks: secrets gone
from the card, every kiosk start-up failure on the red screen, the station root booted
under systemd-nspawn with a damaged data partition, hall-check failing on a bad clock,
root or data mount).

It needs root and debootstrap (./dev setup installs it); the Debian base root, the bundle's
apt lists and packages are cached under .cache/ in this clone, so only the first run
downloads (~3 min more). Where it cannot run it is skipped, and says so on the terminal."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.dryrun

REPO = Path(__file__).resolve().parents[2]
MIRROR_HOST = "deb.debian.org"
RELEASE = "bookworm"


def _arch() -> str:
    done = subprocess.run(
        ["dpkg", "--print-architecture"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "amd64"


def _why_not(work: Path) -> str | None:
    if os.geteuid() != 0:
        return "not root (debootstrap, chroot, unshare and mounts need it)"
    for tool in ("debootstrap", "unshare", "chroot", "systemd-nspawn", "script", "dpkg"):
        if shutil.which(tool) is None:
            return f"{tool} is missing (./dev setup installs debootstrap and systemd-container)"
    if subprocess.run(["unshare", "--net", "true"], check=False).returncode != 0:
        return "unshare --net is not allowed here (a container without CAP_SYS_ADMIN?)"
    if not (work / "base" / "usr" / "bin" / "python3").exists():
        try:
            socket.create_connection((MIRROR_HOST, 80), timeout=10).close()
        except OSError as exc:
            return f"no cached base root and {MIRROR_HOST} is unreachable ({exc})"
    if not (REPO / ".venv" / "bin" / "hub").exists():
        return "no .venv/bin/hub (run ./dev setup)"
    return None


def _loudly(config: pytest.Config, message: str) -> None:
    """A banner past pytest's output capture (on the terminal, in the CI log), and a
    warning in the summary."""
    banner = "\n" + "!" * 78 + f"\n!!! {message}\n" + "!" * 78 + "\n"
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:
        with capture.global_and_fixture_disabled():
            print(banner, file=sys.stderr, flush=True)
    else:
        print(banner, file=sys.stderr, flush=True)
    warnings.warn(message, stacklevel=2)


# A fresh .cache (debootstrap of the base) alone takes ~3 min: the default 240 s would kill
# the run and leave its mounts behind.
@pytest.mark.timeout(1800)
def test_native_dry_run_passes_every_check(
    pytestconfig: pytest.Config, cs_lexicon_path: Path
) -> None:
    arch = _arch()
    work = REPO / ".cache" / "dry-run" / f"{arch}-{RELEASE}"
    reason = _why_not(work)
    if reason is not None:
        _loudly(pytestconfig, f"THE PROVISIONING DRY RUN DID NOT RUN: {reason}")
        pytest.skip(f"provisioning dry run not run: {reason}")
    work.mkdir(parents=True, exist_ok=True)
    log = work.parent / f"{arch}-{RELEASE}.log"
    with log.open("w") as out:
        done = subprocess.run(
            [str(REPO / "provisioning" / "dry-run.sh"), "--arch", arch, "--release", RELEASE],
            env={**os.environ, "LEXICON": str(cs_lexicon_path)},
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
    rows = [
        line.split("\t", 1)
        for line in (work / "checks.tsv").read_text().splitlines()
        if "\t" in line
    ]
    failed = [what for state, what in rows if state == "FAIL"]
    assert done.returncode == 0 and not failed, f"failed: {failed}\n{tail}\n(full log: {log})"
    passed = [what for state, what in rows if state == "ok"]
    # Every role's checks ran (a script that stopped early or skipped checks cannot pass):
    # 102 on 2026-12-03 (the hub's and the station's common checks count twice; the
    # bundle's architecture check, one bundle for both cards, once).
    assert len(passed) >= 100, f"only {len(passed)} checks passed:\n{tail}"
    for needed in (
        "secrets: the card's own key, PIN hash, password hash nowhere on it",
        "--image of the other release refused, card untouched",
        "kiosk: data partition missing -> the data screen, no word check",
        "kiosk: data partition full -> the disk screen, no word check",
        "kiosk: lexicon missing -> the lexicon screen (exit 2)",
        "kiosk: station.toml broken -> the config screen (exit 2)",
        "boot (nspawn): unmountable data partition -> kiosk unit runs, red screen on its tty, "
        "not only in the journal",
        "hall-check fails while the station's clock is not synchronised",
        "hall-check fails when the station's root is not a read-only overlay",
        "hall-check fails when the station's data partition is not mounted",
        "hall-check fails when the station's kiosk unit restarts in a loop (no word check)",
        "hall-check passes: overlay, data, lexicon per station, clock synchronised, "
        "word check running",
        # the display the card ships by default boots, and a broken one ends on a red screen
        f"boot (nspawn): the default display (cage + foot, {RELEASE}'s own) reaches the word "
        "check and keeps it",
        "boot (nspawn): the display broken (no cage) -> the display red screen, recorded",
        "foot.ini unbinds every key " + RELEASE + "'s foot binds by default (its manual)",
    ):
        assert needed in passed, f"{needed!r} did not pass:\n{tail}"

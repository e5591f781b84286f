"""The kiosk's display path with Debian's own cage and foot: cage starts without Xwayland
(Bookworm's cage 0.1.4 exits 1 without it unless wlroots is told otherwise), foot's
configuration binds nothing, a display that cannot start ends on the red screen, and a
word check killed by a signal ends on it too."""

from __future__ import annotations

import configparser
import gzip
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAYLOAD = REPO / "hub" / "provision" / "payload"
VENV_PY = REPO / ".venv" / "bin" / "python"
FOOT_MAN = Path("/usr/share/man/man5/foot.ini.5.gz")


def need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:  # ./dev setup installs them (APT_PACKAGES): a missing one is a broken setup
        pytest.fail(f"{tool} is not installed: run ./dev setup")
    return path


def as_nobody() -> None:
    if os.geteuid() != 0:
        pytest.skip("cage refuses to run as root and the test switches to nobody: needs root")


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A directory nobody can reach (pytest's tmp_path is inside root's 0700 directory)."""
    path = Path(tempfile.mkdtemp(prefix="samoobsluha-display-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _session(
    tmp_path: Path, inner: str, extra_path: str = "/usr/bin:/bin", user: str = "nobody"
) -> tuple[int, str, Path]:
    """Runs kiosk-session (cage path, wlroots' headless backend) as ``user`` in a private
    mount namespace whose /tmp/.X11-unix is empty and root's, as the unit's PrivateTmp=
    gives it (this machine's may belong to someone else: wlroots refuses that too)."""
    run = tmp_path / "run"
    xdg = tmp_path / "xdg"
    for d in (run, xdg):
        d.mkdir()
        os.chown(d, 65534, 65534)
        d.chmod(0o700)
    script = tmp_path / "inner"
    script.write_text("#!/bin/bash\n" + inner)
    script.chmod(0o755)
    env = {
        "PATH": extra_path,
        "XDG_RUNTIME_DIR": str(xdg),
        "WLR_BACKENDS": "headless",
        "WLR_RENDERER": "pixman",
        "RUNTIME_DIRECTORY": str(run),
        "KIOSK_INNER": str(script),
        "KIOSK_LIB": str(PAYLOAD),
        "FALLBACK_SECONDS": "0",
        "FALLBACK_PYTHON": str(VENV_PY),
        "PYTHONPATH": str(REPO.parent),
        "LANG": "C.UTF-8",
    }
    inner_cmd = (
        "{ [ ! -d /tmp/.X11-unix ] || mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix; } && "
        f"exec runuser -u {user} -- env -i "
        + " ".join(f"{k}={v}" for k, v in env.items())
        + f" bash {PAYLOAD / 'kiosk-session'}"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", inner_cmd],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr, run


def test_default_display_starts_without_xwayland(open_dir: Path) -> None:
    as_nobody()
    need("cage")
    need("foot")
    assert not Path("/usr/bin/Xwayland").exists(), "the point is a machine without Xwayland"
    rc, out, run = _session(
        open_dir,
        'touch "$RUNTIME_DIRECTORY/inner-started"\n'
        'echo "display=$WAYLAND_DISPLAY term=$TERM" > "$RUNTIME_DIRECTORY/inner.out"\n',
    )
    assert rc == 0, out
    assert (run / "inner.out").read_text().startswith("display=wayland-"), out
    assert "Cannot create XWayland server" not in out
    assert not (run / "fallback").exists()


def test_cage_without_the_fix_is_what_bookworm_did(open_dir: Path) -> None:
    """The failure itself, reproduced with Debian's cage: WLR_XWAYLAND pointing at a missing
    program is treated as set (no fix), so point it nowhere by unsetting the fix's path."""
    as_nobody()
    need("cage")
    xdg = open_dir / "xdg"
    xdg.mkdir()
    os.chown(xdg, 65534, 65534)
    xdg.chmod(0o700)
    done = subprocess.run(
        [
            "unshare",
            "-m",
            "sh",
            "-c",
            "{ [ ! -d /tmp/.X11-unix ] || mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix; } && "
            f"exec runuser -u nobody -- env -i PATH=/usr/bin:/bin "
            f"XDG_RUNTIME_DIR={xdg} WLR_BACKENDS=headless WLR_RENDERER=pixman cage -- true",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if Path("/usr/bin/Xwayland").exists():
        pytest.skip("Xwayland is installed here")
    cage_version = subprocess.run(["cage", "-v"], capture_output=True, text=True).stdout
    if "0.1." in cage_version:  # Bookworm's cage: fatal; Trixie's 0.2 carries on without X
        assert done.returncode == 1
        assert "Cannot find Xwayland binary" in done.stderr


def test_broken_display_ends_on_the_red_screen(tmp_path: Path) -> None:
    """cage missing from PATH (or dying at start): kiosk-inner never runs, so the session
    shows the display screen on the console and records it for hall-check."""
    as_nobody()
    empty = tmp_path / "bin"
    empty.mkdir()
    for tool in ("bash", "tee", "cat", "head", "sed", "rm", "sleep", "env", "clear"):
        found = shutil.which(tool)
        if found:
            (empty / tool).symlink_to(found)
    rc, out, run = _session(tmp_path, "exit 0\n", extra_path=str(empty), user="root")
    assert rc == 1
    assert (run / "fallback").read_text() == "display\n"
    assert "STANICE SE NESPUSTILA" in out and "Obrazovka (cage a foot) se nespustila" in out


def _foot_ini() -> configparser.ConfigParser:
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(PAYLOAD / "foot.ini")
    return ini


def test_foot_ini_binds_nothing_and_foot_accepts_it() -> None:
    foot = need("foot")
    done = subprocess.run(
        [foot, "--check-config", f"--config={PAYLOAD / 'foot.ini'}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr  # an unknown name would show a warning bar
    ini = _foot_ini()
    for section in ("key-bindings", "mouse-bindings"):
        assert ini[section], section
        assert {v for v in ini[section].values()} == {"none"}, section
    assert ini["scrollback"]["lines"] == "0"
    # Every action foot's own manual lists under [key-bindings] (its defaults included:
    # Control+plus, Control+Shift+n, Control+Shift+u, Control+Shift+v, ...) is unbound.
    if not FOOT_MAN.exists():
        pytest.fail(f"{FOOT_MAN} missing: foot's manual is the list of its actions")
    man = gzip.decompress(FOOT_MAN.read_bytes()).decode()
    keys = man[man.index("SECTION: key-bindings") : man.index("SECTION: search-bindings")]
    actions = set(re.findall(r"^\\fB([a-z][a-z0-9-]+)\\fR", keys, re.M)) - {"foot", "noop"}
    actions -= {"pipe-visible"}  # no default binding; 1.21 refuses it without a command
    assert actions, "foot's manual changed its layout"
    assert actions <= set(ini["key-bindings"]), sorted(actions - set(ini["key-bindings"]))
    mouse = man[man.index("SECTION: mouse-bindings") :]
    mouse = mouse[: mouse.index("\n.SH", 1)] if "\n.SH" in mouse[1:] else mouse
    mouse_actions = set(re.findall(r"^\\fB((?:select|primary)[a-z-]*)\\fR", mouse, re.M))
    mouse_actions.discard("selection-override-modifiers")  # a modifier list, no action
    assert mouse_actions, "foot's manual changed its layout"
    assert mouse_actions <= set(ini["mouse-bindings"]), sorted(mouse_actions)
    # Ctrl+wheel changes the font size in foot 1.21 (Trixie): unbound too
    assert (
        ini["mouse-bindings"]["font-increase"] == ini["mouse-bindings"]["font-decrease"] == "none"
    )


def test_kiosk_session_uses_the_kiosk_foot_ini() -> None:
    text = (PAYLOAD / "kiosk-session").read_text()
    assert '--config="$lib/foot.ini"' in text and "cage -d --" in text

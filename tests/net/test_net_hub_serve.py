"""``hub serve`` with no arguments: first run creates the tournament and its key."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

from net_procs import free_port, wait_for

from samoobsluha.shared.protocol import HallKeys, parse_psk

HUB = str(Path(sys.executable).parent / "hub")


def _serve(data: Path, port: int) -> tuple[str, str]:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data)}
    proc = subprocess.Popen(
        [HUB, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-mdns"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(
            lambda: subprocess.run([HUB, "stations"], env=env, capture_output=True).returncode == 0,
            10,
            "the hub answering on its control socket",
        )
        # only the hub's own user may drive it
        assert stat.S_IMODE((data / "hub.sock").stat().st_mode) & 0o077 == 0
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert not (data / "hub.sock").exists()  # cleaned up on the way out
    return out, err


def test_first_run_creates_tournament_and_key(tmp_path: Path) -> None:
    data = tmp_path / "hub"
    out, err = _serve(data, free_port())
    key_file = data / "tournament.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = parse_psk(key_file.read_text())
    # the hall secret never reaches stdout or the log (the journal keeps both); the
    # public key stations pin does
    assert key.hex() not in out and key.hex() not in err
    assert HallKeys(key).public_key.hex() in out and "hub provision station" in out
    # second run: same tournament and key
    out2, err2 = _serve(data, free_port())
    assert key.hex() not in out2 + err2
    assert parse_psk(key_file.read_text()) == key


def test_commands_say_when_the_hub_is_not_running(tmp_path: Path) -> None:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(tmp_path)}
    res = subprocess.run([HUB, "gong"], env=env, capture_output=True, text=True)
    # In the command line's language (the suite pins SAMOOBSLUHA_LANG=cs).
    assert res.returncode == 2 and "server hubu neběží" in res.stderr

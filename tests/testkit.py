"""Small helpers the tests of several areas share (``tests/`` is on pytest's path)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

    from samoobsluha.hub.server import HubServer


async def until(cond: Callable[[], Any], timeout: float = 20.0) -> None:
    """Wait (in the running loop) until ``cond()`` is true; fail after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def hub_for_a_station(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HubServer:
    """A real hub on 127.0.0.1 (no mDNS), started, with its hall secret in
    ``tmp_path/tournament.key`` for the station's ``psk_file``; the station under test
    keeps its data in ``tmp_path/station``. The caller closes the hub."""
    from samoobsluha.hub.server import HubServer
    from samoobsluha.shared.protocol import new_psk

    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "station"))
    psk = new_psk()
    (tmp_path / "tournament.key").write_text(psk.hex())
    hub = HubServer(tmp_path / "hub.db", psk, host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    return hub


def hub_signed(lexicon: Path, folder: Path, key: bytes | Path) -> Path:
    """A copy of ``lexicon`` in ``folder`` (the file itself when it is there), signed by
    the hub whose hall secret is ``key`` (the bytes, or its ``tournament.key`` file) — the
    real way, with the hub's Ed25519 key (shared/lextrust.py), as ``hub lexicon build`` /
    ``sign``, a push or provisioning sign it. A station that pins that hub judges with
    it; one that pins any other refuses it."""
    import shutil

    from samoobsluha.shared.lextrust import sign_lexicon
    from samoobsluha.shared.protocol import HallKeys, parse_psk

    secret = key if isinstance(key, bytes) else parse_psk(key.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / lexicon.name
    if copy.resolve() != lexicon.resolve():  # else: signed again where it is
        shutil.copyfile(lexicon, copy)
    sign_lexicon(copy, HallKeys(secret))
    return copy

"""The running hub's local control socket.

``hub serve`` listens on a Unix socket (``<data dir>/hub.sock``, mode 0600: only the hub's
own user on the hub's own machine) so that ``hub round start 3``, ``hub gong`` … act on
the server that is connected to the stations. One JSON object a line each way:
``{"op": "start_round", "number": 3}`` → ``{"ok": true, "result": {...}}`` or
``{"ok": false, "error": "..."}`` — with ``"phrase": {"key": …, "values": {…}}`` when the
refusal is a catalogue :class:`~shared.i18n.Phrase`, so each client shows it in its own
language.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import Any

from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.lexicon import LexiconError
from samoobsluha.shared.paths import data_dir

from .server import HubServer

OPS = (
    "stations",
    "rounds",
    "start_round",
    "change_round",
    "gong",
    "publish",
    "push_lexicon",
    "deliveries",
    "revoke",
    "info",
    "rehearse",
)


def socket_path() -> Path:
    return data_dir() / "hub.sock"


class ControlError(Exception):
    """The hub is not running, or refused the request."""


async def start_control(server: HubServer, path: Path | None = None) -> asyncio.AbstractServer:
    path = path or socket_path()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while line := await reader.readline():
                try:
                    req = json.loads(line)
                    result = await _dispatch(server, req)
                    reply: dict[str, Any] = {"ok": True, "result": result}
                except (ValueError, TypeError, KeyError, OSError, LexiconError) as exc:
                    reply = {"ok": False, "error": str(exc)}
                    if len(exc.args) == 1 and isinstance(exc.args[0], Phrase):
                        # the client shows it in its own language (error_text)
                        reply["phrase"] = exc.args[0].to_data()
                writer.write(json.dumps(reply, ensure_ascii=False).encode() + b"\n")
                await writer.drain()
        finally:
            writer.close()

    old_umask = os.umask(0o177)
    try:
        # a publication may be up to one frame (1 MiB) of JSON on one line
        srv = await asyncio.start_unix_server(handle, path, limit=4 * (1 << 20))
    finally:
        os.umask(old_umask)
    return srv


async def _dispatch(server: HubServer, req: dict[str, Any]) -> Any:
    op = req.get("op")
    if op not in OPS:
        raise ValueError(f"unknown operation {op!r}")
    if op == "info":
        return {
            "tournament": server.tournament,
            "hub": server.hub_id,
            "port": server.port,
            "hub_public_key": server.keys.public_key.hex(),
            "refused": server.refused_unauthenticated,
            "connected": sorted(server.conns),
            "screen": list(server.screen_urls),
            "backup": server.backups.status(),
            "rivals": server.rivals.list() if server.rivals is not None else [],
            "standbys": server.standby.list() if server.standby is not None else [],
            "replaced_by": server.replaced_by,
            "seat": server.seat,
            "followed_elsewhere": dict(server.followed_elsewhere),
            "projector": list(server.projector_urls),
        }
    if op == "stations":
        return await server.stations()
    if op == "rounds":
        return await server.rounds()
    if op == "start_round":
        return await server.start_round(
            int(req["number"]),
            at=req.get("at"),
            lead=float(req.get("lead", 5.0)),
            basic_seconds=float(req.get("basic_seconds", 40 * 60)),
            warning_seconds=float(req.get("warning_seconds", 10 * 60)),
            force=bool(req.get("force", False)),
        )
    if op == "change_round":
        return await server.change_round(
            int(req["number"]), str(req["action"]), float(req.get("seconds", 0))
        )
    if op == "gong":
        return await server.gong(str(req.get("signal", "start")))
    if op == "publish":
        return await server.publish(str(req["kind"]), req["data"])
    if op == "rehearse":  # hub rehearse: the hall check (hub/rehearse.py)
        from . import rehearse

        return await rehearse.broadcast(
            server,
            lead=float(req.get("lead", rehearse.DEFAULT_LEAD)),
            wait=float(req.get("wait", rehearse.DEFAULT_WAIT)),
            keyboard=bool(req.get("keyboard", True)),
            button=bool(req.get("button", True)),
            letters=rehearse.checked_letters(req.get("letters")),
            during_round=bool(req.get("during_round", False)),
        )
    if op == "push_lexicon":
        # "file", not "path": request()'s own path= is the control socket's
        return await server.push_lexicon(str(req.get("file") or req["path"]))
    if op == "revoke":
        return await server.revoke_station(str(req["station"]))
    return await server.deliveries(str(req["id"]))


def request(op: str, path: Path | None = None, timeout: float = 10.0, **args: Any) -> Any:
    """Send one request to the running hub (blocking; for the command line)."""
    import socket

    path = path or socket_path()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise ControlError(Phrase("err.hub_not_running", path=str(path))) from None
        sock.sendall(json.dumps({"op": op, **args}).encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    if not data:
        raise ControlError(Phrase("err.hub_closed"))
    reply = json.loads(data)
    if not reply.get("ok"):
        if "phrase" in reply:
            raise ControlError(Phrase.from_data(reply["phrase"]))
        raise ControlError(reply.get("error", "refused"))
    return reply["result"]

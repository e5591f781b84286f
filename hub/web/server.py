"""The hall screen's web server: read-only pages for the projector and the players' phones.

It runs in the hub's own asyncio loop (aiohttp), on its own listening socket — nothing
shared with the station link's connection handling. What it does:

* ``GET /`` the phone view, ``GET /projector`` the projector view (one small page, its
  script and style under ``/static/``; no external assets);
* ``GET /events`` Server-Sent Events: ``snap`` (the whole state, :mod:`hub.web.snapshot`)
  on connect, ``patch`` (the top-level parts that changed) whenever it changes, ``tick``
  (the hub's clock) every second;
* ``GET /snapshot.json`` the same state once.

Nothing else answers: other methods get 405, unknown paths 404. Changes are noticed by
polling SQLite's ``PRAGMA data_version`` on a read-only connection (it moves whenever any
other connection — the station link, the dashboard, the ``hub`` commands — commits), so
an approved result or a published round reaches the pages well within a second without
the rest of the hub knowing the screen exists. A cheap signature (the tournament's
revision, the published items, the round plans) tells whether the commit concerns the
page at all — most commits are stations' statuses and word checks; only then is the state
rebuilt, in one worker thread, and the parts that differ pushed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from aiohttp import web

from samoobsluha.hub.service import HubService
from samoobsluha.hub.web import snapshot
from samoobsluha.hub.web.config import WebLimits, local_addresses
from samoobsluha.hub.web.descriptors import throttle_descriptor_errors
from samoobsluha.hub.web.limits import Counted, GatedSite
from samoobsluha.shared.i18n import LANGUAGES, MESSAGES
from samoobsluha.shared.protocol import PeerLog
from samoobsluha.shared.storage import open_watch

log = logging.getLogger("hub.web")

POLL = 0.1  # seconds between data_version checks (a cheap pragma, no disk read)
MIN_REBUILD = 0.1  # pause after a rebuild: a busy station link commits many times a second
TICK = 1.0  # the clock's heartbeat to every page
CLIENT_QUEUE = 32  # messages a slow page may lag behind before it is dropped
RETRY_MS = 2000  # EventSource reconnect delay after the hub went away

# Catalogue entries the page uses (the kiosk's and the print's terms, plus screen.*).
I18N_PREFIXES = (
    "screen.",
    "kiosk.round.",
    "kiosk.where.",
    "tour.col.",
    "tour.kind.",
    "tour.standings",
    "tour.bye",
    "tour.win",
    "tour.loss",
    "tour.draw",
    "print.prizes",
    "print.sanctions.published",
)

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


def i18n_subset() -> dict[str, dict[str, str]]:
    """The page's messages; a plural message gives the page its general form."""

    def text(entry: dict[str, Any], lang: str) -> str:
        value = entry.get(lang) or entry.get("en") or entry["cs"]
        return str(value.get("other", "") if isinstance(value, dict) else value)

    return {
        key: {lang: text(entry, lang) for lang in LANGUAGES}
        for key, entry in MESSAGES.items()
        if key.startswith(I18N_PREFIXES)
    }


def _static(name: str) -> bytes:
    return resources.files("samoobsluha.hub.web").joinpath("static", name).read_bytes()


class ScreenServer:
    """The hall screen over one :class:`HubService` (its clock is the hub's clock)."""

    def __init__(
        self,
        service: HubService,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        lang: str = "cs",
        max_clients: int | None = None,
        limits: WebLimits | None = None,
        poll: float = POLL,
        tick: float = TICK,
    ) -> None:
        self.service = service
        self.host = host
        self.port = port
        self.lang = lang if lang in LANGUAGES else "cs"
        self.limits = limits or WebLimits()
        if max_clients is not None:
            self.limits.max_streams = max_clients
        self.max_clients = self.limits.max_streams
        refusals = PeerLog(log)
        self.connections = Counted(
            "connection",
            self.limits.per_address,
            self.limits.effective_max_connections(),
            self.limits.projector,
            self.limits.reserved,
            refusals,
        )
        self.streams = Counted(
            "live page",
            self.limits.streams_per_address,
            self.limits.max_streams,
            self.limits.projector,
            self.limits.reserved,
            refusals,
        )
        self.poll = poll
        self.tick = tick
        self.snap: dict[str, Any] = {}
        self.snap_json = "{}"
        self.updates = 0  # how many times the state changed (for tests and the bench)
        self.clients: set[asyncio.Queue[bytes | None]] = set()
        self._runner: web.AppRunner | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="screen")
        self._watch: sqlite3.Connection | None = None
        self._version: int | None = None
        self._signature = ""
        self._changed = asyncio.Event()
        # JSON inside <script type="application/json">: entities are not decoded there, so
        # the characters that could end the element are escaped the JSON way
        self._i18n = _script_json(json.dumps(i18n_subset(), ensure_ascii=False))
        self._page = _static("index.html").decode()
        self._assets = {name: _static(name) for name in ("screen.js", "screen.css")}

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        await self._rebuild()
        app = web.Application(client_max_size=1024, middlewares=[_headers])
        app.router.add_get("/", self._phone)
        app.router.add_get("/projector", self._projector)
        app.router.add_get("/events", self._events)
        app.router.add_get("/snapshot.json", self._snapshot)
        app.router.add_get("/static/{name}", self._asset)
        throttle_descriptor_errors()
        # a hub stopping waits at most 2 s for pages (they reconnect to the next hub);
        # aiohttp's keepalive_timeout runs from accept (and from each answer) until a
        # complete request head: the header and idle timeout (hub.web.limits)
        self._runner = web.AppRunner(
            app,
            access_log=None,
            handle_signals=False,
            shutdown_timeout=2.0,
            keepalive_timeout=self.limits.header_timeout,
            max_line_size=4096,
            max_field_size=4096,
            max_headers=64,
        )
        await self._runner.setup()
        site = GatedSite(self._runner, self.host, self.port, self.connections)
        await site.start()
        if site.sockets:  # the bound port when 0 was asked
            self.port = site.sockets[0].getsockname()[1]
        self._tasks = [
            asyncio.create_task(self._watch_loop()),
            asyncio.create_task(self._push_loop()),
            asyncio.create_task(self._tick_loop()),
        ]
        log.info("hall screen on %s", ", ".join(self.urls()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for queue in list(self.clients):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        self._pool.shutdown(wait=False, cancel_futures=True)

    def urls(self) -> list[str]:
        """The addresses a phone can open (every LAN address when listening on all)."""
        hosts = local_addresses() if self.host in ("0.0.0.0", "::", "") else [self.host]
        return [
            f"http://[{h}]:{self.port}/" if ":" in h else f"http://{h}:{self.port}/" for h in hosts
        ]

    # -- state --------------------------------------------------------------------------------
    def _data_version(self) -> int | None:
        try:
            if self._watch is None:
                self._watch = open_watch(self.service.db_path)
            return int(self._watch.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error as exc:
            log.debug("data_version: %s", exc)
            if self._watch is not None:
                self._watch.close()
                self._watch = None
            return None

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            version = self._data_version()
            if version is not None and version != self._version:
                self._version = version
                self._changed.set()

    async def _push_loop(self) -> None:
        while True:
            await self._changed.wait()
            self._changed.clear()
            try:
                await self._rebuild(check=True)
            except Exception:
                log.exception("hall screen: cannot read the tournament")
            await asyncio.sleep(MIN_REBUILD)

    def _build(self, check: bool) -> dict[str, Any] | None:
        """(worker thread) The new state, or None when the signature says nothing the
        page shows has changed (a station's status, a word check)."""
        signature = snapshot.signature(self.service)
        if check and signature == self._signature:
            return None
        snap = snapshot.build(self.service)
        self._signature = signature
        return snap

    async def _rebuild(self, check: bool = False) -> bool:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        snap = await loop.run_in_executor(self._pool, self._build, check)
        if snap is None:
            return False
        if snap.get("v") == self.snap.get("v"):
            return False
        # Only the parts that changed travel: an approved result is a ~1 kB patch of
        # "results", not the 70 kB of standings and every player's games of round 9,
        # times every phone on the hall's Wi-Fi.
        patch = {key: value for key, value in snap.items() if self.snap.get(key) != value}
        self.snap = snap
        self.snap_json = snapshot.dumps(snap)
        self.updates += 1
        self._broadcast(_event("patch", snapshot.dumps(patch)))
        log.info(
            "hall screen: update %d (%s) built in %.0f ms, sent to %d page(s)",
            self.updates,
            ", ".join(sorted(k for k in patch if k != "v")),
            (time.monotonic() - started) * 1000,
            len(self.clients),
        )
        return True

    async def refresh(self) -> bool:
        """Rebuild now (tests and callers that just changed something); True if it changed."""
        return await self._rebuild()

    async def _tick_loop(self) -> None:
        while True:
            self._broadcast(_event("tick", json.dumps({"now": self.service.clock.now()})))
            await asyncio.sleep(self.tick)

    def _broadcast(self, message: bytes) -> None:
        for queue in list(self.clients):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:  # a page that does not read: let it reconnect
                self.clients.discard(queue)
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
                queue.put_nowait(None)

    # -- handlers -----------------------------------------------------------------------------
    def _render(self, request: web.Request, view: str) -> web.Response:
        """The page with the state and the hub's time in it, so the first paint already
        shows the clock, the tables and the projector's paging at their final sizes (the
        event stream then keeps it current)."""
        lang = request.query.get("lang", "")
        boot = _script_json(f'{{"snap":{self.snap_json},"now":{self.service.clock.now()!r}}}')
        page = (
            self._page.replace("{{VIEW}}", view)
            .replace("{{LANG}}", lang if lang in LANGUAGES else self.lang)
            .replace("{{I18N}}", self._i18n)
            .replace("{{BOOT}}", boot)
        )
        return web.Response(text=page, content_type="text/html", charset="utf-8")

    async def _phone(self, request: web.Request) -> web.Response:
        return self._render(request, "phone")

    async def _projector(self, request: web.Request) -> web.Response:
        return self._render(request, "projector")

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = self._assets.get(name)
        if body is None:
            raise web.HTTPNotFound()
        ctype = "application/javascript" if name.endswith(".js") else "text/css"
        return web.Response(body=body, content_type=ctype, charset="utf-8")

    async def _snapshot(self, request: web.Request) -> web.Response:
        return web.Response(text=self.snap_json, content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        slot = self.streams.acquire(request.remote or "")
        if slot is None:
            raise web.HTTPServiceUnavailable(text="busy", headers={"Retry-After": "5"})
        try:
            return await self._stream(request)
        finally:
            self.streams.release(slot)

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(
            headers={
                **SECURITY_HEADERS,
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",
            }
        )
        queue: asyncio.Queue[bytes | None] = asyncio.Queue(CLIENT_QUEUE)
        await resp.prepare(request)
        self.clients.add(queue)
        timeout = self.limits.write_timeout

        async def write(data: bytes) -> None:
            # a page that stopped reading holds its connection until its socket buffer
            # drains: not longer than the write timeout
            async with asyncio.timeout(timeout):
                await resp.write(data)

        try:
            await write(f"retry: {RETRY_MS}\n\n".encode())
            await write(_event("snap", self.snap_json))
            await write(_event("tick", json.dumps({"now": self.service.clock.now()})))
            while True:
                message = await queue.get()
                if message is None:
                    break
                await write(message)
        except (ConnectionError, TimeoutError):
            if request.transport is not None:
                request.transport.abort()
        finally:
            self.clients.discard(queue)
        return resp


def _script_json(text: str) -> str:
    """JSON for inside ``<script type="application/json">``: entities are not decoded
    there, so the characters that could end the element are escaped the JSON way."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _event(name: str, data: str) -> bytes:
    return f"event: {name}\ndata: {data}\n\n".encode()


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    resp: web.StreamResponse = await handler(request)
    for key, value in SECURITY_HEADERS.items():
        resp.headers.setdefault(key, value)
    return resp

"""``hub run``: the chief referee's and operator's dashboard (Textual).

One screen per job, switched with F1–F5 and F12 (Textual modes; F6–F10 are the Results
screen's actions), each in :mod:`hub.screens`: Stations, Round control, Challenges,
Results, Standings & pairings, Categories & prizes (F12).
Screens get their data from :class:`hub.service.HubService` in thread workers and never
block on SQLite or the network. A one-second tick moves countdowns; every
``refresh_every`` seconds the current screen reloads. The dashboard only shows station
results: ``hub serve`` hands each one to the tournament's result intake as it arrives.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any, ClassVar

from textual import work
from textual.app import App
from textual.binding import Binding, BindingType

from samoobsluha.hub.screens.challenges import ChallengesScreen
from samoobsluha.hub.screens.prizes import PrizesScreen
from samoobsluha.hub.screens.results import ResultsScreen
from samoobsluha.hub.screens.rounds import RoundsScreen
from samoobsluha.hub.screens.standings import StandingsScreen
from samoobsluha.hub.screens.stations import StationsScreen
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.shared.i18n import LANGUAGES, error_text, t


class HubApp(App[None], inherit_bindings=False):
    """The dashboard over one :class:`HubService`."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    MODES: ClassVar[dict[str, Any]] = {
        "stations": StationsScreen,
        "rounds": RoundsScreen,
        "challenges": ChallengesScreen,
        "results": ResultsScreen,
        "standings": StandingsScreen,
        "prizes": PrizesScreen,
    }
    DEFAULT_MODE = "stations"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "switch_mode('stations')", "dash.tab.stations", priority=True),
        Binding("f2", "switch_mode('rounds')", "dash.tab.rounds", priority=True),
        Binding("f3", "switch_mode('challenges')", "dash.tab.challenges", priority=True),
        Binding("f4", "switch_mode('results')", "dash.tab.results", priority=True),
        Binding("f5", "switch_mode('standings')", "dash.tab.standings", priority=True),
        Binding("f12", "switch_mode('prizes')", "dash.tab.prizes", priority=True),
        Binding("ctrl+r", "reload", "dash.refresh", show=False, priority=True),
        Binding("ctrl+t", "confirm_time", "dash.act.confirm_time", show=False, priority=True),
        Binding("ctrl+q", "quit", "dash.quit", priority=True),
        Binding("tab", "focus_next", show=False),
        Binding("shift+tab", "focus_previous", show=False),
    ]

    def __init__(
        self,
        service: HubService | None = None,
        *,
        lang: str = "cs",
        refresh_every: float | None = 2.0,
        tick_every: float | None = 1.0,
        serve: dict[str, Any] | None = None,
    ) -> None:
        """``serve``: run the hub server in this process (``host``, ``port``,
        ``advertise``) — what ``hub run`` does when no ``hub serve`` is running."""
        super().__init__()
        self.serve = serve
        self._server: Any = None
        self._control: Any = None
        self._screen: Any = None
        self.service = service or HubService()
        self.lang = lang if lang in LANGUAGES else "cs"
        self.refresh_every = refresh_every
        self.tick_every = tick_every
        self.summary: dict[str, Any] = {"name": "", "round": 0, "server": None}
        self.title = t("dash.title", self.lang)
        # Every table exists before screens' workers and the server open the database
        # concurrently (first-time migrations from two threads would collide).
        self._startup_error = ""
        try:
            self.service.prepare()
        except sqlite3.Error as exc:
            self._startup_error = f"hub database {self.service.db_path}: {exc}"
        from samoobsluha.hub.screens.base import translate_bindings

        translate_bindings(self, self.lang)

    async def on_mount(self) -> None:
        if self._startup_error:
            self.notify(self._startup_error, severity="error", timeout=30, markup=False)
        if self.serve is not None:
            await self._start_server()
        self.action_reload()  # the first screen may have loaded before the server ran
        if self.tick_every:
            self.set_interval(self.tick_every, self._tick)
        if self.refresh_every:
            self.set_interval(self.refresh_every, self.action_reload)

    async def _start_server(self) -> None:
        from samoobsluha.hub import control, store
        from samoobsluha.hub.server import HubServer

        assert self.serve is not None
        try:
            key_file = self.service.data / "tournament.key"
            psk, created = store.ensure_key(key_file)
            if created:
                self.notify(
                    t("dash.key.created", self.lang, path=str(key_file)), timeout=30, markup=False
                )
            server = HubServer(
                self.service.db_path,
                psk,
                host=self.serve.get("host", "0.0.0.0"),
                port=int(self.serve.get("port", 0)),
                advertise=bool(self.serve.get("advertise", True)),
                clock=self.service.clock,
            )
            await server.start()
            self._server = server
            self._control = await control.start_control(server, self.service.control_path)
            from samoobsluha.hub.web import start_for_hub

            self._screen = await start_for_hub(
                server,
                self.service.data,
                port=self.serve.get("screen_port"),
                enabled=self.serve.get("screen"),
            )
        except (OSError, ValueError, sqlite3.Error) as exc:
            self.notify(
                f"hub server could not start: {exc}", severity="error", timeout=10, markup=False
            )

    async def on_unmount(self) -> None:
        if self._control is not None:
            self._control.close()
        if self._screen is not None:
            await self._screen.close()
        if self._server is not None:
            await self._server.close()

    def _tick(self) -> None:
        tick = getattr(self.screen, "tick", None)
        if tick is not None:
            tick()

    def action_reload(self) -> None:
        self.load_summary()
        reload = getattr(self.screen, "reload", None)
        if reload is not None:
            reload()

    @work(thread=True, exclusive=True, group="summary", exit_on_error=False)
    def load_summary(self) -> None:
        """Tournament name, current round, whether ``hub serve`` answers. (Station
        results enter the tournament in the server as they arrive; screens only show.)"""
        try:
            info = self.service.info()
            running = self.service.server_running()
            time_status = self.service.time_status()
        except ServiceError as exc:
            self.call_from_thread(self.notify, error_text(exc, self.lang), severity="error")
            return
        summary = {
            "name": info["name"],
            "round": info["last_round"],
            "server": running,
            "rules": info["rules"],
            "info": info,
            "time_confirmed": time_status.confirmed,
            "disputes": int(info.get("disputes", 0)),
        }
        self.call_from_thread(self._set_summary, summary)

    @work(thread=True, exclusive=True, group="time", exit_on_error=False)
    def action_confirm_time(self) -> None:
        """Ctrl+T: the operator checked the hub's clock against a watch (hub.hubtime)."""
        if self.service.time_status().confirmed:
            return
        done = self.service.confirm_time()
        now = time.strftime("%H:%M:%S", time.localtime(done.confirmed_at or 0))
        self.call_from_thread(self.notify, t("hubtime.confirmed", self.lang, time=now))
        self.call_from_thread(self.action_reload)

    def _set_summary(self, summary: dict[str, Any]) -> None:
        self.summary = summary
        self._tick()

    def topbar_text(self) -> str:
        s = self.summary
        now = time.strftime("%H:%M:%S", time.localtime(self.service.clock.now()))
        # Open result disputes first on every screen: the line may be cut off at 80 columns.
        badge = [t("dash.disputes.badge", self.lang, n=s["disputes"])] if s.get("disputes") else []
        if s.get("time_confirmed") is False:
            # First, with the time to compare: the rest of the line may be cut off at 80 columns.
            return " · ".join(
                [t("hubtime.unconfirmed", self.lang, time=now), *badge, t("dash.title", self.lang)]
            )
        parts = [*badge, t("dash.title", self.lang)]
        if s.get("name"):
            parts.append(str(s["name"]))
        parts.append(
            t("dash.round", self.lang, n=s["round"])
            if s.get("round")
            else t("dash.no_round", self.lang)
        )
        if s.get("server") is not None:
            parts.append(t("dash.server.on" if s["server"] else "dash.server.off", self.lang))
        parts.append(now)
        return " · ".join(parts)

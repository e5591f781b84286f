"""What every area of :class:`hub.service.HubService` shares: the hub database opened with
every table (the tournament's, the sync tables, the dashboard's own), the tournament over it
with its refusals raised as :class:`ServiceError`, the running server's control socket, and
the tournament's info and player names.

The dashboard's own tables (``Migrations("hub.dashboard")`` below; one migration made them
all, so they are declared here, and each has one area that writes it):

``dash_marks``    which player made a word challenge (the kiosk knows only the table);
                  :mod:`.challenges`
``dash_appeals``  second-instance decisions the chief referee recorded on the hub;
                  :mod:`.challenges`
``dash_acks``     referee requests acknowledged on the hub; :mod:`.challenges`
``dash_applied``  (no longer written: the hub server enters station results on receipt,
                  see ``result_intake`` in :mod:`hub.store`)
``dash_settings`` the day's timetable and other dashboard settings; :mod:`.rounds`
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.tournament import store as tour_store
from samoobsluha.hub.tournament.facade import NeedsConfirmation, Tournament, TournamentError
from samoobsluha.hub.tournament.pairing import PairingError
from samoobsluha.shared.clock import Clock, SystemClock
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.storage import Database, open_db

migrations = Migrations("hub.dashboard")


@migrations()
def m001_dashboard(db: sqlite_utils.Database) -> None:
    db.table("dash_marks").create(
        {"key": str, "challenger": int, "at": float, "who": str}, pk="key", not_null={"at"}
    )
    db.table("dash_appeals").create(
        {"id": int, "key": str, "verdict": str, "note": str, "at": float, "who": str},
        pk="id",
        not_null={"key", "verdict", "at"},
    )
    db.table("dash_acks").create({"key": str, "at": float, "who": str}, pk="key")
    db.table("dash_applied").create(
        {"key": str, "at": float, "outcome": str, "error": str}, pk="key", not_null={"at"}
    )
    db.table("dash_settings").create({"key": str, "value": str}, pk="key")


class ServiceError(Exception):
    """A request the hub refused or could not carry out; the message says why."""


class ConfirmationNeeded(ServiceError):
    """A result entry that is possible but implausible: the message says why; entered
    again with ``confirm=True`` it is stored."""


# -- what every area shares ------------------------------------------------------------------


class ServiceCore:
    """What every area of :class:`hub.service.HubService` shares. ``data``: the data
    directory (default :func:`shared.paths.data_dir`); ``control_path``: the running
    server's control socket (default ``<data>/hub.sock``)."""

    def __init__(
        self,
        data: Path | str | None = None,
        *,
        clock: Clock | None = None,
        control_path: Path | str | None = None,
        who: str = "operator",
        boot_id: str | None = None,
        lang: str = "cs",
    ) -> None:
        self.data = Path(data) if data is not None else data_dir()
        self.boot_id = boot_id  # None: the kernel's (tests inject one)
        self.lang = lang
        self.db_path = self.data / "hub.db"
        self.control_path = Path(control_path) if control_path else self.data / "hub.sock"
        self.clock: Clock = clock or SystemClock()
        self.who = who

    # -- plumbing -------------------------------------------------------------------------
    def prepare(self) -> None:
        """Create the hub database and every table once, before threads and the server
        open it concurrently (two first-time migrations at once would collide)."""
        with self._db():
            pass

    @contextlib.contextmanager
    def _db(self) -> Iterator[Database]:
        db = open_db(self.db_path, tour_store.migrations, sync_store.migrations, migrations)
        try:
            yield db
        finally:
            db.close()

    @contextlib.contextmanager
    def _tour(self) -> Iterator[Tournament]:
        with self._db() as db:
            try:
                yield Tournament(db, self.clock)
            except NeedsConfirmation as exc:
                raise ConfirmationNeeded(*exc.args) from exc
            except (TournamentError, PairingError) as exc:
                raise ServiceError(*exc.args) from exc  # a Phrase stays one

    def control(self, op: str, timeout: float = 10.0, **args: Any) -> Any:
        """One request to the running ``hub serve``."""
        from samoobsluha.hub.control import ControlError, request

        try:
            return request(op, path=self.control_path, timeout=timeout, **args)
        except ControlError as exc:
            raise ServiceError(*exc.args) from exc
        except OSError as exc:
            raise ServiceError(Phrase("err.no_answer", error=str(exc))) from exc

    def server_running(self) -> bool:
        try:
            self.control("info", timeout=2.0)
        except ServiceError:
            return False
        return True

    # -- tournament -----------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        with self._tour() as tour:
            settings = tour.settings()
            players = tour.players()
            settings["players"] = len(players)
            settings["checked_in"] = sum(1 for p in players if p.checked_in)
            settings["last_round"] = tour.last_round()
            settings["disputes"] = len(tour.disputes())
            return settings

    def default_lexicon(self, tour: Tournament | None = None) -> Path:
        """The hub's reference lexicon when none was pushed: ``lexicons/<lang>.lex`` in
        the hub's data, ``lang`` the event's (its rule set's ``lexicon``: cs for ČAS, sk
        for SSS, pl for PFS). It may not exist (no lexicon built on this hub). ``tour``:
        an open tournament to read the rules from (else one is opened)."""
        from samoobsluha.shared.paths import default_lexicon_path

        if tour is None:
            with self._tour() as opened:
                return self.default_lexicon(opened)
        return Path(self.data) / "lexicons" / default_lexicon_path(tour.rules.lexicon).name

    def current_round(self) -> int:
        """The round being played: the last paired one (0 before any pairing)."""
        with self._tour() as tour:
            return tour.last_round()

    def player_names(self) -> dict[int, str]:
        with self._tour() as tour:
            return {p.id: p.name for p in tour.players()}

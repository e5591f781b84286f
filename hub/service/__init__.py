"""What the dashboard, the ``hub`` subcommands and the hall screen call: :class:`HubService`,
one facade with plain data out, and the rows it returns.

The screens never touch SQLite or the network: they call :class:`HubService` from thread
workers. The service reads the hub database (``data_dir()/hub.db``: the tournament tables
of :mod:`hub.tournament`, the sync tables of :mod:`hub.store`, and its own tables, see
:mod:`hub.service.core`) and reaches the running ``hub serve`` through its local control
socket (:mod:`hub.control`) for everything that goes to the stations. Every method is
blocking and opens its own connection, so any thread may call any method.

The code is split by area, one module each, every area's rows beside it:

``core``        what all share: the database and tournament context managers, the control
                socket, the tournament's info and player names, the errors, the tables
``stations``    the stations report (ČAS 15.8e), revoking a station, the referee PIN, the
                rows the hub refused
``rounds``      round plans, starting and changing them, the gong, the day's timetable,
                the hub's own clock (which gates starting a round)
``challenges``  checks with appeals folded in, who challenged, SSS penalties, referee
                requests
``results``     result entry, a round's tables, disputes, publishing a round, approving it
``standings``   standings, pairing, what the stations show for a round, exports

Each area is a mixin over :class:`~hub.service.core.ServiceCore`, and :class:`HubService`
is all of them, adding nothing. Mixins rather than areas as attributes
(``service.rounds.start(...)``): the callers (the screens, the CLI, the hall web, refcheck
and rehearse, the bench scripts, the tests) call some fifty methods by name on one object
and set its attributes (``db_path`` for ``--db``, ``control_path``); a facade forwarding
every name to an attribute would repeat every signature in a second place to keep in step,
and two of the areas' names, ``stations()`` and ``rounds()``, are methods already. An area
subclasses the core alone, so it can reach the core and itself, never another area: mypy
refuses the call, and tests/shared/test_layering.py checks it on the source (with a size
bound on every module here).
"""

from __future__ import annotations

from samoobsluha.hub.service.challenges import ChallengesArea, CheckRow, RequestRow
from samoobsluha.hub.service.core import ConfirmationNeeded, ServiceCore, ServiceError
from samoobsluha.hub.service.results import (
    DisputeRow,
    EntryEcho,
    ResultsArea,
    RoundResults,
    TableRow,
)
from samoobsluha.hub.service.rounds import RoundGuard, RoundRow, RoundsArea
from samoobsluha.hub.service.standings import StandingsArea
from samoobsluha.hub.service.stations import StationReport, StationRow, StationsArea


class HubService(StationsArea, RoundsArea, ChallengesArea, ResultsArea, StandingsArea, ServiceCore):
    """The hub as the dashboard sees it. ``data``: the data directory (default
    :func:`shared.paths.data_dir`); ``control_path``: the running server's control socket
    (default ``<data>/hub.sock``)."""


__all__ = [
    "CheckRow",
    "ConfirmationNeeded",
    "DisputeRow",
    "EntryEcho",
    "HubService",
    "RequestRow",
    "RoundGuard",
    "RoundResults",
    "RoundRow",
    "ServiceError",
    "StationReport",
    "StationRow",
    "TableRow",
]

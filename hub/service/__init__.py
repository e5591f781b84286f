"""What the dashboard (and ``hub`` subcommands, the hall screen) call: :class:`HubService`
and the plain rows it returns. The code lives in :mod:`hub.service.core` while it is split by
area; :mod:`hub.service.stations` has the stations, :mod:`hub.service.rounds` the rounds,
:mod:`hub.service.challenges` the challenges, :mod:`hub.service.results` the results."""

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

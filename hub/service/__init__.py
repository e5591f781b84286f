"""What the dashboard (and ``hub`` subcommands) call: :class:`HubService` and the plain
rows it returns. The code lives in :mod:`hub.service.core` while it is split by area."""

from __future__ import annotations

from samoobsluha.hub.service.core import (
    CheckRow,
    ConfirmationNeeded,
    DisputeRow,
    EntryEcho,
    HubService,
    RequestRow,
    RoundGuard,
    RoundResults,
    RoundRow,
    ServiceError,
    StationReport,
    StationRow,
    TableRow,
)

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

"""The hub's tournament engine: players, results, standings (ČAS, SSS, PFS), Swiss
pairings, forfeits, tsh files and exports. No Textual imports — the dashboard and the
CLI use :class:`hub.tournament.facade.Tournament`, the sync layer hands station results to
:mod:`hub.tournament.intake`; see ``docs/tournament.md``.

The names below are loaded on first use, so that importing one module of the engine (the
sync layer imports only ``intake``) does not load the facade, the pairing and networkx.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real types for the checker; at run time loaded on first use
    from samoobsluha.hub.tournament.facade import Tournament
    from samoobsluha.hub.tournament.intake import Outcome, TournamentError
    from samoobsluha.hub.tournament.pairing import Pairing, PairingError
    from samoobsluha.hub.tournament.rules import RULES, RuleSet, get_rules

_WHERE = {
    "Outcome": "intake",
    "TournamentError": "intake",
    "Tournament": "facade",
    "Pairing": "pairing",
    "PairingError": "pairing",
    "RULES": "rules",
    "RuleSet": "rules",
    "get_rules": "rules",
}

__all__ = [
    "RULES",
    "Outcome",
    "Pairing",
    "PairingError",
    "RuleSet",
    "Tournament",
    "TournamentError",
    "get_rules",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)

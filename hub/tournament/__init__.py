"""The hub's tournament engine: players, results, standings (ČAS, SSS, PFS), Swiss
pairings, forfeits, tsh files and exports. No Textual imports — the dashboard and the
network layer use :class:`hub.tournament.facade.Tournament`; see ``docs/tournament.md``.
"""

from samoobsluha.hub.tournament.facade import Outcome, Tournament, TournamentError
from samoobsluha.hub.tournament.pairing import Pairing, PairingError
from samoobsluha.hub.tournament.rules import RULES, RuleSet, get_rules

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

"""Rule sets: how results rank players and what forfeits, byes and absences are worth.

Three rule sets ship (``cas``, ``sss``, ``pfs``); every constant is a field, so a committee
change (new TurČAS constants, a different bye score) is ``dataclasses.replace`` or a
``--set key=value`` on the command line, not a code change.

* ČAS (Soutěžní řád 2005, 16.29): wins (draw ½), then TurČAS
  ``A/Kol·Buchholz + B·AbsScore + C·RelScore + D·Zacinani``.
* SSS (1999 championship rules): wins, then the sum of opponents' wins, then spread.
* PFS (Polish Swiss rules): wins minus losses, then total points scored; round 1 by rating
  (unrated players against the top seeds, the rest k against k + N/2), later rounds 1–2, 3–4
  … by those standings with neighbouring swaps to avoid rematches.

Forfeits and byes follow ČAS 14.2–14.5 for all three unless changed; the SSS and PFS
originals do not say otherwise.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RuleSet:
    name: str
    # Ranking criteria, in order; each is a Standing attribute, larger is better.
    criteria: tuple[str, ...]
    # TurČAS constants (ČAS 16.29); the committee may change them.
    turcas_a: float = 649.6
    turcas_b: float = 1.0
    turcas_c: float = 2.715
    turcas_d: float = 27.3
    # ČAS 14.5: a bye is half a win and 300:300.
    bye_wins: float = 0.5
    bye_score: int = 300
    bye_opp_score: int = 300
    # ČAS 14.2: forfeit is 200:0, or the current score if that is better for the innocent
    # player (judged by this rule set's own score value, i.e. by TurČAS for ČAS).
    forfeit_score: int = 200
    forfeit_keep_current_if_better: bool = True
    # ČAS 14.3: double forfeit 0:0, no win for either.
    double_forfeit_score: int = 0
    # ČAS 14.4: late entrant 0:0 per round missed; temporary withdrawal 0:200 per round.
    late_score: tuple[int, int] = (0, 0)
    absent_score: tuple[int, int] = (0, 200)
    # Pairing: round 1 "lot" (seeded random) or "rating" (the PFS scheme).
    first_round: str = "lot"
    # Swiss rematches: "forbid" (SSS: nobody meets the same opponent twice; PFS swaps pairs
    # to avoid them) refuses a round that needs one unless the director allows it;
    # "minimise" pairs with the fewest rematches, then the smallest score gaps.
    rematches: str = "minimise"
    # What an unjustified word challenge costs the challenger: "cross" (ČAS 8.4: a penalty
    # cross, three in a game lose a turn), "points" (SSS: the first two in a game are free,
    # each further one costs ``unjustified_points``) or "none".
    unjustified: str = "cross"
    unjustified_free: int = 2
    unjustified_points: int = 20
    # Later rounds: "matching" (the weighted Swiss of pairing.swiss, ČAS and SSS) or
    # "neighbours" (PFS: 1–2, 3–4 … by the standings, neighbouring pairs swapped to avoid a
    # rematch, pairing.neighbours).
    swiss_method: str = "matching"
    # The language of the event's lexicon (shared.alphabets): what the hub's reference
    # lexicon is when none was pushed (``lexicons/<lang>.lex`` in the hub's data) — the one
    # ``hub check`` judges with and the stations' lexicons are compared against. ČAS
    # plays the Czech words, SSS the Slovak (SLEX), PFS the Polish.
    lexicon: str = "cs"
    # Prizes (hub/tournament/prizes.py): a player expelled from the event takes none (ČAS
    # 13.12–13.14, SSS, PFS 1.3 voids his results); a withdrawn player keeps his (ČAS 13.3
    # and the SSS and PFS originals take nothing from him). A director's propositions may
    # say otherwise: ``--set prize_withdrawn=no``.
    prize_expelled: bool = False
    prize_withdrawn: bool = True
    # The results of a player expelled from the event: "keep" (ČAS 13.12–13.14 and the SSS
    # rules take nothing back: his games stand, he is not paired again) or "void" (PFS 1.3:
    # the referee "może wykluczyć danego gracza z dalszych rozgrywek, zerując jego dorobek
    # punktowy" — his tally is zeroed and he stands below everybody; his opponents keep
    # their games against him, the rule zeroes his tally only).
    expelled_results: str = "keep"

    def score_value(self, own: int, opp: int) -> float:
        """How good a single game score is for the player, by this rule set's criteria.

        Used to pick between 200:0 and the current score of a forfeited game (ČAS 14.2).
        """
        if "turcas" in self.criteria:
            return self.turcas_b * own + self.turcas_c * (own - opp)
        if self.criteria and self.criteria[-1] == "points":
            return own * 10_000 + (own - opp)
        return (own - opp) * 10_000 + own

    def with_overrides(self, overrides: dict[str, str]) -> RuleSet:
        """A copy with fields set from strings (``{"turcas_a": "600"}``), type-checked."""
        changes: dict[str, Any] = {}
        fields = {f.name: f for f in dataclasses.fields(self)}
        for key, raw in overrides.items():
            if key not in fields or key in ("name", "criteria"):
                raise ValueError(f"unknown rule setting {key!r}; known: {', '.join(fields)}")
            current = getattr(self, key)
            if isinstance(current, bool):
                changes[key] = raw.lower() in ("1", "true", "yes", "ano")
            elif isinstance(current, tuple):
                parts = raw.replace(":", ",").split(",")
                changes[key] = tuple(int(p) for p in parts)
            else:
                changes[key] = type(current)(raw)
        if changes.get("rematches", self.rematches) not in ("forbid", "minimise"):
            raise ValueError("rematches is 'forbid' or 'minimise'")
        if changes.get("unjustified", self.unjustified) not in ("cross", "points", "none"):
            raise ValueError("unjustified is 'cross', 'points' or 'none'")
        if changes.get("swiss_method", self.swiss_method) not in ("matching", "neighbours"):
            raise ValueError("swiss_method is 'matching' or 'neighbours'")
        if changes.get("expelled_results", self.expelled_results) not in ("keep", "void"):
            raise ValueError("expelled_results is 'keep' or 'void'")
        if changes.get("lexicon", self.lexicon) not in ("cs", "sk", "pl"):
            raise ValueError("lexicon is 'cs', 'sk' or 'pl'")
        return dataclasses.replace(self, **changes)


CAS = RuleSet(name="cas", criteria=("wins", "turcas"))
SSS = RuleSet(
    name="sss",
    criteria=("wins", "opp_wins", "spread"),
    rematches="forbid",
    unjustified="points",
    lexicon="sk",
)
PFS = RuleSet(
    name="pfs",
    criteria=("balance", "points"),
    first_round="rating",
    rematches="forbid",
    unjustified="none",
    swiss_method="neighbours",
    lexicon="pl",
    expelled_results="void",
)

RULES: dict[str, RuleSet] = {r.name: r for r in (CAS, SSS, PFS)}


def get_rules(name: str, overrides: dict[str, str] | None = None) -> RuleSet:
    try:
        rules = RULES[name.lower()]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; choose one of {', '.join(RULES)}") from None
    return rules.with_overrides(overrides) if overrides else rules

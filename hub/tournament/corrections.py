"""Hand-made changes to a stored pairing, and which pairing rules each one breaks.

A director changes a round's pairing by hand — swaps two players (each takes the other's
opponent and table, as tsh's ``switch``), forces a pair (the two play each other, their
former opponents each other), or swaps the numbers of two tables (who sits where) — and the
change is stored and published like any pairing. It still has to say what it costs: this
module is pure (no database), it computes the new boards and the rules they break:

* a **rematch** (``pair.broken.rematch``): the two have met before — the rule set's
  ``rematches`` says whether that is ``forbid`` (SSS, PFS) or ``minimise`` (ČAS);
* a **score-group gap** (``pair.broken.groups``): Swiss pairs players of equal wins
  (ČAS, SSS, PFS), the pair is more than one win apart;
* a **second bye** (``pair.broken.bye``): the player had a bye already.

The writes are the facade's (:meth:`hub.tournament.facade.Tournament.change_pairing`),
which owns the pairing; every change is audited with the boards before and after.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from samoobsluha.hub.tournament.model import TournamentData
from samoobsluha.hub.tournament.pairing import Board
from samoobsluha.hub.tournament.rules import RuleSet
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.shared.i18n import Phrase

ACTIONS = ("swap", "force", "tables")


class CorrectionError(ValueError):
    """A change that cannot be made; the message (a Phrase) says why and what instead."""


def changed_boards(
    boards: list[Board], action: str, a: int, b: int
) -> tuple[list[Board], set[int]]:
    """The boards after ``action``, and the table numbers it touched.

    ``swap a b`` (players): each takes the other's place. ``force a b`` (players): they
    play each other; their opponents play each other (a bye moves with them). ``tables a b``
    (table numbers): the two pairs change tables."""
    if action not in ACTIONS:
        raise CorrectionError(Phrase("err.correct.action", actions=", ".join(ACTIONS)))
    out = [replace(x, why=list(x.why)) for x in boards]
    if action == "tables":
        ta, tb = _table(out, a), _table(out, b)
        ta.table, tb.table = b, a
        out.sort(key=lambda x: x.table)
        return out, {a, b}
    if a == b:
        raise CorrectionError(Phrase("err.correct.same", player=a))
    ba, bb = _seat(out, a), _seat(out, b)
    if ba is bb:
        if action == "force":
            raise CorrectionError(Phrase("err.correct.already", first=a, second=b))
        assert ba.second is not None
        ba.first, ba.second = ba.second, ba.first  # swap at one table: who starts
        return out, {ba.table}
    if action == "swap":
        _put(ba, a, b)
        _put(bb, b, a)
        return out, {ba.table, bb.table}
    # force: a and b sit together at a's table; a's opponent x takes b's seat at b's
    x = ba.second if ba.first == a else ba.first
    if x is None:
        ba.second = b
    else:
        _put(ba, x, b)
    rest = [pid for pid in (bb.first, bb.second) if pid is not None and pid != b]
    if x is not None:
        rest.insert(0 if bb.first == b else len(rest), x)  # x takes b's seat
    if not rest:
        out.remove(bb)  # b had the bye and a had it too: nothing is left at b's table
        return out, {ba.table}
    bb.first, bb.second = rest[0], (rest[1] if len(rest) > 1 else None)
    return out, {ba.table, bb.table}


def broken_rules(
    data: TournamentData, rules: RuleSet, boards: list[Board], tables: set[int], round_no: int
) -> dict[int, list[Phrase]]:
    """For each touched table, the pairing rules its new pair breaks (may be none)."""
    before = [g for g in data.games if g.round < round_no]
    met: dict[frozenset[int], list[int]] = {}
    byes: set[int] = set()
    for g in before:
        if g.p2 is not None:
            met.setdefault(frozenset((g.p1, g.p2)), []).append(g.round)
        elif g.kind.value == "bye":
            byes.add(g.p1)
    table = {
        s.player.id: s for s in compute(data.players.values(), before, rules, rounds=round_no - 1)
    }
    out: dict[int, list[Phrase]] = {}
    for board in boards:
        if board.table not in tables:
            continue
        broken: list[Phrase] = []
        a, b = board.first, board.second
        if b is None:
            if a in byes:
                broken.append(Phrase("pair.broken.bye", name=_name(data, a)))
        else:
            rounds = met.get(frozenset((a, b)))
            if rounds:
                key = (
                    "pair.broken.rematch_forbidden"
                    if rules.rematches == "forbid"
                    else ("pair.broken.rematch")
                )
                broken.append(
                    Phrase(key, first=_name(data, a), second=_name(data, b), rounds=rounds)
                )
            wa = table[a].wins if a in table else 0.0
            wb = table[b].wins if b in table else 0.0
            if abs(wa - wb) > 1:
                broken.append(Phrase("pair.broken.groups", first=wa, second=wb))
        out[board.table] = broken
    return out


def boards_json(boards: list[Board]) -> list[dict[str, Any]]:
    return [{"table": x.table, "first": x.first, "second": x.second} for x in boards]


def _name(data: TournamentData, pid: int) -> str:
    player = data.players.get(pid)
    return player.name if player else f"#{pid}"


def _table(boards: list[Board], number: int) -> Board:
    for x in boards:
        if x.table == number:
            return x
    raise CorrectionError(Phrase("err.correct.no_table", table=number))


def _seat(boards: list[Board], pid: int) -> Board:
    for x in boards:
        if pid in (x.first, x.second):
            return x
    raise CorrectionError(Phrase("err.correct.not_paired", player=pid))


def _put(board: Board, old: int | None, new: int | None) -> None:
    """Replace ``old`` by ``new`` on ``board`` (keeping the seat: ZH stays ZH)."""
    if board.first == old:
        board.first = new  # type: ignore[assignment]
    elif board.second == old:
        board.second = new

"""The tournament record when the director's features write it too: the whole-record state
machine of test_tournament_record.py (entries, corrections, publication, protests,
finalisation, disputes, pairing, tsh export → import) with, interleaved, undoing a result,
hand-made pairing changes (swap, force, tables), sanctions (crosses, warnings) and the
prize list — on one real SQLite file, against the same model.

Extra invariants after every step:

* the stored pairing of every round seats every paired player once, and the model's boards
  are the stored ones (a change touches only tables without a result);
* the sanctions in force are the model's, and the third and every further cross of a
  player in one game — and only those — read „ztráta tahu“ (ČAS 8.6);
* the prize list gives nobody two prizes and follows the standings.
"""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import invariant, precondition, rule
from test_tournament_record import Record, Table

from samoobsluha.hub.tournament.facade import TournamentError


class EventRecord(Record):
    def __init__(self) -> None:
        super().__init__()
        self.crosses: list[tuple[int, int]] = []  # (player, round) per cross in force
        self.sanctions = 0
        self.tour.prize_book.add_prize("place", 1, "1000 Kč")
        self.tour.prize_book.add_prize("place", 2, "500 Kč")

    def _unscored_round_tables(self, r: int) -> list[int]:
        return [
            t
            for (rr, t) in sorted(self.boards)
            if rr == r and self.tables.get((rr, t), Table()).value is None
        ]

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        key = self._pick(data)
        r, t = key
        m = self.tables.get(key, Table())
        try:
            self.tour.undo_result(r, t, who="HR")
        except TournamentError:
            assert m.value is None or r in self.published or r in self.final
            return
        assert m.value is not None and r not in self.published
        self.tables[key] = Table()  # missing again; the entries so far no longer count

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), action=st.sampled_from(["swap", "force", "tables"]))
    def change_pairing(self, data: st.DataObject, action: str) -> None:
        r = self.rounds
        free = self._unscored_round_tables(r)
        if action == "tables":
            a, b = data.draw(st.sampled_from(free)), data.draw(st.sampled_from(free))
            if a == b:
                return
        else:
            seated = [p for t in free for p in self.boards[(r, t)] if p is not None]
            if len(seated) < 2:
                return
            a = data.draw(st.sampled_from(seated))
            b = data.draw(st.sampled_from([p for p in seated if p != a]))
        try:
            pairing, _ = self.tour.change_pairing(r, action, a, b, who="HR")
        except TournamentError:
            assert action == "force"  # the two already play each other
            return
        for key in [k for k in self.boards if k[0] == r]:
            del self.boards[key]
        for board in pairing.boards:
            self.boards[(r, board.table)] = (board.first, board.second)

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), kind=st.sampled_from(["cross", "warning"]))
    def sanction(self, data: st.DataObject, kind: str) -> None:
        r, t = self._pick(data)
        first, second = self.boards[(r, t)]
        player = data.draw(st.sampled_from([p for p in (first, second) if p is not None]))
        self.tour.sanction(player, kind, reason="test", round_no=r, who="HR")
        self.sanctions += 1
        if kind == "cross":
            self.crosses.append((player, r))

    @precondition(lambda self: bool(self.crosses))
    @rule()
    def another_cross_in_that_game(self) -> None:
        player, r = self.crosses[-1]
        self.tour.sanction(player, "cross", reason="again", round_no=r, who="HR")
        self.sanctions += 1
        self.crosses.append((player, r))

    @precondition(lambda self: self.sanctions > 0)
    @rule(data=st.data())
    def revoke_a_sanction(self, data: st.DataObject) -> None:
        given = self.tour.sanctions()
        if not given:
            return
        s = data.draw(st.sampled_from(given))
        self.tour.revoke_sanction(s.id, who="HR", note="odvolání")
        self.sanctions -= 1
        if s.kind == "cross":
            self.crosses.remove((s.player, s.round or 0))

    @invariant()
    def every_round_seats_everybody_once(self) -> None:
        for r in range(1, self.rounds + 1):
            stored = {(b.table, b.first, b.second) for b in self.tour.pairing(r).boards}
            model = {(t, f, s) for (rr, t), (f, s) in self.boards.items() if rr == r}
            assert stored == model
            seated = [p for _, f, s in stored for p in (f, s) if p is not None]
            assert len(seated) == len(set(seated))

    @invariant()
    def crosses_lose_a_turn_from_the_third(self) -> None:
        given = self.tour.sanctions()
        assert len(given) == self.sanctions
        crosses = [s for s in given if s.kind == "cross"]
        assert sorted((s.player, s.round) for s in crosses) == sorted(self.crosses)
        seen: dict[tuple[int, int | None], int] = {}
        for s in crosses:  # in the order given
            seen[(s.player, s.round)] = seen.get((s.player, s.round), 0) + 1
            assert s.turn_lost == (seen[(s.player, s.round)] >= 3)

    @invariant()
    def one_prize_a_player(self) -> None:
        awards = self.tour.prize_list()
        winners = [p for a in awards for p in a.players]
        assert len(winners) == len(set(winners))
        table = self.tour.standings()
        if awards and table:
            assert table[0].player.id in awards[0].players


EventRecord.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_record_with_the_directors_features = pytest.mark.timeout(600)(EventRecord.TestCase)

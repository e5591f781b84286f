"""The whole tournament record under every input at once: a Hypothesis state machine that
interleaves station entries, one-sided station entries, a station's withdrawal of its own
entry, operator entries and corrections, publication, protests, the clock, finalisation,
dispute decisions, round pairing and tsh export → import, on a real SQLite file, against a
small model of the lifecycle table in docs/tournament.md.

Invariants after every step:

* every table's result and state are the model's — in particular a published or final
  result changes only by an operator action (a correction or a dispute decision), and an
  entry equal to its author's *latest* one is a duplicate (not one equal to any earlier);
* the standings equal a recomputation from the model's results (byes included), and every
  table they do not count is listed as pending (``unsettled``);
* every dispute is listed until it is resolved;
* export → import of a tsh file gives the same standings.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.facade import Tournament, TournamentError
from samoobsluha.hub.tournament.intake import StationResult
from samoobsluha.hub.tournament.model import Game, Kind
from samoobsluha.hub.tournament.standings import compute
from samoobsluha.hub.tournament.store import open_tournament_db
from samoobsluha.shared.clock import FakeClock

PLAYERS = (
    "jméno;klub\nDvořák Čeněk;Žďár\nŠťastná Růžena;Brno\nNovák Jiří;\n"
    "Kováčová Ľudmila;\nČerný Ondřej;Praha\n"
)
SCORES = st.tuples(st.sampled_from([300, 410]), st.sampled_from([300, 395]))
STATIONS = st.sampled_from(["st-1", "st-2"])
MAX_ROUNDS = 3

Value = tuple[int, int]


@dataclass
class Table:
    """The model of one table's result (docs/tournament.md, "Results: the lifecycle")."""

    value: Value | None = None
    status: str | None = None  # entered | confirmed | conflict | final
    sources: set[str] = field(default_factory=set)
    latest: dict[str, Value] = field(default_factory=dict)  # per author: operator, st-1 …
    one_sided: tuple[str, Value] | None = None  # the latest one-sided entry (station, value)


class Record(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.TemporaryDirectory()
        self.clock = FakeClock()
        self.tour = Tournament(open_tournament_db(Path(self.dir.name) / "hub.db"), self.clock)
        self.tour.configure(name="Stav", rules="cas", protest_minutes=30)
        self.tour.import_players_csv(PLAYERS)
        self.tables: dict[tuple[int, int], Table] = {}
        self.boards: dict[tuple[int, int], tuple[int, int | None]] = {}
        self.published: dict[int, float] = {}
        self.final: set[int] = set()
        self.protests: set[tuple[int, int]] = set()
        self.disputes: dict[int, tuple[int, int, Value]] = {}  # id -> (round, table, value)
        self.rounds = 0
        self.copies = 0

    def teardown(self) -> None:
        self.tour.db.close()
        self.dir.cleanup()

    # -- helpers ------------------------------------------------------------------------
    def _games(self) -> list[tuple[int, int]]:
        return sorted(k for k, (_, second) in self.boards.items() if second is not None)

    def _pick(self, data: st.DataObject) -> tuple[int, int]:
        return data.draw(st.sampled_from(self._games()))

    def _complete(self, r: int) -> bool:
        return all(
            self.tables.get(k, Table()).status not in (None, "conflict")
            for k in self._games()
            if k[0] == r
        )

    def _entry(self, key: tuple[int, int], v: Value, source: str, who: str) -> None:
        r, t = key
        first, second = self.boards[key]
        assert second is not None
        m = self.tables.setdefault(key, Table())
        author = "operator" if source == "operator" else who
        try:
            out = self.tour.record_result(
                r, t, first, second, v[0], v[1], source=source, who=who, confirm=True
            )
        except TournamentError:
            out = None
        if m.latest.get(author) == v:
            assert out is not None and out.status == "duplicate"
            return
        if r in self.published and m.value is not None:
            if v == m.value:
                assert out is not None and out.status == "duplicate"
                m.latest[author] = v
            elif source == "operator":
                assert out is None  # refused: the operator corrects explicitly
            else:
                assert out is not None and out.status == "dispute"
                m.latest[author] = v
                ids = [d["id"] for d in self.tour.disputes(r) if d["table_no"] == t]
                new = max(ids)
                assert new not in self.disputes
                self.disputes[new] = (r, t, v)
            return
        if (
            m.value is not None
            and m.status != "conflict"
            and v != m.value
            and source == "operator"
            and "operator" in m.sources
        ):
            assert out is None
            return
        assert out is not None, (key, v, source, m)
        m.latest[author] = v
        values = set(m.latest.values())
        m.sources = {"operator" if a == "operator" else "station" for a in m.latest}
        if len(values) == 1:
            m.value = v
            m.status = "confirmed" if len(m.sources) > 1 else "entered"
        else:
            m.status = "conflict"
            if m.value is None:
                m.value = v

    # -- rules ----------------------------------------------------------------------------
    @precondition(lambda self: self.rounds < MAX_ROUNDS)
    @rule(seed=st.integers(0, 1000))
    def pair_next(self, seed: int) -> None:
        r = self.rounds + 1
        try:
            pairing = self.tour.pair(r, seed=seed)
        except TournamentError:
            assert r > 1 and not self._complete(r - 1)
            return
        assert r == 1 or self._complete(r - 1)
        self.rounds = r
        for b in pairing.boards:
            self.boards[(r, b.table)] = (b.first, b.second)

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), v=SCORES, who=STATIONS)
    def station_entry(self, data: st.DataObject, v: Value, who: str) -> None:
        self._entry(self._pick(data), v, "station", who)

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), v=SCORES, who=STATIONS)
    def station_one_sided(self, data: st.DataObject, v: Value, who: str) -> None:
        key = self._pick(data)
        self.copies += 1
        res = StationResult(f"{who}/e/{self.copies}", who, *key, "", "", *v, "first", True)
        (out,) = self.tour.book.enter_station_results([res])
        assert out.outcome == "one_sided" and out.error is None
        self.tables.setdefault(key, Table()).one_sided = (who, v)

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), who=STATIONS)
    def station_withdrawal(self, data: st.DataObject, who: str) -> None:
        key = self._pick(data)
        r, t = key
        out = self.tour.book.withdraw(r, t, station=who, key=f"{who}/1/{self.clock.now()}")
        m = self.tables.setdefault(key, Table())
        if r in self.published or m.status == "final":
            assert out == "withdraw_refused"
            return
        # its one-sided entry, while shown (a table with a result shows none)
        mine = m.one_sided is not None and m.one_sided[0] == who and m.value is None
        if who not in m.latest and not mine:
            assert out == "duplicate"
            return
        assert out == "withdrawn"
        if m.one_sided is not None and m.one_sided[0] == who:
            # the withdrawal takes the station's one-sided entry back too, shown or not:
            # nothing of that station's is left for the operator to see
            m.one_sided = None
        if who not in m.latest:
            return
        del m.latest[who]
        values = set(m.latest.values())
        m.sources = {"operator" if a == "operator" else "station" for a in m.latest}
        if not values:
            m.value, m.status = None, None
        elif len(values) == 1:
            m.value = values.pop()
            m.status = "confirmed" if len(m.sources) > 1 else "entered"
        else:
            m.status = "conflict"

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), v=SCORES)
    def operator_entry(self, data: st.DataObject, v: Value) -> None:
        self._entry(self._pick(data), v, "operator", "Jana")

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data(), v=SCORES)
    def correction(self, data: st.DataObject, v: Value) -> None:
        key = self._pick(data)
        first, second = self.boards[key]
        out = self.tour.record_result(
            *key, first, second, v[0], v[1], who="HR", correct=True, confirm=True
        )
        assert out.status == "corrected"
        m = self.tables.setdefault(key, Table())
        m.value = v
        m.status = "final" if m.status == "final" else "confirmed"
        m.sources = {"operator"}
        m.latest["operator"] = v
        for d, (r, t, _) in list(self.disputes.items()):
            if (r, t) == key:
                del self.disputes[d]

    @precondition(lambda self: self.rounds > 0)
    @rule(data=st.data())
    def publish(self, data: st.DataObject) -> None:
        r = data.draw(st.integers(1, self.rounds))
        try:
            first = self.tour.publish(r)
        except TournamentError:
            assert not self._complete(r)
            return
        assert self._complete(r)
        assert first == (r not in self.published)
        self.published.setdefault(r, self.clock.now())

    @precondition(lambda self: self.published)
    @rule(data=st.data())
    def protest(self, data: st.DataObject) -> None:
        r = data.draw(st.sampled_from(sorted(self.published)))
        t = data.draw(st.sampled_from([t for (rr, t) in self.boards if rr == r]))
        closes = self.published[r] + 30 * 60
        try:
            self.tour.lodge_protest(r, t, who="hráč")
        except TournamentError:
            assert self.clock.now() > closes
            return
        assert self.clock.now() <= closes
        self.protests.add((r, t))

    @precondition(lambda self: self.protests)
    @rule(data=st.data())
    def close_protest(self, data: st.DataObject) -> None:
        r, t = data.draw(st.sampled_from(sorted(self.protests)))
        self.tour.close_protest(r, t, who="HR")
        self.protests.discard((r, t))

    @rule(minutes=st.integers(1, 40))
    def time_passes(self, minutes: int) -> None:
        self.clock.advance(minutes * 60)

    @precondition(lambda self: self.published)
    @rule(data=st.data(), early=st.booleans())
    def finalise(self, data: st.DataObject, early: bool) -> None:
        r = data.draw(st.sampled_from(sorted(self.published)))
        closes = self.published[r] + 30 * 60
        try:
            self.tour.finalise(r, early=early)
        except TournamentError:
            assert not early and self.clock.now() < closes
            return
        held = {t for (rr, t) in self.protests if rr == r}
        held |= {t for (rr, t, _) in self.disputes.values() if rr == r}
        for (rr, t), m in self.tables.items():
            if rr == r and t not in held and m.status in ("entered", "confirmed"):
                m.status = "final"

    @precondition(lambda self: self.disputes)
    @rule(data=st.data(), take=st.booleans())
    def resolve(self, data: st.DataObject, take: bool) -> None:
        d = data.draw(st.sampled_from(sorted(self.disputes)))
        r, t, v = self.disputes.pop(d)
        self.tour.resolve_dispute(d, take=take, who="HR")
        if take:
            m = self.tables[(r, t)]
            m.value = v
            m.sources = {"station"}

    @precondition(
        lambda self: self.rounds > 0 and all(self._complete(r) for r in range(1, self.rounds + 1))
    )
    @rule()
    def export_and_import(self) -> None:
        path = Path(self.dir.name) / "export.t"
        tsh.write(self.tour.export_tsh(), path)
        self.copies += 1
        with Tournament.open(Path(self.dir.name) / f"copy-{self.copies}.db") as copy:
            copy.import_tsh(path)
            assert _table(copy) == _table(self.tour)

    # -- invariants -----------------------------------------------------------------------
    @invariant()
    def results_are_the_models(self) -> None:
        got = {
            (r, row["table_no"]): row
            for r in range(1, self.rounds + 1)
            for row in self.tour.results(r)
        }
        for key, m in self.tables.items():
            if m.value is None:
                assert key not in got
                continue
            row = got[key]
            assert (row["s_first"], row["s_second"]) == m.value, (key, row, m)
            assert row["status"] == m.status, (key, row, m)

    @invariant()
    def one_sided_entries_are_shown_until_the_table_has_a_result(self) -> None:
        for r in range(1, self.rounds + 1):
            shown = {
                t: (v["station"], (v["s_first"], v["s_second"]))
                for t, v in self.tour.book.one_sided(r).items()
            }
            want = {
                t: m.one_sided
                for (rr, t), m in self.tables.items()
                if rr == r and m.one_sided is not None and m.value is None
            }
            assert shown == want

    @invariant()
    def every_dispute_is_listed(self) -> None:
        listed = {
            d["id"]: (d["round"], d["table_no"], (d["s_first"], d["s_second"]))
            for d in self.tour.disputes()
        }
        assert listed == self.disputes

    @invariant()
    def standings_are_a_recomputation(self) -> None:
        scored = {r for (r, _), m in self.tables.items() if m.value is not None}
        last = max(scored | set(self.published), default=0)
        games = []
        for (r, t), (first, second) in sorted(self.boards.items()):
            if r > last:
                continue
            if second is None:
                games.append(Game(r, first, None, kind=Kind.BYE, table=t))
                continue
            m = self.tables.get((r, t), Table())
            if m.value is not None and m.status != "conflict":
                games.append(Game(r, first, second, *m.value, first=first, table=t))
        want = compute(self.tour.players(), games, self.tour.rules, rounds=last)
        assert _rows(self.tour.standings()) == _rows(want)
        pending = {(u["round"], u["table"]) for u in self.tour.unsettled()}
        uncounted = {
            (r, t)
            for (r, t) in self._games()
            if r <= last and self.tables.get((r, t), Table()).status in (None, "conflict")
        }
        assert pending == uncounted


def _rows(table: list) -> list[tuple[object, ...]]:  # type: ignore[type-arg]
    return [(s.rank, s.player.name, s.wins, s.points, s.opp_points) for s in table]


def _table(tour: Tournament) -> list[tuple[object, ...]]:
    return sorted((s.player.name, s.wins, s.points, s.opp_points) for s in tour.standings())


Record.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_the_tournament_record = pytest.mark.timeout(600)(Record.TestCase)

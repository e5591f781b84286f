"""The Swiss matching is optimal where brute force can check it: the bye is chosen inside
the matching, rematches are the fewest possible and then the score gaps the smallest; the
rule set forbids or allows rematches and the director can override it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from samoobsluha.hub.cli import main
from samoobsluha.hub.tournament import pairing as pairing_mod
from samoobsluha.hub.tournament import tsh
from samoobsluha.hub.tournament.model import Game, Kind, Player, TournamentData
from samoobsluha.hub.tournament.pairing import PairingError, pair_round
from samoobsluha.hub.tournament.rules import CAS, SSS


def matchings(ids: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``ids`` (a bye as (player, BYE) when odd)."""
    if not ids:
        yield []
        return
    if len(ids) % 2:
        for i, x in enumerate(ids):
            for rest in matchings(ids[:i] + ids[i + 1 :]):
                yield [(x, pairing_mod.BYE), *rest]
        return
    a = ids[0]
    for i in range(1, len(ids)):
        for rest in matchings(ids[1:i] + ids[i + 1 :]):
            yield [(a, ids[i]), *rest]


def history(n: int, rounds: int, seed: int) -> TournamentData:
    """Random pairings with random scores: plenty of met pairs, byes and score gaps."""
    rnd = random.Random(seed)
    data = TournamentData()
    for i in range(1, n + 1):
        data.players[i] = Player(i, f"Hráč {i}", rating=rnd.randint(900, 2000))
    for r in range(1, rounds + 1):
        order = list(range(1, n + 1))
        rnd.shuffle(order)
        if n % 2:
            data.games.append(Game(r, order.pop(), None, kind=Kind.BYE))
        for a, b in zip(order[::2], order[1::2], strict=True):
            data.games.append(Game(r, a, b, rnd.randint(250, 550), rnd.randint(250, 550), first=a))
    return data


def total(f: pairing_mod._Field, costs: pairing_mod._Costs, pairs: list[tuple[int, int]]) -> int:
    fewest = min(f.byes.values())
    bottom = min(f.score.values())
    out = 0
    for a, b in pairs:
        if b == pairing_mod.BYE:
            out += pairing_mod._bye_cost(f, costs, a, fewest, bottom)
        else:
            out += costs.cost(a, b)
    return out


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 9), rounds=st.integers(1, 7), seed=st.integers(0, 10**6))
def test_the_pairing_is_the_optimum_of_all_matchings(n: int, rounds: int, seed: int) -> None:
    data = history(n, rounds, seed)
    ids = sorted(data.players)
    result = pair_round(data, CAS, rounds + 1, seed=seed)
    f = pairing_mod._field(data, CAS, ids, data.games)
    costs = pairing_mod._Costs(f)
    got = [(b.first, b.second if b.second is not None else pairing_mod.BYE) for b in result.boards]
    best = min(total(f, costs, m) for m in matchings(f.order))
    assert total(f, costs, got) == best

    # Which means: the fewest rematches any pairing has, a bye to somebody with the fewest
    # byes unless that forces a rematch.
    def rematches(m: list[tuple[int, int]]) -> int:
        return sum(1 for a, b in m if b != pairing_mod.BYE and b in f.met[a])

    assert result.rematches == min(rematches(m) for m in matchings(f.order))


def test_bye_chosen_with_the_pairing_not_before_it() -> None:
    # Eva (5, last) has met everybody but Adam (1, the leader): her bye leaves Adam to meet
    # somebody he has met; a bye for Dan (4) lets Adam meet Eva. The old order (bye first,
    # then the rest) needed a retry loop; the matching sees it at once.
    data = TournamentData(
        {i: Player(i, n) for i, n in enumerate(["Adam", "Bob", "Cyril", "Dan", "Eva"], 1)}
    )
    data.games = [
        Game(1, 1, 2, 450, 300),
        Game(1, 3, 5, 400, 390),
        Game(1, 4, None, kind=Kind.BYE),
        Game(2, 1, 3, 450, 300),
        Game(2, 2, 5, 400, 390),
        Game(2, 4, None, kind=Kind.BYE),
        Game(3, 1, 4, 450, 300),
        Game(3, 4, 5, 400, 390),
        Game(3, 2, 3, 400, 390),
    ]
    result = pair_round(data, CAS, 4)
    assert result.rematches == 0
    assert frozenset((1, 5)) in {frozenset(p) for p in result.pairs()}


def full_round_robin(n: int) -> TournamentData:
    data = TournamentData({i: Player(i, f"Hráč {chr(64 + i)}") for i in range(1, n + 1)})
    r = 0
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            r += 1
            data.games.append(Game(r, a, b, 400 + a, 300 + b, first=a))
    return data


def test_sss_forbids_rematches_unless_the_director_allows_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    data = full_round_robin(4)
    nxt = data.rounds + 1
    with pytest.raises(PairingError, match="cannot be paired without a rematch \\(SSS forbids"):
        pair_round(data, SSS, nxt)
    allowed = pair_round(data, SSS, nxt, allow_rematch=True)
    assert allowed.rematches == 2
    assert any("the director allowed them" in n for n in allowed.notes)
    cas = pair_round(data, CAS, nxt)  # ČAS: the fewest rematches, then the smallest gaps
    assert cas.rematches == 2
    with pytest.raises(PairingError):
        pair_round(data, CAS, nxt, allow_rematch=False)
    assert SSS.with_overrides({"rematches": "minimise"}).rematches == "minimise"
    with pytest.raises(ValueError):
        CAS.with_overrides({"rematches": "sometimes"})


def test_rematch_refusal_and_override_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    data = full_round_robin(4)
    path = tmp_path / "rr.t"
    tsh.write(tsh.from_tournament(data), path)
    assert main(["pair", "--rules", "sss", "--tsh", str(path)]) == 2
    assert "nelze rozlosovat bez opakovaného zápasu (SSS" in capsys.readouterr().err
    assert main(["pair", "--rules", "sss", "--tsh", str(path), "--allow-rematch"]) == 0
    assert capsys.readouterr().out.count("\n") == 3  # header + 2 tables

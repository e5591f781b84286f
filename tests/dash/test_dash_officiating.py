from datetime import datetime

import pytest

from samoobsluha.hub.entry import Entry, EntryError, parse_entry
from samoobsluha.hub.officiating import (
    Challenge,
    day_schedule,
    penalties_by_player,
    stations_required,
    unjustified_penalties,
)


@pytest.mark.parametrize(
    ("players", "stations"),
    [(0, 0), (1, 1), (49, 1), (50, 1), (51, 2), (100, 2), (101, 3), (150, 3), (151, 4)],
)
def test_one_station_per_started_fifty_players(players: int, stations: int) -> None:
    assert stations_required(players) == stations


def _ch(table: int, who: int | None, justified: bool, at: float, rnd: int = 1) -> Challenge:
    return Challenge(rnd, table, who, justified, at=at, key=f"k{at:g}")


def test_sss_third_unjustified_challenge_costs_twenty_points() -> None:
    challenges = [
        _ch(1, 5, False, 1),
        _ch(1, 5, True, 2),  # justified: never counts
        _ch(1, 5, False, 3),
        _ch(1, 5, False, 4),  # the third unjustified: 20
        _ch(1, 5, False, 5),  # the fourth: 40 in all
        _ch(1, 6, False, 6),  # the opponent's own count
        _ch(1, None, False, 7),  # nobody said who: cannot be counted
        _ch(2, 5, False, 8, rnd=2),  # another game starts from zero
    ]
    tallies = unjustified_penalties(challenges)
    by = {(t.round_no, t.player): t for t in tallies}
    assert by[(1, 5)].unjustified == 4
    assert by[(1, 5)].penalty() == 40
    assert by[(1, 5)].penalised_keys() == ["k4", "k5"]
    assert by[(1, 6)].penalty() == 0
    assert by[(2, 5)].penalty() == 0
    assert penalties_by_player(tallies) == {5: 40}


def test_two_unjustified_challenges_are_free() -> None:
    tallies = unjustified_penalties([_ch(3, 1, False, 1), _ch(3, 1, False, 2)])
    assert [t.penalty() for t in tallies] == [0]


def test_sss_day_has_nine_rounds_with_breaks_lunch_and_refreshment() -> None:
    day = day_schedule(datetime(2026, 5, 9, 9, 0))
    rounds = [s for s in day if s.is_round]
    assert [s.round_no for s in rounds] == list(range(1, 10))
    assert all((s.end - s.start).seconds == 45 * 60 for s in rounds)
    labels = [s.label for s in day if not s.is_round]
    assert labels.count("lunch") == 1 and labels.count("refreshment") == 1
    assert labels.count("break") == 6
    lunch = next(s for s in day if s.label == "lunch")
    assert lunch.start == rounds[3].end and (lunch.end - lunch.start).seconds == 3600
    assert rounds[4].start == lunch.end
    assert day[-1].round_no == 9  # the day ends with the last round, not a break


def test_schedule_without_lunch() -> None:
    day = day_schedule(
        datetime(2026, 5, 9, 10, 0),
        rounds=3,
        lunch_after=None,
        refreshment_after=None,
        slot_minutes=50,
        break_minutes=5,
    )
    assert [(s.start.strftime("%H:%M"), s.round_no) for s in day] == [
        ("10:00", 1),
        ("10:50", 0),
        ("10:55", 2),
        ("11:45", 0),
        ("11:50", 3),
    ]


@pytest.mark.parametrize(
    ("line", "entry"),
    [
        ("12 412 389", Entry(12, 412, 389)),
        ("12: 412 - 389", Entry(12, 412, 389)),
        ("3 350 420 2", Entry(3, 350, 420, second_started=True)),
        ("3 350 420 1", Entry(3, 350, 420)),
        ("  7,400;399 ", Entry(7, 400, 399)),
    ],
)
def test_fast_entry_lines(line: str, entry: Entry) -> None:
    assert parse_entry(line) == entry
    assert parse_entry(entry.as_line()) == entry


@pytest.mark.parametrize(
    ("line", "why", "cs"),
    [
        ("", "Empty", "Prázdný řádek"),
        ("12 412", "TABLE SCORE SCORE", "napište STŮL SKÓRE SKÓRE (čísel je 2)"),
        ("12 412 389 2 5", "too many", "příliš mnoho čísel"),
        ("12 412 389 3", "1 or 2", "1 nebo 2, ne 3"),
        ("0 412 389", "from 1", "od 1"),
        ("12 abc 389", "only numbers", "„12 abc 389“: jen čísla"),
    ],
)
def test_fast_entry_refuses_with_a_reason(line: str, why: str, cs: str) -> None:
    with pytest.raises(EntryError, match=why) as caught:
        parse_entry(line)
    assert cs in caught.value.message("cs")


def test_today_at_reads_hh_mm_on_the_same_day() -> None:
    from samoobsluha.hub.officiating import today_at

    now = datetime(2026, 5, 9, 9, 30).timestamp()
    assert today_at("10:15", now) == datetime(2026, 5, 9, 10, 15).timestamp()
    assert today_at("8:00", now) == datetime(2026, 5, 9, 8, 0).timestamp()
    assert today_at("25:00", now) is None and today_at("ten", now) is None

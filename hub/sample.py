"""A sample field of players for the demo, training and tests: Czech and Slovak names and
clubs drawn from a fixed seed, so the same seed always gives the same tournament."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

FIRST_MALE = [
    "Jan",
    "Petr",
    "Tomáš",
    "Martin",
    "Jiří",
    "Pavel",
    "Lukáš",
    "Jakub",
    "Ondřej",
    "Michal",
    "Vojtěch",
    "Marek",
    "Radek",
    "Zdeněk",
    "Miroslav",
    "Ľubomír",
    "Juraj",
    "Peter",
    "Štefan",
    "Matúš",
    "Dušan",
    "Ján",
    "Marián",
    "Róbert",
]
FIRST_FEMALE = [
    "Jana",
    "Petra",
    "Lucie",
    "Kateřina",
    "Eva",
    "Hana",
    "Tereza",
    "Markéta",
    "Zuzana",
    "Věra",
    "Alena",
    "Michaela",
    "Ľudmila",
    "Katarína",
    "Mária",
    "Veronika",
    "Soňa",
    "Andrea",
    "Dagmar",
    "Lenka",
]
SURNAMES = (
    ("Novák", "Nováková"),
    ("Svoboda", "Svobodová"),
    ("Dvořák", "Dvořáková"),
    ("Černý", "Černá"),
    ("Procházka", "Procházková"),
    ("Kučera", "Kučerová"),
    ("Veselý", "Veselá"),
    ("Horák", "Horáková"),
    ("Němec", "Němcová"),
    ("Pokorný", "Pokorná"),
    ("Marek", "Marková"),
    ("Hájek", "Hájková"),
    ("Král", "Králová"),
    ("Růžička", "Růžičková"),
    ("Beneš", "Benešová"),
    ("Fiala", "Fialová"),
    ("Sedláček", "Sedláčková"),
    ("Kováč", "Kováčová"),
    ("Horváth", "Horváthová"),
    ("Baláž", "Balážová"),
    ("Tóth", "Tóthová"),
    ("Szabó", "Szabóová"),
    ("Lukáč", "Lukáčová"),
    ("Šťastný", "Šťastná"),
    ("Zelenka", "Zelenková"),
    ("Řezníček", "Řezníčková"),
)
CLUBS = ("SK Praha", "Brno", "Olomouc", "Ostrava", "Plzeň", "Bratislava", "Košice", "Žilina", "")


def sample_players(count: int = 32, seed: int = 2026) -> list[tuple[str, str, int]]:
    """``count`` distinct (name, club, rating) rows, always the same for one seed."""
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, str, int]] = []
    while len(out) < count:
        female = rng.random() < 0.4
        first = rng.choice(FIRST_FEMALE if female else FIRST_MALE)
        surname = rng.choice(SURNAMES)[1 if female else 0]
        name = f"{surname} {first}"
        if name in seen:
            continue
        seen.add(name)
        rating = rng.choice((0, *range(900, 1900, 10)))
        out.append((name, rng.choice(CLUBS), rating))
    return out


def sample_csv(count: int = 32, seed: int = 2026) -> str:
    """The sample field as the CSV ``hub players import`` reads (with a Czech header)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["jméno", "klub", "rating"])
    writer.writerows(sample_players(count, seed))
    return out.getvalue()


def play_sample(
    tour: Any,
    rounds: int = 3,
    *,
    players: int = 32,
    seed: int = 2026,
    name: str = "Mistrovství České republiky v Scrabble 2026",
    place: str = "Praha, Dům dětí a mládeže Karlín",
) -> None:
    """A sample tournament in ``tour`` (a :class:`hub.tournament.Tournament`): the sample
    field checked in, ``rounds`` rounds paired and played (scores of a real game's size,
    one draw and one forfeit), every round published, the next round paired. For the
    prints' and screens' tests and the docs' pictures."""
    rng = random.Random(seed)
    tour.configure(name=name, rules="cas", rounds=rounds + 2, place=place)
    tour.import_players_csv(sample_csv(players, seed))
    for p in tour.players():
        tour.check_in(p.id)
    for round_no in range(1, rounds + 1):
        boards = tour.pairing(round_no).boards if tour.last_round() >= round_no else None
        boards = boards or tour.pair(round_no, seed=seed).boards
        for i, b in enumerate(boards):
            if b.second is None:
                continue
            if round_no == 1 and i == 1:
                tour.record_result(round_no, b.table, b.first, b.second, 404, 404, b.first)
            elif round_no == 2 and i == 2:
                tour.record_result(
                    round_no,
                    b.table,
                    b.first,
                    b.second,
                    None,
                    None,
                    kind="forfeit",
                    forfeited=b.second,
                )
            else:
                own, opp = rng.randint(280, 560), rng.randint(280, 560)
                tour.record_result(round_no, b.table, b.first, b.second, own, opp, b.first)
        tour.publish(round_no)
    tour.pair(rounds + 1, seed=seed)

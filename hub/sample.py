"""A sample field of players for the demo, training and tests: Czech and Slovak names and
clubs drawn from a fixed seed, so the same seed always gives the same tournament."""

from __future__ import annotations

import csv
import io
import random

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

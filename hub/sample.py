"""A sample field of players for the demo, training and tests: Czech and Slovak names and
clubs (or Polish ones, ``lang="pl"``) drawn from a fixed seed, so the same seed always gives
the same tournament."""

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

# A Polish field (the PFS's events are the largest: 100–200 players, PFS ranking 100–200).
PL_FIRST_MALE = [
    "Jan",
    "Piotr",
    "Krzysztof",
    "Andrzej",
    "Tomasz",
    "Paweł",
    "Michał",
    "Marcin",
    "Łukasz",
    "Grzegorz",
    "Mateusz",
    "Wojciech",
    "Jakub",
    "Bartłomiej",
    "Maciej",
    "Mikołaj",
    "Przemysław",
    "Zbigniew",
    "Jerzy",
    "Sławomir",
    "Kamil",
    "Dariusz",
]
PL_FIRST_FEMALE = [
    "Anna",
    "Katarzyna",
    "Małgorzata",
    "Agnieszka",
    "Barbara",
    "Ewa",
    "Joanna",
    "Magdalena",
    "Zofia",
    "Jadwiga",
    "Dorota",
    "Elżbieta",
    "Bożena",
    "Aleksandra",
    "Justyna",
    "Beata",
    "Żaneta",
    "Grażyna",
    "Monika",
    "Urszula",
]
PL_SURNAMES = tuple(
    tuple(pair.split("/"))
    for pair in [
        "Nowak/Nowak",
        "Kowalski/Kowalska",
        "Wiśniewski/Wiśniewska",
        "Wójcik/Wójcik",
        "Kowalczyk/Kowalczyk",
        "Kamiński/Kamińska",
        "Lewandowski/Lewandowska",
        "Zieliński/Zielińska",
        "Szymański/Szymańska",
        "Woźniak/Woźniak",
        "Dąbrowski/Dąbrowska",
        "Kozłowski/Kozłowska",
        "Jankowski/Jankowska",
        "Mazur/Mazur",
        "Wojciechowski/Wojciechowska",
        "Kwiatkowski/Kwiatkowska",
        "Krawczyk/Krawczyk",
        "Kaczmarek/Kaczmarek",
        "Piotrowski/Piotrowska",
        "Grabowski/Grabowska",
        "Zając/Zając",
        "Pawłowski/Pawłowska",
        "Michalski/Michalska",
        "Król/Król",
        "Wieczorek/Wieczorek",
        "Jabłoński/Jabłońska",
        "Wróbel/Wróbel",
        "Nowakowski/Nowakowska",
        "Majewski/Majewska",
        "Olszewski/Olszewska",
        "Stępień/Stępień",
        "Jaworski/Jaworska",
        "Malinowski/Malinowska",
        "Górski/Górska",
        "Sikora/Sikora",
        "Walczak/Walczak",
        "Baran/Baran",
        "Rutkowski/Rutkowska",
        "Michalak/Michalak",
        "Szewczyk/Szewczyk",
        "Ostrowski/Ostrowska",
        "Tomaszewski/Tomaszewska",
        "Pietrzak/Pietrzak",
        "Wróblewski/Wróblewska",
        "Jasiński/Jasińska",
        "Zawadzki/Zawadzka",
        "Chmielewski/Chmielewska",
        "Borkowski/Borkowska",
        "Czarnecki/Czarnecka",
        "Sawicki/Sawicka",
        "Sokołowski/Sokołowska",
        "Urbański/Urbańska",
        "Kubiak/Kubiak",
        "Maciejewski/Maciejewska",
        "Szczepański/Szczepańska",
        "Kucharski/Kucharska",
        "Wilk/Wilk",
        "Kalinowski/Kalinowska",
        "Łuczak/Łuczak",
        "Żak/Żak",
        "Ślusarczyk/Ślusarczyk",
        "Głowacki/Głowacka",
        "Jóźwiak/Jóźwiak",
    ]
)
PL_CLUBS = (
    "Siódemka Warszawa", "Scrabble Kraków", "Gdańskie Scrabble", "Wrocławski Klub Scrabble",
    "Poznań", "Łódź", "Szczecin", "Lublin", "Katowice", "",
)  # fmt: skip


def sample_players(
    count: int = 32, seed: int = 2026, lang: str = "cs"
) -> list[tuple[str, str, int]]:
    """``count`` distinct (name, club, rating) rows, always the same for one seed. Polish
    (``lang="pl"``): Polish names and clubs, PFS ranking 100–200, about one in eight
    unrated (a newcomer), as a Polish entry list looks."""
    polish = lang == "pl"
    males, females = (PL_FIRST_MALE, PL_FIRST_FEMALE) if polish else (FIRST_MALE, FIRST_FEMALE)
    surnames, clubs = (PL_SURNAMES, PL_CLUBS) if polish else (SURNAMES, CLUBS)
    ratings = (0, *range(100, 200)) if polish else (0, *range(900, 1900, 10))
    rng = random.Random(seed)
    seen: set[str] = set()
    out: list[tuple[str, str, int]] = []
    while len(out) < count:
        female = rng.random() < 0.4
        first = rng.choice(females if female else males)
        surname = rng.choice(surnames)[1 if female else 0]
        name = f"{surname} {first}"
        if name in seen:
            continue
        seen.add(name)
        rating = 0 if polish and rng.random() < 0.12 else rng.choice(ratings)
        out.append((name, rng.choice(clubs), rating))
    return out


def sample_csv(count: int = 32, seed: int = 2026, lang: str = "cs") -> str:
    """The sample field as the CSV ``hub players import`` reads (with a header in the
    field's language: ``jméno,klub,rating`` or ``gracz,klub,ranking``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["gracz", "klub", "ranking"] if lang == "pl" else ["jméno", "klub", "rating"])
    writer.writerows(sample_players(count, seed, lang))
    return out.getvalue()


def play_sample(
    tour: Any,
    rounds: int = 3,
    *,
    players: int = 32,
    seed: int = 2026,
    name: str = "Mistrovství České republiky v Scrabble 2026",
    place: str = "Praha, Dům dětí a mládeže Karlín",
    lang: str = "cs",
) -> None:
    """A sample tournament in ``tour`` (a :class:`hub.tournament.Tournament`): the sample
    field checked in, ``rounds`` rounds paired and played (scores of a real game's size,
    one draw and one forfeit), every round published, the next round paired. For the
    prints' and screens' tests and the docs' pictures. ``lang="pl"``: a Polish field under
    the PFS rules."""
    rng = random.Random(seed)
    rules = "pfs" if lang == "pl" else "cas"
    tour.configure(name=name, rules=rules, rounds=rounds + 2, place=place)
    tour.import_players_csv(sample_csv(players, seed, lang))
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

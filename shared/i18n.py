"""The words the system shows people, in Czech (default), Slovak and English.

Code, logs and docs are in English; anything a player or referee reads goes through
:func:`t`. Keys are stable identifiers; a missing translation falls back to Czech.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("cs", "sk", "en")
DEFAULT = "cs"

MESSAGES: dict[str, dict[str, str]] = {
    "verdict.valid": {"cs": "PLATNÉ", "sk": "PLATNÉ", "en": "VALID"},
    "verdict.invalid": {"cs": "NEPLATNÉ", "sk": "NEPLATNÉ", "en": "NOT VALID"},
    "verdict.referee": {
        "cs": "ZAVOLEJTE ROZHODČÍHO",
        "sk": "ZAVOLAJTE ROZHODCU",
        "en": "CALL THE REFEREE",
    },
    "verdict.referee_long": {
        "cs": "Slovo je delší, než pokrývá slovník ({max} písmen). Rozhodne rozhodčí.",
        "sk": "Slovo je dlhšie, než pokrýva slovník ({max} písmen). Rozhodne rozhodca.",
        "en": "The word is longer than the lexicon covers ({max} letters). The referee decides.",
    },
    "refused.empty": {
        "cs": "Nebylo zadáno žádné slovo.",
        "sk": "Nebolo zadané žiadne slovo.",
        "en": "No word was entered.",
    },
    "refused.too_short": {
        "cs": "„{raw}“: slovo musí mít alespoň 2 písmena.",
        "sk": "„{raw}“: slovo musí mať aspoň 2 písmená.",
        "en": "“{raw}”: a word has at least 2 letters.",
    },
    "refused.too_long": {
        "cs": "„{raw}“ má {detail} písmen; na desku se vejde nejvýše 15.",
        "sk": "„{raw}“ má {detail} písmen; na dosku sa zmestí najviac 15.",
        "en": "“{raw}” has {detail} letters; at most 15 fit on the board.",
    },
    "refused.bad_char": {
        "cs": "„{raw}“ obsahuje znak „{detail}“, který není písmenem abecedy.",
        "sk": "„{raw}“ obsahuje znak „{detail}“, ktorý nie je písmenom abecedy.",
        "en": "“{raw}” contains “{detail}”, which is not a letter of the alphabet.",
    },
    "refused.brackets": {
        "cs": "„{raw}“: závorky pro žolíka nejsou v pořádku.",
        "sk": "„{raw}“: zátvorky pre žolíka nie sú v poriadku.",
        "en": "“{raw}”: the blank brackets are not balanced.",
    },
    "char.space": {"cs": "mezera", "sk": "medzera", "en": "space"},
    "lexicon.unusable": {
        "cs": "Slovník nelze použít: {error}",
        "sk": "Slovník nie je možné použiť: {error}",
        "en": "The lexicon cannot be used: {error}",
    },
}


def t(key: str, lang: str = DEFAULT, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` with ``values`` filled in."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry[DEFAULT]
    return text.format(**values) if values else text


def refusal(exc: Any, lang: str = DEFAULT) -> str:
    """A :class:`shared.normalize.WordRefused` as a sentence for the screen."""
    detail = exc.detail
    if detail and detail.isspace():
        detail = t("char.space", lang)
    return t(f"refused.{exc.reason.value}", lang, raw=exc.raw, detail=detail)


# Tournament exports and screens (hub.tournament).
MESSAGES.update(
    {
        "tour.standings": {
            "cs": "Pořadí po {round}. kole",
            "sk": "Poradie po {round}. kole",
            "en": "Standings after round {round}",
        },
        "tour.pairings": {
            "cs": "Rozlosování {round}. kola",
            "sk": "Nasadenie {round}. kola",
            "en": "Pairings, round {round}",
        },
        "tour.scorecard": {"cs": "Karta hráče", "sk": "Karta hráča", "en": "Scorecard"},
        "tour.col.rank": {"cs": "Pořadí", "sk": "Poradie", "en": "Rank"},
        "tour.col.name": {"cs": "Jméno", "sk": "Meno", "en": "Name"},
        "tour.col.club": {"cs": "Klub", "sk": "Klub", "en": "Club"},
        "tour.col.wins": {"cs": "Výhry", "sk": "Výhry", "en": "Wins"},
        "tour.col.spread": {"cs": "Rozdíl", "sk": "Rozdiel", "en": "Spread"},
        "tour.col.points": {"cs": "Body", "sk": "Body", "en": "Points"},
        "tour.col.turcas": {"cs": "TurČAS", "sk": "TurČAS", "en": "TurČAS"},
        "tour.col.opp_wins": {"cs": "Výhry soupeřů", "sk": "Výhry súperov", "en": "Opp. wins"},
        "tour.col.balance": {"cs": "Bilance", "sk": "Bilancia", "en": "Balance"},
        "tour.col.starts": {"cs": "Začínal", "sk": "Začínal", "en": "Started"},
        "tour.col.table": {"cs": "Stůl", "sk": "Stôl", "en": "Table"},
        "tour.col.first": {"cs": "Začíná (ZH)", "sk": "Začína (ZH)", "en": "Starts"},
        "tour.col.second": {"cs": "Soupeř (DH)", "sk": "Súper (DH)", "en": "Second"},
        "tour.col.round": {"cs": "Kolo", "sk": "Kolo", "en": "Round"},
        "tour.col.opponent": {"cs": "Soupeř", "sk": "Súper", "en": "Opponent"},
        "tour.col.score": {"cs": "Skóre", "sk": "Skóre", "en": "Score"},
        "tour.col.result": {"cs": "Výsledek", "sk": "Výsledok", "en": "Result"},
        "tour.col.zh": {"cs": "ZH", "sk": "ZH", "en": "Started"},
        "tour.bye": {"cs": "volný los", "sk": "voľný žreb", "en": "bye"},
        "tour.kind.forfeit": {"cs": "kontumace", "sk": "kontumácia", "en": "forfeit"},
        "tour.kind.double_forfeit": {
            "cs": "kontumace obou",
            "sk": "kontumácia oboch",
            "en": "double forfeit",
        },
        "tour.kind.late": {"cs": "pozdní vstup", "sk": "neskorý vstup", "en": "late entry"},
        "tour.kind.absent": {"cs": "nepřítomen", "sk": "neprítomný", "en": "absent"},
        "tour.win": {"cs": "V", "sk": "V", "en": "W"},
        "tour.loss": {"cs": "P", "sk": "P", "en": "L"},
        "tour.draw": {"cs": "R", "sk": "R", "en": "D"},
    }
)

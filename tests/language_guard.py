"""Finding English on a Czech or Slovak screen, and English, Czech or Slovak on a Polish one.

Two nets: (1) every phrase of the English catalogue that is not also Czech or Slovak
text (a cs/sk screen showing one used the wrong language), and (2) English words that
appear in no Czech or Slovak message — what an untranslated string from outside the
catalogue (a service message, an exception, a status value) is made of. A Polish screen
(``lang="pl"``) is held to Polish: the same nets with the Polish texts as the local ones,
and a third for Czech and Slovak — phrases and words of those catalogues that no Polish
message has (a Czech text on a Polish screen, the default language leaking)."""

from __future__ import annotations

import re
from functools import cache

from samoobsluha.shared.i18n import MESSAGES

_WORD = re.compile(r"[A-Za-z]{3,}")
# Words with the letters of Czech and Slovak (a Polish screen must not show them).
_LOCAL_WORD = re.compile(r"[^\W\d_]{3,}")
# English words from outside the catalogue that have been seen leaking (status values,
# sources, service warnings) — checked even though the English catalogue lacks them.
EXTRA_ENGLISH = {
    "entered", "conflict", "corrected", "confirmed", "operator", "station", "stations",
    "warning", "started", "same", "score", "group", "running", "server", "pending",
    "missing", "lexicon", "differs", "round", "table", "player", "players", "the", "and",
    "not", "has", "with", "from", "played", "before", "after", "checks", "check",
}  # fmt: skip


# Help texts (``--help``) name what the operator types — commands, options, config keys
# ("hub serve", "[backup] folder") — inside their local text, so they are left out of the
# nets unless asked for (``typed``): as local words they would hide English, as English
# words they would flag program names (KLASIK, PLUS, PDF) on every other screen.
_TYPED = ("cli.help.", "cli.metavar.")


def _texts(lang: str, typed: bool = False) -> list[str]:
    out = []
    for key, entry in MESSAGES.items():
        if not typed and key.startswith(_TYPED):
            continue
        text = entry.get(lang)
        if isinstance(text, dict):
            out.extend(text.values())
        elif text:
            out.append(text)
    return out


def _locals(lang: str | None) -> tuple[str, ...]:
    return ("pl",) if lang == "pl" else ("cs", "sk")


@cache
def _local_words(
    lang: str | None = None, pattern: re.Pattern[str] = _WORD, typed: bool = False
) -> frozenset[str]:
    words = set()
    for local in _locals(lang):
        for text in _texts(local, typed):
            words.update(w.lower() for w in pattern.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words)


@cache
def _english_phrases(lang: str | None = None, typed: bool = False) -> tuple[str, ...]:
    return _foreign_phrases(("en",), lang, typed)


@cache
def _foreign_phrases(
    foreign: tuple[str, ...], lang: str | None, typed: bool = False
) -> tuple[str, ...]:
    local = "\n".join(text for code in _locals(lang) for text in _texts(code, typed))
    phrases = set()
    for text in (text for code in foreign for text in _texts(code, typed)):
        for chunk in re.split(r"\{[^}]*\}", text):
            chunk = chunk.strip(" .,:;!?()–-·“”„")
            if len(chunk) >= 8 and len(_WORD.findall(chunk)) >= 2 and chunk not in local:
                phrases.add(chunk)
    return tuple(sorted(phrases))


@cache
def _english_words(lang: str | None = None, typed: bool = False) -> frozenset[str]:
    words = set(EXTRA_ENGLISH)
    for text in _texts("en", typed):
        words.update(w.lower() for w in _WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words - _local_words(lang))


@cache
def _czech_words(typed: bool = False) -> frozenset[str]:
    """Words of the Czech and Slovak messages that no Polish or English message has."""
    words = set()
    for code in ("cs", "sk"):
        for text in _texts(code, typed):
            words.update(w.lower() for w in _LOCAL_WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    english = {
        w.lower()
        for text in _texts("en", typed)
        for w in _LOCAL_WORD.findall(re.sub(r"\{[^}]*\}", " ", text))
    }
    # a Polish help text's words are Polish too (kategorie, kontrola, chyba)
    return frozenset(words - _local_words("pl", _LOCAL_WORD, typed) - english)


def english_on_screen(
    text: str, *, allowed: set[str] = frozenset(), lang: str | None = None, typed: bool = False
) -> list[str]:
    """English phrases and words in ``text`` (a cs or sk screen; with ``lang="pl"`` a
    Polish one, where Czech and Slovak count as foreign too); ``allowed``: words that are
    data here (a player's or a tournament's name). ``typed``: a help page — the help texts'
    English (and Czech) counts as foreign too."""
    found = [p for p in _english_phrases(lang, typed) if p in text]
    if lang == "pl":
        found += [p for p in _foreign_phrases(("cs", "sk"), lang, typed) if p in text]
    text = re.sub(r"\S*/\S*", " ", text)  # file paths are data, not language
    allowed_lower = {w.lower() for w in allowed}
    words = _english_words(lang, typed) - allowed_lower
    found += sorted({w for w in _WORD.findall(text) if w.lower() in words})
    if lang == "pl":
        czech = _czech_words(typed) - allowed_lower
        found += sorted({w for w in _LOCAL_WORD.findall(text) if w.lower() in czech})
    return found

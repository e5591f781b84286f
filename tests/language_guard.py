"""Finding English on a Czech or Slovak screen.

Two nets: (1) every phrase of the English catalogue that is not also Czech or Slovak
text (a cs/sk screen showing one used the wrong language), and (2) English words that
appear in no Czech or Slovak message — what an untranslated string from outside the
catalogue (a service message, an exception, a status value) is made of."""

from __future__ import annotations

import re
from functools import cache

from samoobsluha.shared.i18n import MESSAGES

_WORD = re.compile(r"[A-Za-z]{3,}")
# English words from outside the catalogue that have been seen leaking (status values,
# sources, service warnings) — checked even though the English catalogue lacks them.
EXTRA_ENGLISH = {
    "entered", "conflict", "corrected", "confirmed", "operator", "station", "stations",
    "warning", "started", "same", "score", "group", "running", "server", "pending",
    "missing", "lexicon", "differs", "round", "table", "player", "players", "the", "and",
    "not", "has", "with", "from", "played", "before", "after", "checks", "check",
}  # fmt: skip


def _texts(lang: str) -> list[str]:
    out = []
    for entry in MESSAGES.values():
        text = entry.get(lang)
        if isinstance(text, dict):
            out.extend(text.values())
        elif text:
            out.append(text)
    return out


@cache
def _local_words() -> frozenset[str]:
    words = set()
    for lang in ("cs", "sk"):
        for text in _texts(lang):
            words.update(w.lower() for w in _WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words)


@cache
def _english_phrases() -> tuple[str, ...]:
    local = "\n".join(_texts("cs") + _texts("sk"))
    phrases = set()
    for text in _texts("en"):
        for chunk in re.split(r"\{[^}]*\}", text):
            chunk = chunk.strip(" .,:;!?()–-·“”„")
            if len(chunk) >= 8 and len(_WORD.findall(chunk)) >= 2 and chunk not in local:
                phrases.add(chunk)
    return tuple(sorted(phrases))


@cache
def _english_words() -> frozenset[str]:
    words = set(EXTRA_ENGLISH)
    for text in _texts("en"):
        words.update(w.lower() for w in _WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words - _local_words())


def english_on_screen(text: str, *, allowed: set[str] = frozenset()) -> list[str]:
    """English phrases and words in ``text`` (a cs or sk screen); ``allowed``: words
    that are data here (a player's or a tournament's name)."""
    found = [p for p in _english_phrases() if p in text]
    text = re.sub(r"\S*/\S*", " ", text)  # file paths are data, not language
    words = _english_words() - {w.lower() for w in allowed}
    found += sorted({w for w in _WORD.findall(text) if w.lower() in words})
    return found

"""What another lexicon would have said: ``hub rejudge`` and ``hub lexicon diff``.

When an association updates its word list (or a hall played with the wrong build), the
chief referee and the association need to know what it changes for this event:

* :func:`rejudge` judges every check the stations logged (first instance and appeals at a
  station; the hub's own referee checks too) again with another lexicon — the kiosk's
  own :meth:`~shared.lexicon.Lexicon.judge` on the canonical words as logged — and lists
  each verdict that would change: table, round, words, old → new, and which words make
  the difference. Refused checks judged nothing and are skipped. It changes nothing:
  the log is the record of what was shown, and a changed verdict is the referee's case.
* :func:`diff` lists the forms one lexicon has and the other has not (counts and a
  sample), walking each trie once and looking its words up in the other: no word list
  is held in memory, so two full Czech builds compare on the hub itself.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import sqlite_utils

from samoobsluha.hub import store as sync_store
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.shared.normalize import Word

JUDGED = ("valid", "invalid", "referee")


@dataclass(frozen=True)
class Changed:
    """One logged check whose verdict the other lexicon would change."""

    key: str  # the challenge log key (station/epoch/seq)
    station: str
    at: float
    round_no: int | None
    table_no: int
    instance: str  # first | appeal
    words: tuple[str, ...]  # tile faces as judged, ŽIR(A)FA
    old: str  # the verdict as logged: valid | invalid | referee
    new: str
    lexicon_sha256: str  # the lexicon the check was judged with
    now_failed: tuple[str, ...]  # faces the other lexicon does not know
    now_known: tuple[str, ...]  # faces it knows that the logged verdict failed


@dataclass
class Rejudged:
    checks: int = 0  # judged checks looked at
    changed: list[Changed] = field(default_factory=list)


def rejudge(db: sqlite_utils.Database, lexicon: Lexicon, round_no: int | None = None) -> Rejudged:
    """Every logged judged check (of ``round_no``, or all), judged again by ``lexicon``."""
    out = Rejudged()
    for row, check in sync_store.check_records(db):
        if check.status not in JUDGED or not check.canonical:
            continue
        if round_no is not None and check.round_no != round_no:
            continue
        out.checks += 1
        verdict = lexicon.judge([Word(text) for text in check.canonical])
        new = verdict.status.value
        if new == check.status:
            continue
        faces = dict(zip(check.canonical, check.words, strict=False))
        failed_now = set(verdict.failed)
        failed_then = set(check.failed)
        out.changed.append(
            Changed(
                key=row.key,
                station=check.station_id,
                at=check.at,
                round_no=check.round_no,
                table_no=check.table_no,
                instance=check.instance,
                words=tuple(check.words),
                old=check.status,
                new=new,
                lexicon_sha256=check.lexicon_sha256 or "",
                now_failed=_faces(check.canonical, faces, failed_now - failed_then),
                now_known=_faces(check.canonical, faces, failed_then - failed_now),
            )
        )
    out.changed.sort(key=lambda c: (c.round_no or 0, c.table_no, c.at, c.key))
    return out


def _faces(canonical: Iterable[str], faces: dict[str, str], which: set[str]) -> tuple[str, ...]:
    return tuple(faces.get(w, w) for w in canonical if w in which)


@dataclass
class LexiconDiff:
    added: int = 0  # forms in B, not in A
    removed: int = 0  # forms in A, not in B
    added_sample: list[str] = field(default_factory=list)
    removed_sample: list[str] = field(default_factory=list)


def _missing(words: Iterable[str], other: Lexicon, sample: int) -> tuple[int, list[str]]:
    """(how many of ``words`` ``other`` lacks, the first ``sample`` of them)."""
    count = 0

    def lacking() -> Iterator[str]:
        nonlocal count
        for word in words:
            if not other.contains(word):
                count += 1
                yield word

    stream = lacking()
    picked = heapq.nsmallest(sample, stream) if sample > 0 else []
    for _ in stream:  # nsmallest reads it all; with no sample, count the rest
        pass
    return count, picked


def diff(a: Lexicon, b: Lexicon, sample: int = 20) -> LexiconDiff:
    """The forms ``b`` adds to ``a`` and removes from it; each sample: the first
    ``sample`` of them in code-point order."""
    out = LexiconDiff()
    out.removed, out.removed_sample = _missing(a.iter_words(), b, sample)
    out.added, out.added_sample = _missing(b.iter_words(), a, sample)
    return out

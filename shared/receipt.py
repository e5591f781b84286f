"""Verdict receipts: a short code shown with every verdict, which only the hub can check.

A player who disputes a challenge later writes the code on his scoresheet; ``hub verify
CODE`` (and the dashboard's challenges screen) finds the logged check it stands for — its
station, table, round, words, time, lexicon and verdict — or says that it is not genuine.

The code is an HMAC over the check's log row (the :class:`~shared.payloads.CheckPayload`
the station stores and sends: its id, time, table, round, instance, verdict, words and the
lexicon's SHA-256), keyed by a *receipt key* derived from the station's link key
(:class:`~shared.protocol.StationKey`, the key the station authenticates to the hub
with) under the label :data:`LABEL`. The hub derives every station's key from the hall
secret, so it can recompute any code; a player (or anyone without the card's key file)
cannot make one for a verdict the station did not give, and a code changed in one
character matches no row. The payload carries the id of the station key used
(``key_id``), so a card given a fresh key keeps its old receipts verifiable.

10 characters of Crockford's base32 (50 bits; no I, L, O, U), shown as ``ABCDE-FGHJK``;
read back case-insensitively, with O read as 0 and I/L as 1, spaces and dashes ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

LABEL = b"samoobsluha/receipt/1"
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32
LENGTH = 10  # characters: 50 bits
_READ_AS = {"O": "0", "I": "1", "L": "1"}
# The log row's fields a receipt covers: what the check was, where, when, with what.
FIELDS = (
    "station_id",
    "id",
    "at",
    "table_no",
    "round_no",
    "instance",
    "status",
    "words",
    "lexicon_sha256",
    "key_id",
)


@dataclass(frozen=True)
class ReceiptKey:
    """The key a station signs its receipts with: derived from its link key."""

    station_id: str
    key_id: int
    key: bytes

    @classmethod
    def from_station_key(cls, station_id: str, key_id: int, station_key: bytes) -> ReceiptKey:
        derived = hmac.new(station_key, LABEL, hashlib.sha256).digest()
        return cls(station_id, key_id, derived)

    def code(self, row: dict[str, Any]) -> str:
        """The receipt code of one check (its payload as a dict), unformatted."""
        return receipt_code(self.key, row)


def message(row: dict[str, Any]) -> bytes:
    """The bytes a receipt covers: :data:`FIELDS` of the row, canonical JSON."""
    picked = {name: row.get(name) for name in FIELDS}
    picked["words"] = list(picked["words"] or ())
    return json.dumps(picked, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def receipt_code(key: bytes, row: dict[str, Any]) -> str:
    digest = hmac.new(key, LABEL + b"\0" + message(row), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big") >> (64 - 5 * LENGTH)
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(LENGTH)))


def format_code(code: str) -> str:
    """``ABCDEFGHJK`` → ``ABCDE-FGHJK``: what the kiosk shows and a player writes down."""
    half = LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def parse_code(text: str) -> str | None:
    """A code as typed (any case, dashes, spaces, O for 0, I/L for 1) in its canonical
    form; None when it cannot be a receipt code at all."""
    cleaned = "".join(ch for ch in text.upper() if ch not in " -\t")
    cleaned = "".join(_READ_AS.get(ch, ch) for ch in cleaned)
    if len(cleaned) != LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned


def same_code(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())

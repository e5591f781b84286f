"""Checking a verdict's receipt code on the hub (``hub verify CODE``, the dashboard's F3).

A code (shared/receipt.py) stands for one logged check: the hub recomputes the code of every
check the stations sent it, each with the receipt key it derives for that station and key
id from the hall secret, and names the one that matches. A code that matches no stored
check is not genuine — or its station has not sent that check yet (the answer says so: a
station that was cut off sends it when it reconnects). The hub never stores the codes; a
few thousand checks of a tournament day are recomputed in milliseconds.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import sqlite_utils

from samoobsluha.hub import store as sync_store
from samoobsluha.shared.protocol import HallKeys, parse_psk
from samoobsluha.shared.receipt import FIELDS, ReceiptKey, parse_code, same_code


def hall_keys(data: Path) -> HallKeys | None:
    """The hall's keys from ``data``/tournament.key; None when the hub has none yet."""
    try:
        return HallKeys(parse_psk((data / "tournament.key").read_text()))
    except (FileNotFoundError, ValueError):
        return None


def find_receipt(db: sqlite_utils.Database, keys: HallKeys, code: str) -> str | None:
    """The inbox key of the check whose receipt is ``code`` (as typed); None when none is."""
    wanted = parse_code(code)
    if wanted is None:
        return None
    derived: dict[tuple[str, int], ReceiptKey] = {}
    for row, check in sync_store.check_records(db):
        if check.key_id is None:
            continue
        ident = (check.station_id, check.key_id)
        signer = derived.get(ident)
        if signer is None:
            station_key = keys.station_key(check.station_id, check.key_id)
            signer = derived[ident] = ReceiptKey.from_station_key(*ident, station_key)
        row_fields = {name: getattr(check, name) for name in FIELDS}
        if same_code(signer.code(row_fields), wanted):
            return row.key
    return None


def describe(row: Any, code: str, lang: str) -> list[str]:
    """What a genuine code stands for, one line each (``hub verify``, the dashboard):
    ``row`` is the service's :class:`~hub.service.CheckRow`."""
    from samoobsluha.shared.i18n import date_text, t
    from samoobsluha.shared.receipt import format_code

    verdict = t(f"verdict.{row.verdict}", lang)
    if row.appealed:
        final = t(f"verdict.{row.final}", lang)
        verdict = t("receipt.appealed", lang, verdict=verdict, final=final)
    clock = time.strftime("%H:%M:%S", time.localtime(row.at))
    when = f"{date_text(row.at, lang, 'medium')} {clock}"
    return [
        t("receipt.genuine", lang, code=format_code(parse_code(code) or code)),
        t(
            "receipt.where",
            lang,
            station=row.station,
            table=row.table_no,
            round="—" if row.round_no is None else row.round_no,
            time=when,
        ),
        t("receipt.words", lang, words=" ".join(row.words) or "—"),
        t("receipt.lexicon", lang, variant=row.variant or "—", sha256=row.lexicon_sha256 or "—"),
        t("receipt.verdict", lang, verdict=verdict),
    ]

"""The kiosk's rules, without a terminal: settings, table numbers, word input, rate limits,
and the referee PIN. Everything here is plain Python so it can be tested (and reused by
the network layer or a future GUI) without Textual.

Settings come from the ``[kiosk]`` section of the station configuration (see
``docs/kiosk.md``); every key has a default so a station starts with no file at all.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from samoobsluha.shared.alphabet import Alphabet
from samoobsluha.shared.normalize import Word, WordRefused, normalize_word

MAX_WORDS = 8  # as in Zyzzyva's Word Judge: one play forms at most 8 words in practice
DEFAULT_TABLES = "1-100"
PIN_MIN_LENGTH = 4


class SettingsError(ValueError):
    """A ``[kiosk]`` value that cannot be used; the message names the key."""


# --- tables ------------------------------------------------------------------------------


def parse_tables(spec: str | int | Iterable[Any]) -> frozenset[int]:
    """``"1-100"``, ``"1-40, 51-60"``, ``40`` (= 1-40) or a list of numbers and ranges."""
    if isinstance(spec, bool):
        raise SettingsError(f"tables: {spec!r} is not a table range")
    if isinstance(spec, int):
        if spec < 1:
            raise SettingsError(f"tables: {spec} is not a positive number of tables")
        return frozenset(range(1, spec + 1))
    parts: list[str] = []
    if isinstance(spec, str):
        parts = [p for p in re.split(r"[,\s]+", spec.strip()) if p]
    else:
        for item in spec:
            parts.extend([str(item)] if isinstance(item, int) else re.split(r"[,\s]+", str(item)))
    tables: set[int] = set()
    for part in parts:
        if not part:
            continue
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not match:
            raise SettingsError(f"tables: {part!r} is not a number or a range like 1-100")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low < 1 or high < low or high > 10_000:
            raise SettingsError(f"tables: {part!r} is not a sensible range")
        tables.update(range(low, high + 1))
    if not tables:
        raise SettingsError("tables: no table numbers given")
    return frozenset(tables)


def format_tables(tables: Iterable[int]) -> str:
    """The compact form of a table set: ``1-40, 51-60``."""
    numbers = sorted(set(tables))
    out: list[str] = []
    start = prev = None
    for n in numbers:
        if start is None:
            start = prev = n
        elif n == prev + 1:  # type: ignore[operator]
            prev = n
        else:
            out.append(f"{start}-{prev}" if start != prev else f"{start}")
            start = prev = n
    if start is not None:
        out.append(f"{start}-{prev}" if start != prev else f"{start}")
    return ", ".join(out)


# --- settings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class KioskSettings:
    """The ``[kiosk]`` section. Times are in seconds."""

    tables: frozenset[int] = field(default_factory=lambda: parse_tables(DEFAULT_TABLES))
    tournament: str = ""
    max_words: int = MAX_WORDS
    # Rate limits per table: at most one check every ``min_interval`` seconds, at most
    # ``max_checks_per_round`` per round (without a known round: per ``cap_window``).
    min_interval: float = 20.0
    max_checks_per_round: int = 30
    cap_window: float = 3600.0
    # The verdict cannot be dismissed during ``verdict_lock`` (stray keys), then stays until
    # a key or ``verdict_seconds``; unfinished input is wiped after ``inactivity_seconds``.
    verdict_lock: float = 0.5
    verdict_seconds: float = 10.0
    inactivity_seconds: float = 15.0
    form_inactivity_seconds: float = 60.0  # result entry and "where do I play?"
    referee_idle_seconds: float = 120.0
    show_failed_words: bool = False
    referee_key: str = "f12"
    confirm_key: str = "f10"
    referee_pin_hash: str = ""
    pin_free_attempts: int = 3
    pin_delay: float = 2.0
    pin_lockout: float = 60.0
    ui_language: str = ""  # empty: the [station] ui_language

    @classmethod
    def from_section(cls, section: Mapping[str, Any]) -> KioskSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(section) - known)
        if unknown:
            raise SettingsError(f"unknown [kiosk] keys: {', '.join(unknown)}")
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in section:
                continue
            raw = section[f.name]
            if f.name == "tables":
                values["tables"] = parse_tables(raw)
            elif f.name in {"show_failed_words"}:
                if not isinstance(raw, bool):
                    raise SettingsError(f"{f.name}: expected true or false, got {raw!r}")
                values[f.name] = raw
            elif f.name in {"max_words", "max_checks_per_round", "pin_free_attempts"}:
                if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
                    raise SettingsError(f"{f.name}: expected a whole number >= 0, got {raw!r}")
                values[f.name] = raw
            elif f.type in ("float", float):
                if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < 0:
                    raise SettingsError(f"{f.name}: expected seconds >= 0, got {raw!r}")
                values[f.name] = float(raw)
            else:
                if not isinstance(raw, str):
                    raise SettingsError(f"{f.name}: expected text, got {raw!r}")
                values[f.name] = raw
        settings = cls(**values)
        if not 1 <= settings.max_words <= 15:
            raise SettingsError(f"max_words: {settings.max_words} is not between 1 and 15")
        if settings.ui_language and settings.ui_language not in ("cs", "sk", "en"):
            raise SettingsError(f"ui_language: {settings.ui_language!r} is not cs, sk or en")
        return settings


# --- the check flow ----------------------------------------------------------------------


class InputProblem(StrEnum):
    """Why a step of the flow did not accept the input (an i18n key suffix)."""

    TABLE_NOT_NUMBER = "table_not_number"
    TABLE_UNKNOWN = "table_unknown"
    COUNT_NOT_NUMBER = "count_not_number"
    COUNT_RANGE = "count_range"


@dataclass(frozen=True)
class StepError(Exception):
    problem: InputProblem
    values: dict[str, Any] = field(default_factory=dict)


def validate_table(text: str, tables: frozenset[int]) -> int:
    text = text.strip()
    if not text.isdigit() or not text.isascii():
        raise StepError(InputProblem.TABLE_NOT_NUMBER, {"raw": text})
    number = int(text)
    if number not in tables:
        raise StepError(
            InputProblem.TABLE_UNKNOWN, {"table": number, "range": format_tables(tables)}
        )
    return number


def validate_count(text: str, max_words: int) -> int:
    text = text.strip()
    if not text.isdigit() or not text.isascii():
        raise StepError(InputProblem.COUNT_NOT_NUMBER, {"raw": text, "max": max_words})
    count = int(text)
    if not 1 <= count <= max_words:
        raise StepError(InputProblem.COUNT_RANGE, {"count": count, "max": max_words})
    return count


def prepare_words(raw_words: Sequence[str], alphabet: Alphabet) -> list[Word]:
    """Normalise every word of one play; raises :class:`WordRefused` for the first bad one."""
    return [normalize_word(raw, alphabet) for raw in raw_words]


def preview(raw: str, alphabet: Alphabet) -> tuple[str, WordRefused | None]:
    """What one typed word will be judged as (its tile faces), or why it cannot be."""
    if not raw.strip():
        return "", None
    try:
        return normalize_word(raw, alphabet).face, None
    except WordRefused as exc:
        return "", exc


# --- rate limits -------------------------------------------------------------------------


class Limit(StrEnum):
    INTERVAL = "rate_interval"  # too soon after this table's previous check
    CAP = "rate_cap"  # this table has used up its checks for the round


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    limit: Limit | None = None
    wait: float = 0.0  # seconds until the interval limit lets the table check again
    used: int = 0


def rate_decision(
    settings: KioskSettings, *, now: float, last_at: float | None, used: int
) -> RateDecision:
    """Whether a table may check now, given the time of its last judged check and how many
    checks it has used in this round (or cap window). A wall clock that jumped backwards
    never blocks a table for longer than the interval."""
    if settings.max_checks_per_round and used >= settings.max_checks_per_round:
        return RateDecision(False, Limit.CAP, used=used)
    if last_at is not None and settings.min_interval > 0:
        elapsed = now - last_at
        if 0 <= elapsed < settings.min_interval:
            return RateDecision(False, Limit.INTERVAL, settings.min_interval - elapsed, used)
    return RateDecision(True, used=used)


# --- referee PIN -------------------------------------------------------------------------

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """A salted scrypt hash of ``pin`` as ``scrypt$n$r$p$salt$hash`` (hex)."""
    if len(pin) < PIN_MIN_LENGTH or not pin.isascii():
        raise SettingsError(f"the PIN must have at least {PIN_MIN_LENGTH} ASCII characters")
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
        if scheme != "scrypt":
            return False
        digest = hashlib.scrypt(
            pin.encode("utf-8", "replace"),
            salt=bytes.fromhex(salt_hex),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(digest_hex) // 2,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)


def is_pin_hash(value: str) -> bool:
    return value.startswith("scrypt$") and value.count("$") == 5


@dataclass(frozen=True)
class PinGate:
    """Whether the PIN prompt accepts a try now. ``failures`` are consecutive wrong PINs."""

    open: bool
    wait: float = 0.0
    locked_out: bool = False


def pin_gate(
    settings: KioskSettings, *, failures: int, last_failure_at: float | None, now: float
) -> PinGate:
    """After ``pin_free_attempts`` wrong PINs the station locks the prompt for
    ``pin_lockout`` seconds (doubling with each further wrong PIN, at most an hour); the
    free attempts are each delayed by ``pin_delay`` seconds × the failures so far."""
    if failures <= 0 or last_failure_at is None:
        return PinGate(True)
    if failures >= settings.pin_free_attempts:
        extra = failures - settings.pin_free_attempts
        wait_total = min(settings.pin_lockout * (2**extra), 3600.0)
        locked = True
    else:
        wait_total = settings.pin_delay * failures
        locked = False
    elapsed = now - last_failure_at
    if elapsed < 0:  # the wall clock went back (a Pi has no RTC): do not lock for ever
        return PinGate(True)
    remaining = wait_total - elapsed
    if remaining > 0:
        return PinGate(False, remaining, locked)
    return PinGate(True)

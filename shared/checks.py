"""The rules of a check, without a terminal: the kiosk's settings, table numbers, word
input, rate limits, and the referee PIN prompt's lockout. Plain Python, shared by the
station's kiosk and the hub's referee check (ČAS 13.17, :mod:`hub.refcheck`), so both
refuse the same input with the same words, and testable without Textual.

Settings come from the ``[kiosk]`` section of the station configuration (see
``docs/kiosk.md``); every key has a default so a station starts with no file at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, NoReturn

from samoobsluha.shared.alphabet import Alphabet

# boot_id and the PIN hash live in their own modules; re-exported for the kiosk's screens.
from samoobsluha.shared.clock import boot_id as boot_id
from samoobsluha.shared.normalize import Word, WordRefused, normalize_word
from samoobsluha.shared.pin import PIN_MIN_LENGTH as PIN_MIN_LENGTH
from samoobsluha.shared.pin import PinError as PinError
from samoobsluha.shared.pin import hash_pin as hash_pin
from samoobsluha.shared.pin import is_pin_hash as is_pin_hash
from samoobsluha.shared.pin import verify_pin as verify_pin

MAX_WORDS = 8  # as in Zyzzyva's Word Judge: one play forms at most 8 words in practice
DEFAULT_TABLES = "1-100"


class SettingsError(ValueError):
    """A ``[kiosk]`` value that cannot be used; the message names the key. ``key`` and
    ``values`` (when set) are the catalogue message for a screen or the hub's refusal of
    a hall configuration (:func:`hall_settings`); ``name`` is the ``[kiosk]`` key."""

    def __init__(self, message: Any, key: str = "", name: str = "", **values: Any) -> None:
        super().__init__(message)
        self.key = key
        self.name = name
        self.values = values


class TablesError(SettingsError):
    """A table range that cannot be used. ``key`` and ``values`` are the catalogue message
    for the screen (the English ``str()`` stays for config-file errors and logs)."""

    def __init__(self, message: str, key: str, **values: Any) -> None:
        super().__init__(message, key, "tables", **values)


# --- tables ------------------------------------------------------------------------------


def parse_tables(spec: str | int | Iterable[Any]) -> frozenset[int]:
    """``"1-100"``, ``"1-40, 51-60"``, ``40`` (= 1-40) or a list of numbers and ranges."""
    if isinstance(spec, bool):
        raise TablesError(f"tables: {spec!r} is not a table range", "tables.bad_part", part=spec)
    if isinstance(spec, int):
        if spec < 1:
            raise TablesError(
                f"tables: {spec} is not a positive number of tables", "tables.bad_range", part=spec
            )
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
            raise TablesError(
                f"tables: {part!r} is not a number or a range like 1-100",
                "tables.bad_part",
                part=part,
            )
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low < 1 or high < low or high > 10_000:
            raise TablesError(
                f"tables: {part!r} is not a sensible range", "tables.bad_range", part=part
            )
        tables.update(range(low, high + 1))
    if not tables:
        raise TablesError("tables: no table numbers given", "tables.empty")
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
    # Rate limits of the whole station, whatever table is typed (cycling table numbers
    # must not turn the kiosk into a lexicon): a real check (walk up, table, count, words,
    # the opponent's confirmation) takes longer than ``station_min_interval``.
    station_min_interval: float = 6.0
    station_max_checks_per_round: int = 150
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
    # For players who cannot read the usual screen (ČAS 13.17): per station, the file's
    # [kiosk] or the referee screen's switch; never the hall's.
    large_print: bool = False  # high contrast, bold, the words as judged in block letters
    speak_verdict: bool = False  # the verdict spoken by espeak-ng (station/speech.py)

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

            def refuse(expected: str, key: str, name: str = f.name, raw: Any = raw) -> NoReturn:
                raise SettingsError(
                    f"{name}: expected {expected}, got {raw!r}", key, name, value=repr(raw)
                )

            if f.name == "tables":
                values["tables"] = parse_tables(raw)
            elif f.name in {"show_failed_words", "large_print", "speak_verdict"}:
                if not isinstance(raw, bool):
                    refuse("true or false", "settings.expected_bool")
                values[f.name] = raw
            elif f.name in {
                "max_words",
                "max_checks_per_round",
                "station_max_checks_per_round",
                "pin_free_attempts",
            }:
                if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
                    refuse("a whole number >= 0", "settings.expected_count")
                values[f.name] = raw
            elif f.type in ("float", float):
                if isinstance(raw, bool) or not isinstance(raw, int | float) or raw < 0:
                    refuse("seconds >= 0", "settings.expected_seconds")
                if raw != raw or raw == float("inf"):  # NaN or infinity (JSON may carry them)
                    refuse("seconds >= 0", "settings.expected_seconds")
                values[f.name] = float(raw)
            else:
                if not isinstance(raw, str):
                    refuse("text", "settings.expected_text")
                values[f.name] = raw
        settings = cls(**values)
        if not 1 <= settings.max_words <= 15:
            raise SettingsError(
                f"max_words: {settings.max_words} is not between 1 and 15",
                "settings.max_words_range",
                "max_words",
                value=settings.max_words,
            )
        if settings.ui_language and settings.ui_language not in ("cs", "sk", "en"):
            raise SettingsError(
                f"ui_language: {settings.ui_language!r} is not cs, sk or en",
                "settings.ui_language",
                "ui_language",
                value=repr(settings.ui_language),
            )
        return settings


# --- the hall's settings (published by the hub) --------------------------------------------

#: The ``[kiosk]`` keys the chief referee may set for every station of the hall at once
#: (``hub publish config FILE.json``; docs/network.md). What the hall decides: its tables,
#: the number of words of a play, the limits, how long screens stay, whether failed words
#: are shown, the language and the tournament's name. Not here: the referee PIN (its own
#: item, ``hub pin set``), the PIN prompt's lockout (it guards the PIN on each station's
#: own keyboard), and the referee and confirm keys (a station's keyboard may lack them).
HALL_KEYS = (
    "tables",
    "tournament",
    "max_words",
    "min_interval",
    "max_checks_per_round",
    "cap_window",
    "station_min_interval",
    "station_max_checks_per_round",
    "verdict_lock",
    "verdict_seconds",
    "inactivity_seconds",
    "form_inactivity_seconds",
    "referee_idle_seconds",
    "show_failed_words",
    "ui_language",
)


def hall_settings(data: Any) -> dict[str, Any]:
    """A hall configuration checked as a station will use it: the values of the keys it
    names, parsed by the ``[kiosk]`` section's own rules (:meth:`KioskSettings.
    from_section`). The hub refuses to publish what fails here and a station refuses to
    use it (one validator). ``{}`` is valid: the hall sets nothing, every station uses
    its own file. Raises :class:`SettingsError` whose one argument is a catalogue
    :class:`~shared.i18n.Phrase` naming the key."""
    from samoobsluha.shared.i18n import Phrase  # here: `station check` never needs it

    if not isinstance(data, Mapping):
        raise SettingsError(Phrase("config.not_object"))
    for key in sorted(data, key=str):
        if key == "referee_pin_hash":
            raise SettingsError(Phrase("config.pin_item"))
        if key not in HALL_KEYS:
            raise SettingsError(
                Phrase("config.not_hall_key", key=str(key)[:64], keys=", ".join(HALL_KEYS))
            )
    try:
        parsed = KioskSettings.from_section(data)
    except SettingsError as exc:
        problem: Any = Phrase(exc.key, **exc.values) if exc.key else str(exc)
        raise SettingsError(
            Phrase("config.bad_value", key=exc.name or "?", problem=problem)
        ) from None
    return {key: getattr(parsed, key) for key in data}


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
    STATION_INTERVAL = "station_interval"  # too soon after this station's previous check
    STATION_CAP = "station_cap"  # this station has used up its checks for the round


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    limit: Limit | None = None
    wait: float = 0.0  # seconds until the interval limit lets the table check again
    used: int = 0


@dataclass(frozen=True)
class RateState:
    """What the limits need to know: the table's and the station's last judged check and
    how many judged checks each used in this round (or cap window)."""

    last_at: float | None = None
    used: int = 0
    station_last_at: float | None = None
    station_used: int = 0


def rate_decision(
    settings: KioskSettings,
    *,
    now: float,
    last_at: float | None = None,
    used: int = 0,
    state: RateState | None = None,
) -> RateDecision:
    """Whether a check may start now: per table (``min_interval``, ``max_checks_per_round``)
    and per station (``station_min_interval``, ``station_max_checks_per_round``). A wall
    clock that jumped backwards never blocks for longer than the interval."""
    if state is None:
        state = RateState(last_at=last_at, used=used)
    if settings.max_checks_per_round and state.used >= settings.max_checks_per_round:
        return RateDecision(False, Limit.CAP, used=state.used)
    if (
        settings.station_max_checks_per_round
        and state.station_used >= settings.station_max_checks_per_round
    ):
        return RateDecision(False, Limit.STATION_CAP, used=state.used)
    for last, interval, limit in (
        (state.last_at, settings.min_interval, Limit.INTERVAL),
        (state.station_last_at, settings.station_min_interval, Limit.STATION_INTERVAL),
    ):
        if last is not None and interval > 0:
            elapsed = now - last
            if 0 <= elapsed < interval:
                return RateDecision(False, limit, interval - elapsed, state.used)
    return RateDecision(True, used=state.used)


# --- referee PIN -------------------------------------------------------------------------


@dataclass(frozen=True)
class PinGate:
    """Whether the PIN prompt accepts a try now. ``failures`` are consecutive wrong PINs."""

    open: bool
    wait: float = 0.0
    locked_out: bool = False


#: The longest a PIN prompt ever waits, and the exponent beyond which doubling stops
#: (no float overflow after thousands of wrong PINs).
PIN_WAIT_CAP = 3600.0
_PIN_DOUBLINGS = 16


def pin_wait(settings: KioskSettings, failures: int) -> tuple[float, bool]:
    """(seconds to wait after ``failures`` consecutive wrong PINs, whether that is the
    lockout). The free attempts wait ``pin_delay`` × failures; from ``pin_free_attempts``
    on, ``pin_lockout`` doubling with each further wrong PIN, at most an hour."""
    if failures <= 0:
        return 0.0, False
    if failures >= settings.pin_free_attempts:
        extra = min(failures - settings.pin_free_attempts, _PIN_DOUBLINGS)
        return min(settings.pin_lockout * (2**extra), PIN_WAIT_CAP), True
    return min(settings.pin_delay * failures, PIN_WAIT_CAP), False


@dataclass(frozen=True)
class PinLock:
    """The PIN lockout as the station stores it: ``remaining`` seconds of wait measured at
    ``mono`` on the monotonic clock of boot ``boot``. Time is only ever counted forward
    on the monotonic clock: setting the wall clock back (or forward) changes nothing, and
    after a reboot (a new monotonic clock) the rest of the wait starts again from the
    first look — pulling the plug never shortens a lockout."""

    failures: int = 0
    boot: str = ""
    mono: float = 0.0
    remaining: float = 0.0

    def left(self, boot: str, mono: float) -> float:
        if boot != self.boot:
            return self.remaining
        return max(0.0, self.remaining - max(0.0, mono - self.mono))

    def rebased(self, boot: str, mono: float) -> PinLock:
        """The same lock measured now (what a new boot stores on its first look)."""
        return PinLock(self.failures, boot, mono, self.left(boot, mono))

    def failed(self, settings: KioskSettings, boot: str, mono: float) -> PinLock:
        failures = min(self.failures + 1, 1_000_000)
        wait, _ = pin_wait(settings, failures)
        return PinLock(failures, boot, mono, wait)

    def to_json(self) -> str:
        return json.dumps([self.failures, self.boot, self.mono, self.remaining])

    @classmethod
    def from_json(cls, text: str | None) -> PinLock:
        try:
            failures, boot, mono, remaining = json.loads(text or "")
            return cls(int(failures), str(boot), float(mono), max(0.0, float(remaining)))
        except (ValueError, TypeError):
            return cls()


def pin_gate(settings: KioskSettings, lock: PinLock, *, boot: str, mono: float) -> PinGate:
    """Whether the PIN prompt is open now under ``lock``."""
    if lock.failures <= 0:
        return PinGate(True)
    remaining = lock.left(boot, mono)
    if remaining > 0:
        return PinGate(False, remaining, lock.failures >= settings.pin_free_attempts)
    return PinGate(True)

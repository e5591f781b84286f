"""What a station tells the hub, as typed records: one dataclass per outbox kind and one for
the ``status`` frame.

The station builds each row with these classes (``to_dict`` is what its outbox stores as
JSON) and the hub reads each row back with ``from_dict``, which checks every field: a
missing key, an unknown key, a wrong type or an impossible value raises
:class:`PayloadError`, and the hub refuses the row (it keeps it aside, see
``hub.store``) instead of guessing what the station meant.

One vocabulary throughout (see docs/glossary.md): the two players of a table are
``first`` and ``second`` — the order of the pairing sheet — and ``started`` says which of
them started the game (``"first"`` or ``"second"``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Annotated, Any, ClassVar, Literal, TypeVar, get_type_hints

# The outbox kinds a station writes (``station.outbox.enqueue``).
CHALLENGE = "challenge"  # a first-instance check at the kiosk (including refused ones)
APPEAL = "appeal"  # a second-instance check by the referee at the station
REFEREE_REQUEST = "referee_request"
LEXICON_ACCEPTED = "lexicon_accepted"
RESULT = "result"
SIGNAL = "signal"  # a round signal given (or missed) by the station's bell
REHEARSE = "rehearse"  # a station's answer to ``hub rehearse`` (station/rehearse.py)

CHECK_STATUSES = ("valid", "invalid", "referee", "refused")
INSTANCES = ("first", "appeal")
# why a check was refused (shared.checks.Refusal): a table's or the whole station's limit
REFUSED_REASONS = ("rate_interval", "rate_cap", "station_interval", "station_cap")
# why a station calls the referee: a word too long for the lexicon, a refused check, a PIN
# prompt locked after wrong PINs
REFEREE_REASONS = ("too_long", *REFUSED_REASONS, "pin_locked")
STARTED = ("first", "second")  # which player of the pairing started the game
ENTERED_BY = ("players", "referee")
SIGNALS = ("start", "warning", "end")
SIGNAL_OUTCOMES = ("given", "missed")
MAX_TEXT = 200  # names, ids, words: a station never sends longer ones
MAX_WORDS = 20
# Free text (a referee's note on a check) is longer, but bounded too: the hub stores
# what it accepts, and a 1 MB note would be 1 MB of hub.db (docs/network.md).
MAX_NOTE = 2000
ANY_LENGTH = ("note",)  # text fields with the MAX_NOTE limit instead of MAX_TEXT
_INT64 = (-(2**63), 2**63 - 1)  # what SQLite stores as an integer
_FLOAT = (-sys.float_info.max, sys.float_info.max)  # finite: inf and nan are out of range


class PayloadError(ValueError):
    """A row (or status) that does not match its record: the message says what is wrong."""


P = TypeVar("P", bound="Payload")


@dataclass(frozen=True)
class Payload:
    """Base of every record: strict ``from_dict`` over the dataclass fields."""

    KIND: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        for key, value in out.items():
            if isinstance(value, tuple):
                out[key] = list(value)
        return out

    # The rules of single fields, in the order they are checked: (field, a tuple of the
    # allowed values) or (field, AtLeast(n)). Declared as data, so the hub's C decoder
    # checks them too (a Literal or a lower bound in the struct derived for msgspec).
    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __post_init__(self) -> None:
        self._rules()

    def _rules(self) -> None:
        """The rules beyond each field's type: :attr:`FIELD_RULES`, then
        :meth:`_more_rules`; raise :class:`PayloadError`."""
        _apply_rules(type(self), self)

    def _more_rules(self) -> None:
        """Rules across fields (or that no field rule can say); raise :class:`PayloadError`."""

    @classmethod
    def from_dict(cls: type[P], data: Any) -> P:
        return cls(**cls.checked(data))

    @classmethod
    def checked(cls, data: Any) -> dict[str, Any]:
        """``data``'s fields, checked (types and rules) without building the record: what
        the hub does with every row it receives."""
        values = cls._typed(data)
        _apply_rules(cls, SimpleNamespace(KIND=cls.KIND, **values))
        return values

    @classmethod
    def _typed(cls, data: Any) -> dict[str, Any]:
        what = cls.KIND or cls.__name__
        if not isinstance(data, dict):
            raise PayloadError(f"{what}: expected an object")
        names, required, checkers = _spec(cls)  # type: ignore[arg-type]
        unknown, missing = data.keys() - names, required - data.keys()
        if unknown or missing:
            problems = [f"unknown fields {sorted(unknown)}"] if unknown else []
            problems += [f"missing fields {sorted(missing)}"] if missing else []
            raise PayloadError(f"{what}: {'; '.join(problems)}")
        return {name: checkers[name](what, name, value) for name, value in data.items()}


Checker = Callable[[str, str, Any], Any]


@functools.cache
def _spec(cls: type[Payload]) -> tuple[frozenset[str], frozenset[str], dict[str, Checker]]:
    """(field names, required names, a checker per field), worked out once per class."""
    hints = get_type_hints(cls)
    fields = dataclasses.fields(cls)
    required = {
        f.name
        for f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    return (
        frozenset(f.name for f in fields),
        frozenset(required),
        {f.name: _checker(hints[f.name]) for f in fields},
    )


def _strings(value: Any) -> bool:
    return (type(value) is list or type(value) is tuple) and all(type(v) is str for v in value)


# per field type: (accepts, converts, what it expects, a further limit or None)
_TYPES: dict[str, tuple[Callable[[Any], bool], Callable[[Any], Any], str, Any]] = {
    "int": (
        lambda v: type(v) is int,
        int,
        "a whole number",
        lambda name, v: None if _INT64[0] <= v <= _INT64[1] else "out of range (64 bits)",
    ),
    "bool": (lambda v: type(v) is bool, bool, "true or false", None),
    "dict": (lambda v: type(v) is dict, dict, "an object", None),
    "float": (
        lambda v: type(v) is float or type(v) is int,
        float,
        "a number",
        lambda name, v: None if math.isfinite(v) else "not a finite number",
    ),
    "str": (
        lambda v: type(v) is str,
        str,
        "text",
        lambda name, v: (
            None
            if len(v) <= (MAX_NOTE if name in ANY_LENGTH else MAX_TEXT)
            else f"longer than {MAX_NOTE if name in ANY_LENGTH else MAX_TEXT} characters"
        ),
    ),
    "tuple": (
        _strings,
        tuple,
        "a list of strings",
        lambda name, v: None if len(v) <= MAX_WORDS else f"more than {MAX_WORDS} items",
    ),
}


def _field_type(hint: Any) -> tuple[str, bool]:
    """A field's base type as a key of :data:`_TYPES` ("int", "tuple" …) and whether it
    may be None."""
    text = str(hint)
    base = text.removesuffix(" | None").removeprefix("<class '").removesuffix("'>")
    base = base.split("[", 1)[0]
    if base not in _TYPES:  # pragma: no cover - a field type this module does not know
        raise TypeError(f"unsupported payload field type {text}")
    return base, text.endswith("| None")


def _checker(hint: Any) -> Checker:
    """A function checking a value against a field's type; no conversion between kinds
    of value (a score sent as "412" is refused, not read). The hub runs these for every
    row it receives, so the accepting path builds no strings."""
    base, optional = _field_type(hint)
    accepts, convert, expected, limit = _TYPES[base]

    def check(what: str, name: str, value: Any) -> Any:
        if accepts(value):
            problem = limit(name, value) if limit is not None else None
            if problem is None:
                return convert(value) if base in ("float", "tuple") else value
        elif value is None:
            if optional:
                return None
            problem = "must not be empty"
        else:
            problem = f"expected {expected}, not {value!r}"
        raise PayloadError(f"{what}.{name}: {problem}")

    return check


def _apply_rules(cls: type[Payload], record: Any) -> None:
    """``cls``'s rules on ``record`` (the record itself, or its checked fields)."""
    kind = cls.KIND
    for name, rule in cls.FIELD_RULES:
        value = getattr(record, name)
        if type(rule) is AtLeast:
            if value is not None and value < rule.minimum:
                raise PayloadError(f"{kind}.{name}: {rule.problem(value)}")
        elif value not in rule:
            raise PayloadError(f"{kind}.{name}: {value!r} is not one of {list(rule)}")
    cls._more_rules(record)


@dataclass(frozen=True)
class AtLeast:
    """A field rule: a whole number (or None, where the field allows it) of at least
    ``minimum``; ``message`` says what is wrong otherwise."""

    minimum: int
    message: str = "must be {minimum} or more, not {value}"

    def problem(self, value: int) -> str:
        return self.message.format(minimum=self.minimum, value=value)


POSITIVE = AtLeast(1)


# -- outbox rows ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckPayload(Payload):
    """One judged check (kind ``challenge``, or ``appeal`` when ``instance`` is "appeal").
    ``id`` is the station's own challenge id; ``appeal_of`` the id it reviews."""

    KIND: ClassVar[str] = CHALLENGE

    id: int
    at: float
    station_id: str
    table_no: int
    round_no: int | None
    instance: str
    status: str
    words: tuple[str, ...]
    canonical: tuple[str, ...]
    failed: tuple[str, ...]
    too_long: tuple[str, ...]
    refused_reason: str | None
    lexicon_sha256: str | None
    lexicon_variant: str | None
    ui_language: str
    appeal_of: int | None
    note: str
    # the id of the station key its receipt code was made with (shared/receipt.py);
    # None: no receipt (a kiosk without a key file)
    key_id: int | None = None

    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = (
        ("instance", INSTANCES),
        ("status", CHECK_STATUSES),
        ("table_no", POSITIVE),
        ("round_no", POSITIVE),
    )

    def _more_rules(self) -> None:
        kind = self.KIND
        if self.status == "refused":
            if self.refused_reason not in REFUSED_REASONS:
                raise PayloadError(
                    f"{kind}.refused_reason: {self.refused_reason!r} is not one of "
                    f"{list(REFUSED_REASONS)}"
                )
        elif self.refused_reason is not None:
            raise PayloadError(f"{kind}.refused_reason: only a refused check has one")

    @property
    def kind(self) -> str:
        return APPEAL if self.instance == "appeal" else CHALLENGE


@dataclass(frozen=True)
class RefereeRequestPayload(Payload):
    """The station asks for the referee at a table (``challenge_id``: the check behind it);
    a locked PIN prompt (``pin_locked``) concerns the station, not a table."""

    KIND: ClassVar[str] = REFEREE_REQUEST

    id: int
    at: float
    station_id: str
    table_no: int | None
    round_no: int | None
    reason: str
    challenge_id: int | None

    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = (
        ("reason", REFEREE_REASONS),
        ("table_no", POSITIVE),
        ("round_no", POSITIVE),
    )

    def _more_rules(self) -> None:
        if self.table_no is None and self.reason != "pin_locked":
            raise PayloadError(f"{self.KIND}.table_no: needed for {self.reason}")


@dataclass(frozen=True)
class ResultPayload(Payload):
    """A game's result as entered at the station. ``first``/``second`` are the players'
    names as the station's pairing lists them ("" when the station had no pairing), the
    scores are in the same order, and ``started`` says which of the two started."""

    KIND: ClassVar[str] = RESULT

    station_id: str
    round_no: int
    table_no: int
    first: str
    second: str
    score_first: int
    score_second: int
    started: str
    entered_at: float
    entered_by: str
    revision: int
    # the second player did not confirm it at the kiosk: the hub does not enter it and
    # shows it to the operator as one-sided (False: both confirmed, or the referee's)
    one_sided: bool = False
    # both players took this table's entry back at the kiosk before publication: a
    # tombstone (a later revision of the same row; the scores are the withdrawn entry's)
    withdrawn: bool = False

    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = (
        ("round_no", POSITIVE),
        ("table_no", POSITIVE),
        ("revision", POSITIVE),
        ("started", STARTED),
        ("entered_by", ENTERED_BY),
        # the range is the tournament's to judge
        ("score_first", AtLeast(0, "a score is never negative")),
        ("score_second", AtLeast(0, "a score is never negative")),
    )


@dataclass(frozen=True)
class SignalPayload(Payload):
    """A round signal the station's bell gave (or found missed), at hub time."""

    KIND: ClassVar[str] = SIGNAL

    tournament: str
    round: int
    signal: str
    outcome: str
    scheduled_at: float
    actual_at: float
    revision: int

    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = (
        ("round", POSITIVE),
        ("signal", SIGNALS),
        ("outcome", SIGNAL_OUTCOMES),
    )


@dataclass(frozen=True)
class RehearsePayload(Payload):
    """A station's answer to a hall rehearsal (station/rehearse.py writes it,
    hub/rehearse.py judges it). ``gong``, ``keyboard`` and ``button`` are the measured
    parts; the hub reads them as data, never as instructions."""

    KIND: ClassVar[str] = REHEARSE

    id: str
    station: str
    simulated: bool
    pin_set: bool
    tables: str
    min_free_bytes: int
    clock_synced: bool
    clock_offset: float
    gong: dict[str, Any]
    bell: str | None = None
    sound: str | None = None
    lamp: str | None = None
    free_bytes: int | None = None
    root_read_only: bool | None = None
    watchdog: bool | None = None
    clock_delay: float | None = None
    keyboard: dict[str, Any] | None = None
    button: dict[str, Any] | None = None
    # shared.pin.PinHashState of the PIN in force: "outdated" tells the hub why pin_set
    # is false (a PIN of the old policy is set but opens nothing)
    pin_state: str | None = None

    FIELD_RULES: ClassVar[tuple[tuple[str, Any], ...]] = (
        ("pin_state", (None, "none", "ok", "outdated", "invalid")),
    )


@dataclass(frozen=True)
class LexiconAcceptedPayload(Payload):
    """The referee accepted, at the station and with the PIN, a lexicon that the hub the
    station pins did not sign (shared/lextrust.py): from then on that SHA-256, and no
    other file, judges there. ``trust_before``: why it was refused (unsigned,
    bad_signature)."""

    KIND: ClassVar[str] = LEXICON_ACCEPTED

    id: int
    at: float
    station_id: str
    sha256: str
    language: str
    variant: str
    words: int
    trust_before: str = ""


ROW_TYPES: dict[str, type[Payload]] = {
    LEXICON_ACCEPTED: LexiconAcceptedPayload,
    CHALLENGE: CheckPayload,
    APPEAL: CheckPayload,
    REFEREE_REQUEST: RefereeRequestPayload,
    RESULT: ResultPayload,
    SIGNAL: SignalPayload,
    REHEARSE: RehearsePayload,
}


def parse_row(kind: str, payload: Any) -> Payload:
    """The record of one outbox row (``payload``: its dict), or :class:`PayloadError`."""
    return _row_type(kind, payload).from_dict(payload)


def check_row(kind: str, payload: Any) -> None:
    """Raise :class:`PayloadError` unless ``payload`` is a valid record of ``kind`` (the
    same checks as :func:`parse_row`, without building the record)."""
    _row_type(kind, payload).checked(payload)


def row_json_error(kind: str, text: str | bytes) -> str:
    """Why the JSON text of a row of ``kind`` is refused ("" when it is a valid record).

    What the hub runs on every row it receives: the JSON is decoded and checked in one
    pass by msgspec's C decoder against a struct derived from the record's dataclass
    (about 1 µs a row, against 11 µs for ``json.loads`` plus :func:`check_row`), then
    the record's own rules run on the struct. Only a refused row goes through the Python
    checks again, so its reason reads exactly as :func:`check_row` words it. Both accept
    the same rows (a property test holds them to it)."""
    fast = _FAST.get(kind)
    if fast is None:
        if kind not in ROW_TYPES:
            return f"unknown row kind {kind!r}"
        fast = _fast_check(kind)
    decode, rules, errors = fast
    try:
        rules(decode(text))
    except errors as exc:
        refused = str(exc)
    else:
        return ""
    try:
        value = json.loads(text)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError
        return "not JSON"
    try:
        check_row(kind, value)
    except (PayloadError, ValueError, TypeError) as exc:
        return str(exc) or type(exc).__name__
    # the C decoder is the stricter one here: its refusal stands
    return f"{ROW_TYPES[kind].KIND}: {refused}"  # pragma: no cover - none known


# kind -> (decode JSON text to a struct, check the record's rules, what either raises)
_FAST: dict[str, tuple[Callable[[Any], Any], Callable[[Any], None], Any]] = {}


def _no_rules(record: Any) -> None:
    return None


def _fast_check(kind: str) -> tuple[Callable[[Any], Any], Callable[[Any], None], Any]:
    cls = ROW_TYPES[kind]
    import msgspec

    # the field rules are in the struct (Literal, lower bounds); the rest reads fields only
    more: Callable[[Any], None] | None = (
        cls._more_rules if cls._more_rules is not Payload._more_rules else None
    )
    check_rules: Callable[[Any], None]
    if cls is CheckPayload:
        def check_rules(record: Any) -> None:
            if more is not None:
                more(record)
            _check_sent_as(kind, record.instance)

    else:
        check_rules = more or _no_rules
    fast = (_json_decoder(cls).decode, check_rules, (msgspec.MsgspecError, PayloadError))
    _FAST[kind] = fast
    return fast


def _json_decoder(cls: type[Payload]) -> Any:
    """A msgspec JSON decoder for ``cls``'s fields with the same limits as :func:`_checker`:
    strict types (no "412" for 412, no true for 1), unknown fields refused, text up to
    MAX_TEXT characters (a note up to MAX_NOTE), lists up to MAX_WORDS strings, finite numbers,
    whole numbers within 64 bits. The dataclass stays the one definition of each record."""
    import msgspec

    meta = msgspec.Meta
    base_types: dict[str, Any] = {
        "int": Annotated[int, meta(ge=_INT64[0], le=_INT64[1])],
        "bool": bool,
        "dict": dict[str, Any],
        "float": Annotated[float, meta(ge=_FLOAT[0], le=_FLOAT[1])],
        "str": Annotated[str, meta(max_length=MAX_TEXT)],
        "tuple": Annotated[tuple[str, ...], meta(max_length=MAX_WORDS)],
    }
    hints = get_type_hints(cls)
    rules = dict(cls.FIELD_RULES)
    fields: list[Any] = []
    for f in dataclasses.fields(cls):
        base, optional = _field_type(hints[f.name])
        typ: Any = (
            Annotated[str, meta(max_length=MAX_NOTE)]
            if base == "str" and f.name in ANY_LENGTH
            else base_types[base]
        )
        rule = rules.get(f.name)
        if isinstance(rule, AtLeast):
            typ = Annotated[int, meta(ge=max(rule.minimum, _INT64[0]), le=_INT64[1])]
        elif rule is not None:
            typ = Literal[rule]  # the allowed values (all text)
        if optional:
            typ = typ | None
        if f.default is not dataclasses.MISSING:
            fields.append((f.name, typ, f.default))
        elif f.default_factory is not dataclasses.MISSING:  # pragma: no cover - none yet
            fields.append((f.name, typ, msgspec.field(default_factory=f.default_factory)))
        else:
            fields.append((f.name, typ))
    struct = msgspec.defstruct(
        f"{cls.__name__}Row",
        fields,
        namespace={"KIND": cls.KIND},
        kw_only=True,
        forbid_unknown_fields=True,
    )
    return msgspec.json.Decoder(struct)


def _row_type(kind: str, payload: Any) -> type[Payload]:
    cls = ROW_TYPES.get(kind)
    if cls is None:
        raise PayloadError(f"unknown row kind {kind!r}")
    if cls is CheckPayload and isinstance(payload, dict):
        _check_sent_as(kind, payload.get("instance"))
    return cls


def _check_sent_as(kind: str, instance: Any) -> None:
    """A check travels as "challenge" or "appeal" by its instance (an unknown instance is
    the field rule's to refuse)."""
    expected = APPEAL if instance == "appeal" else CHALLENGE
    if instance in INSTANCES and expected != kind:
        raise PayloadError(f"{kind}: a check of instance {instance!r} is sent as {expected!r}")


# -- the status frame -----------------------------------------------------------------------


@dataclass(frozen=True)
class RungSignal(Payload):
    """The last stroke of the station's bell: which signal, at hub and local time."""

    KIND: ClassVar[str] = "last_signal"

    signal: str
    hub_time: float
    local_time: float
    synced: bool


@dataclass(frozen=True)
class StationStatus(Payload):
    """What a station reports about itself in every ``status`` frame."""

    KIND: ClassVar[str] = "status"

    name: str | None
    version: str
    lexicon_sha256: str | None
    clock_synced: bool
    clock_offset: float
    clock_delay: float | None
    backlog: int
    acked_seq: int
    last_signal: dict[str, Any] | None
    local_time: float
    # the clock has an estimate (signals may ring); clock_synced: within the 10 ms bound
    clock_known: bool = False
    clock_uncertainty: float | None = None
    last_error: str | None = None
    restarts: int = 0  # how often the supervised link restarted after an error
    # the lexicon the kiosk judges with (lexicon_sha256: the file on disk, which a push
    # replaces at once; the kiosk swaps at its next idle moment); None: no kiosk
    lexicon_in_use_sha256: str | None = None
    # the version of the hall configuration (``hub publish config``) the kiosk uses: the
    # hub's time in ms when it was published; None: none, or no kiosk (station/settings.py)
    config_version: int | None = None
    # whose word the lexicon in use is (shared/lextrust.Trust: hub, referee, unpinned,
    # unsigned, bad_signature); None: no kiosk, or not decided yet
    lexicon_trust: str | None = None
    # confirmed rows the station's database lacked at start (a lost WAL: station/log.py)
    rows_lost: int | None = None

    def _more_rules(self) -> None:
        if getattr(self, "restarts", 0) < 0:  # checked() sees only the fields sent
            raise PayloadError("status: restarts is never negative")
        if self.last_signal is not None:
            RungSignal.from_dict(self.last_signal)
        if self.backlog < 0 or self.acked_seq < 0:
            raise PayloadError("status: backlog and acked_seq are never negative")

    @property
    def rung(self) -> RungSignal | None:
        return None if self.last_signal is None else RungSignal.from_dict(self.last_signal)

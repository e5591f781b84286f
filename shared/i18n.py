"""The words the system shows people, in Czech (default), Slovak and English.

Code, logs and docs are in English; anything a player or referee reads goes through
:func:`t`. Keys are stable identifiers; the texts live in gettext catalogues, one per
language (``shared/locale/<lang>/LC_MESSAGES/samoobsluha.po``, compiled to ``.mo`` by
``./dev setup`` and by the package build), so translators can use their own tools
(Poedit, Weblate, ``msgfmt --check``). A catalogue is read the first time its language is
asked for, so a process that speaks Czech never reads the Slovak one. A text missing in
a language falls back to English; a key missing everywhere is a programming error
(:class:`KeyError`), and ``tests/shared/test_i18n_catalogue.py`` fails on either.

Numbers and dates for readers go through :func:`decimal`, :func:`fixed`,
:func:`date_text` and :func:`time_text` (Babel, CLDR): the one formatting path of every
output (dashboard, kiosk, hall screen, A4 prints, CSV); tsh files keep tsh's own form.

A plural message has one form per CLDR plural category of its language, in CLDR's order
(:data:`CATEGORIES`); the form is chosen by Babel's copy of the CLDR rules, so a decimal
count gets the Czech and Slovak "many" form that gettext's integer formula cannot pick.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator, Mapping
from functools import cache

TYPE_CHECKING = False  # not typing's: every command imports this module at start-up
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

LANGUAGES = ("cs", "sk", "en", "pl")
DEFAULT = "cs"
FALLBACK = "en"  # the language a missing text falls back to
DOMAIN = "samoobsluha"
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")  # a string: no pathlib at start

#: A text, or (plural messages) a dict of CLDR plural categories → text.
Text = str | dict[str, str]

#: The CLDR plural categories of each language, in CLDR's order: the order of a plural
#: message's forms in its catalogue (a test holds this to Babel's CLDR data).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "cs": ("one", "few", "many", "other"),
    "sk": ("one", "few", "many", "other"),
    "en": ("one", "other"),
    "pl": ("one", "few", "many", "other"),
}

#: One language's messages: key → text, or key → its plural forms (a tuple).
Catalogue = Mapping[str, "str | tuple[str, ...]"]


def catalogue_path(lang: str, suffix: str = ".po") -> Path:
    from pathlib import Path

    return Path(_catalogue_file(lang, suffix))


def _catalogue_file(lang: str, suffix: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}{suffix}")


@cache
def catalogue(lang: str) -> Catalogue:
    """The messages of ``lang``, read once: the compiled ``.mo`` when it is at least as
    new as its ``.po`` (an installed package has no ``.po``), else the ``.po`` itself (a
    checkout nobody compiled yet)."""
    po, mo = _catalogue_file(lang, ".po"), _catalogue_file(lang, ".mo")
    try:
        fresh = os.stat(mo).st_mtime >= os.stat(po).st_mtime
    except FileNotFoundError:
        fresh = os.path.exists(mo)
    if not fresh:
        return _read_po(catalogue_path(lang))
    with open(mo, "rb") as fh:
        return MoCatalogue(fh.read())


class MoCatalogue(Mapping[str, "str | tuple[str, ...]"]):
    """A GNU ``.mo`` file's messages (the format gettext(1) and Babel write), looked up
    in place: the originals are sorted, so a key is a binary search over the file's
    table, and only the texts asked for are decoded — a command that prints two
    messages does not decode 720 (~2 ms of its start here). Iterating decodes all
    of it, once."""

    def __init__(self, data: bytes) -> None:
        magic = struct.unpack("<I", data[:4])[0]
        if magic not in (0x950412DE, 0xDE120495):
            raise ValueError("not a GNU .mo file")
        self._order = "<" if magic == 0x950412DE else ">"
        count, self._originals, self._translations = struct.unpack(self._order + "3I", data[8:20])
        self._data = data
        self._count = count
        self._all: dict[str, str | tuple[str, ...]] | None = None
        self._found: dict[str, str | tuple[str, ...]] = {}  # keys looked up so far

    def _entry(self, table: int, i: int) -> bytes:
        length, offset = struct.unpack_from(self._order + "2I", self._data, table + 8 * i)
        return self._data[offset : offset + length]

    def _text(self, i: int) -> str | tuple[str, ...] | None:
        """The translation at ``i``: plural forms as a tuple, None when empty."""
        original = self._entry(self._originals, i)
        text = self._entry(self._translations, i).decode()
        if b"\0" in original:
            return tuple(text.split("\0"))
        return text or None

    def _find(self, key: str) -> int | None:
        want = key.encode()
        lo, hi = 0, self._count
        while lo < hi:
            mid = (lo + hi) // 2
            singular = self._entry(self._originals, mid).split(b"\0", 1)[0]
            if singular < want:
                lo = mid + 1
            elif singular > want:
                hi = mid
            else:
                return mid
        return None

    def __getitem__(self, key: str) -> str | tuple[str, ...]:
        if self._all is not None:
            return self._all[key]
        text = self._found.get(key)
        if text is None:  # the kiosk asks for the same few texts at every screen: once
            i = self._find(key) if key else None
            text = None if i is None else self._text(i)
            if text is None:
                raise KeyError(key)
            self._found[key] = text
        return text

    def _decoded(self) -> dict[str, str | tuple[str, ...]]:
        if self._all is None:
            out: dict[str, str | tuple[str, ...]] = {}
            for i in range(self._count):
                msgid = self._entry(self._originals, i).split(b"\0", 1)[0].decode()
                text = self._text(i)
                if msgid and text is not None:  # the empty msgid is the header
                    out[msgid] = text
            self._all = out
        return self._all

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())


def _read_po(path: Path) -> dict[str, str | tuple[str, ...]]:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        po = read_po(f)
    out: dict[str, str | tuple[str, ...]] = {}
    for m in po:
        if not m.id or not m.string or m.fuzzy:
            continue
        if isinstance(m.id, tuple | list):
            out[m.id[0]] = tuple(m.string)
        else:
            out[m.id] = str(m.string)
    return out


class _Messages(Mapping[str, dict[str, Text]]):
    """Every message by key, as ``{lang: text}`` (plural texts as ``{category: text}``):
    the catalogues seen as one mapping, for code that asks ``key in MESSAGES`` and for
    the hall screen's page, which takes its texts along. Its keys are the fallback
    language's (every message has an English text)."""

    def __getitem__(self, key: str) -> dict[str, Text]:
        if key not in catalogue(FALLBACK):
            raise KeyError(key)
        out: dict[str, Text] = {}
        for lang in LANGUAGES:
            text = catalogue(lang).get(key)
            if isinstance(text, tuple):
                out[lang] = dict(zip(CATEGORIES[lang], text, strict=False))
            elif text is not None:
                out[lang] = text
        return out

    def __contains__(self, key: object) -> bool:
        return key in catalogue(FALLBACK)

    def __iter__(self) -> Iterator[str]:
        return iter(catalogue(FALLBACK))

    def __len__(self) -> int:
        return len(catalogue(FALLBACK))


MESSAGES: Mapping[str, dict[str, Text]] = _Messages()


def t(key: str, lang: str = DEFAULT, /, **values: Any) -> str:
    """The message ``key`` in ``lang`` with ``values`` filled in.

    A plural message's form is chosen by the plural rules of ``lang`` for the count named
    in :data:`PLURAL_COUNTS` (default ``n``): „1 stanice, 2 stanice, 5 stanic“. Float
    values are written with the language's decimal separator (``1 095,58`` in cs and sk).
    A text missing in ``lang`` is the English one."""
    if lang not in CATEGORIES:
        lang = DEFAULT
    text = catalogue(lang).get(key)
    if text is None:
        lang = FALLBACK
        text = catalogue(FALLBACK)[key]
    if isinstance(text, tuple):
        count = values.get(PLURAL_COUNTS.get(key, "n"), 0)
        forms = dict(zip(CATEGORIES[lang], text, strict=False))
        text = forms.get(plural_category(count, lang)) or forms["other"]
    if not values:
        return str(text)
    # a phrase among the values speaks the language of the whole, never its English
    shown = {
        k: decimal(v, lang)
        if isinstance(v, float)
        else _render(v.key, lang, v.values)
        if isinstance(v, Phrase)
        else v
        for k, v in values.items()
    }
    return str(text).format(**shown)


#: The value that chooses the plural form of a plural message (default ``n``).
PLURAL_COUNTS: dict[str, str] = {
    "dash.stations.summary": "required",
    "warn.too_few": "required",
    "kiosk.refused.cap": "max",
    "kiosk.refused.station_cap": "max",
    "dash.paired": "boards",
    "warn.rejected": "count",
    "warn.impersonated": "count",
    "warn.follows_elsewhere": "count",
    "round.played.results": "count",
    "pair.why.starts_of": "games",
    "pair.why.bye_lowest": "byes",
    "pair.why.bye_skipped": "byes",
    "pair.note.rematches": "rematches",
    "pair.note.pfs_swaps": "swaps",
    "cli.check.lexicon": "words",
    "err.tour.unagreed": "tables",
    "cli.players.imported": "n",
    "cli.players.imported_tsh": "n",
    "cli.finalised": "n",
    "pin.too_short": "min",
    "kiosk.pin.too_short": "min",
    "kiosk.pin.new": "min",
    "dash.disputes.badge": "n",
}

_LOCALES = {"cs": "cs_CZ", "sk": "sk_SK", "en": "en_GB", "pl": "pl_PL"}


def plural_category(count: Any, lang: str) -> str:
    """The CLDR plural category (one, few, many, other) of ``count`` in ``lang``, by
    Babel's copy of the CLDR rules (cs/sk: 1 one, 2–4 few, decimals many, else other)."""
    from babel import Locale

    try:
        number = float(count) if not isinstance(count, int) else count
    except (TypeError, ValueError):
        return "other"
    return str(Locale.parse(_LOCALES.get(lang, _LOCALES[DEFAULT])).plural_form(number))


def decimal(value: float, lang: str, digits: int | None = None) -> str:
    """``value`` with the language's decimal separator and grouping (Babel, CLDR):
    ``1 095,58`` in cs and sk, ``1,095.58`` in en; ``digits`` fixes the decimals."""
    from babel.numbers import format_decimal

    locale = _LOCALES.get(lang, _LOCALES[DEFAULT])
    if digits is None:
        if float(value).is_integer():
            return format_decimal(int(value), locale=locale)
        return format_decimal(value, locale=locale, decimal_quantization=False)
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale)


def fixed(value: float, lang: str, digits: int) -> str:
    """``value`` always with ``digits`` decimals: TurČAS ``1 116,02`` (cs, sk), ``1,116.02``
    (en)."""
    return decimal(value, lang, digits)


def date_text(day: Any, lang: str, form: str = "long") -> str:
    """A date as a reader of ``lang`` writes it (CLDR): ``1. prosince 2026`` (cs, long),
    ``1. 12. 2026`` (cs, medium), ``1 December 2026`` (en). ``day``: a date, a datetime or
    a POSIX timestamp (shown in local time)."""
    import datetime as _dt

    from babel.dates import format_date

    if isinstance(day, int | float):
        day = _dt.datetime.fromtimestamp(day).date()
    return str(format_date(day, form, locale=_LOCALES.get(lang, _LOCALES[DEFAULT])))


def time_text(at: float, lang: str) -> str:
    """A moment's local time of day, ``14:05`` (24-hour in every language we speak)."""
    import datetime as _dt

    from babel.dates import format_time

    moment = _dt.datetime.fromtimestamp(at)
    return str(format_time(moment, "HH:mm", locale=_LOCALES.get(lang, _LOCALES[DEFAULT])))


class Phrase(str):
    """A catalogue message that is also its English text: code that logs or prints it
    gets English as before, and a screen shows it in its own language with
    :func:`localize` (for messages made where the language is not known, e.g. a
    service's warnings, or stored to be shown later, e.g. why a pair was paired).

    Values may themselves be phrases, or lists of values (shown joined by ", "); both
    are rendered in the language of the whole. :meth:`to_data` / :meth:`from_data` keep a
    phrase as JSON-able data (its key and values), never as text in one language."""

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, /, **values: Any) -> Phrase:
        obj = super().__new__(cls, _render(key, "en", values))
        obj.key = key
        obj.values = values
        return obj

    def __reduce__(self) -> tuple[Any, ...]:
        # copy, deepcopy (dataclasses.asdict) and pickle rebuild a phrase from its key and
        # values; str's own reduction would pass the English text to __new__ as the key.
        return (_phrase, (self.key, self.values))

    def to_data(self) -> dict[str, Any]:
        """``{"key": …, "values": {…}}`` with nested phrases as the same kind of dict."""
        return {"key": self.key, "values": {k: _encode(v) for k, v in self.values.items()}}

    @classmethod
    def from_data(cls, data: Any) -> str:
        """The phrase :meth:`to_data` made; a plain string as it is (text stored before
        it was a phrase); a key this version does not know as its key and values, so a
        reader never fails on data written by another version."""
        if isinstance(data, str):
            return data
        if not isinstance(data, dict) or not isinstance(data.get("key"), str):
            return str(data)
        values = {str(k): _decode(v) for k, v in dict(data.get("values") or {}).items()}
        if data["key"] not in MESSAGES:
            return f"{data['key']} {values}"
        try:
            return cls(data["key"], **values)
        except (KeyError, IndexError, ValueError):  # a value the message no longer has
            return f"{data['key']} {values}"


def _phrase(key: str, values: dict[str, Any]) -> Phrase:
    return Phrase(key, **values)


def _encode(value: Any) -> Any:
    if isinstance(value, Phrase):
        return value.to_data()
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        return Phrase.from_data(value)
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _shown(value: Any, lang: str) -> Any:
    if isinstance(value, Phrase):
        return _render(value.key, lang, value.values)
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(v, lang)) for v in value)
    return value


def _render(key: str, lang: str, values: dict[str, Any]) -> str:
    return t(key, lang, **{k: _shown(v, lang) for k, v in values.items()})


def localize(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Phrase`, else as it is."""
    if isinstance(text, Phrase):
        return _render(text.key, lang, text.values)
    return str(text)


def error_text(exc: BaseException, lang: str) -> str:
    """An exception's message in ``lang`` when it was raised with a :class:`Phrase`
    (``raise SomeError(Phrase(key, …))``) or is the system's (:func:`reason`), else its
    text as it is."""
    return localize(reason(exc), lang)


#: The system's errors an operator meets (a mistyped path, a card mounted read-only, no
#: uplink for the results online), each as a catalogue message; any other errno is
#: ``err.os.other`` with its text.
_OS_ERRORS = (
    *("ENOENT", "EACCES", "EISDIR", "ENOTDIR", "ENOSPC", "EROFS", "EEXIST"),
    *("ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT"),
)


def reason(exc: BaseException) -> str:
    """Why ``exc`` happened, as a :class:`Phrase` to be shown in any language (a value of
    another message, or :func:`localize`): the phrase it was raised with, an ``OSError``
    as its path and a catalogue reason (``err.os.*``, not the C library's English), a
    TOML or UTF-8 error as where it is, else its text as it is."""
    arg = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(arg, Phrase):
        return arg
    if type(exc).__name__ == "TOMLDecodeError":  # tomllib's: "… (at line 3, column 7)"
        import re

        at = re.search(r"at line (\d+), column (\d+)", str(exc))
        if at:
            return Phrase("err.toml", line=int(at[1]), column=int(at[2]))
    if isinstance(exc, UnicodeDecodeError):
        return Phrase("err.not_utf8", offset=exc.start)
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == 13:
        return Phrase("err.os.ENOSPC")  # SQLITE_FULL: "database or disk is full"
    if type(exc).__name__ == "gaierror":  # socket's: a host name that does not resolve
        return Phrase("err.os.unknown_host")
    if isinstance(exc, OSError) and exc.errno is not None:
        why = os_reason(exc)
        if exc.filename is None:
            return why
        return Phrase("err.os.file", path=os.fsdecode(exc.filename), reason=why)
    return str(exc)


def os_reason(exc: OSError) -> str:
    """Why the system refused something, without its path (for a message that names the
    path itself; :func:`reason` adds it): one of :data:`_OS_ERRORS` as its ``err.os.*``
    phrase, any other errno as ``err.os.other`` with the system's text."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    name = "EACCES" if name == "EPERM" else name
    if name in _OS_ERRORS:
        return Phrase("err.os." + name)
    return Phrase("err.os.other", errno=name or exc.errno, error=exc.strerror or "")


def cli_language() -> str:
    """The language of command-line messages: ``SAMOOBSLUHA_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``sk_SK.UTF-8`` → sk), else Czech."""
    import os

    for var in ("SAMOOBSLUHA_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")[:2].lower()
        if value in LANGUAGES:
            return value
    return DEFAULT


def refusal(exc: Any, lang: str = DEFAULT) -> str:
    """A :class:`shared.normalize.WordRefused` as a sentence for the screen."""
    detail = exc.detail
    if detail and detail.isspace():
        detail = t("char.space", lang)
    return t(f"refused.{exc.reason.value}", lang, raw=exc.raw, detail=detail)

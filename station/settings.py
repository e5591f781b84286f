"""The kiosk settings in effect: one owner, one lifecycle.

Everything that reads or changes what the kiosk's rules use (tables, words per play,
limits, screen timings, language — :class:`~shared.checks.KioskSettings`) goes through
:class:`SettingsInUse`; the kiosk's screens read ``app.settings`` and ``app.tables``,
which only this owner replaces.

**Where each value comes from** (lowest first; docs/kiosk.md, docs/network.md)::

    default   ─ KioskSettings' own value
    file      ─ the station's station.toml [kiosk] section
    hub       ─ the newest hall configuration the hub published (``hub publish config``):
                the keys it names (shared.checks.HALL_KEYS) win over the file — the chief
                referee sets them for the whole hall, and a station that kept its own
                would be the one kiosk in the hall with other rules
    station   ─ tables: a range the referee set on this kiosk (referee screen). The
                newer of it and the hall configuration naming ``tables`` wins, as for the
                referee PIN (station/log.py): a referee who narrows one station after the
                publication gets his range; a publication after it gets the hall's.
              ─ large print and the spoken verdict (:data:`ACCESS_KEYS`): switched by the
                referee on this kiosk; the hall configuration never names them

**Lifecycle of the hall configuration**::

    receive ─ the link (station/sync.py) checks it with shared.checks.hall_settings —
              the hub's own validator — and refuses a bad one (logged, "done" not ok:
              the hub's deliveries show why; nothing stored, the old settings stay); a
              good one is stored as the signed item ``hub_items`` kind ``config`` with
              its version in ``hub_versions`` (newer only: a replay is refused), then
              offered here
    offer   ─ offer(data, version, received_at): checked again, the settings it makes
              are *pending* (a newer offer replaces a pending one)
    swap    ─ the kiosk, at an idle moment (the idle screen is current: no check under
              way), calls take_pending(); the check in progress keeps the settings it
              started with
    restart ─ load(): the stored item is used again, offline or not; a stored item
              this version would refuse (e.g. stored unchecked by an older version) is
              ignored with a logged reason
    report  ─ in_use_version: the status frame's ``config_version`` (``hub stations``);
              listeners (the link) are told after each swap

**Rate limits across a change**: the limits' state is the check log itself (the table's
and the station's judged checks, counted by station/log.py on each check), never a
counter kept with the settings: new limits apply to the checks already made — a lowered
cap refuses a table that has used it up, a raised one lets it check again.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from samoobsluha.shared.checks import (
    HALL_KEYS,
    KioskSettings,
    SettingsError,
    format_tables,
    hall_settings,
    parse_tables,
)

DEFAULT, FILE, HUB, STATION = "default", "file", "hub", "station"

#: kiosk_settings keys (station/log.py's table): the referee's table range on this
#: station and when it was set (time.time(), as the link's received_at).
SETTING_TABLES = "tables"
SETTING_TABLES_AT = "tables_at"
#: The settings the referee switches on one kiosk for players who need them (kiosk_settings
#: keys of the same names, "1" or "0"): they win over the file's [kiosk].
ACCESS_KEYS = ("large_print", "speak_verdict")


def _log() -> Any:
    import logging

    return logging.getLogger(__name__)


@dataclass(frozen=True)
class Published:
    """The hall configuration as the hub published it (its data is the JSON object)."""

    data: dict[str, Any]
    version: int
    received_at: float = 0.0


@dataclass(frozen=True)
class LocalTables:
    """The table range the referee set on this station, and when."""

    spec: str
    at: float = 0.0


@dataclass(frozen=True)
class Effective:
    """Settings in effect and where each value came from (:data:`DEFAULT`, :data:`FILE`,
    :data:`HUB`, :data:`STATION`)."""

    settings: KioskSettings
    sources: dict[str, str] = field(default_factory=dict)
    config_version: int | None = None  # the hall configuration used, if any


def compose(
    base: KioskSettings,
    file_keys: frozenset[str] | set[str] = frozenset(),
    published: Published | None = None,
    local: LocalTables | None = None,
    access: Mapping[str, bool] | None = None,
) -> Effective:
    """The settings in effect (see the module's precedence). ``base`` is the file's
    ``[kiosk]`` over the defaults; ``file_keys`` the keys the file names. A published
    configuration or local range that does not pass the checks is left out, logged."""
    sources = {f.name: (FILE if f.name in file_keys else DEFAULT) for f in dataclasses.fields(base)}
    settings = base
    version = None
    hall: dict[str, Any] = {}
    if published is not None:
        try:
            hall = hall_settings(published.data)
        except SettingsError as exc:
            _log().error("hall configuration %d not used: %s", published.version, exc)
        else:
            settings = dataclasses.replace(settings, **hall)
            sources.update({key: HUB for key in hall})
            version = published.version
    if local is not None and (
        "tables" not in hall or published is None or local.at >= published.received_at
    ):
        try:
            settings = dataclasses.replace(settings, tables=parse_tables(local.spec))
            sources["tables"] = STATION
        except SettingsError:
            _log().warning("ignoring the stored table range %r", local.spec)
    switched: dict[str, Any] = {k: bool(v) for k, v in (access or {}).items() if k in ACCESS_KEYS}
    if switched:
        settings = dataclasses.replace(settings, **switched)
        sources.update({key: STATION for key in switched})
    return Effective(settings, sources, version)


def read_access(db: Any) -> dict[str, bool]:
    """The referee's large-print and spoken-verdict switches stored on this station."""
    if "kiosk_settings" not in set(db.table_names()):
        return {}
    marks = ", ".join("?" for _ in ACCESS_KEYS)
    rows = db.execute(
        f"SELECT key, value FROM kiosk_settings WHERE key IN ({marks})", list(ACCESS_KEYS)
    ).fetchall()
    return {str(k): str(v) == "1" for k, v in rows}


def read_state(db: Any) -> tuple[Published | None, LocalTables | None]:
    """The stored hall configuration (link's ``hub_items``) and the referee's table range
    (``kiosk_settings``) in a station database; either table may not exist yet."""
    names = set(db.table_names())
    published = local = None
    if "hub_items" in names and "hub_versions" in names:
        row = db.execute(  # an item stored before versions were kept: version 0
            "SELECT i.data, i.received_at, COALESCE(v.version, 0) FROM hub_items i "
            "LEFT JOIN hub_versions v ON v.kind = i.kind WHERE i.kind = 'config'"
        ).fetchone()
        if row is not None:
            try:
                data = json.loads(row[0])
            except ValueError:
                data = None
            published = Published(data, int(row[2]), float(row[1] or 0.0))
    if "kiosk_settings" in names:
        rows = dict(
            db.execute(
                "SELECT key, value FROM kiosk_settings WHERE key IN (?, ?)",
                [SETTING_TABLES, SETTING_TABLES_AT],
            ).fetchall()
        )
        if rows.get(SETTING_TABLES):
            try:
                at = float(rows.get(SETTING_TABLES_AT) or 0.0)
            except ValueError:
                at = 0.0
            local = LocalTables(str(rows[SETTING_TABLES]), at)
    return published, local


class SettingsInUse:
    """The owner of the kiosk settings in effect (see the module's lifecycle)."""

    def __init__(
        self,
        base: KioskSettings | None = None,
        file_keys: frozenset[str] | set[str] = frozenset(),
        *,
        published: Published | None = None,
        local: LocalTables | None = None,
        access: Mapping[str, bool] | None = None,
        file_path: Any = None,
    ) -> None:
        self.base = base or KioskSettings()
        self.file_keys = frozenset(file_keys)
        self.file_path = file_path
        self.published = published
        self.local = local
        self.access: dict[str, bool] = dict(access or {})
        self.current: Effective = self._compose()
        self.pending: Effective | None = None
        self._listeners: list[Callable[[Effective], Any]] = []

    @classmethod
    def from_section(
        cls, section: Mapping[str, Any], db: Any = None, *, file_path: Any = None
    ) -> SettingsInUse:
        """From a station's ``[kiosk]`` section (raises :class:`SettingsError` as the
        station always has for a bad file) and what its database holds."""
        base = KioskSettings.from_section(section)
        published, local = read_state(db) if db is not None else (None, None)
        access = read_access(db) if db is not None else {}
        return cls(
            base,
            set(section),
            published=published,
            local=local,
            access=access,
            file_path=file_path,
        )

    def _compose(self) -> Effective:
        return compose(self.base, self.file_keys, self.published, self.local, self.access)

    # -- what is in use ------------------------------------------------------------------
    @property
    def settings(self) -> KioskSettings:
        return self.current.settings

    @property
    def in_use_version(self) -> int | None:
        return self.current.config_version

    def add_listener(self, listener: Callable[[Effective], Any]) -> None:
        """``listener(effective)`` after each change of the settings in use."""
        self._listeners.append(listener)

    # -- changes -------------------------------------------------------------------------
    def offer(self, data: Any, version: int, received_at: float | None = None) -> bool:
        """A hall configuration the link stored: the settings it makes go into use at the
        kiosk's next idle moment. A bad one is refused (logged) and changes nothing."""
        try:
            hall_settings(data)
        except SettingsError as exc:
            _log().error("hall configuration %d refused, settings unchanged: %s", version, exc)
            return False
        if self.published is not None and version < self.published.version:
            return False  # an older one (the link refuses those already)
        self.published = Published(
            dict(data), version, time.time() if received_at is None else received_at
        )
        self.pending = self._compose()
        _log().info(
            "hall configuration %d (%s) ready; in use from the next idle moment",
            version,
            ", ".join(sorted(data)) or "no keys",
        )
        return True

    def take_pending(self) -> Effective | None:
        """At an idle moment only: put the pending settings into use (None: none)."""
        new, self.pending = self.pending, None
        if new is None:
            return None
        self._use(new)
        return new

    def set_local_tables(self, tables: frozenset[int], at: float | None = None) -> LocalTables:
        """The referee set this station's table range (referee screen): in use at once
        (the referee screen is no check: a hall configuration waiting goes into use with
        it), stored by the caller as :data:`SETTING_TABLES` and :data:`SETTING_TABLES_AT`."""
        self.local = LocalTables(format_tables(tables), time.time() if at is None else at)
        self.pending = None  # a hall configuration waiting goes into use with it: no check
        self._use(self._compose())
        return self.local

    def set_access(self, key: str, on: bool) -> None:
        """The referee switched large print or the spoken verdict on this kiosk (referee
        screen): in use at once, stored by the caller under ``key`` ("1"/"0")."""
        if key not in ACCESS_KEYS:
            raise ValueError(f"{key!r} is not one of {ACCESS_KEYS}")
        self.access[key] = on
        self.pending = None
        self._use(self._compose())

    def _use(self, new: Effective) -> None:
        old, self.current = self.current, new
        changed = [
            f.name
            for f in dataclasses.fields(new.settings)
            if getattr(new.settings, f.name) != getattr(old.settings, f.name)
        ]
        _log().info(
            "kiosk settings in use (hall configuration %s): %s",
            new.config_version,
            ", ".join(changed) or "unchanged",
        )
        for listener in self._listeners:
            try:
                listener(new)
            except Exception:
                _log().exception("settings listener failed")

    # -- showing them --------------------------------------------------------------------
    def describe(self, lang: str, station: str = "") -> list[str]:
        """Lines for ``station settings``: every setting the hall may set (and the file's
        others), its value and where it came from."""
        from samoobsluha.shared.i18n import decimal, t

        eff = self.current
        lines = [t("settings.header", lang, station=station)]
        names = [f.name for f in dataclasses.fields(eff.settings) if f.name != "referee_pin_hash"]
        width = max(len(n) for n in names)
        for name in names:
            if name not in HALL_KEYS and eff.sources.get(name) == DEFAULT:
                continue  # the station's own keys at their defaults: noise
            value = getattr(eff.settings, name)
            if name == "tables":
                shown = format_tables(value)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                shown = decimal(value, lang)  # a decimal comma in cs and sk
            else:
                shown = json.dumps(value, ensure_ascii=False)
            source = eff.sources.get(name, DEFAULT)
            if source == FILE:
                where = t("settings.source.file", lang, path=self.file_path or "station.toml")
            elif source == HUB:
                where = t("settings.source.hub", lang, time=published_time(eff.config_version))
            elif source == STATION:
                where = t("settings.source.station", lang)
            else:
                where = t("settings.source.default", lang)
            lines.append(f"  {name:<{width}}  {shown:<14}  {where}")
        published = self.published
        if published is None:
            lines.append(t("settings.published_none", lang))
        else:
            try:
                hall_settings(published.data)
            except SettingsError as exc:
                from samoobsluha.shared.i18n import error_text

                lines.append(t("settings.published_unusable", lang, problem=error_text(exc, lang)))
            else:
                lines.append(
                    t(
                        "settings.published",
                        lang,
                        time=published_time(published.version),
                        item=published.version,
                    )
                )
        return lines


def published_time(version: int | None) -> str:
    """When the hub published a configuration (its version is the hub's time in ms)."""
    if version is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(version / 1000))

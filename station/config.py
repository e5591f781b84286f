"""Station configuration: one TOML file, one section per feature.

Looked up at ``--config FILE``, else ``$SAMOOBSLUHA_CONFIG``, else
``/etc/samoobsluha/station.toml`` (written by provisioning), else
``<data dir>/station.toml``. Every key has a default, so a station starts with no file at
all. Each feature owns its section and parses it into its own dataclass:

``[station]``  name, ui_language (cs|sk|en|pl), lexicon (path)
``[kiosk]``    tables, limits, timeouts, referee PIN (see station/kiosk docs)
``[gong]``     pins, active_high, patterns, audio (see hardware/)
``[network]``  tournament_id, psk_file, hub ("host:port" when mDNS is blocked)
"""

from __future__ import annotations

import os
from pathlib import Path

from samoobsluha.shared.i18n import Phrase, reason
from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.record import Record

TYPE_CHECKING = False  # not typing's: `station check` reads this module at start-up
if TYPE_CHECKING:
    from typing import Any

SYSTEM_CONFIG = Path("/etc/samoobsluha/station.toml")


class ConfigError(Exception):
    """The configuration file cannot be used; the message names the file and key."""


class StationConfig(Record):
    """The file that was read (None: no file, every default) and its parsed TOML."""

    __slots__ = ("path", "raw")
    _fields = ("path", "raw")
    path: Path | None
    raw: dict[str, Any]

    def __init__(self, path: Path | None = None, raw: dict[str, Any] | None = None) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "raw", raw if raw is not None else {})

    def section(self, name: str) -> dict[str, Any]:
        value = self.raw.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(Phrase("config.err.table", path=str(self.path), name=name))
        return value

    @property
    def name(self) -> str:
        import socket  # here: a few ms of every command's start, needed only unnamed

        return str(self.section("station").get("name") or socket.gethostname())

    @property
    def ui_language(self) -> str:
        return str(self.section("station").get("ui_language", "cs"))

    @property
    def lexicon(self) -> Path | None:
        value = self.section("station").get("lexicon")
        return Path(value) if value else None


def config_path(explicit: Path | str | None = None) -> Path | None:
    if explicit:
        return Path(explicit)
    env = os.environ.get("SAMOOBSLUHA_CONFIG")
    if env:
        return Path(env)
    for candidate in (SYSTEM_CONFIG, data_dir() / "station.toml"):
        if candidate.is_file():
            return candidate
    return None


def load(explicit: Path | str | None = None) -> StationConfig:
    import tomllib  # here, not at import: `station --help` builds parsers that import us

    path = config_path(explicit)
    if path is None:
        return StationConfig()
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(Phrase("config.err.not_found", path=str(path))) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(Phrase("config.err.toml", path=str(path), error=reason(exc))) from exc
    return StationConfig(path=path, raw=raw)


def station_db_path() -> Path:
    """The station's one SQLite file (log, outbox, schedule, results)."""
    return data_dir() / "station.db"

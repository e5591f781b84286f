"""Automatic backups of the hub's database, and ``hub restore``.

This module owns the backup folder: what a backup is, when one is taken, what it is
called, how many are kept, and how one becomes a hub's database again.

* **A backup** is one consistent snapshot of ``hub.db`` (players, pairings, results,
  station logs, round plans, published items: everything the hub holds but the hall
  secret; and the projector's token, ``projector.token``, in its ``hub_meta``, so that
  the projector's address stays valid on a restored hub) taken with SQLite's online
  backup API (:func:`shared.storage.snapshot_into`),
  never a file copy, so a write in progress is either in it or not. The snapshot is
  written under a temporary name, checked (``PRAGMA integrity_check``), synced, and only
  then renamed to ``hub-<tournament>-<YYYYmmdd-HHMMSS>-<reason>.db``: a stick pulled
  mid-backup leaves no file that looks like a backup. Each backup records in its own
  ``hub_meta`` when and why it was taken (``backup_at``, ``backup_reason``).
* **When**: ``hub serve`` takes one at start, after every publication (a round's results
  published, pairings/standings/config published to the stations — by any process
  sharing ``hub.db``) and every ``every_minutes`` minutes, and ``hub backup`` takes one
  by hand (also with no server running). The newest ``keep`` backups of the tournament
  are kept, older ones removed.
* **Where**: ``[backup]`` in ``<data dir>/hub.toml``::

      [backup]
      folder = "/media/usb/samoobsluha"   # a USB stick or any folder (required to back up)
      every_minutes = 10                  # besides every publication
      keep = 48                           # newest backups kept per tournament

  ``hub serve --backup-dir DIR`` overrides ``folder`` for one run.
* **Restore** (:func:`restore`): the file is read whole by SQLite first; a damaged or
  foreign file is refused naming it, and nothing is changed. An existing ``hub.db`` is
  replaced only when asked (``--force``), and kept beside it as
  ``hub.db.replaced-<YYYYmmdd-HHMMSS>``. Never while ``hub serve`` runs on the database.
  The backup's projector token becomes ``<data>/projector.token`` (and leaves the
  restored database's ``hub_meta``); a backup without one leaves the token file as it is.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sqlite3
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

from samoobsluha.shared.i18n import Phrase, reason
from samoobsluha.shared.i18n import reason as why  # take()'s `reason` is the backup's
from samoobsluha.shared.storage import NotADatabase, check_file, open_watch, snapshot_into

log = logging.getLogger("hub.backup")

CONFIG_NAME = "hub.toml"
EVERY_MINUTES = 10.0
KEEP = 48
RETRY_SECONDS = 60.0  # a failed backup (no stick, a full disk) is tried again this often
REASONS = ("start", "publication", "timer", "manual", "standby")  # standby: hub/standby.py
TOKEN_META = "projector_token"  # the projector's token, in a backup's hub_meta
_NAME = re.compile(r"^hub-(?P<tournament>[\w-]+)-(?P<at>\d{8}-\d{6})-(?P<reason>[a-z]+)\.db$")


class BackupError(ValueError):
    """A backup could not be taken or restored; the message is a :class:`Phrase`."""


@dataclass
class BackupSettings:
    folder: Path | None = None  # None: no automatic backups
    every_minutes: float = EVERY_MINUTES
    keep: int = KEEP


def load_settings(data: Path, folder: Path | str | None = None) -> BackupSettings:
    """``[backup]`` of ``data/hub.toml`` (absent: no automatic backups); ``folder``
    overrides the file's folder. :class:`BackupError` names what is wrong."""
    path = data / CONFIG_NAME
    out = BackupSettings()
    section: dict[str, object] = {}
    if path.exists():
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise BackupError(Phrase("backup.config_bad", path=str(path), error=str(exc))) from None
        value = raw.get("backup", {})
        if not isinstance(value, dict):
            raise BackupError(Phrase("backup.config_bad", path=str(path), error="[backup]"))
        section = value
    unknown = set(section) - {"folder", "every_minutes", "keep"}
    if unknown:
        raise BackupError(Phrase("backup.config_bad", path=str(path), error=sorted(unknown)))
    chosen = folder if folder is not None else section.get("folder")
    if chosen is not None:
        if not isinstance(chosen, str | Path) or not str(chosen).strip():
            raise BackupError(Phrase("backup.config_bad", path=str(path), error="folder"))
        out.folder = Path(chosen).expanduser()
    every = section.get("every_minutes", EVERY_MINUTES)
    if not isinstance(every, int | float) or isinstance(every, bool) or not every > 0:
        raise BackupError(Phrase("backup.config_bad", path=str(path), error="every_minutes"))
    out.every_minutes = float(every)
    keep = section.get("keep", KEEP)
    if not isinstance(keep, int) or isinstance(keep, bool) or keep < 1:
        raise BackupError(Phrase("backup.config_bad", path=str(path), error="keep"))
    out.keep = keep
    return out


@dataclass(frozen=True)
class BackupInfo:
    """What a backup (or a hub database) holds, as ``hub restore`` tells it."""

    path: Path
    tournament: str
    hub_id: str
    taken_at: float | None  # None: a hub database that is not a backup
    reason: str | None
    players: int
    rounds_paired: int
    results: int
    station_rows: int
    projector_token: bool = False  # it carries the projector's token


def publication_mark(conn: sqlite3.Connection) -> tuple[float, float, int]:
    """What changes when anything is published: the last round publication, the last item
    published to the stations, and how many rounds are paired."""

    def one(sql: str) -> float:
        try:
            value = conn.execute(sql).fetchone()[0]
        except sqlite3.OperationalError:  # a table not created yet (a fresh hub)
            return 0.0
        return float(value or 0.0)

    return (
        one("SELECT MAX(published_at) FROM tour_rounds"),
        one("SELECT MAX(updated_at) FROM published"),
        int(one("SELECT COUNT(*) FROM tour_rounds")),
    )


def backup_name(tournament: str, at: float, reason: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(at))
    return f"hub-{tournament}-{stamp}-{reason}.db"


def take(db_path: Path, folder: Path, *, reason: str, now: float, keep: int = KEEP) -> Path:
    """One backup of the database at ``db_path`` into ``folder``; its path. Reads through
    its own read-only connection, so neither of the server's lanes waits for it."""
    if reason not in REASONS:
        raise ValueError(f"unknown backup reason {reason!r}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(Phrase("backup.folder_bad", folder=str(folder), error=why(exc))) from None
    source = open_watch(db_path)  # read-only: the snapshot's source
    try:
        tournament = _meta(source, "tournament_id") or "unknown"
        name = backup_name(tournament, now, reason)
        final = folder / name
        part = folder / f".{name}.part"
        part.unlink(missing_ok=True)
        try:
            token = projector_token_of(db_path.parent)
            snapshot_into(source, part, lambda copy: stamp(copy, now, reason, token))
            check_file(part).close()
            os.replace(part, final)
            _sync_dir(folder)
        except (OSError, sqlite3.Error, NotADatabase) as exc:
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)
            raise BackupError(
                Phrase("backup.folder_bad", folder=str(folder), error=why(exc))
            ) from None
    finally:
        source.close()
    prune(folder, tournament, keep)
    return final


def stamp(copy: sqlite3.Connection, now: float, reason: str, token: str | None = None) -> None:
    """The backup says itself when and why it was taken, and carries the projector's
    ``token`` (None: the hub had none, and none is carried)."""
    for key, value in (("backup_at", repr(now)), ("backup_reason", reason)):
        copy.execute("INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)", [key, value])
    if token is None:
        copy.execute("DELETE FROM hub_meta WHERE key = ?", [TOKEN_META])
    else:
        copy.execute(
            "INSERT OR REPLACE INTO hub_meta (key, value) VALUES (?, ?)", [TOKEN_META, token]
        )


def _drop_token(copy: sqlite3.Connection) -> None:
    """The token lives in its file; a stale copy of it in the database would mislead."""
    copy.execute("DELETE FROM hub_meta WHERE key = ?", [TOKEN_META])


def projector_token_of(data: Path) -> str | None:
    """The projector's token of the hub whose data folder is ``data`` (hub.web.config)."""
    from samoobsluha.hub.web.config import read_token

    return read_token(data)


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system syncs a directory
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def backups(folder: Path, tournament: str | None = None) -> list[Path]:
    """The backups in ``folder`` (of ``tournament``, or all), oldest first."""
    found = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            m = _NAME.match(path.name)
            if m and (tournament is None or m["tournament"] == tournament):
                found.append((m["at"], path.name, path))
    return [path for _, _, path in sorted(found)]


def prune(folder: Path, tournament: str, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backups of ``tournament``; the removed ones."""
    old = backups(folder, tournament)[:-keep]
    for path in old:
        with contextlib.suppress(OSError):
            path.unlink()
    return old


def _meta(conn: sqlite3.Connection, key: str) -> str | None:
    try:
        row = conn.execute("SELECT value FROM hub_meta WHERE key = ?", [key]).fetchone()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def describe(path: Path | str) -> BackupInfo:
    """What the backup at ``path`` holds, after SQLite has read all of it; a damaged file
    or one that is not a hub's database is refused naming it (:class:`BackupError`)."""
    path = Path(path)
    try:
        conn = check_file(path)
    except NotADatabase as exc:
        raise BackupError(Phrase("backup.corrupt", path=str(path), error=reason(exc))) from None
    try:
        tournament = _meta(conn, "tournament_id")
        if tournament is None:
            raise BackupError(Phrase("backup.not_hub", path=str(path)))

        def count(sql: str) -> int:
            try:
                return int(conn.execute(sql).fetchone()[0])
            except sqlite3.Error:
                return 0

        taken = _meta(conn, "backup_at")
        return BackupInfo(
            path=path,
            tournament=tournament,
            hub_id=_meta(conn, "hub_id") or "?",
            taken_at=float(taken) if taken else None,
            reason=_meta(conn, "backup_reason"),
            players=count("SELECT COUNT(*) FROM tour_players"),
            rounds_paired=count("SELECT COUNT(*) FROM tour_rounds"),
            results=count("SELECT COUNT(*) FROM tour_results"),
            station_rows=count("SELECT COUNT(*) FROM inbox"),
            projector_token=_meta(conn, TOKEN_META) is not None,
        )
    finally:
        conn.close()


def restore(source: Path | str, target: Path, *, force: bool = False, now: float) -> BackupInfo:
    """Make the backup ``source`` the hub database ``target``. Refused (nothing changed)
    when the file is damaged or not a hub's, or ``target`` exists and ``force`` is not
    given; an existing ``target`` is kept as ``<target>.replaced-<stamp>``."""
    info = describe(source)
    if target.exists() and not force:
        raise BackupError(Phrase("backup.target_exists", path=str(target)))
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(f".{target.name}.restoring")
    part.unlink(missing_ok=True)
    conn = check_file(source)
    try:
        token = _meta(conn, TOKEN_META)
        snapshot_into(conn, part, _drop_token)
    finally:
        conn.close()
    if target.exists():
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
        os.replace(target, target.with_name(f"{target.name}.replaced-{stamp}"))
    for suffix in ("-wal", "-shm"):  # the old database's journal must not meet the new file
        target.with_name(target.name + suffix).unlink(missing_ok=True)
    os.replace(part, target)
    _sync_dir(target.parent)
    from samoobsluha.hub.web.config import valid_token, write_token

    if token is not None and valid_token(token):
        write_token(target.parent, token)  # the projector's address stays the same
    return info


class Backups:
    """The server's automatic backups: :meth:`due` says whether one is due now (and why),
    :meth:`taken`/:meth:`failed` record the outcome for ``hub stations``."""

    def __init__(self, db_path: Path, settings: BackupSettings) -> None:
        self.db_path = db_path
        self.settings = settings
        self.last_at: float | None = None
        self.last_path: Path | None = None
        self.last_error: str | None = None
        # why it failed, as a phrase (the system's reason, not its English): hub stations
        # and the dashboard say it in the operator's language
        self.last_reason: str | None = None
        self.error_at: float | None = None
        self._mark: tuple[float, float, int] | None = None
        self._pending: str | None = None  # the backup that failed, tried again

    @property
    def enabled(self) -> bool:
        return self.settings.folder is not None

    def due(self, now: float) -> str | None:
        """The reason a backup is due now, or None. Runs on a worker thread (it reads the
        database through its own read-only connection). After a failure (the stick pulled)
        the same backup is tried again every :data:`RETRY_SECONDS`."""
        if not self.enabled or not self.db_path.exists():
            return None
        conn = open_watch(self.db_path)
        try:
            mark = publication_mark(conn)
        finally:
            conn.close()
        first = self._mark is None
        changed = not first and mark != self._mark
        self._mark = mark
        if self._pending is not None:
            if self.error_at is not None and now - self.error_at < RETRY_SECONDS:
                return None
            return self._pending
        if first:
            return "start"
        if changed:
            return "publication"
        if self.last_at is None or now - self.last_at >= self.settings.every_minutes * 60:
            return "timer"
        return None

    def run(self, now: float) -> Path | None:
        """Take a backup if one is due (blocking: call it on a worker thread)."""
        reason = self.due(now)
        if reason is None:
            return None
        assert self.settings.folder is not None
        try:
            path = take(
                self.db_path,
                self.settings.folder,
                reason=reason,
                now=now,
                keep=self.settings.keep,
            )
        except BackupError as exc:
            self.last_error = str(exc)
            phrase = exc.args[0] if exc.args and isinstance(exc.args[0], Phrase) else None
            self.last_reason = phrase.values.get("error") if phrase is not None else None
            self.error_at = now
            self._pending = reason
            log.error("backup to %s failed: %s", self.settings.folder, exc)
            return None
        self.last_at, self.last_path, self.last_error, self.error_at = now, path, None, None
        self.last_reason = None
        self._pending = None
        log.info("backup (%s): %s", reason, path)
        return path

    def status(self) -> dict[str, object]:
        return {
            "folder": str(self.settings.folder) if self.settings.folder else None,
            "last_at": self.last_at,
            "last_path": str(self.last_path) if self.last_path else None,
            "error": self.last_error,  # English, for scripts (--json)
            # the reason as data ({"key", "values"}): shown in the reader's language
            "error_reason": (
                self.last_reason.to_data()
                if isinstance(self.last_reason, Phrase)
                else self.last_reason
            ),
            "error_at": self.error_at,
        }

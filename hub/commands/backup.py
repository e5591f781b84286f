"""``hub backup`` and ``hub restore`` (hub/backup.py owns the backups).

``hub backup``                 one backup now, into ``[backup] folder`` of hub.toml (``--to DIR``)
``hub backup list``            the backups in that folder, newest last, with what each holds
``hub restore FILE``           make a backup this machine's hub database (``--force`` replaces
                               an existing one, kept beside it); refused while ``hub serve``
                               runs, and for a damaged file, naming it
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from samoobsluha.shared.i18n import cli_language, error_text, t


def _folder(args: argparse.Namespace) -> Path | None:
    from samoobsluha.hub import backup
    from samoobsluha.shared.paths import data_dir

    settings = backup.load_settings(data_dir(), args.to)
    return settings.folder


def _backup(args: argparse.Namespace) -> int:
    from samoobsluha.hub import backup, store

    lang = cli_language()
    try:
        folder = _folder(args)
        if folder is None:
            print(f"hub backup: {t('backup.no_folder', lang)}", file=sys.stderr)
            return 2
        if args.action == "list":
            for path in backup.backups(folder):
                print(_summary(backup.describe(path), lang))
            return 0
        if not store.db_path().exists():
            print(
                f"hub backup: {t('backup.no_database', lang, path=store.db_path())}",
                file=sys.stderr,
            )
            return 2
        settings = backup.load_settings(store.db_path().parent, args.to)
        path = backup.take(
            store.db_path(), folder, reason="manual", now=time.time(), keep=settings.keep
        )
    except backup.BackupError as exc:
        print(f"hub backup: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    print(_summary(backup.describe(path), lang))
    return 0


def _summary(info: object, lang: str) -> str:
    from samoobsluha.hub.backup import BackupInfo

    assert isinstance(info, BackupInfo)
    when = (
        time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info.taken_at))
        if info.taken_at is not None
        else "-"
    )
    return t(
        "backup.summary",
        lang,
        path=info.path,
        tournament=info.tournament,
        at=when,
        reason=t(f"backup.reason.{info.reason}", lang) if info.reason else "-",
        players=info.players,
        rounds=info.rounds_paired,
        results=info.results,
        rows=info.station_rows,
    )


def _restore(args: argparse.Namespace) -> int:
    from samoobsluha.hub import backup, store
    from samoobsluha.hub.control import ControlError, request

    lang = cli_language()
    try:
        request("info", timeout=2.0)
    except (ControlError, OSError):
        pass
    else:
        print(f"hub restore: {t('backup.hub_running', lang)}", file=sys.stderr)
        return 2
    try:
        info = backup.restore(Path(args.file), store.db_path(), force=args.force, now=time.time())
    except backup.BackupError as exc:
        print(f"hub restore: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    print(t("backup.restored", lang, path=store.db_path()))
    print(_summary(info, lang))
    if not store.key_path().exists():
        # the hall secret is never in a backup: the stations trust only the hub that has it
        print(t("backup.no_key", lang, path=store.key_path()))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    bk = sub.add_parser(
        "backup",
        help="back up the hub's database now (a consistent SQLite snapshot); `list` lists them",
    )
    bk.add_argument("action", nargs="?", default="now", choices=("now", "list"))
    bk.add_argument("--to", metavar="DIR", help="folder (default: [backup] folder in hub.toml)")
    bk.set_defaults(func=_backup)

    rs = sub.add_parser(
        "restore", help="make a backup this machine's hub database (refused while hub serve runs)"
    )
    rs.add_argument("file", help="a backup file (hub backup list)")
    rs.add_argument(
        "--force",
        action="store_true",
        help="replace an existing hub database (it is kept beside, renamed .replaced-…)",
    )
    rs.set_defaults(func=_restore)

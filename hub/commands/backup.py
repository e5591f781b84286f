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

from samoobsluha.shared.i18n import cli_language, decimal, error_text, t


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
    if info.projector_token:
        print(t("backup.projector_token", lang))
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
    register_standby(sub)


def _standby(args: argparse.Namespace) -> int:
    """Keep a copy of the primary's database, printing each copy (hub/standby.py)."""
    import asyncio
    import signal

    from samoobsluha.hub import standby, store
    from samoobsluha.shared.address import AddressError, parse_hostport
    from samoobsluha.shared.paths import data_dir
    from samoobsluha.shared.protocol import HallKeys, parse_psk

    lang = cli_language()
    if args.configured:  # the hub card's units: is this card a standby (exit 0) or the hub?
        return 0 if standby.is_standby_card(data_dir()) else 1
    try:
        settings = standby.load_settings(data_dir())
    except ValueError as exc:
        print(f"hub standby: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    primary = args.primary or settings.primary
    if not primary:
        print(f"hub standby: {t('standby.no_primary', lang)}", file=sys.stderr)
        return 2
    if (data_dir() / "hub.db").exists() and not args.primary:
        # hub takeover made this machine the hub: the configured primary is retired
        print(f"hub standby: {t('standby.took_over_here', lang)}", file=sys.stderr)
        return 2
    text = primary if ":" in primary else f"{primary}:{DEFAULT_STANDBY_PORT}"
    try:
        host, port = parse_hostport(text, where="--primary")
    except AddressError as exc:
        print(f"hub standby: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    if not store.key_path().exists():
        print(f"hub standby: {t('backup.no_key', lang, path=store.key_path())}", file=sys.stderr)
        return 2
    keys = HallKeys(parse_psk(store.key_path().read_text()))
    target = standby.copy_path(data_dir())
    tournament = args.tournament or settings.tournament or _tournament_of(target)
    if not tournament:
        print(f"hub standby: {t('standby.no_tournament', lang)}", file=sys.stderr)
        return 2
    state: dict[str, float] = {}

    def told(event: object) -> None:
        now = time.time()
        if isinstance(event, standby.Copied):
            state["last"] = now
            print(
                t(
                    "standby.copied",
                    lang,
                    at=time.strftime("%H:%M:%S", time.localtime(event.at)),
                    rows=event.rows,
                    results=event.results,
                    mb=decimal(event.size / 2**20, lang, 1),
                ),
                flush=True,
            )
        else:
            ago = f"{now - state['last']:.0f}" if "last" in state else "-"
            print(t("standby.failed", lang, error=str(event) or type(event).__name__, s=ago),
                  flush=True)  # fmt: skip

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        print(t("standby.following", lang, primary=text, path=target), flush=True)
        await standby.follow(host, port, keys, tournament, target, on_copy=told, stop=stop)

    asyncio.run(main())
    return 0


DEFAULT_STANDBY_PORT = 47821


def _tournament_of(path: Path) -> str | None:
    from samoobsluha.hub import backup

    try:
        return backup.describe(path).tournament if path.exists() else None
    except backup.BackupError:
        return None


def _takeover(args: argparse.Namespace) -> int:
    """The standby's newest copy becomes this machine's hub database: then `hub serve`."""
    from samoobsluha.hub import backup, standby, store
    from samoobsluha.hub.control import ControlError, request
    from samoobsluha.shared.paths import data_dir

    lang = cli_language()
    try:
        request("info", timeout=2.0)
    except (ControlError, OSError):
        pass
    else:
        print(f"hub takeover: {t('backup.hub_running', lang)}", file=sys.stderr)
        return 2
    source = standby.copy_path(data_dir())
    if not source.exists() and not store.db_path().exists():
        print(f"hub takeover: {t('standby.no_copy', lang, path=source)}", file=sys.stderr)
        return 2
    try:
        info, new, retired = standby.take_over(store.db_path().parent, time.time())
    except backup.BackupError as exc:
        print(f"hub takeover: {error_text(exc, lang)}", file=sys.stderr)
        return 2
    if source.exists():
        print(t("backup.restored", lang, path=store.db_path()))
    else:  # hub restore of a backup here, then hub takeover: the disk-died path
        print(t("standby.in_place", lang, path=store.db_path()))
    print(_summary(info, lang))
    if info.projector_token:
        print(t("backup.projector_token", lang))
    print(t("standby.handover", lang, hub=new, retired=", ".join(retired) or "-"))
    print(t("standby.took_over", lang))
    return 0


def register_standby(sub: argparse._SubParsersAction) -> None:
    sb = sub.add_parser(
        "standby",
        help="keep a copy of the primary hub's data on this machine (the hall key copied here)",
    )
    sb.add_argument(
        "--primary",
        metavar="HOST[:PORT]",
        help=f"the primary's address (hub serve --standby-port; default port "
        f"{DEFAULT_STANDBY_PORT}; default: [standby] primary in hub.toml)",
    )
    sb.add_argument(
        "--tournament",
        help="the tournament id (needed for the first copy only; default: [standby] tournament)",
    )
    sb.add_argument(
        "--configured",
        action="store_true",
        help="only answer whether this machine is a standby by its hub.toml (exit 0) or not "
        "(exit 1: it has no [standby] primary, or it took over); the hub card's units ask",
    )
    sb.set_defaults(func=_standby)
    tk = sub.add_parser(
        "takeover",
        help="make the standby's newest copy this machine's hub database (then: hub serve)",
    )
    tk.set_defaults(func=_takeover)

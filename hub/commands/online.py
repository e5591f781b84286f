"""``hub online``: results online after the protest window, offline-first (hub/publisher.py).

hub online target URL|FOLDER [--token-file F]   where the pages go
hub online send [--watch [--every S]]          render what the embargo allows, send it
hub online status                              pages queued and sent
hub online verify FOLDER [--public-key HEX]    check a published copy's signature
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from samoobsluha.shared.i18n import LANGUAGES, cli_language, error_text, localize

if TYPE_CHECKING:
    from samoobsluha.shared.storage import Database


def _open(args: argparse.Namespace) -> Database:
    from samoobsluha.hub import publisher
    from samoobsluha.hub import store as sync_store
    from samoobsluha.hub.tournament import store as tour_store
    from samoobsluha.shared.storage import open_db

    path = Path(args.db) if getattr(args, "db", None) else sync_store.db_path()
    return open_db(path, tour_store.migrations, sync_store.migrations, publisher.migrations)


def _target(args: argparse.Namespace) -> int:
    from samoobsluha.hub import publisher
    from samoobsluha.shared.i18n import t

    db = _open(args)
    try:
        publisher.set_target(db, args.target, args.token_file or "")
    except (publisher.PublishError, OSError) as exc:
        print(f"hub online target: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    finally:
        db.close()
    print(t("online.target_set", cli_language(), target=args.target))
    return 0


def _pass(db: Database, lang: str) -> tuple[int, str]:
    """One render-and-send pass: (exit code, what to print)."""
    from samoobsluha.hub import publisher
    from samoobsluha.hub import store as sync_store
    from samoobsluha.hub.receipts import hall_keys
    from samoobsluha.shared.i18n import t

    if not publisher.setting(db, "target"):
        return 2, t("online.no_target", lang)
    keys = hall_keys(sync_store.key_path().parent)
    if keys is None:
        return 2, t("receipt.no_key", lang, path=str(sync_store.key_path()))
    tournament, _, _ = sync_store.ensure_identity(db)
    done = publisher.publish_pass(db, keys, tournament, time.time(), lang)
    return done.code, "\n".join(done.lines)


def _send(args: argparse.Namespace) -> int:
    from samoobsluha.hub import publisher
    from samoobsluha.shared.paths import data_dir

    lang = args.lang or publisher.pages_language(data_dir())
    db = _open(args)
    try:
        while True:
            try:
                code, text = _pass(db, lang)
            except publisher.PublishError as exc:
                code, text = 2, error_text(exc, lang)
            print(text, flush=True)
            if not args.watch or code == 2:
                return code
            time.sleep(args.every)
    except KeyboardInterrupt:
        return 0
    finally:
        db.close()


def _status(args: argparse.Namespace) -> int:
    from samoobsluha.hub import publisher
    from samoobsluha.shared.i18n import t

    db = _open(args)
    try:
        queued, sent = publisher.pending(db)
        target = publisher.setting(db, "target") or "—"
    finally:
        db.close()
    print(t("online.status", cli_language(), queued=queued, sent=sent, target=target))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from samoobsluha.hub import publisher
    from samoobsluha.shared.i18n import t

    key = bytes.fromhex(args.public_key) if args.public_key else None
    problems = publisher.verify_copy(Path(args.folder), key)
    for problem in problems:
        print(localize(problem, cli_language()))
    if not problems:
        print(t("online.verified", cli_language(), folder=args.folder))
    return 1 if problems else 0


def register(sub: argparse._SubParsersAction) -> None:
    online = sub.add_parser(
        "online",
        help="results online after the protest window: signed static pages, queued",
    )
    acts = online.add_subparsers(dest="online_command", required=True, metavar="ACTION")
    target = acts.add_parser(
        "target",
        help="where the pages go: a folder, an http(s) PUT URL, rsync://HOST/MODULE/PATH "
        "or HOST:PATH (rsync over SSH)",
    )
    target.add_argument("target", metavar="URL|FOLDER")
    target.add_argument(
        "--token-file",
        metavar="FILE",
        help="a bearer token for the PUTs, or the rsync daemon's password",
    )
    send = acts.add_parser(
        "send",
        help="render the rounds whose protest window closed and send what is queued",
    )
    send.add_argument("--watch", action="store_true", help="again every --every seconds")
    send.add_argument("--every", type=float, default=60.0, metavar="S")
    send.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        help="the pages' language (default: the hall screen's, [screen] lang of hub.toml)",
    )
    acts.add_parser("status", help="pages queued and sent")
    verify = acts.add_parser("verify", help="check a published copy: signature and SHA-256s")
    verify.add_argument("folder", metavar="FOLDER")
    verify.add_argument("--public-key", metavar="HEX", help="the hub's (hub key public)")
    for p in (target, send, acts.choices["status"]):
        p.add_argument("--db", metavar="FILE", help="hub database (default: DATA/hub.db)")
    target.set_defaults(func=_target)
    send.set_defaults(func=_send)
    acts.choices["status"].set_defaults(func=_status)
    verify.set_defaults(func=_verify)

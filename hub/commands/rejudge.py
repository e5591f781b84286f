"""``hub rejudge --lexicon NEW.lex``: every logged check of the event judged again with
another lexicon, and each verdict that would change (hub/rejudge.py). Exit 0 when none
would, 1 when some would, 2 when the lexicon cannot be read."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path


def _rejudge(args: argparse.Namespace) -> int:
    from samoobsluha.hub import store as sync_store
    from samoobsluha.hub.rejudge import rejudge
    from samoobsluha.shared.i18n import cli_language, error_text, t
    from samoobsluha.shared.lexicon import Lexicon, LexiconError
    from samoobsluha.shared.storage import open_db

    lang = cli_language()
    try:
        lexicon = Lexicon.open(args.lexicon)
    except (LexiconError, OSError) as exc:
        print(f"hub rejudge: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    db = open_db(Path(args.db) if args.db else sync_store.db_path(), sync_store.migrations)
    try:
        report = rejudge(db, lexicon, args.round)
    finally:
        db.close()
    if args.json:
        print(json.dumps([asdict(c) for c in report.changed], ensure_ascii=False, indent=1))
        return 1 if report.changed else 0
    info = lexicon.info
    print(
        t(
            "rejudge.head",
            lang,
            n=report.checks,
            variant=info.variant,
            language=info.language,
            sha256=info.sha256[:12],
        )
    )
    for c in report.changed:
        which = ""
        if c.now_failed:
            which = t("rejudge.now_failed", lang, words=" ".join(c.now_failed))
        elif c.now_known:
            which = t("rejudge.now_known", lang, words=" ".join(c.now_known))
        print(
            t(
                "rejudge.line",
                lang,
                round="—" if c.round_no is None else c.round_no,
                table=c.table_no,
                words=" ".join(c.words),
                old=t(f"verdict.{c.old}", lang),
                new=t(f"verdict.{c.new}", lang),
                station=c.station,
            )
            + (f" {which}" if which else "")
        )
    print(t("rejudge.summary", lang, n=len(report.changed)))
    return 1 if report.changed else 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rejudge",
        help="judge every logged check again with another lexicon; list verdicts that change",
        description=(
            "Judge every check the stations logged (and the referee's at the hub) again "
            "with LEXICON, the kiosk's way, and list each verdict that would change: "
            "round, table, words, old -> new and the words that make the difference. "
            "Nothing is changed. Exit 0: none would change; 1: some would."
        ),
    )
    p.add_argument("--lexicon", required=True, metavar="FILE", help="the other lexicon (.lex)")
    p.add_argument("--round", type=int, metavar="N", help="only the checks of round N")
    p.add_argument("--json", action="store_true", help="the changed checks as JSON")
    p.add_argument("--db", metavar="FILE", help="hub database (default: DATA/hub.db)")
    p.set_defaults(func=_rejudge)

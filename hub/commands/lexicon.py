"""``hub lexicon build`` and ``hub lexicon info``."""

from __future__ import annotations

import argparse
import sys
import time

from samoobsluha.shared.alphabet import ALPHABETS
from samoobsluha.shared.lexicon import (
    LexiconError,
    build_from_hunspell,
    build_from_wordlist,
    read_info,
)


def _lexicon_build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    build, source = (
        (build_from_hunspell, args.hunspell)
        if args.hunspell
        else (build_from_wordlist, args.wordlist)
    )
    try:
        info, report = build(
            source,
            args.output,
            language=args.lang,
            variant=args.variant,
            max_length=args.max_length,
            source=args.source,
        )
    except (LexiconError, FileNotFoundError, KeyError, ValueError) as exc:
        print(f"hub lexicon build: {exc}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line, file=sys.stderr)
    print(
        f"wrote {args.output}: {info.words} words, {info.language}/{info.variant}, "
        f"lengths {info.min_length}-{info.max_length}, sha256 {info.sha256} "
        f"({time.perf_counter() - started:.1f} s)"
    )
    return 0


def _lexicon_info(args: argparse.Namespace) -> int:
    try:
        info = read_info(args.file)
    except LexiconError as exc:
        print(f"hub lexicon info: {exc}", file=sys.stderr)
        return 2
    for key, value in info.as_dict().items():
        print(f"{key}: {value}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    lex = sub.add_parser("lexicon", help="build and inspect lexicon files")
    lex_sub = lex.add_subparsers(dest="lexicon_command", required=True, metavar="ACTION")

    build = lex_sub.add_parser(
        "build",
        help="build a lexicon from a word list or a hunspell dictionary",
        description="Build a lexicon file. Prints what was dropped and why.",
    )
    source = build.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--hunspell",
        metavar="PREFIX",
        help="hunspell dictionary prefix, e.g. /usr/share/hunspell/cs_CZ (expands every form)",
    )
    source.add_argument("--wordlist", metavar="FILE", help="UTF-8 word list, one word a line")
    build.add_argument("--lang", required=True, choices=sorted(ALPHABETS), help="language")
    build.add_argument("--variant", required=True, help="variant name, e.g. KLASIK or PLUS")
    build.add_argument("-o", "--output", required=True, metavar="OUT", help="lexicon file")
    build.add_argument(
        "--max-length",
        type=int,
        metavar="N",
        help="longest word length the list covers (default: the longest word; 15 for hunspell)",
    )
    build.add_argument("--source", help="source description stored in the header")
    build.set_defaults(func=_lexicon_build)

    info = lex_sub.add_parser("info", help="print a lexicon's header, one key: value a line")
    info.add_argument("file", metavar="FILE")
    info.set_defaults(func=_lexicon_info)

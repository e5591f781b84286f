"""``hub lexicon build``, ``sign``, ``info`` and ``diff``.

A lexicon the hub builds is signed with the hub's key (``<file>.sig`` beside it,
shared/lextrust.py) when this machine has the hub's ``tournament.key``; ``hub lexicon
sign FILE`` signs one built elsewhere (it creates the key if there is none yet, as
``hub key`` does). Stations judge only with a lexicon signed by the hub they pin."""

from __future__ import annotations

import argparse
import sys
import time

from samoobsluha.shared.alphabet import ALPHABETS
from samoobsluha.shared.i18n import cli_language, error_text
from samoobsluha.shared.lexicon import (
    BuildReport,
    Drop,
    LexiconError,
    LexiconInfo,
    build_from_hunspell,
    build_from_wordlist,
    read_info,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from samoobsluha.shared.protocol import HallKeys


def _lexicon_build(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import cli_language, t

    lang = cli_language()
    started = time.perf_counter()
    build, source = (
        (build_from_hunspell, args.hunspell)
        if args.hunspell
        else (build_from_wordlist, args.wordlist)
    )
    # a hunspell dictionary is one lexicon, named as the default lexicons are (HUNSPELL);
    # a word list is one variant among several (KLASIK, PLUS): it must say which
    variant = args.variant or ("HUNSPELL" if args.hunspell else None)
    if variant is None:
        args.build_parser.error("the following arguments are required: --variant")
        return 2  # error() exits; its signature does not say so
    try:
        info, report = build(
            source,
            args.output,
            language=args.lang,
            variant=variant,
            max_length=args.max_length,
            source=args.source,
        )
    except (LexiconError, OSError, KeyError, ValueError) as exc:
        print(f"hub lexicon build: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    for line in report_lines(report, lang):
        print(line, file=sys.stderr)
    print(
        t(
            "lexbuild.wrote",
            lang,
            path=args.output,
            n=info.words,
            language=info.language,
            variant=info.variant,
            shortest=info.min_length,
            longest=info.max_length,
            sha256=info.sha256,
            seconds=round(time.perf_counter() - started, 1),
        )
    )
    if not args.no_sign:
        _sign_built(args.output, info)
    return 0


def _sign_built(path: str, info: LexiconInfo) -> None:
    from samoobsluha.hub import store
    from samoobsluha.shared.i18n import cli_language, t
    from samoobsluha.shared.lextrust import sign_lexicon
    from samoobsluha.shared.protocol import HallKeys, parse_psk

    key = store.key_path()
    if not key.exists():
        print(t("lexicon.not_signed", cli_language(), key=str(key), path=path), file=sys.stderr)
        return
    keys = HallKeys(parse_psk(key.read_text()))
    _say_signed(sign_lexicon(path, keys, info=info), keys)


def _say_signed(signature: str, keys: HallKeys) -> None:
    from samoobsluha.shared.i18n import cli_language, t

    print(t("lexicon.signed", cli_language(), path=signature, key=keys.public_key.hex()))


def _lexicon_sign(args: argparse.Namespace) -> int:
    from samoobsluha.hub import store
    from samoobsluha.shared.lexicon import Lexicon
    from samoobsluha.shared.lextrust import sign_lexicon
    from samoobsluha.shared.protocol import HallKeys

    try:
        info = Lexicon.open(args.file).info  # its content checked: the hub vouches for it
    except (LexiconError, OSError) as exc:
        print(f"hub lexicon sign: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    secret, _ = store.ensure_key(store.key_path())
    keys = HallKeys(secret)
    _say_signed(sign_lexicon(args.file, keys, info=info), keys)
    return 0


def report_lines(report: BuildReport, lang: str) -> list[str]:
    """What a build kept and dropped (``BuildReport``), in ``lang``: the count kept, then
    each reason with its count and a few examples."""
    from samoobsluha.shared.i18n import t

    out = [t("lexbuild.kept", lang, n=report.kept)]
    for reason, count in report.dropped.most_common():
        why = t("lexbuild.drop." + Drop(reason).name.lower(), lang)
        sample = ", ".join(report.examples.get(reason, []))
        out.append(t("lexbuild.dropped", lang, n=count, reason=why, sample=sample))
    return out


def _lexicon_info(args: argparse.Namespace) -> int:
    try:
        info = read_info(args.file)
    except LexiconError as exc:
        print(f"hub lexicon info: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    for key, value in info.as_dict().items():
        print(f"{key}: {value}")
    return 0


def _lexicon_diff(args: argparse.Namespace) -> int:
    import json

    from samoobsluha.hub.rejudge import diff
    from samoobsluha.shared.i18n import cli_language, t
    from samoobsluha.shared.lexicon import Lexicon

    lang = cli_language()
    try:
        a, b = Lexicon.open(args.a), Lexicon.open(args.b)
    except (LexiconError, OSError) as exc:
        print(f"hub lexicon diff: {error_text(exc, cli_language())}", file=sys.stderr)
        return 2
    if a.info.language != b.info.language:
        print(
            "hub lexicon diff: "
            + t("lexdiff.languages", lang, a=a.info.language, b=b.info.language),
            file=sys.stderr,
        )
        return 2
    found = diff(a, b, args.sample)
    if args.json:
        print(json.dumps(found.__dict__, ensure_ascii=False, indent=1))
        return 0
    for name, info in (("A", a.info), ("B", b.info)):
        print(
            t(
                "lexdiff.file",
                lang,
                name=name,
                variant=info.variant,
                n=info.words,
                sha256=info.sha256[:12],
            )
        )
    print(t("lexdiff.added", lang, n=found.added))
    if found.added_sample:
        print("  " + " ".join(found.added_sample))
    print(t("lexdiff.removed", lang, n=found.removed))
    if found.removed_sample:
        print("  " + " ".join(found.removed_sample))
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
    build.add_argument(
        "--variant", help="variant name, e.g. KLASIK or PLUS (default with --hunspell: HUNSPELL)"
    )
    build.add_argument("-o", "--output", required=True, metavar="OUT", help="lexicon file")
    build.add_argument(
        "--max-length",
        type=int,
        metavar="N",
        help="longest word length the list covers (default: the longest word; 15 for hunspell)",
    )
    build.add_argument("--source", help="source description stored in the header")
    build.add_argument(
        "--no-sign",
        action="store_true",
        help="do not sign it with the hub's key (stations refuse an unsigned lexicon)",
    )
    build.set_defaults(func=_lexicon_build, build_parser=build)

    sign = lex_sub.add_parser(
        "sign",
        help="sign a lexicon with the hub's key (FILE.sig beside it): stations judge with it",
    )
    sign.add_argument("file", metavar="FILE")
    sign.set_defaults(func=_lexicon_sign)

    info = lex_sub.add_parser("info", help="print a lexicon's header, one key: value a line")
    info.add_argument("file", metavar="FILE")
    info.set_defaults(func=_lexicon_info)

    cmp = lex_sub.add_parser(
        "diff",
        help="the forms lexicon B adds to lexicon A and removes from it (counts, a sample)",
    )
    cmp.add_argument("a", metavar="A.lex")
    cmp.add_argument("b", metavar="B.lex")
    cmp.add_argument(
        "--sample", type=int, default=20, metavar="N", help="forms listed of each (default 20)"
    )
    cmp.add_argument("--json", action="store_true", help="counts and samples as JSON")
    cmp.set_defaults(func=_lexicon_diff)

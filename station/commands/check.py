"""``station check``: judge words from the command line or stdin, as the kiosk does."""

from __future__ import annotations

import argparse
import sys

from samoobsluha.station.commands import LANGUAGES

TYPE_CHECKING = False  # not `typing`'s: `station --help` builds this parser too
if TYPE_CHECKING:  # imported when judging
    from collections.abc import Sequence
    from pathlib import Path

    from samoobsluha.shared.lexicon import Lexicon

EXIT_VALID, EXIT_INVALID, EXIT_REFUSED = 0, 1, 2


class _Refused(Exception):
    """The station's configuration cannot be read: said on stderr, exit 2."""


def _station_lexicon(lang: str) -> Path:
    """The station's own lexicon (station.toml's [station] lexicon) on a machine with a
    station config — on a provisioned station the carried file, not cs.lex — else the
    default one, built from the system hunspell if need be. Only without ``--lexicon``:
    reading the configuration costs the start-up its TOML parser and pathlib."""
    from samoobsluha.shared.lexicon import ensure_default_lexicon
    from samoobsluha.station import config as station_config

    try:
        configured = (
            station_config.load().lexicon if station_config.config_path() is not None else None
        )
    except station_config.ConfigError as exc:
        raise _Refused(exc) from exc
    return configured or ensure_default_lexicon(lang, log=lambda msg: print(msg, file=sys.stderr))


def _check(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import cli_language, error_text, reason, t
    from samoobsluha.shared.lexicon import LexiconError
    from samoobsluha.station.lexicons import open_lexicon

    ui = args.ui or cli_language()
    try:
        # trusted when its verification stamp matches: no 6 MB hash on every start
        lexicon = open_lexicon(args.lexicon or _station_lexicon(args.lang))
    except _Refused as exc:
        print(f"station check: {error_text(exc.args[0], ui)}", file=sys.stderr)
        return EXIT_REFUSED
    except LexiconError as exc:
        print(t("lexicon.unusable", ui, error=reason(exc)), file=sys.stderr)
        return EXIT_REFUSED
    if not args.words:
        return _interactive(lexicon, ui)
    return _judge_and_print(lexicon, args.words, ui)


def _interactive(lexicon: Lexicon, ui: str) -> int:
    """Read one play a line (words separated by spaces) until end of input."""
    prompt = {"cs": "slova> ", "sk": "slová> ", "en": "words> ", "pl": "słowa> "}[ui]
    tty = sys.stdin.isatty()
    info = lexicon.info
    from samoobsluha.shared.i18n import t

    print(
        t("cli.check.lexicon", ui, language=info.language, variant=info.variant,
          words=info.words, sha=info.sha256[:16])
    )  # fmt: skip
    while True:
        try:
            line = input(prompt) if tty else sys.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        if not tty and not line:
            return 0
        from samoobsluha.shared.normalize import split_words

        raw = split_words(line)
        if raw:
            _judge_and_print(lexicon, raw, ui)


def _judge_and_print(lexicon: Lexicon, raw_words: Sequence[str], ui: str) -> int:
    from samoobsluha.shared.i18n import refusal, t
    from samoobsluha.shared.lexicon import Status
    from samoobsluha.shared.normalize import WordRefused, normalize_word

    try:
        words = [normalize_word(raw, lexicon.alphabet) for raw in raw_words]
    except WordRefused as exc:
        print(refusal(exc, ui), file=sys.stderr)
        return EXIT_REFUSED
    verdict = lexicon.judge(words)
    shown = " ".join(w.face for w in words)
    variant = lexicon.info.variant
    if verdict.status is Status.REFEREE:
        print(f"{shown}: {t('verdict.referee', ui)} ({variant})")
        print(t("verdict.referee_long", ui, max=lexicon.info.max_length))
        return EXIT_REFUSED
    key = "verdict.valid" if verdict.valid else "verdict.invalid"
    print(f"{shown}: {t(key, ui)} ({variant})")
    return EXIT_VALID if verdict.valid else EXIT_INVALID


def register(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser(
        "check",
        help="judge the words of one play: exit 0 valid, 1 not valid, 2 refused input",
        description=(
            "Judge the words of one play against the lexicon, as the kiosk does. One verdict "
            "for the whole play. Exit status: 0 valid, 1 not valid, 2 refused input, a word "
            "longer than the lexicon covers, or an unusable lexicon. SIT notation works: "
            "c+a-p = čáp."
        ),
    )
    check.add_argument(
        "words", nargs="*", metavar="WORD", help="words of one play; none: read plays from stdin"
    )
    check.add_argument(
        "--lexicon",
        metavar="FILE",
        help="lexicon file (default: station.toml's, else the built-in Czech)",
    )
    check.add_argument(
        "--lang", default="cs", choices=("cs", "sk", "pl"), help="language of the default lexicon"
    )
    # the answer's language: by default the operator's (SAMOOBSLUHA_LANG, the locale, cs)
    check.add_argument("--ui", choices=LANGUAGES, help="language of the answer")
    check.set_defaults(func=_check)

"""The command-line frame both ``station`` and ``hub`` use: subcommand groups come from
modules that each provide ``register(subparsers)``, so a feature adds its commands in
its own module.

With ``commands`` (command name → the module that registers it) only the module of the
command being run is imported: ``station check`` on a Raspberry Pi must not pay for
importing the kiosk, SQLite helpers and GPIO just to build a parser. ``--help``, an
unknown command or no command at all register every module, so the listing is complete."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable, Mapping, Sequence

TYPE_CHECKING = False  # not `typing`'s: --help imports nothing argparse does not
if TYPE_CHECKING:
    from typing import Any


class _Formatter(argparse.HelpFormatter):
    """argparse's formatter without ``import shutil`` (and bz2, lzma with it) on every
    start just to size help text that is rarely printed: the width is the terminal's,
    as shutil.get_terminal_size would find it."""

    def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("width") is None and len(args) < 2:
            kwargs["width"] = _columns() - 2  # what HelpFormatter does with shutil's
        super().__init__(prog, *args, **kwargs)


# argparse's own error messages (English, from its source: it has no catalogue here), each
# turned into a catalogue key with the parts it names; "argument X: …" wraps another one.
_ARGPARSE_ERRORS = (
    (r"argument (?P<arg>.+?): (?P<message>.+)", "cli.arg.argument"),
    (r"invalid int value: (?P<value>.+)", "cli.arg.invalid_int"),
    (r"invalid float value: (?P<value>.+)", "cli.arg.invalid_float"),
    (r"invalid \S+ value: (?P<value>.+)", "cli.arg.invalid_value"),
    (r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)", "cli.arg.invalid_choice"),
    (r"the following arguments are required: (?P<args>.+)", "cli.arg.required"),
    (r"unrecognized arguments: (?P<args>.+)", "cli.arg.unrecognized"),
    (r"expected one argument", "cli.arg.expected_one"),
    (r"expected at least one argument", "cli.arg.expected_some"),
    (r"expected at most one argument", "cli.arg.expected_at_most_one"),
    (r"one of the arguments (?P<args>.+) is required", "cli.arg.one_of"),
    (r"not allowed with argument (?P<arg>.+)", "cli.arg.not_allowed_with"),
    (r"ambiguous option: (?P<option>.+?) could match (?P<matches>.+)", "cli.arg.ambiguous"),
)


def argparse_message(message: str, lang: str) -> str:
    """One of argparse's own error messages in ``lang`` (as it is when not one we know)."""
    import re

    from samoobsluha.shared.i18n import t

    for pattern, key in _ARGPARSE_ERRORS:
        m = re.fullmatch(pattern, message, re.DOTALL)
        if m is None:
            continue
        values = m.groupdict()
        if "message" in values:
            values["message"] = argparse_message(values["message"], lang)
        return t(key, lang, **values)
    return message


class _SubParser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> Any:  # argparse's signature says NoReturn
        """argparse's refusal in the operator's language: the usage line, the reason, and
        where the command's help is (exit status 2, as argparse's)."""
        from samoobsluha.shared.i18n import cli_language, t

        lang = cli_language()
        usage = self.format_usage()
        if usage.startswith("usage: "):
            usage = t("cli.arg.usage", lang) + " " + usage.removeprefix("usage: ")
        sys.stderr.write(usage)
        text = t("cli.arg.error", lang, prog=self.prog, message=argparse_message(message, lang))
        hint = t("cli.arg.help", lang, prog=self.prog)
        self.exit(2, f"{text}\n{hint}\n")


def options_parser() -> argparse.ArgumentParser:
    """A parser of options several subcommands share (``parents=[...]``), with the same
    formatter: argparse's own would import shutil at its first ``add_argument``."""
    return argparse.ArgumentParser(add_help=False, formatter_class=_Formatter)


def _columns() -> int:
    import os
    import sys

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def build_parser(
    prog: str,
    description: str,
    modules: Iterable[str],
    *,
    commands: Mapping[str, str] | None = None,
    argv: Sequence[str] | None = None,
) -> argparse.ArgumentParser:
    parser = _SubParser(prog=prog, description=description, formatter_class=_Formatter)
    sub = parser.add_subparsers(
        dest="command",
        required=True,
        metavar="COMMAND",
        parser_class=_SubParser,  # each add_argument sizes help text too
    )
    chosen = _chosen_module(commands, argv)
    for name in [chosen] if chosen else modules:
        importlib.import_module(name).register(sub)
    return parser


def _chosen_module(commands: Mapping[str, str] | None, argv: Sequence[str] | None) -> str:
    """The one module needed for ``argv``, or "" when every module is (help, errors)."""
    if commands is None or argv is None:
        return ""
    for arg in argv:
        if arg.startswith("-"):
            return ""  # an option before the command: -h, or a typo argparse reports
        return commands.get(arg, "")
    return ""


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    args = parser.parse_args(argv)
    try:
        code = int(args.func(args))
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader stopped (``hub challenges | head``): not our error, and no traceback;
        # what is left unflushed goes nowhere, and the status is the shell's for SIGPIPE
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13
    return code

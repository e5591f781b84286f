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
    as shutil.get_terminal_size would find it. Its "usage:" is the operator's language's."""

    def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("width") is None and len(args) < 2:
            kwargs["width"] = _columns() - 2  # what HelpFormatter does with shutil's
        super().__init__(prog, *args, **kwargs)

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: Any = None) -> None:
        if prefix is None:
            from samoobsluha.shared.i18n import cli_language, t

            prefix = t("cli.arg.usage", cli_language()) + " "
        super().add_usage(usage, actions, groups, prefix)


class Text(str):
    """A help text or description with ``{name}`` values filled in at run time (a path):
    the catalogue's key is made from the template, so every machine finds the same one."""

    template: str
    values: dict[str, str]

    def __new__(cls, template: str, /, **values: Any) -> Text:
        made = super().__new__(cls, template.format(**values))
        made.template = template
        made.values = {k: str(v) for k, v in values.items()}
        return made


def help_key(text: str) -> str:
    """The catalogue key of an English help text, description or metavar:
    ``cli.help.`` and the first 10 hex digits of its SHA-1 (``cli.metavar.FILE`` for a
    metavar). A changed English text is a new key, as a changed msgid is in gettext."""
    import hashlib

    template = text.template if isinstance(text, Text) else text
    return "cli.help." + hashlib.sha1(template.encode("utf-8")).hexdigest()[:10]


def help_texts(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """Every (key, English text) ``localise`` looks up in ``parser`` and its subcommands:
    descriptions, help texts, metavars (a positional's name) — what the catalogues must
    hold."""
    out: dict[str, str] = {}
    for action_or_parser in _walk(parser):
        if isinstance(action_or_parser, argparse.ArgumentParser):
            texts = [action_or_parser.description] + [
                g.title for g in _own_groups(action_or_parser)
            ]
            for text in texts:
                if text:
                    out[help_key(text)] = _template(text)
            continue
        action = action_or_parser
        if isinstance(action, argparse._HelpAction):
            continue  # cli.arg.show_help
        if action.help and action.help != argparse.SUPPRESS:
            out[help_key(action.help)] = _template(action.help)
        name = _metavar_name(action)
        if name:
            out["cli.metavar." + name] = name
    return list(out.items())


def _own_groups(parser: argparse.ArgumentParser) -> list[Any]:
    """A parser's argument groups other than argparse's two (positionals, options)."""
    return [g for g in parser._action_groups if g not in (parser._positionals, parser._optionals)]


def _template(text: str) -> str:
    return text.template if isinstance(text, Text) else text


def _metavar_name(action: argparse.Action) -> str:
    """The name argparse shows for ``action``'s value (``FILE``; a positional's dest), or
    "" when it shows none, a choice list or a pseudo-action (a subcommand's name)."""
    if isinstance(action, argparse._SubParsersAction._ChoicesPseudoAction):
        return ""
    if isinstance(action, argparse._SubParsersAction):
        return str(action.metavar or "")
    if action.nargs == 0 or isinstance(action, argparse._HelpAction):
        return ""
    if isinstance(action.metavar, str):
        return action.metavar
    if action.metavar is not None or action.choices is not None:
        return ""
    return action.dest if not action.option_strings else action.dest.upper()


def _walk(parser: argparse.ArgumentParser) -> Any:
    """``parser``, its actions, and every subcommand's parser and actions."""
    yield parser
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            yield from action._choices_actions
            for sub in dict.fromkeys(action.choices.values()):
                yield from _walk(sub)


def localise(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put ``parser``'s help texts, descriptions, metavars, section titles and its ``-h``
    line (and its subcommands') into ``lang``, from the catalogues (``cli.help.*`` by
    :func:`help_key`, ``cli.metavar.*``); a text the catalogue lacks stays English. The
    English originals are kept, so it may run again in another language."""
    from samoobsluha.shared.i18n import catalogue, t

    found = catalogue(lang)

    def text(original: str) -> str:
        got = found.get(help_key(original))
        if not isinstance(got, str) or not got:
            return str(original)
        return got.format(**original.values) if isinstance(original, Text) else got

    for item in _walk(parser):
        if isinstance(item, argparse.ArgumentParser):
            english = item.__dict__.setdefault("_samoobsluha_en", {})
            if item.description:
                english.setdefault("description", item.description)
                item.description = text(english["description"])
            item._positionals.title = t("cli.arg.positionals", lang)
            item._optionals.title = t("cli.arg.options", lang)
            for group in _own_groups(item):
                titles = group.__dict__.setdefault("_samoobsluha_en", group.title)
                group.title = text(titles) if titles else titles
            continue
        action = item
        english = action.__dict__.setdefault("_samoobsluha_en", {})
        if isinstance(action, argparse._HelpAction):
            action.help = t("cli.arg.show_help", lang)
            continue
        if action.help and action.help != argparse.SUPPRESS:
            english.setdefault("help", action.help)
            action.help = text(english["help"])
        english.setdefault("name", argparse._get_action_name(action))  # what errors name
        name = english.setdefault("metavar", _metavar_name(action))
        if name:
            shown = found.get("cli.metavar." + name)
            if isinstance(shown, str) and shown:
                action.metavar = shown


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


def argparse_message(message: str, lang: str, names: Mapping[str, str] | None = None) -> str:
    """One of argparse's own error messages in ``lang`` (as it is when not one we know).
    ``names`` maps the names argparse gives arguments (a positional's dest, ``ACTION``)
    to the ones the localised usage line shows (``číslo``, ``AKCE``)."""
    import re

    from samoobsluha.shared.i18n import t

    names = names or {}

    for pattern, key in _ARGPARSE_ERRORS:
        m = re.fullmatch(pattern, message, re.DOTALL)
        if m is None:
            continue
        values = m.groupdict()
        if "message" in values:
            values["message"] = argparse_message(values["message"], lang, names)
        if "arg" in values:
            values["arg"] = names.get(values["arg"], values["arg"])
        if key == "cli.arg.required":
            values["args"] = ", ".join(names.get(a, a) for a in values["args"].split(", "))
        return t(key, lang, **values)
    return message


class _SubParser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        """``--help`` in the operator's language (:func:`localise`)."""
        from samoobsluha.shared.i18n import cli_language

        localise(self, cli_language())
        return super().format_help()

    def format_usage(self) -> str:
        from samoobsluha.shared.i18n import cli_language

        localise(self, cli_language())
        return super().format_usage()

    def error(self, message: str) -> Any:  # argparse's signature says NoReturn
        """argparse's refusal in the operator's language: the usage line, the reason, and
        where the command's help is (exit status 2, as argparse's)."""
        from samoobsluha.shared.i18n import cli_language, t

        lang = cli_language()
        usage = self.format_usage()  # localises self: its arguments' names are lang's now
        if usage.startswith("usage: "):
            usage = t("cli.arg.usage", lang) + " " + usage.removeprefix("usage: ")
        sys.stderr.write(usage)
        shown = {
            english["name"]: _usage_name(action)
            for action in self._actions
            if (english := action.__dict__.get("_samoobsluha_en", {})).get("name")
        }
        said = argparse_message(message, lang, shown)
        text = t("cli.arg.error", lang, prog=self.prog, message=said)
        hint = t("cli.arg.help", lang, prog=self.prog)
        self.exit(2, f"{text}\n{hint}\n")


def _usage_name(action: argparse.Action) -> str:
    """``action`` named as the usage line shows it: its (localised) metavar, a choice
    list ``{keep,take}`` for a positional that has only choices, an option's flags."""
    if not action.option_strings and action.metavar is None and action.choices is not None:
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return argparse._get_action_name(action) or ""


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

"""The station's commands, one module each (see station/cli.py).

``station --help`` builds every command's parser, so a command module imports nothing
at its top but argparse and sys: the catalogue, the config, the round model, the kiosk
and GPIO are imported by the functions that run a command (tests/shared/
test_lazy_imports.py checks it). Choices a parser needs are spelled out here; a test
checks they agree with their sources."""

#: The user-interface languages (``shared.i18n.LANGUAGES``).
LANGUAGES = ("cs", "sk", "en", "pl")
#: The round signals (``shared.rounds.Signal`` values).
SIGNAL_NAMES = ("start", "warning", "end")

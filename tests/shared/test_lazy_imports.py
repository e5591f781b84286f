"""`station check` and `station --help` must start fast on a Raspberry Pi: they import
nothing they do not use (the kiosk, SQLite helpers, GPIO). Checked in a fresh
interpreter through sys.modules, so the test cannot pass by accident of what another
test imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from samoobsluha.shared.lexicon import write_lexicon

HEAVY = ("textual", "sqlite_utils", "gpiozero", "click", "dateutil", "zeroconf", "msgpack")

PROBE = """
import contextlib, io, json, sys
from samoobsluha.station.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def _run(*argv: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def _heavy(modules: list[str]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & set(HEAVY))


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lex") / "cs.lex"
    write_lexicon(["kůň", "čáp"], path, language="cs", variant="TEST", source="tests")
    return path


def test_station_check_imports_only_what_judging_needs(lexicon: Path):
    result = _run("check", "--lexicon", str(lexicon), "kůň")
    assert result["code"] == 0 and "PLATNÉ" in result["out"]
    assert _heavy(result["modules"]) == []
    # Not even the other commands' modules, nor the kiosk's.
    station = [m for m in result["modules"] if m.startswith("samoobsluha.station")]
    assert "samoobsluha.station.commands.run" not in station
    assert not [m for m in station if m.startswith("samoobsluha.station.screens")]


def test_station_help_lists_every_command_without_importing_them():
    result = _run("--help")
    assert result["code"] == 0
    for command in ("check", "run", "linked", "pin", "gong", "round", "daemon", "simulate"):
        assert command in result["out"]
    assert _heavy(result["modules"]) == []
    # argparse's own formatter imports shutil (bz2, lzma) to size help text: every
    # parser, the shared options' too, uses shared.cli's
    assert "shutil" not in result["modules"]


BARE_ARGPARSE = """
import argparse, contextlib, io, json, sys
parser = argparse.ArgumentParser(prog="station")
sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
sub.add_parser("check", help="judge").add_argument("--ui", choices=("cs", "sk"))
with contextlib.redirect_stdout(io.StringIO()):
    try:
        parser.parse_args(["--help"])
    except SystemExit:
        pass
print(json.dumps({"modules": sorted(sys.modules)}))
"""


def test_station_help_imports_only_argparse_and_the_command_modules():
    """Beyond what argparse itself needs to print a help (measured in the same
    interpreter, so the test holds on any Python version), ``station --help`` imports
    only the command modules and the catalogue's reader (the help is in the operator's
    language: ``shared.i18n`` with ``struct`` for the ``.mo`` file and ``hashlib`` for the
    help texts' keys): not the config (dataclasses, inspect, socket), the round model, nor
    even ``typing``."""
    bare = subprocess.run(
        [sys.executable, "-c", BARE_ARGPARSE], capture_output=True, text=True, check=True
    )
    baseline = set(json.loads(bare.stdout.splitlines()[-1])["modules"])
    result = _run("--help")
    extra = set(result["modules"]) - baseline
    ours = {m for m in extra if m.startswith("samoobsluha")}
    allowed = {
        "samoobsluha",
        "samoobsluha.shared",
        "samoobsluha.shared.cli",
        "samoobsluha.station",
        "samoobsluha.station.cli",
        "samoobsluha.station.commands",
        "samoobsluha.shared.countdown",  # station round status's one format: no imports
        "samoobsluha.shared.i18n",  # the help's language (shared.cli.localise)
    }
    assert {m for m in ours if not m.startswith("samoobsluha.station.commands.")} <= allowed
    # collections.abc: a re-export of the already loaded _collections_abc; math: the
    # countdown's (a small C module)
    catalogue = {"struct", "_struct", "hashlib", "_hashlib", "_blake2"}
    assert extra - ours <= {"collections.abc", "math", *catalogue}, "beyond argparse's"


def test_parser_choices_agree_with_their_sources():
    from samoobsluha.shared.i18n import LANGUAGES
    from samoobsluha.shared.rounds import Signal
    from samoobsluha.station import commands

    assert commands.LANGUAGES == LANGUAGES
    assert tuple(s.value for s in Signal) == commands.SIGNAL_NAMES


def test_a_chosen_command_is_parsed_by_its_own_module_only():
    result = _run("round", "--help")
    assert result["code"] == 0 and "start" in result["out"]
    assert "samoobsluha.station.commands.check" not in result["modules"]
    assert "samoobsluha.station.commands.run" not in result["modules"]


def test_the_kiosk_process_keeps_array_libraries_out(tmp_path: Path):
    """`station run` keeps numpy and pandas (imported by sqlite-utils when installed, as
    in this venv) out of the kiosk's process; its database still opens and writes."""
    probe = (
        "import json, sys\n"
        "from samoobsluha.station.commands.run import _without_array_libraries\n"
        "_without_array_libraries()\n"
        "from samoobsluha.station.log import KioskStore\n"
        f"store = KioskStore.open({str(tmp_path / 'k.db')!r}, 'test')\n"
        "store.close()\n"
        "print(json.dumps([sys.modules.get(m) is not None for m in ('numpy', 'pandas')]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [False, False]


def test_the_kiosk_process_defers_what_sqlite_utils_imports_for_its_recipes(tmp_path: Path):
    """`station run` makes sqlite-utils' ``recipes`` (and so dateutil) load at first use:
    after its store is open and has written, dateutil is not in the process, and the
    recipes still work when something asks for them (they load then)."""
    probe = (
        "import json, sys\n"
        "from samoobsluha.station.commands.run import _without_array_libraries\n"
        "from samoobsluha.station.startup import defer_unused_imports\n"
        "_without_array_libraries()\n"
        "defer_unused_imports()\n"
        "from samoobsluha.station.log import KioskStore\n"
        f"store = KioskStore.open({str(tmp_path / 'k.db')!r}, 'test')\n"
        "store.set_referee_pin(None, 1.0)\n"
        "store.close()\n"
        "before = 'dateutil' in sys.modules\n"
        "import sqlite_utils.recipes as r\n"
        "print(json.dumps([before, r.parsedate('3. 12. 2026', dayfirst=True),\n"
        "                  'dateutil' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [False, "2026-12-03", True]

"""The distribution installs one import name, ``samoobsluha``: the folders station/, hub/ and
shared/ at the top of the repository become samoobsluha.station, samoobsluha.hub and
samoobsluha.shared (``hub`` and ``shared`` are other projects' names on PyPI)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
FOLDERS = ("station", "hub", "shared")


def test_every_package_folder_is_listed_under_samoobsluha() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    on_disk = {
        "samoobsluha." + ".".join(init.parent.relative_to(REPO).parts)
        for folder in FOLDERS
        for init in (REPO / folder).rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert set(setuptools["packages"]) == on_disk
    assert setuptools["package-dir"] == {f"samoobsluha.{f}": f for f in FOLDERS}


def test_console_scripts_point_into_samoobsluha() -> None:
    scripts = PYPROJECT["project"]["scripts"]
    assert scripts == {
        "station": "samoobsluha.station.cli:main",
        "hub": "samoobsluha.hub.cli:main",
    }


STALE = REPO / "build" / "lib" / "samoobsluha" / "hub" / "stale_module_removed_long_ago.py"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel the cards install, built from this tree as ``pip`` builds it — in the
    checkout's build/, where an earlier build left a module the sources no longer have."""
    STALE.parent.mkdir(parents=True, exist_ok=True)
    STALE.write_text("raise SystemExit('a stale build file travelled')\n")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("samoobsluha-*.whl")
    return built


def test_the_built_wheel_owns_no_other_top_level_name(wheel: Path) -> None:
    """What ``pip show -f samoobsluha`` lists: only samoobsluha/ and the dist-info."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    tops = {name.split("/")[0] for name in names}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"samoobsluha"}
    top_level = [n for n in names if n.endswith("top_level.txt")]
    if top_level:
        with zipfile.ZipFile(wheel) as zf:
            assert zf.read(top_level[0]).decode().split() == ["samoobsluha"]
    # only what the sources hold: nothing an earlier build left in build/
    assert not [n for n in names if STALE.name in n]
    # the provisioning payload and the stylesheets travel inside the package
    assert "samoobsluha/hub/provision/payload/install.sh" in names
    assert "samoobsluha/station/app.tcss" in names


def test_the_wheel_carries_compiled_catalogues_only(wheel: Path) -> None:
    """An installed copy reads ``.mo`` files and has no ``.po`` to compare them with: an
    unpacker that writes a ``.po`` a few milliseconds after its ``.mo`` must not make
    every command parse the ``.po`` with Babel (~30 ms of each start)."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    locale = "samoobsluha/shared/locale/{}/LC_MESSAGES/samoobsluha.{}"
    for lang in ("cs", "sk", "en", "pl"):
        assert locale.format(lang, "mo") in names
    assert not [n for n in names if n.endswith(".po")]


# What `station check` may not import: each is milliseconds of every start on a Pi, and
# none is needed to judge a word (dataclasses brings inspect, ast, dis and tokenize).
NOT_AT_START = (
    "dataclasses",  # inspect, ast, dis, tokenize: ~8 ms
    "typing",
    "pathlib",  # urllib.parse, ipaddress: ~3 ms
    "contextlib",
    "threading",
    "asyncio",
    "sqlite3",
    "babel",
    "textual",
    "logging",
    "socket",
    "hashlib",
    "tomllib",
)


def test_station_check_starts_without_the_heavy_imports(wheel: Path, tmp_path: Path) -> None:
    """The installed package (the wheel unpacked, as on a card) judging a word imports
    none of NOT_AT_START; bench/startup.py measures what that buys."""
    from samoobsluha.shared.lexicon import write_lexicon

    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    lexicon = tmp_path / "tiny.lex"
    write_lexicon(["kůň", "pes"], lexicon, language="cs", variant="TINY", source="test")
    code = (
        "import sys\n"
        "from samoobsluha.station.cli import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "import samoobsluha\n"
        "print(samoobsluha.__path__[0], file=sys.stderr)\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    # -S: no site hook (this venv's editable install imports pathlib there); the unpacked
    # wheel first on the path, then this venv's packages (marisa-trie)
    import sysconfig

    libs = os.pathsep.join([str(site), sysconfig.get_paths()["platlib"]])
    env = dict(os.environ, PYTHONPATH=libs, SAMOOBSLUHA_DATA=str(tmp_path / "data"))
    env.pop("SAMOOBSLUHA_CONFIG", None)
    for _ in range(2):  # the first run verifies the file and stamps it; the second trusts it
        done = subprocess.run(
            [sys.executable, "-S", "-c", code, "check", "--lexicon", str(lexicon), "kůň"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert "PLATN" in done.stdout, done.stdout + done.stderr
    where, modules = done.stderr.strip().splitlines()[-2:]
    assert Path(where).is_relative_to(site), where  # the unpacked wheel, not this tree
    loaded = set(modules.split())
    assert "samoobsluha.shared.lexicon" in loaded
    # what this interpreter imports before any command
    bare = subprocess.run(
        [sys.executable, "-S", "-c", "import sys; print(' '.join(sys.modules))"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    heavy = sorted(m for m in loaded - set(bare) if m.split(".")[0] in NOT_AT_START)
    assert not heavy, heavy

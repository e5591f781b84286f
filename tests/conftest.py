"""Fixtures every area can use.

``cs_lexicon_path`` is the real Czech lexicon, expanded from Debian's hunspell-cs (which
``./dev test`` installs); ``pl_lexicon_path`` the Polish one from hunspell-pl. Building
either takes about a minute, so each is built once (by the product's first-use path,
``ensure_default_lexicon``) and kept under ``.cache/`` keyed by the dictionary's size and
mtime and the building code; CI builds them once per run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from samoobsluha.shared.lexicon import build_from_wordlist, ensure_default_lexicon
from samoobsluha.shared.paths import hunspell_prefix

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "lexicons"

SMALL_CZECH_WORDS = """
kůň koně koni koněm čáp čápa ryba ryby rybník strom stromy les lesy dům domy
pes psa kočka kočky voda vody slovo slova hra hry deska desky kámen kameny
ach ahoj žolík žolíky recie
"""


def pytest_configure(config: pytest.Config) -> None:
    # Nothing a test does may touch the real ~/.local/share/samoobsluha.
    os.environ.setdefault("SAMOOBSLUHA_DATA", str(REPO / ".cache" / "test-data-unset"))
    # the hub's seat file (hub/seat.py) never in the tester's home: hubs started in a test
    # share this one seat unless the test gives each its own (tests/net/net_procs.py)
    os.environ.setdefault("SAMOOBSLUHA_SEAT_FILE", str(REPO / ".cache" / "test-seat"))
    # Command-line messages follow SAMOOBSLUHA_LANG, else the locale (LANG=en_US.UTF-8 would
    # make them English): the suite checks them in the product's default, Czech.
    os.environ["SAMOOBSLUHA_LANG"] = "cs"


# The files that take minutes, started first: with the suite on two workers (./dev test) a
# long file begun last keeps one worker busy alone at the end (the dry run alone: ~3 min).
LONG_FIRST = (
    "tests/provisioning/test_provision_dryrun.py",
    "tests/hall/test_hallday_quick.py",
    "tests/net/test_net_divisions.py",
    "tests/kiosk/test_kiosk_fuzz.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long files first, everything else in its collected order (a stable sort: every
    xdist worker collects the same order, as it must)."""

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.fspath)).resolve()
        for i, name in enumerate(LONG_FIRST):
            if path == REPO / name:
                return i
        return len(LONG_FIRST)

    items.sort(key=rank)


@pytest.fixture(scope="session")
def small_wordlist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wordlist") / "small-cs.txt"
    path.write_text("\n".join(SMALL_CZECH_WORDS.split()) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def small_lexicon_path(tmp_path_factory: pytest.TempPathFactory, small_wordlist: Path) -> Path:
    """A tiny Czech lexicon (a few dozen words, covers 2–15 letters)."""
    out = tmp_path_factory.mktemp("lexicon") / "small-cs.lex"
    build_from_wordlist(small_wordlist, out, language="cs", variant="TEST", max_length=15)
    return out


def _cached_hunspell_lexicon(lang: str, package: str) -> Path:
    prefix = hunspell_prefix(lang)
    if prefix is None:
        pytest.fail(f"{package} is not installed; run the tests through ./dev test")
    dic = prefix.with_suffix(".dic")
    stat = dic.stat()
    # Keyed by the dictionary and by the code that builds it, so a change rebuilds.
    code = hashlib.sha256()
    for module in ("hunspell.py", "lexicon.py", "normalize.py", "alphabet.py"):
        code.update((REPO / "shared" / module).read_bytes())
    path = CACHE / f"{lang}-{stat.st_size}-{int(stat.st_mtime)}-{code.hexdigest()[:12]}.lex"
    if not path.exists():
        _build_on_first_use(lang, path)
    return path


def _build_on_first_use(lang: str, path: Path) -> None:
    """Build ``path`` the way a station or hub without a lexicon does on first use
    (:func:`ensure_default_lexicon`: the system dictionary expanded into the data dir's
    ``lexicons/LANG.lex``), in a private data dir, then keep it under ``.cache/``. One
    build serves every test that needs the real lexicon, the kiosk's included."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{lang}-building-", dir=path.parent))
    old = os.environ.get("SAMOOBSLUHA_DATA")
    os.environ["SAMOOBSLUHA_DATA"] = str(staging)
    try:
        built = ensure_default_lexicon(lang)
    finally:
        if old is None:
            os.environ.pop("SAMOOBSLUHA_DATA", None)
        else:
            os.environ["SAMOOBSLUHA_DATA"] = old
    assert built == staging / "lexicons" / f"{lang}.lex", built
    os.replace(built, path)
    shutil.rmtree(staging, ignore_errors=True)


@pytest.fixture(scope="session")
def cs_lexicon_path() -> Path:
    """The real Czech lexicon (hunspell-cs expanded), built once and cached."""
    return _cached_hunspell_lexicon("cs", "hunspell-cs")


@pytest.fixture(scope="session")
def pl_lexicon_path() -> Path:
    """The real Polish lexicon (hunspell-pl expanded), built once and cached like the Czech
    one (about 40 s and 650 MB of memory on a build machine)."""
    return _cached_hunspell_lexicon("pl", "hunspell-pl")


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private SAMOOBSLUHA_DATA for one test."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(folder))
    yield folder


@pytest.fixture
def cs_data_dir(data_dir: Path, cs_lexicon_path: Path) -> Path:
    """A data dir whose default Czech lexicon is the real one (no rebuild)."""
    target = data_dir / "lexicons" / "cs.lex"
    target.parent.mkdir(parents=True)
    shutil.copyfile(cs_lexicon_path, target)
    return data_dir


# ../shared beside the clone; SAMOOBSLUHA_SHARED points elsewhere (e.g. from a worktree).
SHARED = Path(os.environ.get("SAMOOBSLUHA_SHARED") or REPO.parent / "shared")
TSH_REAL = SHARED / "data" / "tsh-real"


@pytest.fixture(scope="session")
def tsh_real_dir() -> Path:
    """The public tournament corpus (../shared/data/tsh-real), read in place: never copied
    into the repository. A user's clone has no ../shared; its tests skip there (CI has it)."""
    if not TSH_REAL.is_dir():
        pytest.skip("../shared/data/tsh-real is not beside this clone (public tsh corpus)")
    return TSH_REAL

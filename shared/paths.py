"""Where Samoobsluha keeps its files.

* ``SAMOOBSLUHA_DATA`` wins when set (tests, demos, several stations on one laptop);
* on a provisioned Pi the writable data partition is mounted at ``/srv/samoobsluha``
  (the root file system is read-only there);
* otherwise the XDG data directory, ``~/.local/share/samoobsluha``.

:func:`data_folder` answers with a string and imports no :mod:`pathlib` (with
urllib.parse and ipaddress, ~3 ms of ``station check``'s start on this machine, which
only needs its verification stamps from here); everything else takes :func:`data_dir`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: `station check` imports this module at start-up
if TYPE_CHECKING:
    from pathlib import Path

PI_DATA = "/srv/samoobsluha"
HUNSPELL_DIRS: tuple[str | os.PathLike[str], ...] = ("/usr/share/hunspell", "/usr/share/myspell")
HUNSPELL_NAMES = {"cs": "cs_CZ", "sk": "sk_SK", "pl": "pl_PL"}


def data_folder() -> str:
    """The data folder, as a string (see the module's docstring for which one)."""
    env = os.environ.get("SAMOOBSLUHA_DATA")
    if env:
        return env
    if os.path.isdir(PI_DATA) and os.access(PI_DATA, os.W_OK):
        return PI_DATA
    xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return os.path.join(xdg, "samoobsluha")


def data_dir() -> Path:
    from pathlib import Path

    return Path(data_folder())


def default_lexicon_path(language: str = "cs") -> Path:
    return data_dir() / "lexicons" / f"{language}.lex"


def hunspell_prefix(language: str) -> Path | None:
    """The system hunspell dictionary for ``language`` (Debian: hunspell-cs/-sk)."""
    name = HUNSPELL_NAMES.get(language)
    if name is None:
        return None
    from pathlib import Path

    for folder in map(Path, HUNSPELL_DIRS):
        if (folder / f"{name}.dic").is_file() and (folder / f"{name}.aff").is_file():
            return folder / name
    return None


def write_private(path: Path, text: str) -> None:
    """Write a key file readable by its owner only (0600), whatever was there before: the
    text goes to a new 0600 file beside ``path`` that then replaces it, so an existing
    0644 file (or a link) never holds the key even for a moment, and a crash leaves the
    old file or the new one, never half of either."""
    import tempfile
    from pathlib import Path

    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(name)  # mkstemp makes it 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)  # whatever the umask did
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise

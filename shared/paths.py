"""Where Samoobsluha keeps its files.

* ``SAMOOBSLUHA_DATA`` wins when set (tests, demos, several stations on one laptop);
* on a provisioned Pi the writable data partition is mounted at ``/srv/samoobsluha``
  (the root file system is read-only there);
* otherwise the XDG data directory, ``~/.local/share/samoobsluha``.
"""

from __future__ import annotations

import os
from pathlib import Path

PI_DATA = Path("/srv/samoobsluha")
HUNSPELL_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell"))
HUNSPELL_NAMES = {"cs": "cs_CZ", "sk": "sk_SK"}


def data_dir() -> Path:
    env = os.environ.get("SAMOOBSLUHA_DATA")
    if env:
        return Path(env)
    if PI_DATA.is_dir() and os.access(PI_DATA, os.W_OK):
        return PI_DATA
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "samoobsluha"


def default_lexicon_path(language: str = "cs") -> Path:
    return data_dir() / "lexicons" / f"{language}.lex"


def hunspell_prefix(language: str) -> Path | None:
    """The system hunspell dictionary for ``language`` (Debian: hunspell-cs/-sk)."""
    name = HUNSPELL_NAMES.get(language)
    if name is None:
        return None
    for folder in HUNSPELL_DIRS:
        if (folder / f"{name}.dic").is_file() and (folder / f"{name}.aff").is_file():
            return folder / name
    return None

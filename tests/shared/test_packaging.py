"""The distribution installs one import name, ``samoobsluha``: the folders station/, hub/ and
shared/ at the top of the repository become samoobsluha.station, samoobsluha.hub and
samoobsluha.shared (``hub`` and ``shared`` are other projects' names on PyPI)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

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


def test_the_built_wheel_owns_no_other_top_level_name(tmp_path: Path) -> None:
    """What ``pip show -f samoobsluha`` lists: only samoobsluha/ and the dist-info."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("samoobsluha-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    tops = {name.split("/")[0] for name in names}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"samoobsluha"}
    top_level = [n for n in names if n.endswith("top_level.txt")]
    if top_level:
        with zipfile.ZipFile(wheel) as zf:
            assert zf.read(top_level[0]).decode().split() == ["samoobsluha"]
    # the provisioning payload and the stylesheets travel inside the package
    assert "samoobsluha/hub/provision/payload/install.sh" in names
    assert "samoobsluha/station/app.tcss" in names

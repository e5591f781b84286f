"""The arrows between the three packages point one way: hub/ and station/ may use
shared/, and the hub never imports the station (a hub that ran station code would drag the
kiosk's dependencies and its state into the referee's machine). The provisioning scripts
that the hub writes onto a card name station modules in text, which is fine: they run on
the station. Checked on the source with ast, so a lazy import inside a function counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# package directory -> the dotted name it is installed as (pyproject's package-dir)
PACKAGES = {
    "hub": "samoobsluha.hub",
    "station": "samoobsluha.station",
    "shared": "samoobsluha.shared",
}


def module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGES[parts[0]], *parts[1:]])


def imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in ``path``, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            # "from samoobsluha import station" imports the package as a name
            found.append((node.lineno, name))
            found.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names)
    return found


def forbidden(path: Path, banned: str, root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}:{line}: {name}"
        for line, name in imported(path, root)
        if name == banned or name.startswith(banned + ".")
    ]


def modules(package: str) -> list[Path]:
    found = sorted((ROOT / package).rglob("*.py"))
    assert found, f"no modules under {package}/"
    return found


@pytest.mark.parametrize(
    ("package", "banned"),
    [
        ("hub", "samoobsluha.station"),
        ("shared", "samoobsluha.station"),
        ("shared", "samoobsluha.hub"),
        ("station", "samoobsluha.hub"),
    ],
)
def test_no_import_against_the_arrows(package: str, banned: str) -> None:
    bad = [hit for path in modules(package) for hit in forbidden(path, banned)]
    assert not bad, f"{package}/ imports {banned}:\n" + "\n".join(bad)


@pytest.mark.parametrize(
    "source",
    [
        "from samoobsluha.station.checks import hash_pin\n",
        "import samoobsluha.station.rounds\n",
        "def f():\n    from samoobsluha.station import checks\n",
        "from samoobsluha import station\n",
        "from ...station.checks import boot_id\n",  # hub/commands -> samoobsluha.station
        "from ... import station\n",
    ],
)
def test_the_walk_sees_every_form_of_import(tmp_path: Path, source: str) -> None:
    """The check itself: each way of writing an import of the station is caught when it
    sits in a hub module (a file at hub/commands/x.py, as the relative forms need)."""
    path = tmp_path / "hub" / "commands" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text(source, encoding="utf-8")
    assert forbidden(path, "samoobsluha.station", tmp_path), source
    assert not forbidden(path, "samoobsluha.stationery", tmp_path)


def test_a_relative_import_within_the_hub_is_the_hub(tmp_path: Path) -> None:
    """``from ..station`` in hub/commands/ is hub's own (hypothetical) station module."""
    path = tmp_path / "hub" / "commands" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text("from ..stations import x\nfrom .serve import y\n", encoding="utf-8")
    assert not forbidden(path, "samoobsluha.station", tmp_path)
    names = [name for _, name in imported(path, tmp_path)]
    assert "samoobsluha.hub.stations.x" in names
    assert "samoobsluha.hub.commands.serve" in names

"""The tournament engine (hub/tournament/) is the bottom layer of the hub: it imports
nothing from the hub's web server, service or screens — not at the top of a module, not
inside a function. Exports take what they print (the hall screen's address, its QR code)
as data. Checked two ways: every module's syntax tree, and a fresh interpreter that
imports the whole package and then looks at what got loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import resources
from pathlib import Path

FORBIDDEN = ("samoobsluha.hub.web", "samoobsluha.hub.service", "samoobsluha.hub.screens")
PACKAGE = "samoobsluha.hub.tournament"


def _modules() -> list[tuple[str, Path]]:
    root = Path(str(resources.files(PACKAGE)))
    return [
        (f"{PACKAGE}.{'.'.join(p.relative_to(root).with_suffix('').parts)}", p)
        for p in sorted(root.rglob("*.py"))
    ]


def imported_names(module: str, path: Path) -> list[str]:
    """Every module ``path`` imports anywhere (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names += [base] + [f"{base}.{alias.name}" for alias in node.names]
    return names


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f():\n    from samoobsluha.hub.web.qr import svg\n    from ..service import X\n"
    )
    names = imported_names(f"{PACKAGE}.bad", bad)
    assert "samoobsluha.hub.web.qr" in names and "samoobsluha.hub.service" in names


def test_no_tournament_module_imports_the_web_the_service_or_the_screens() -> None:
    modules = _modules()
    assert len(modules) >= 8  # the whole package, not one file
    offending = [
        (module, name)
        for module, path in modules
        for name in imported_names(module, path)
        if name.startswith(FORBIDDEN)
    ]
    assert offending == []


def test_importing_the_engine_loads_none_of_them() -> None:
    names = [m for m, _ in _modules()]
    code = (
        "import importlib, sys\n"
        f"for m in {names!r}: importlib.import_module(m)\n"
        f"print('\\n'.join(m for m in sys.modules if m.startswith({FORBIDDEN!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ""

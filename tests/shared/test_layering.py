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


# -- inside the hub: HubService's areas (hub/service/) ------------------------------------------

SERVICE = ROOT / "hub" / "service"
AREAS = ("stations", "rounds", "challenges", "results", "standings")
SERVICE_MAX_LINES = 400  # service.py was 1,183 lines before the split


def service_class(path: Path) -> ast.ClassDef:
    """The class of ``path`` that holds an area (a subclass of ``ServiceCore``) or the core
    (``ServiceCore`` itself)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and (
            node.name == "ServiceCore"
            or any(isinstance(b, ast.Name) and b.id == "ServiceCore" for b in node.bases)
        )
    ]
    assert len(found) == 1, f"{path.name}: {[c.name for c in found]}"
    return found[0]


def members(cls: ast.ClassDef) -> set[str]:
    """What a class defines: its methods and class attributes, and what it assigns to
    ``self``."""
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names | {a.attr for a in self_attributes(cls) if isinstance(a.ctx, ast.Store)}


def self_attributes(cls: ast.ClassDef) -> list[ast.Attribute]:
    return [
        node
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ]


def reaches_beyond(area: Path, core: Path) -> list[str]:
    """What the area in ``area`` uses through ``self`` that neither it nor the core
    defines: another area's method or attribute, public or private."""
    cls = service_class(area)
    own = members(cls) | members(service_class(core))
    return sorted(
        f"{area.name}:{a.lineno}: self.{a.attr}" for a in self_attributes(cls) if a.attr not in own
    )


def service_imports(path: Path, root: Path = ROOT) -> list[str]:
    """Imports of ``hub.service`` modules that ``path`` may not make: an area imports only
    the core's public names, the core none (and neither the facade package)."""
    allowed = set() if path.stem == "core" else {"samoobsluha.hub.service.core"}
    bad = []
    for line, name in imported(path, root):
        if name != "samoobsluha.hub.service" and not name.startswith("samoobsluha.hub.service."):
            continue
        module, _, last = name.rpartition(".")
        if name in allowed or (module in allowed and not last.startswith("_")):
            continue
        bad.append(f"{path.relative_to(root)}:{line}: {name}")
    return bad


@pytest.mark.parametrize("area", AREAS)
def test_a_service_area_uses_only_the_core_and_itself(area: str) -> None:
    assert reaches_beyond(SERVICE / f"{area}.py", SERVICE / "core.py") == []
    assert service_imports(SERVICE / f"{area}.py") == []


def test_the_service_core_imports_no_area() -> None:
    assert service_imports(SERVICE / "core.py") == []


def test_no_two_service_areas_define_the_same_name() -> None:
    """Each name of the facade is defined once: no area overrides the core or another
    area, so the order of the mixins never decides which code runs."""
    defined: dict[str, str] = {}
    clashes = []
    for name in ("core", *AREAS):
        for member in members(service_class(SERVICE / f"{name}.py")) - {"__init__"}:
            if member in defined:
                clashes.append(f"{member}: {defined[member]} and {name}")
            defined[member] = name
    assert clashes == []


def test_the_facade_is_the_areas_over_the_core() -> None:
    """``HubService`` is exactly the areas (in ``AREAS``' order) over ``ServiceCore`` and
    adds nothing of its own; every area is a direct subclass of the core, so mypy refuses
    a call from one area into another, and an area left out of the facade is noticed."""
    from samoobsluha.hub.service import HubService
    from samoobsluha.hub.service.core import ServiceCore

    assert [b.__module__ for b in HubService.__bases__] == [
        *(f"samoobsluha.hub.service.{a}" for a in AREAS),
        "samoobsluha.hub.service.core",
    ]
    assert all(b.__bases__ == (ServiceCore,) for b in HubService.__bases__[:-1])
    own = [n for n in vars(HubService) if not (n.startswith("__") and n.endswith("__"))]
    assert own == []
    on_disk = {p.stem for p in SERVICE.glob("*.py")} - {"__init__", "core"}
    assert on_disk == set(AREAS)


def test_service_modules_stay_small() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in SERVICE.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > SERVICE_MAX_LINES} == {}


def test_the_area_checks_see_a_reach_into_another_area(tmp_path: Path) -> None:
    """The checks themselves: an area calling another area's private method, importing
    another area or the core's private names, is caught; the core's names are not."""
    service = tmp_path / "hub" / "service"
    service.mkdir(parents=True)
    core = service / "core.py"
    core.write_text(
        "class ServiceCore:\n"
        "    def __init__(self):\n        self.clock = None\n"
        "    def _db(self): ...\n",
        encoding="utf-8",
    )
    area = service / "x.py"
    area.write_text(
        "from .core import ServiceCore, _private\n"
        "from samoobsluha.hub.service.results import ResultsArea\n"
        "from samoobsluha.hub import service\n"
        "class XArea(ServiceCore):\n"
        "    def go(self):\n"
        "        self.own = self.clock\n"
        "        with self._db():\n            return self._all_checks(), self.own\n",
        encoding="utf-8",
    )
    assert reaches_beyond(area, core) == ["x.py:8: self._all_checks"]
    assert service_imports(area, tmp_path) == [
        "hub/service/x.py:1: samoobsluha.hub.service.core._private",
        "hub/service/x.py:2: samoobsluha.hub.service.results",
        "hub/service/x.py:2: samoobsluha.hub.service.results.ResultsArea",
        "hub/service/x.py:3: samoobsluha.hub.service",
    ]
    assert service_imports(core, tmp_path) == []

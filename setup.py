"""The one build step pyproject.toml cannot say: compile the gettext catalogues.

``shared/locale/<lang>/LC_MESSAGES/samoobsluha.po`` is what translators edit; the runtime
reads the compiled ``.mo`` (parsing a ``.po`` needs Babel's catalogue modules: ~30 ms of
every command's start). The ``.mo`` files are not in git: this step compiles the source
tree's ``.po`` files into the built package, which carries the ``.mo`` files only — an
installed copy has nothing to compare them with, so it can never take a ``.po`` that an
unpacker happened to write a few milliseconds later for a newer one. ``./dev setup``
writes the ``.mo`` files beside the ``.po`` files of an editable checkout.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "shared" / "locale"


def compiled_paths(build_lib: str) -> list[tuple[Path, Path]]:
    """Each source ``.po`` and the ``.mo`` it becomes in the built package."""
    target = Path(build_lib) / "samoobsluha" / "shared" / "locale"
    return [
        (po, (target / po.relative_to(SOURCE)).with_suffix(".mo"))
        for po in sorted(SOURCE.glob("*/LC_MESSAGES/*.po"))
    ]


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        # pip builds in the checkout's build/ and setuptools never empties it: a module
        # since removed or turned into a package (hub/service.py → hub/service/) would
        # travel in the next wheel. Every build starts from the sources alone.
        import shutil

        shutil.rmtree(Path(self.build_lib) / "samoobsluha", ignore_errors=True)
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po_path, mo_path in compiled_paths(self.build_lib):
            with po_path.open("rb") as f:
                catalog = read_po(f)
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            with mo_path.open("wb") as f:
                write_mo(f, catalog)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:  # type: ignore[override]
        outputs = list(super().get_outputs(include_bytecode))
        return outputs + [str(mo) for _, mo in compiled_paths(self.build_lib)]


setup(cmdclass={"build_py": BuildWithCatalogues})

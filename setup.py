"""The one build step pyproject.toml cannot say: compile the gettext catalogues.

``shared/locale/<lang>/LC_MESSAGES/samoobsluha.po`` is what translators edit; the runtime
reads the compiled ``.mo`` (a few ms less at every start than parsing the ``.po``). The
``.mo`` files are not in git: this step writes them into the built package, and
``./dev setup`` writes them beside the ``.po`` files of an editable checkout.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


def compile_catalogues(locale_dir: Path) -> list[Path]:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        with po_path.open("rb") as f:
            catalog = read_po(f)
        mo_path = po_path.with_suffix(".mo")
        with mo_path.open("wb") as f:
            write_mo(f, catalog)
        written.append(mo_path)
    return written


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "samoobsluha" / "shared" / "locale"
        if target.is_dir():
            compile_catalogues(target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:  # type: ignore[override]
        outputs = list(super().get_outputs(include_bytecode))
        target = Path(self.build_lib) / "samoobsluha" / "shared" / "locale"
        outputs += [str(p.with_suffix(".mo")) for p in target.glob("*/LC_MESSAGES/*.po")]
        return outputs


setup(cmdclass={"build_py": BuildWithCatalogues})

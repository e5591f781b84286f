"""The hall-day report's gong-spread chart speaks the report's language: its title, legend
and axis numbers (decimal comma in cs and sk) — text kept as text in the SVG."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def hallday() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hallday_bench", REPO / "bench" / "hallday.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


SIGNALS = [
    {"round": r, "signal": sig, "offsets_ms": {"st-1": 1.5, "st-2": 3.25}, "spread_ms": 2.75}
    for r in (1, 2)
    for sig in ("start", "warning", "end")
]


@pytest.mark.parametrize(
    ("lang", "title", "tick"),
    [
        ("cs", "Rozptyl gongů podle signálu (Z začátek, U upozornění, K konec)", "1Z"),
        ("sk", "Rozptyl gongov podľa signálu (Z začiatok, U upozornenie, K koniec)", "1Z"),
        ("en", "Gong spread per signal (S start, W warning, E end)", "1S"),
    ],
)
def test_chart_in_the_reports_language(tmp_path: Path, lang: str, title: str, tick: str) -> None:
    svg = hallday().plot({"signals": SIGNALS}, tmp_path / "c.svg", lang).read_text("utf-8")
    texts = re.findall(r">([^<>]+)</text>", svg)
    assert title in texts and tick in texts
    numbers = [x for x in texts if re.fullmatch(r"[\d.,−-]+", x)]
    assert numbers
    if lang == "en":
        assert any("." in x for x in numbers) and not any("," in x for x in numbers)
    else:
        assert any("," in x for x in numbers) and not any("." in x for x in numbers)
        assert not any(w in " ".join(texts) for w in ("spread", "target", "ring"))

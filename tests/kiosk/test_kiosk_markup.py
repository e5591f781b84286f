"""Text from a person or a file is shown as text in both apps, never parsed as markup.

Two guards: a static one that reads every widget call in the UI code of station/ and hub/
(a widget given anything but a fixed string or ``literal(...)`` fails the test, naming the
line), and live ones that type ``a[/]b``, ``k[o]čka`` and ``[b]x`` into the kiosk and find
them on the screen exactly as typed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from kiosk_pilot import settle, start_check, type_text
from textual.widgets import Input, Label

from samoobsluha.shared.textsafe import literal, visible

REPO = Path(__file__).resolve().parents[2]
UI_DIRS = ("station", "hub")
WIDGETS = {"Label", "Static", "Button", "Option"}  # constructors taking content first
METHODS = {"update", "add_column", "add_row"}  # widget methods taking content


def _is_safe(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "[" not in node.value
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("literal", "styled"):
        return True
    if isinstance(node, ast.Starred) and isinstance(node.value, ast.GeneratorExp):
        return _is_safe(node.value.elt)
    return False


def _ui_files() -> list[Path]:
    files = []
    for folder in UI_DIRS:
        for path in sorted((REPO / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if "from textual" in text:
                files.append(path)
    return files


def _offences(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        where = f"{path.relative_to(REPO)}:{node.lineno}"
        line = lines[node.lineno - 1]
        if isinstance(func, ast.Name) and func.id in WIDGETS:
            args = node.args[:1]
        elif isinstance(func, ast.Attribute) and func.attr in METHODS:
            if "BigText" in line or "not a widget" in line:
                continue  # BigText draws its own glyphs; dict/set.update are not widgets
            args = node.args if func.attr == "add_row" else node.args[:1]
        elif isinstance(func, ast.Attribute) and func.attr == "notify":
            markup = [k for k in node.keywords if k.arg == "markup"]
            plain = (
                markup and isinstance(markup[0].value, ast.Constant) and not markup[0].value.value
            )
            if not plain:
                found.append(f"{where}: notify() without markup=False")
            continue
        else:
            continue
        found.extend(f"{where}: {ast.unparse(a)[:60]}" for a in args if not _is_safe(a))
    return found


def test_every_widget_gets_text_through_literal() -> None:
    files = _ui_files()
    assert len(files) > 10  # the scan found the UI code
    offences = [o for path in files for o in _offences(path)]
    assert not offences, "widget text not passed through literal():\n" + "\n".join(offences)


def test_the_guard_catches_an_unescaped_label(tmp_path: Path, monkeypatch) -> None:
    bad = REPO / "station" / "screens" / "_markup_probe.py"
    bad.write_text(
        "from textual.widgets import Label\n"
        "def f(name, label, app):\n"
        "    label.update(name)\n"
        "    app.notify(name)\n"
        "    return Label(f'{name}')\n",
        encoding="utf-8",
    )
    try:
        offences = _offences(bad)
    finally:
        bad.unlink()
    assert len(offences) == 3


def test_literal_keeps_brackets_and_shows_control_characters() -> None:
    assert literal("a[/]b").plain == "a[/]b"
    assert literal("[b]x").plain == "[b]x"
    assert visible("a\x1b[31mb\x07") == "a␛[31mb␇"
    assert visible("řádek\ndalší\ttab") == "řádek\ndalší\ttab"


def _screen_text(app) -> str:
    return "\n".join(str(label.content) for label in app.screen.query(Label))


@pytest.mark.parametrize("typed", ["a[/]b", "k[o]čka", "[b]x", "[/]", "[red]pes[/red]"])
async def test_brackets_in_a_word_stay_literal(make_app, store, typed) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_check(pilot, "3", "1")
        await type_text(pilot, typed)
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert app.screen.query_one("#word-0", Input).value == typed
        text = _screen_text(app)
        # either the preview (a well-formed blank) or the refusal quotes it as typed
        assert typed in text or "K(O)ČKA" in text.upper(), text
        await pilot.press("f10")
        await settle(pilot)
        assert app.is_running


async def test_brackets_in_the_where_field_stay_literal(make_app, store) -> None:
    store.replace_pairings(1, [(4, "Novák Jan", "Svoboda Petr")], at=0.0)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        await type_text(pilot, "[b]x")
        await settle(pilot)
        assert app.is_running
        assert "[b]x" in _screen_text(app)


async def test_brackets_in_the_referee_table_range_stay_literal(make_app, store) -> None:
    from samoobsluha.shared.checks import hash_pin

    store.set_setting("referee_pin_hash", hash_pin("471147"))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f12")
        await settle(pilot)
        await type_text(pilot, "471147")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("3")
        await pilot.pause()
        field = app.screen.query_one("#tables-input", Input)
        field.value = ""
        await type_text(pilot, "a[/]b")
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert "a[/]b" in _screen_text(app)

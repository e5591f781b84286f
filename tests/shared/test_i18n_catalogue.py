"""The catalogue itself: every message in cs, sk and en, no language asking for a value
the English text (the one code is written against) does not name, and every plural
message with the count that chooses its form."""

from __future__ import annotations

import re

from samoobsluha.shared.i18n import LANGUAGES, MESSAGES, PLURAL_COUNTS, t

_FIELD = re.compile(r"\{(\w+)")


def _fields(text: object) -> set[str]:
    texts = text.values() if isinstance(text, dict) else [text]
    return {name for x in texts for name in _FIELD.findall(str(x))}


def test_every_message_has_three_languages_and_the_same_values() -> None:
    problems = []
    for key, entry in MESSAGES.items():
        if set(entry) != set(LANGUAGES):
            problems.append(f"{key}: languages {sorted(entry)}")
            continue
        english = _fields(entry["en"])
        for lang in ("cs", "sk"):
            extra = _fields(entry[lang]) - english
            if extra:
                problems.append(f"{key} ({lang}): {sorted(extra)} not in the English text")
    assert not problems, "\n".join(problems)


def test_every_plural_message_names_its_count() -> None:
    for key, entry in MESSAGES.items():
        if any(isinstance(text, dict) for text in entry.values()):
            count = PLURAL_COUNTS.get(key, "n")
            assert all(count in _fields(text) for text in entry.values()), key
            for lang in LANGUAGES:  # renders for 1, 2 and 5 without a missing value
                for n in (1, 2, 5):
                    values = {name: n for name in _fields(entry[lang])}
                    assert t(key, lang, **values), (key, lang, n)


def test_no_message_is_defined_twice() -> None:
    """The catalogue is built by several ``MESSAGES.update({...})`` blocks: a key written in
    two of them silently keeps only the later text (it happened: one refusal had two
    English wordings)."""
    import ast
    from pathlib import Path

    import samoobsluha.shared.i18n as i18n

    tree = ast.parse(Path(i18n.__file__).read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    twice = []
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict):
            names = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(n, ast.Name) and n.id == "MESSAGES" for n in names):
                target = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "MESSAGES"
            and node.func.attr == "update"
            and node.args
            and isinstance(node.args[0], ast.Dict)
        ):
            target = node.args[0]
        if target is None:
            continue
        for key in target.keys:
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                if key.value in seen:
                    twice.append(f"{key.value}: lines {seen[key.value]} and {key.lineno}")
                seen[key.value] = key.lineno
    assert seen, "no catalogue found"
    assert not twice, "\n".join(twice)

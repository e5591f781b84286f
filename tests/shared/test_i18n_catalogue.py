"""The catalogues themselves (``shared/locale/<lang>/LC_MESSAGES/samoobsluha.po``): every
message in cs, sk and en, no language asking for a value the English text (the one code is
written against) does not name, every plural message with a form for each CLDR category of
its language and the count that chooses it, no key written twice, and compiled ``.mo``
files that say what their ``.po`` says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from samoobsluha.shared import i18n
from samoobsluha.shared.i18n import CATEGORIES, LANGUAGES, MESSAGES, PLURAL_COUNTS, t

_FIELD = re.compile(r"\{(\w+)")
_MSGID = re.compile(r'^msgid "(.+)"$', re.M)


def _fields(text: object) -> set[str]:
    texts = text.values() if isinstance(text, dict) else [text]
    return {name for x in texts for name in _FIELD.findall(str(x))}


def test_every_message_has_three_languages_and_the_same_values() -> None:
    problems = []
    keys = {lang: set(i18n._read_po(i18n.catalogue_path(lang))) for lang in LANGUAGES}
    for lang in LANGUAGES:
        for key in sorted(keys["en"] ^ keys[lang]):
            problems.append(f"{key}: in {'en' if key in keys['en'] else lang} only ({lang})")
    for key, entry in MESSAGES.items():
        english = _fields(entry["en"])
        for lang in ("cs", "sk", "pl"):
            extra = _fields(entry.get(lang, "")) - english
            if extra:
                problems.append(f"{key} ({lang}): {sorted(extra)} not in the English text")
    assert len(MESSAGES) > 500
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_cldr_categories(lang: str) -> None:
    """The order of a plural message's forms is CLDR's categories of the language, and
    the catalogue's Plural-Forms has as many forms (what translators' tools show)."""
    order = ("zero", "one", "two", "few", "many", "other")
    tags = Locale.parse(lang).plural_form.tags | {"other"}
    assert tuple(c for c in order if c in tags) == CATEGORIES[lang]
    with i18n.catalogue_path(lang).open("rb") as f:
        po = read_po(f)
    assert po.num_plurals == len(CATEGORIES[lang])
    for m in po:
        if isinstance(m.id, tuple | list):
            assert len(m.string) == len(CATEGORIES[lang]), m.id
            assert all(m.string), m.id


def test_every_plural_message_names_its_count() -> None:
    for key, entry in MESSAGES.items():
        if any(isinstance(text, dict) for text in entry.values()):
            count = PLURAL_COUNTS.get(key, "n")
            assert all(count in _fields(text) for text in entry.values()), key
            for lang in LANGUAGES:  # renders for 1, 2, 5 and 1.5 without a missing value
                for n in (1, 2, 5, 1.5):
                    values = {name: n for name in _fields(entry[lang])}
                    assert t(key, lang, **values), (key, lang, n)


def test_plural_forms_follow_cldr() -> None:
    assert t("cli.finalised", "cs", round=1, n=1) != t("cli.finalised", "cs", round=1, n=2)
    assert t("cli.finalised", "cs", round=1, n=2) != t("cli.finalised", "cs", round=1, n=5)
    assert t("cli.finalised", "en", round=1, n=1) != t("cli.finalised", "en", round=1, n=2)


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "Runda 3 skojarzona (1 stolik)."),
        (2, "Runda 3 skojarzona (2 stoliki)."),
        (5, "Runda 3 skojarzona (5 stolików)."),
        (12, "Runda 3 skojarzona (12 stolików)."),
        (22, "Runda 3 skojarzona (22 stoliki)."),
        (25, "Runda 3 skojarzona (25 stolików)."),
        (1.5, "Runda 3 skojarzona (1,5 stolika)."),
    ],
)
def test_polish_plurals_are_one_few_many_other(n: float, text: str) -> None:
    """CLDR's Polish: 1 one; 2–4, 22–24 few; 5–21, 25… many; a fraction other — and the
    fraction with a decimal comma."""
    assert t("dash.paired", "pl", n=3, boards=n) == text
    expected = {1: "one", 2: "few", 22: "few"}.get(n, "other" if isinstance(n, float) else "many")
    assert i18n.plural_category(n, "pl") == expected


def test_polish_catalogue_is_complete_and_nothing_is_fuzzy() -> None:
    """Every message of the Czech catalogue has a Polish text, none empty or fuzzy."""
    with i18n.catalogue_path("pl").open("rb") as f:
        pl = read_po(f)
    with i18n.catalogue_path("cs").open("rb") as f:
        cs = read_po(f)
    assert pl.locale is not None and str(pl.locale) == "pl"
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in cs if m.id} <= {
        m.id if isinstance(m.id, str) else m.id[0] for m in pl if m.id
    }
    for m in pl:
        if not m.id:
            continue
        assert not m.fuzzy, m.id
        strings = m.string if isinstance(m.string, tuple | list) else [m.string]
        assert all(s.strip() for s in strings), m.id


def test_polish_decimals_use_a_comma() -> None:
    from samoobsluha.shared.i18n import decimal, fixed

    assert fixed(1095.58, "pl", 2) == "1\u00a0095,58"
    assert decimal(1.5, "pl") == "1,5"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_defined_twice(lang: str) -> None:
    """A key written twice keeps one text silently (it happened: one refusal had two
    English wordings); gettext's msgfmt refuses such a file."""
    text = i18n.catalogue_path(lang).read_text(encoding="utf-8")
    keys = _MSGID.findall(text)
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert len(keys) > 500
    assert not twice, twice


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalogue_says_what_the_po_says(lang: str) -> None:
    """``./dev setup`` and the package build compile each ``.po`` with Babel; the runtime
    looks keys up in the ``.mo`` in place (a binary search over its sorted originals)."""
    import io

    from babel.messages.mofile import write_mo

    with i18n.catalogue_path(lang).open("rb") as f:
        po = read_po(f)
    buf = io.BytesIO()
    write_mo(buf, po)
    _same_as_po(i18n.MoCatalogue(buf.getvalue()), lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalogue_compiled_by_gnu_msgfmt_reads_the_same(lang: str, tmp_path: Path) -> None:
    """The reader is the GNU format's, not Babel's habits: GNU gettext's own compiler."""
    import shutil
    import subprocess

    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is missing: ./dev setup installs the gettext package"
    out = tmp_path / "gnu.mo"
    subprocess.run([msgfmt, "-o", str(out), str(i18n.catalogue_path(lang))], check=True)
    _same_as_po(i18n.MoCatalogue(out.read_bytes()), lang)


def _same_as_po(compiled: i18n.MoCatalogue, lang: str) -> None:
    expected = i18n._read_po(i18n.catalogue_path(lang))
    # every key found by lookup alone (before anything decodes the whole file) ...
    assert {key: compiled[key] for key in expected} == expected
    for missing in ("", "zzz.no.such.key", "aaa", "verdict", "verdict.valid.x"):
        assert compiled.get(missing) is None
    # ... and the whole file decoded says the same
    assert dict(compiled) == expected


def test_a_missing_text_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.catalogue
    cs = dict(real("cs"))
    del cs["verdict.valid"]
    monkeypatch.setattr(i18n, "catalogue", lambda lang: cs if lang == "cs" else real(lang))
    assert t("verdict.valid", "cs") == "VALID"
    assert t("verdict.invalid", "cs") == "NEPLATNÉ"
    with pytest.raises(KeyError):
        t("no.such.key", "cs")


def test_only_the_language_asked_for_is_read() -> None:
    """A process that speaks Czech reads one catalogue (start-up of ``station check``)."""
    import subprocess
    import sys

    code = (
        "from samoobsluha.shared import i18n\n"
        "i18n.t('verdict.valid', 'cs')\n"
        "print(i18n.catalogue.cache_info().currsize)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"

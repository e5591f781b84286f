"""The expansion must be faithful to hunspell itself: everything we build, hunspell
accepts; every candidate we did not build, hunspell rejects."""

from __future__ import annotations

import itertools
import random
import subprocess
from pathlib import Path

import pytest

from samoobsluha.shared import hunspell
from samoobsluha.shared.lexicon import Lexicon

DATA = Path(__file__).resolve().parents[1] / "data"


def hunspell_rejects(prefix: Path | str, words: list[str]) -> set[str]:
    """Words the hunspell binary rejects (``-l`` lists misspelled input words)."""
    out = subprocess.run(
        ["hunspell", "-d", str(prefix), "-l"],
        input="\n".join(words) + "\n",
        capture_output=True,
        text=True,
        check=True,
        env={"LC_ALL": "C.UTF-8"},
    ).stdout
    return set(out.split())


def write_dict(folder: Path, name: str, aff: str, dic_lines: list[str]) -> Path:
    prefix = folder / name
    prefix.with_suffix(".aff").write_text(aff, encoding="utf-8")
    prefix.with_suffix(".dic").write_text(
        f"{len(dic_lines)}\n" + "\n".join(dic_lines) + "\n", encoding="utf-8"
    )
    return prefix


SYNTHETIC_AFF = """SET UTF-8
NEEDAFFIX Z
FORBIDDENWORD !

PFX N Y 1
PFX N 0 ne .

PFX P N 1
PFX P 0 pra .

SFX A Y 4
SFX A a y a
SFX A a e [^k]a
SFX A a ou a
SFX A 0 ch [áéíóúý].a

SFX B N 2
SFX B ý á ý
SFX B ý é [^č]ý

SFX C Y 2
SFX C 0 ek/D [^e]
SFX C 0 ík .

SFX D Y 1
SFX D 0 em k
"""

SYNTHETIC_DIC = [
    "ryba/AN",
    "ruka/AN",
    "kultúra/AN",  # the '.' after a multi-byte letter: hunspell's quirk decides
    "kůra/AN",
    "nový/BN",
    "bílý/BP",
    "velký/B",
    "kočičí/B",
    "dub/C",
    "les/CZ",
    "slovo/Z",  # NEEDAFFIX with no affix: not a word at all
    "bratr",
    "nebratr/!",  # forbidden
]


def candidates(aff: hunspell.Affixes, stems: list[hunspell.Stem]) -> set[str]:
    """Every string an affix rule *could* produce, ignoring conditions: the near misses."""
    out: set[str] = set()
    for stem in stems:
        out.add(stem.word)
        sfx = [r for f in stem.flags for r in aff.suffixes.get(f, [])]
        pfx = [r for f in stem.flags for r in aff.prefixes.get(f, [])]
        bases = {stem.word}
        for r in sfx:
            base = stem.word[: len(stem.word) - len(r.strip)] + r.add
            bases.add(base)
            for f2 in r.contflags:
                for r2 in aff.suffixes.get(f2, []):
                    bases.add(base[: len(base) - len(r2.strip)] + r2.add)
        out |= bases
        for r, base in itertools.product(pfx, bases):
            out.add(r.add + base[len(r.strip) :])
    return {w for w in out if w}


def test_synthetic_dictionary_matches_hunspell_exactly(tmp_path: Path):
    prefix = write_dict(tmp_path, "xx_TEST", SYNTHETIC_AFF, SYNTHETIC_DIC)
    aff = hunspell.read_aff(prefix.with_suffix(".aff"))
    stems = list(hunspell.read_dic(prefix.with_suffix(".dic"), aff))
    expander = hunspell.Expander(aff)
    built = set().union(*(expander.forms(s) for s in stems))
    built -= hunspell.forbidden_words(prefix.with_suffix(".dic"), aff)

    cands = sorted(candidates(aff, stems) | built)
    rejected = hunspell_rejects(prefix, cands)
    accepted = set(cands) - rejected
    assert built == accepted, {
        "built but hunspell rejects": sorted(built - accepted),
        "hunspell accepts but not built": sorted(accepted - built),
    }
    # The features the synthetic dictionary exercises really did something:
    assert {"ryby", "neryby", "nerybou", "rybě"} - built == {"rybě"}  # SFX A only, no ě rule
    assert "ruke" not in built  # [^k]a
    assert "kultúrach" not in built  # hunspell's '.' quirk after a multi-byte letter
    assert "nová" in built and "nenová" not in built  # SFX B has no cross product
    assert "prabílý" in built and "prabílé" not in built  # PFX P has no cross product
    assert {"dubek", "dubekem", "dubík"} <= built  # two-level suffix
    assert "les" not in built and "lesík" in built  # NEEDAFFIX
    assert "slovo" not in built
    assert "nebratr" not in built and "bratr" in built


def test_flag_types_aliases_and_morphology(tmp_path: Path):
    aff = """SET UTF-8
FLAG long
AF 2
AF AaBb
AF Aa
SFX Aa Y 1
SFX Aa 0 y .
SFX Bb Y 1
SFX Bb 0 ům .
"""
    prefix = write_dict(tmp_path, "xx_LONG", aff, ["strom/1 po:noun", "dub/2", "a\\/b/Aa"])
    parsed = hunspell.read_aff(prefix.with_suffix(".aff"))
    stems = {s.word: s for s in hunspell.read_dic(prefix.with_suffix(".dic"), parsed)}
    assert stems["strom"].flags == {"Aa", "Bb"}
    assert "a/b" in stems
    expander = hunspell.Expander(parsed)
    assert expander.forms(stems["strom"]) == {"strom", "stromy", "stromům"}
    assert expander.forms(stems["dub"]) == {"dub", "duby"}

    num = write_dict(
        tmp_path, "xx_NUM", "SET UTF-8\nFLAG num\nSFX 101 Y 1\nSFX 101 0 a .\n", ["les/101,7"]
    )
    parsed = hunspell.read_aff(num.with_suffix(".aff"))
    (stem,) = hunspell.read_dic(num.with_suffix(".dic"), parsed)
    assert stem.flags == {"101", "7"}
    assert hunspell.Expander(parsed).forms(stem) == {"les", "lesa"}


def test_compounding_options_are_reported(tmp_path: Path):
    prefix = write_dict(tmp_path, "xx_CPD", "SET UTF-8\nCOMPOUNDFLAG X\n", ["a"])
    assert hunspell.read_aff(prefix.with_suffix(".aff")).unsupported == ["COMPOUNDFLAG"]


def test_missing_dictionary_is_a_clear_error(tmp_path: Path):
    with pytest.raises(FileNotFoundError, match=r"nope\.dic"):
        hunspell.hunspell_paths(tmp_path / "nope")


# --- the real Czech dictionary -----------------------------------------------------------


@pytest.fixture(scope="module")
def cs_lexicon(cs_lexicon_path: Path) -> Lexicon:
    return Lexicon.open(cs_lexicon_path, language="cs")


def test_real_czech_lexicon_size(cs_lexicon: Lexicon):
    # Debian's hunspell-cs 7.5 expands to about 2.8 million playable lowercase forms.
    assert 2_500_000 < len(cs_lexicon) < 3_200_000
    for word in ("kůň", "čáp", "koně", "nejkrásnější", "slovník"):
        assert cs_lexicon.contains(word), word
    for word in ("praha", "kůňx", "čapá"):
        assert not cs_lexicon.contains(word), word


def test_sample_of_built_forms_is_accepted_by_hunspell(cs_lexicon: Lexicon):
    words = list(cs_lexicon.iter_words())
    sample = random.Random(20261129).sample(words, 12_000)
    rejected = hunspell_rejects("/usr/share/hunspell/cs_CZ", sample)
    assert rejected == set(), sorted(rejected)[:20]


def test_words_of_real_czech_text_accepted_by_hunspell_are_in_lexicon(cs_lexicon: Lexicon):
    """The vocabulary of the ČAS rules (tests/data/README.md): every word of it that hunspell
    accepts is in the lexicon."""
    listed = (DATA / "cas-rules-2005-words.txt").read_text(encoding="utf-8").splitlines()
    words = sorted(
        w
        for w in listed
        if w and not w.startswith("#") and all(ch in cs_lexicon.alphabet.letters for ch in w)
    )
    assert len(words) > 1500
    accepted = set(words) - hunspell_rejects("/usr/share/hunspell/cs_CZ", words)
    missing = sorted(w for w in accepted if not cs_lexicon.contains(w))
    assert missing == []


@pytest.mark.parametrize("name", ["cs_CZ", "sk_SK", "pl_PL"])
def test_fast_condition_path_agrees_with_the_byte_faithful_port(name: str):
    """Rules without a bare '.' use a regular expression; on the real dictionaries it must
    decide exactly as the port of hunspell's byte scan does."""
    aff = hunspell.read_aff(f"/usr/share/hunspell/{name}.aff")
    stems = list(hunspell.read_dic(f"/usr/share/hunspell/{name}.dic", aff))
    rng = random.Random(7)
    checked = 0
    for table, is_prefix in ((aff.suffixes, False), (aff.prefixes, True)):
        for flag, rules in table.items():
            words = [s.word for s in stems if flag in s.flags]
            for rule in rules:
                if hunspell._has_bare_dot(rule.condition):
                    continue
                strip_b = rule.strip.encode()
                cond = rule.condition
                if rule.strip and (
                    rule.strip.startswith(cond) if is_prefix else rule.strip.endswith(cond)
                ):
                    cond = "."
                raw = cond.encode() if cond != "." else b""
                numconds = hunspell._condlen(raw)
                if not is_prefix:
                    raw = hunspell._suffix_condition_bytes(raw)
                for word in rng.sample(words, min(len(words), 60)):
                    if not (word.startswith if is_prefix else word.endswith)(rule.strip):
                        continue
                    data = word.encode()
                    slow = len(data) > len(strip_b) and (
                        hunspell._prefix_test(raw, numconds, data)
                        if is_prefix
                        else len(data) >= numconds and hunspell._suffix_test(raw, numconds, data)
                    )
                    assert rule.matcher(word) == slow, (flag, rule.condition, word)
                    checked += 1
    assert checked > 10_000


def test_sample_of_slovak_forms_is_accepted_by_hunspell():
    """hunspell-sk is where hunspell's condition quirks bite (see _suffix_test)."""
    from samoobsluha.shared.alphabet import SLOVAK
    from samoobsluha.shared.lexicon import BuildReport, classify_entry, clean_form

    aff = hunspell.read_aff("/usr/share/hunspell/sk_SK.aff")
    expander = hunspell.Expander(aff)
    report = BuildReport()
    forms: set[str] = set()
    for stem in hunspell.read_dic("/usr/share/hunspell/sk_SK.dic", aff):
        if classify_entry(stem.word) is None:
            forms.update(w for f in expander.forms(stem) if (w := clean_form(f, SLOVAK, report)))
    assert 1_500_000 < len(forms) < 2_000_000
    assert {"kultúr", "kvadratúra"} <= forms and "kvadratúr" not in forms
    sample = random.Random(99).sample(sorted(forms), 10_000)
    assert hunspell_rejects("/usr/share/hunspell/sk_SK", sample) == set()

"""Polish events: the PFS tile set, Polish input at a station and the lexicon built from
Debian's hunspell-pl, proved against the hunspell binary's own answers."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from samoobsluha.shared.alphabet import CZECH, POLISH, get_alphabet
from samoobsluha.shared.i18n import plural_category
from samoobsluha.shared.lexicon import Lexicon, Status
from samoobsluha.shared.normalize import Reason, WordRefused, normalize_word, normalize_words

PL_PREFIX = "/usr/share/hunspell/pl_PL"
STATION = Path(sys.executable).parent / "station"


def hunspell_rejects(words: list[str]) -> set[str]:
    from test_hunspell import hunspell_rejects as rejects

    return rejects(PL_PREFIX, words)


# --- tiles -----------------------------------------------------------------------------------


def test_the_polish_set_has_100_tiles_of_32_letters():
    assert get_alphabet("pl") is POLISH
    assert POLISH.tile_count == 100 and POLISH.blanks == 2
    assert len(POLISH.letters) == 32
    assert set("ąćęłńóśźż") <= POLISH.letters
    assert not set("qvx") & POLISH.letters
    assert POLISH.blank_only == frozenset()


@pytest.mark.parametrize(
    ("value", "letters"),
    [
        (1, "a9 e7 i8 n5 o6 r4 s4 w4 z5"),
        (2, "c3 d3 k3 l3 m3 p3 t3 y4"),
        (3, "b2 g2 h2 j2 ł2 u2"),
        (5, "ą1 ę1 f1 ó1 ś1 ż1"),
        (6, "ć1"),
        (7, "ń1"),
        (9, "ź1"),
    ],
)
def test_counts_and_values_are_the_official_ones(value: int, letters: str):
    for item in letters.split():
        assert POLISH.tiles[item[0]] == (int(item[1:]), value), item


def test_score_and_polish_order():
    assert POLISH.score("źdźbło") == 9 + 2 + 9 + 3 + 3 + 1
    assert POLISH.score("źdźbło", blanks=(0,)) == 2 + 9 + 3 + 3 + 1
    words = ["żaba", "źle", "zero", "łan", "lato", "ćma", "co", "ąb", "ab"]
    assert sorted(words, key=POLISH.sort_key) == [
        "ab", "ąb", "co", "ćma", "lato", "łan", "zero", "źle", "żaba"
    ]  # fmt: skip


# --- input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("ŹDŹBŁO", "źdźbło"),
        ("z-dz-bl+o", "źdźbło"),
        ("Z-DZ-BL+O", "źdźbło"),
        ("a+e+z+", "ąęż"),
        ("c-n-o-s-", "ćńóś"),
        ("(Ż)ÓŁW", "żółw"),
        ("z+o-l+w", "żółw"),
    ],
)
def test_polish_input_and_its_ascii_fallback(raw: str, text: str):
    assert normalize_word(raw, POLISH).text == text


def test_the_fallback_means_the_polish_letter_at_a_polish_station_only():
    # a+ is the Polish ą at a Polish station and the Slovak ä nowhere there; at a Czech
    # station z+ stays the háček.
    assert normalize_word("za+b", POLISH).text == "ząb"
    assert normalize_word("z+aba", CZECH).text == "žaba"
    with pytest.raises(WordRefused) as refused:
        normalize_word("c+as", POLISH)  # SIT č has no meaning here: the + is refused
    assert refused.value.reason is Reason.BAD_CHAR and refused.value.detail == "+"


def test_a_czech_word_at_a_polish_station_is_judged_as_polish():
    # Foreign letters are judged (not valid), not refused as typing errors; what is no
    # letter at all is still refused, and at a Czech station a foreign letter still is.
    assert normalize_word("kůň", POLISH).text == "kůň"
    assert normalize_word("QXZW", POLISH).text == "qxzw"
    assert normalize_words("kolo woda", POLISH)[1].text == "woda"
    for raw in ("ab1", "ab.c", "ab+"):
        with pytest.raises(WordRefused) as refused:
            normalize_word(raw, POLISH)
        assert refused.value.reason is Reason.BAD_CHAR
    with pytest.raises(WordRefused):
        normalize_word("woła", CZECH)


# --- the lexicon -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pl_lexicon(pl_lexicon_path: Path) -> Lexicon:
    return Lexicon.open(pl_lexicon_path, language="pl")


@pytest.mark.slow
def test_real_polish_lexicon_size_and_words(pl_lexicon: Lexicon):
    # Debian's hunspell-pl 7.5 (sjp.pl) expands to about 2.9 million playable forms.
    assert 2_600_000 < len(pl_lexicon) < 3_200_000
    for word in ("źdźbło", "źdźbła", "sprawdzam", "pauza", "runda", "nieładny", "żółw"):
        assert pl_lexicon.contains(word), word
    for word in ("londyn", "qxzw", "źdźbłoo"):
        assert not pl_lexicon.contains(word), word
    czech = pl_lexicon.judge(normalize_words("kůň čáp", POLISH))
    assert czech.status is Status.INVALID and czech.failed == ("kůň", "čáp")


@pytest.mark.slow
def test_a_thousand_built_forms_are_accepted_by_hunspell(pl_lexicon: Lexicon):
    sample = random.Random(20261203).sample(list(pl_lexicon.iter_words()), 1000)
    assert hunspell_rejects(sample) == set()


@pytest.mark.slow
def test_a_thousand_forms_hunspell_rejects_are_not_valid(pl_lexicon: Lexicon):
    """Near misses of real forms (one letter changed, added or dropped): every one hunspell
    rejects is invalid, and every one it accepts is valid."""
    rng = random.Random(33)
    letters = sorted(POLISH.letters)
    words = list(pl_lexicon.iter_words())
    candidates: set[str] = set()
    while len(candidates) < 4000:
        word = rng.choice(words)
        i = rng.randrange(len(word))
        match rng.randrange(3):
            case 0:
                miss = word[:i] + rng.choice(letters) + word[i + 1 :]
            case 1:
                miss = word[:i] + rng.choice(letters) + word[i:]
            case _:
                miss = word[:i] + word[i + 1 :]
        if 2 <= len(miss) <= 15 and miss != word:
            candidates.add(miss)
    ordered = sorted(candidates)
    rejected = hunspell_rejects(ordered)
    assert len(rejected) >= 1000
    wrongly_valid = sorted(w for w in rejected if pl_lexicon.contains(w))
    assert wrongly_valid == []
    missing = sorted(w for w in set(ordered) - rejected if not pl_lexicon.contains(w))
    assert missing == []
    verdict = pl_lexicon.judge(normalize_words(sorted(rejected)[:3], POLISH))
    assert verdict.status is Status.INVALID


def hunspell_candidates(count: int, seed: int) -> list[str]:
    """Forms made from hunspell-pl's own files, not from our lexicon: random lowercase
    stems of ``pl_PL.dic`` with one of their own flags' suffix rules of ``pl_PL.aff``
    applied (the rule's condition unchecked, so some are misses), sometimes the ``nie``
    prefix. Which of them are Polish is for the hunspell binary to say."""
    aff = Path(PL_PREFIX + ".aff").read_text(encoding="iso8859-2").splitlines()
    rules: dict[str, list[tuple[str, str]]] = {}
    for line in aff:
        parts = line.split()
        if len(parts) >= 5 and parts[0] == "SFX":
            strip = "" if parts[2] == "0" else parts[2]
            add = "" if parts[3] == "0" else parts[3].split("/")[0]
            rules.setdefault(parts[1], []).append((strip, add))
    dic = Path(PL_PREFIX + ".dic").read_text(encoding="iso8859-2").splitlines()[1:]
    entries = []
    for line in dic:
        stem, _, flags = line.split()[0].partition("/") if line.strip() else ("", "", "")
        if stem and all(ch in POLISH.letters for ch in stem):  # lowercase, Polish letters
            entries.append((stem, flags))
    inflecting = [(stem, flags) for stem, flags in entries if any(f in rules for f in flags)]
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < count:
        stem, flags = rng.choice(inflecting if rng.random() < 0.9 else entries)
        form = stem
        suffixed = [f for f in flags if f in rules]
        if suffixed and rng.random() < 0.9:
            strip, add = rng.choice(rules[rng.choice(suffixed)])
            if not stem.endswith(strip):
                continue
            form = stem[: len(stem) - len(strip)] + add
        if "b" in flags and rng.random() < 0.2:
            form = "nie" + form
        if 2 <= len(form) <= 15 and all(ch in POLISH.letters for ch in form):
            out.add(form)
    return sorted(out)


@pytest.fixture(scope="module")
def hunspell_split() -> tuple[list[str], list[str], set[str]]:
    """(accepted, rejected, stems): hunspell's own forms, split by ``hunspell -d pl_PL``."""
    candidates = hunspell_candidates(12000, seed=49)
    rejected = hunspell_rejects(candidates)
    accepted = [w for w in candidates if w not in rejected]
    dic = Path(PL_PREFIX + ".dic").read_text(encoding="iso8859-2").splitlines()[1:]
    stems = {line.split("/")[0].strip() for line in dic}
    return accepted, sorted(rejected), stems


@pytest.mark.slow
def test_a_thousand_forms_hunspell_accepts_are_valid(
    pl_lexicon: Lexicon, hunspell_split: tuple[list[str], list[str], set[str]]
):
    """The done-when of #33, this way round: 1,000 forms drawn from what `hunspell -d
    pl_PL` accepts (made from its own .dic and .aff, never from our word list), every one
    valid — about half of them forms no line of the .dic holds, made only by the affixes."""
    accepted, _, stems = hunspell_split
    assert len(accepted) >= 1000
    sample = random.Random(1000).sample(accepted, 1000)
    assert len(set(sample)) == 1000 and hunspell_rejects(sample) == set()
    assert sum(w not in stems for w in sample) > 400  # no .dic entry: only expansion has them
    assert sorted(w for w in sample if not pl_lexicon.contains(w)) == []


@pytest.mark.slow
def test_a_thousand_forms_hunspell_rejects_from_its_own_rules_are_not_valid(
    pl_lexicon: Lexicon, hunspell_split: tuple[list[str], list[str], set[str]]
):
    """1,000 forms `hunspell -d pl_PL` rejects, made the same way (a suffix whose condition
    the stem does not meet: the misses an expansion bug would let in), none valid."""
    _, rejected, _ = hunspell_split
    assert len(rejected) >= 1000
    sample = random.Random(1001).sample(rejected, 1000)
    assert len(set(sample)) == 1000 and hunspell_rejects(sample) == set(sample)
    assert sorted(w for w in sample if pl_lexicon.contains(w)) == []


@pytest.mark.slow
@pytest.mark.interop  # reads ../shared in place, like the tsh corpus: skips in a user's clone
def test_words_of_the_pfs_rules_that_hunspell_accepts_are_valid(pl_lexicon: Lexicon):
    """Real Polish text nobody here wrote: the PFS rules (../shared/seeds)."""
    from tests.conftest import SHARED

    seed = SHARED / "seeds" / "pfs-game-and-swiss-rules.pl.txt"
    if not seed.is_file():
        pytest.skip("../shared/seeds is not beside this clone (public rule texts, interop)")
    text = seed.read_text(encoding="utf-8").lower()
    words = sorted(
        {
            w
            for w in re.findall(r"\w+", text)
            if 2 <= len(w) <= 15 and all(ch in POLISH.letters for ch in w)
        }
    )
    assert len(words) > 800
    accepted = set(words) - hunspell_rejects(words)
    assert sorted(w for w in accepted if not pl_lexicon.contains(w)) == []


@pytest.mark.slow
@pytest.mark.parametrize(("word", "code"), [("źdźbło", 0), ("ŹDŹBŁO", 0), ("qxzw", 1)])
def test_station_check_with_the_polish_lexicon(pl_lexicon_path: Path, word: str, code: int):
    run = subprocess.run(
        [str(STATION), "check", "--lexicon", str(pl_lexicon_path), word],
        capture_output=True,
        text=True,
    )
    assert run.returncode == code, run.stderr


POLISH_AFF = """SET ISO8859-2
TRY aioeznrwcysptkmdłulj

PFX b Y 1
PFX b   0         nie       .

SFX F Y 4
SFX F   o         a         o
SFX F   o         u         o
SFX F   o         em        o
SFX F   ło        łem       ło

SFX G Y 2
SFX G   y         a         y
SFX G   y         e         y
"""
POLISH_DIC = ["źdźbło/F", "kino/F", "ładny/Gb", "żółw", "Warszawa/F", "PKP", "quiz"]


def test_hub_lexicon_build_reads_a_polish_dictionary_in_its_own_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    """hunspell-pl is ISO 8859-2, as this small dictionary in its image: `hub lexicon build
    --lang pl` builds what the hunspell binary accepts from it, and nothing else."""
    from samoobsluha.hub.cli import main as hub_main

    monkeypatch.setenv("SAMOOBSLUHA_LANG", "pl")  # a Polish operator: the report in Polish
    prefix = tmp_path / "mini_pl"
    prefix.with_suffix(".aff").write_bytes(POLISH_AFF.encode("iso8859-2"))
    dic = f"{len(POLISH_DIC)}\n" + "\n".join(POLISH_DIC) + "\n"
    prefix.with_suffix(".dic").write_bytes(dic.encode("iso8859-2"))
    out = tmp_path / "mini.lex"
    code = hub_main(["lexicon", "build", "--hunspell", str(prefix), "--lang", "pl",
                     "--variant", "TEST", "-o", str(out)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    lex = Lexicon.open(out, language="pl")
    built = set(lex.iter_words())
    assert {"źdźbło", "źdźbła", "źdźbłem", "nieładna", "żółw", "quiz"} - built == {"quiz"}
    assert "nazwa własna" in err and "skrót" in err  # Warszawa, PKP dropped, said so
    candidates = sorted(
        built | {"źdźbłu", "kinem", "kina", "nieładne", "nieżółw", "kinoa", "ładnya", "nieźdźbło"}
    )
    from test_hunspell import hunspell_rejects as rejects

    assert built == set(candidates) - rejects(prefix, candidates)


@pytest.mark.slow
def test_station_check_reads_plays_and_answers_in_polish(pl_lexicon_path: Path):
    run = subprocess.run(
        [str(STATION), "check", "--ui", "pl", "--lexicon", str(pl_lexicon_path)],
        input="źdźbło\nkůň pies\nz-dz-bl+o\n",
        capture_output=True,
        text=True,
    )
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stderr
    count = len(Lexicon.open(pl_lexicon_path))
    form = {"one": "słowo", "few": "słowa", "many": "słów"}[plural_category(count, "pl")]
    assert lines[0].startswith(f"pl/HUNSPELL: {count} {form}, sha256 ")
    assert lines[1:] == ["ŹDŹBŁO: DOBRZE (HUNSPELL)", "KŮŇ PIES: ŹLE (HUNSPELL)",
                         "ŹDŹBŁO: DOBRZE (HUNSPELL)"]  # fmt: skip


def test_the_issues_build_command_needs_no_variant_for_hunspell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    """`hub lexicon build --hunspell …/pl_PL --lang pl -o pl.lex`, as #33 and docs/polish.md
    write it, builds the HUNSPELL variant (the default lexicons' name); a word list, one
    variant among KLASIK and PLUS, must still say which — refused in the operator's
    language, exit status 2."""
    from samoobsluha.hub.cli import main as hub_main

    monkeypatch.setenv("SAMOOBSLUHA_LANG", "pl")
    prefix = tmp_path / "mini_pl"
    prefix.with_suffix(".aff").write_bytes(POLISH_AFF.encode("iso8859-2"))
    dic = f"{len(POLISH_DIC)}\n" + "\n".join(POLISH_DIC) + "\n"
    prefix.with_suffix(".dic").write_bytes(dic.encode("iso8859-2"))
    out = tmp_path / "pl.lex"
    assert hub_main(["lexicon", "build", "--hunspell", str(prefix), "--lang", "pl",
                     "-o", str(out)]) == 0  # fmt: skip
    lex = Lexicon.open(out, language="pl")
    assert lex.info.variant == "HUNSPELL" and lex.contains("źdźbło")
    words = tmp_path / "words.txt"
    words.write_text("źdźbło\nżółw\n", encoding="utf-8")
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        hub_main(["lexicon", "build", "--wordlist", str(words), "--lang", "pl",
                  "-o", str(tmp_path / "w.lex")])  # fmt: skip
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert "--variant" in err and "required" not in err, err
    assert not (tmp_path / "w.lex").exists()

"""``hub rejudge --lexicon`` and ``hub lexicon diff``, as real ``hub`` processes over a hub
database whose checks real kiosk stores logged and the hub's own ingest stored: a second
build of the word list that drops two words lists exactly the checks whose verdict those
two words decided, and the diff names the two."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dash_testkit import check, deliver, station_store

from samoobsluha.hub.service import HubService
from samoobsluha.shared.lexicon import Lexicon

BIN = Path(sys.executable).parent
WORDS = ["kůň", "koně", "čáp", "čápa", "ryba", "pes", "psa", "kočka", "kočky", "voda"]
DROPPED = ("čáp", "kočka")


def _hub(*args: str, data: Path, lang: str = "cs") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SAMOOBSLUHA_DATA": str(data), "SAMOOBSLUHA_LANG": lang}
    return subprocess.run(
        [str(BIN / "hub"), *args], env=env, capture_output=True, text=True, timeout=120
    )


def _build(tmp_path: Path, name: str, words: list[str], variant: str) -> Path:
    source = tmp_path / f"{name}.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = tmp_path / f"{name}.lex"
    done = _hub(
        "lexicon",
        "build",
        "--wordlist",
        str(source),
        "--lang",
        "cs",
        "--variant",
        variant,
        "--max-length",
        "15",
        "-o",
        str(out),
        data=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return out


def test_rejudge_lists_exactly_the_checks_the_dropped_words_decided(
    service: HubService, tmp_path: Path
) -> None:
    old_path = _build(tmp_path, "old", WORDS, "STARY")
    new_path = _build(tmp_path, "new", [w for w in WORDS if w not in DROPPED], "NOVY")
    old = Lexicon.open(old_path)
    at = 1_767_258_000.0
    one, two = station_store(tmp_path, "st-1"), station_store(tmp_path, "st-2")
    plays = [  # (store, table, round, words): what was checked, in order
        (one, 1, 1, ["čáp", "pes"]),  # valid: čáp is dropped -> invalid
        (one, 2, 1, ["voda"]),  # untouched
        (two, 3, 1, ["kočka"]),  # valid -> invalid
        (two, 4, 1, ["xyzq"]),  # invalid either way
        (one, 5, 1, ["kočka", "xyzq"]),  # uses a dropped word, but was invalid already
        (two, 6, 2, ["c+a-p", "ryba"]),  # ČÁP in round 2 -> invalid
        (one, 7, 2, ["kočky", "psa"]),  # other forms survive
    ]
    for i, (store, table, round_no, words) in enumerate(plays):
        check(store, old, words, table, at + 60 * i, round_no=round_no)
    for store in (one, two):
        deliver(service, store, at + 600)
    data = Path(service.data)

    done = _hub("rejudge", "--lexicon", str(new_path), data=data)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Znovu posouzeno 7 kontrol slovníkem cs NOVY (sha256 ")
    missing = "— v novém slovníku chybí:"
    assert lines[1:] == [
        f"kolo 1 · stůl 1 · ČÁP PES: PLATNÉ → NEPLATNÉ (stanice st-1) {missing} ČÁP",
        f"kolo 1 · stůl 3 · KOČKA: PLATNÉ → NEPLATNÉ (stanice st-2) {missing} KOČKA",
        f"kolo 2 · stůl 6 · ČÁP RYBA: PLATNÉ → NEPLATNÉ (stanice st-2) {missing} ČÁP",
        "Jinak by dopadly 3 kontroly.",
    ]
    # one round only, as JSON
    done = _hub("rejudge", "--lexicon", str(new_path), "--round", "2", "--json", data=data)
    (changed,) = json.loads(done.stdout)
    assert (changed["table_no"], changed["old"], changed["new"]) == (6, "valid", "invalid")
    assert changed["now_failed"] == ["ČÁP"] and changed["lexicon_sha256"] == old.info.sha256
    # judged again with the list they were judged with: nothing changes (in English)
    done = _hub("rejudge", "--lexicon", str(old_path), data=data, lang="en")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "0 checks would end differently."


def test_lexicon_diff_names_the_forms_added_and_removed(tmp_path: Path) -> None:
    old_path = _build(tmp_path, "old", WORDS, "STARY")
    new_path = _build(tmp_path, "new", [w for w in WORDS if w not in DROPPED] + ["žolík"], "NOVY")
    done = _hub("lexicon", "diff", str(old_path), str(new_path), data=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"A: STARY, {len(WORDS)} tvarů, sha256 ")
    assert lines[1].startswith(f"B: NOVY, {len(WORDS) - 1} tvarů, sha256 ")
    assert lines[2:] == ["B přidává 1 tvar:", "  žolík", "B odebírá 2 tvary:", "  kočka čáp"]
    done = _hub("lexicon", "diff", str(new_path), str(old_path), "--json", data=tmp_path)
    data = json.loads(done.stdout)
    assert (data["added"], data["removed"]) == (2, 1)
    assert sorted(data["added_sample"]) == sorted(DROPPED) and data["removed_sample"] == ["žolík"]
    # no sample: the counts only
    done = _hub("lexicon", "diff", str(old_path), str(new_path), "--sample", "0", data=tmp_path)
    assert done.stdout.splitlines()[2:] == ["B přidává 1 tvar:", "B odebírá 2 tvary:"]

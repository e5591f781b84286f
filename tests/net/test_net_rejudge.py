"""Re-judging the event against another lexicon with real processes: a kiosk's store logs
checks with the event's word list, a real ``station daemon`` carries them over the link to
a real ``hub serve`` on 127.0.0.1, and ``hub rejudge --lexicon`` (a real ``hub``) against a
second build that drops two words lists exactly the checks whose verdict those two decided
— round, table, words, old → new — in the operator's language; ``hub lexicon diff`` names
the two (counts and a sample)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from net_procs import BIN, Hub, Station, running, wait_for

from samoobsluha.shared.checks import prepare_words
from samoobsluha.shared.lexicon import Lexicon
from samoobsluha.station.log import KioskStore

pytestmark = pytest.mark.timeout(240)

WORDS = ["kůň", "koně", "čáp", "čápa", "ryba", "pes", "psa", "kočka", "kočky", "voda"]
DROPPED = ("čáp", "kočka")


def _hub(hub: Hub, *args: str, lang: str = "cs") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "hub"), *args],
        env={**hub.env, "SAMOOBSLUHA_LANG": lang},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _build(hub: Hub, folder: Path, name: str, words: list[str]) -> Path:
    source = folder / f"{name}.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = folder / f"{name}.lex"
    args = ("--lang", "cs", "--variant", name.upper(), "--max-length", "15", "-o", str(out))
    done = _hub(hub, "lexicon", "build", "--wordlist", str(source), *args)
    assert done.returncode == 0, done.stderr
    return out


def test_rejudge_over_checks_the_link_carried_lists_exactly_the_dropped_words(
    tmp_path: Path,
) -> None:
    hub = Hub(tmp_path / "hub").start()
    with running(hub):
        old_path = _build(hub, tmp_path, "stary", WORDS)
        new_path = _build(hub, tmp_path, "novy", [w for w in WORDS if w not in DROPPED])
        key = hub.issue_key("st-1", tmp_path / "st-1.key")
        folder = tmp_path / "st-1"
        folder.mkdir()
        store = KioskStore.open(folder / "station.db", "st-1")
        old = Lexicon.open(old_path)
        plays = [  # (table, round, words): what was checked, in order
            (1, 1, ["čáp", "pes"]),  # valid: ČÁP is dropped -> invalid
            (2, 1, ["voda"]),  # untouched
            (3, 1, ["kočka"]),  # valid -> invalid
            (4, 1, ["xyzq"]),  # invalid either way
            (5, 1, ["kočka", "xyzq"]),  # uses a dropped word, but was invalid already
            (6, 2, ["c+a-p", "ryba"]),  # ČÁP in round 2 -> invalid
            (7, 2, ["kočky", "čápa"]),  # other forms of the two survive
        ]
        at = time.time() - 3600
        for i, (table, round_no, words) in enumerate(plays):
            verdict = old.judge(prepare_words(words, old.alphabet))
            store.record_check(verdict, old.info, table_no=table, round_no=round_no, at=at + i)
        store.close()
        station = Station(folder, hub, "st-1", key_file=key).start()
        with running(station):
            wait_for(lambda: hub.count("st-1") >= len(plays), what="the checks at the hub")

        done = _hub(hub, "rejudge", "--lexicon", str(new_path))
        assert done.returncode == 1, done.stderr
        lines = done.stdout.splitlines()
        assert lines[0] == (
            f"Znovu posouzeno 7 kontrol slovníkem cs NOVY (sha256 "
            f"{Lexicon.open(new_path).info.sha256[:12]}…):"
        )
        missing = "— v novém slovníku chybí:"
        assert lines[1:] == [
            f"kolo 1 · stůl 1 · ČÁP PES: PLATNÉ → NEPLATNÉ (stanice st-1) {missing} ČÁP",
            f"kolo 1 · stůl 3 · KOČKA: PLATNÉ → NEPLATNÉ (stanice st-1) {missing} KOČKA",
            f"kolo 2 · stůl 6 · ČÁP RYBA: PLATNÉ → NEPLATNÉ (stanice st-1) {missing} ČÁP",
            "Jinak by dopadly 3 kontroly.",
        ]
        # the same in the other languages an operator may speak: no Czech, no English left
        other_languages = {
            "sk": ("kolo 1 · stôl 1 · ČÁP PES: PLATNÉ → NEPLATNÉ", "Inak by dopadli 3 kontroly."),
            "pl": ("runda 1 · stolik 1 · ČÁP PES: DOBRZE → ŹLE", "Inaczej skończyłyby się 3"),
            "en": ("round 1 · table 1 · ČÁP PES: VALID → NOT VALID", "3 checks would end"),
        }
        for lang, (line, summary) in other_languages.items():
            out = _hub(hub, "rejudge", "--lexicon", str(new_path), lang=lang).stdout.splitlines()
            assert out[1].startswith(line) and out[-1].startswith(summary), (lang, out)
        # the JSON names the lexicon each check was judged with
        done = _hub(hub, "rejudge", "--lexicon", str(new_path), "--round", "1", "--json")
        changed = json.loads(done.stdout)
        assert [(c["round_no"], c["table_no"], c["words"]) for c in changed] == [
            (1, 1, ["ČÁP", "PES"]),
            (1, 3, ["KOČKA"]),
        ]
        assert {(c["old"], c["new"], c["lexicon_sha256"]) for c in changed} == {
            ("valid", "invalid", old.info.sha256)
        }
        # judged with the list they were judged with: nothing changes
        done = _hub(hub, "rejudge", "--lexicon", str(old_path))
        assert done.returncode == 0 and done.stdout.splitlines()[1:] == [
            "Jinak by dopadlo 0 kontrol."
        ]

        # what the new build changes, counts and a sample
        done = _hub(hub, "lexicon", "diff", str(old_path), str(new_path))
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[2:] == [
            "B přidává 0 tvarů:",
            "B odebírá 2 tvary:",
            "  kočka čáp",
        ]

"""A whole check typed at 15 ms a key into ``station run`` on a real pseudo-terminal
(80×24) — from the idle screen, through the check form, to F10 — ends every time in
the verdict for the table typed; also with the kiosk's CPU shared by busy processes, as
on a slow Raspberry Pi. Outcomes only: the log's rows and the screen's text; the 15 ms
between keys is the typist being simulated, never a bound on the kiosk.

The closing key of each verdict is typed in the same burst as the next check, so the
screen changes verdict → idle → check happen under the keys too."""

from __future__ import annotations

from pathlib import Path

import pytest
from kiosk_pty import F10, STATION, Kiosk, busy_cpu, one_cpu

from samoobsluha.shared.lexicon import write_lexicon

PLAYS = [("13", "pes"), ("7", "les"), ("29", "xyz"), ("4", "kočka"), ("21", "dům"), ("10", "ďas")]
VALID = {"pes", "les", "kočka", "dům", "ďas"}

pytestmark = pytest.mark.skipif(not STATION.exists(), reason="station entry point not installed")


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lex") / "small.lex"
    write_lexicon(sorted(VALID), path, language="cs", variant="TEST", source="tests")
    return path


@pytest.mark.parametrize("busy", [0, 3], ids=["idle-cpu", "cpu-shared"])
def test_checks_typed_at_15_ms_a_key_end_in_their_verdicts(tmp_path, lexicon, busy) -> None:
    cpus = one_cpu() if busy else None
    kiosk = Kiosk(tmp_path / "data", lexicon, cpus)
    try:
        kiosk.wait("the idle screen", lambda: "Kontrola slov:" in kiosk.text())
        with busy_cpu(cpus, busy):
            for n, (table, word) in enumerate(PLAYS):
                closing = ["x"] if n else []  # closes the last verdict, in the same burst
                since = kiosk.mark()
                kiosk.type([*closing, *table, "\r", "1", "\r", *word, F10])
                kiosk.wait(f"check {n + 1}", lambda n=n: len(kiosk.rows()) > n)
                shown = "PLATNÉ" if word in VALID else "NEPLATNÉ"
                kiosk.wait(f"verdict {n + 1}", lambda s=since, w=shown: w in kiosk.text(s))
        rows = kiosk.rows()
    finally:
        kiosk.close()
    assert [(t, w) for t, w, _ in rows] == [(int(table), [word.upper()]) for table, word in PLAYS]
    assert [v for _, _, v in rows] == ["valid" if w in VALID else "invalid" for _, w in PLAYS]

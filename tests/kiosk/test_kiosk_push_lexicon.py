"""A pushed lexicon goes into use at a running kiosk, without a restart: real ``hub
serve``, ``hub push-lexicon`` and a linked ``station run`` on a pseudo-terminal.

Before the push a word only in the new lexicon is NEPLATNÉ; after it, at the next check
from the idle screen, it is PLATNÉ; the station reports the new SHA-256 both on disk and
in use, and the hub's stations report (the dashboard's lexicon column) says it is the
reference. The station's first lexicon is signed by the hub (``hub lexicon sign``), and
the pushed one arrives with the hub's signature: the station judges with both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kiosk_pty import F10, STATION, Kiosk
from net.net_procs import Hub, running, wait_for

from samoobsluha.shared.lexicon import read_info, write_lexicon

pytestmark = pytest.mark.skipif(not STATION.exists(), reason="station entry point not installed")

OLD = ["pes", "les", "kočka"]
NEW = [*OLD, "žirafa"]


def hub_status(hub: Hub, station: str) -> dict:
    for row in json.loads(hub.ctl("stations", "--json")):
        if row.get("station_id") == station:
            return dict(row["status"])
    return {}


def test_a_pushed_lexicon_is_used_by_the_running_kiosk(tmp_path: Path) -> None:
    old = tmp_path / "station-lex" / "cs.lex"
    old.parent.mkdir()
    write_lexicon(OLD, old, language="cs", variant="OLD", source="tests", max_length=15)
    new = tmp_path / "new.lex"
    write_lexicon(NEW, new, language="cs", variant="NEW", source="tests", max_length=15)
    new_sha = read_info(new).sha256
    hub = Hub(tmp_path / "hub").start()
    hub.ctl("lexicon", "sign", str(old))  # the card's lexicon, signed by this hub's key
    config = (
        '[station]\nname = "st-1"\n'
        f'[network]\ntournament_id = "{hub.tournament}"\npsk_file = "{hub.key_file}"\n'
        'station_id = "st-1"\n'
        '[gong]\naudio = "off"\n'
        "[kiosk]\nmin_interval = 0\nstation_min_interval = 0\nverdict_lock = 0\n"
    )
    kiosk = Kiosk(
        tmp_path / "station",
        old,
        config=config,
        args=("--hub", f"127.0.0.1:{hub.port}"),
    )
    with running(hub):
        try:
            kiosk.wait("the idle screen", lambda: "Kontrola slov:" in kiosk.text())
            wait_for(lambda: hub_status(hub, "st-1"), 60, "the station's first status")

            def check(table: str, word: str, shown: str) -> None:
                since = kiosk.mark()
                kiosk.type([*table, "\r", "1", "\r", *word, F10])
                kiosk.wait(f"{word}: {shown}", lambda: shown in kiosk.text(since))
                kiosk.type(["x"])  # back to idle
                kiosk.wait("the idle screen", lambda: "Kontrola slov:" in kiosk.text(since))

            check("3", "žirafa", "NEPLATNÉ")
            hub.ctl("push-lexicon", str(new))
            status = wait_for(
                lambda: (
                    (s := hub_status(hub, "st-1")).get("lexicon_in_use_sha256") == new_sha and s
                ),
                60,
                "the station to report the new lexicon in use",
            )
            assert status["lexicon_sha256"] == new_sha  # on disk
            # pushed with the hub's signature, written beside it: it judges as the hub's
            assert json.loads(Path(f"{old}.sig").read_text())["sha256"] == new_sha
            assert read_info(old).sha256 == new_sha  # the station's own file was replaced
            check("4", "žirafa", "PLATNÉ")
            assert hub_status(hub, "st-1")["lexicon_trust"] == "hub"
            rows = kiosk.rows()
        finally:
            kiosk.close()
    assert [(t, w, v) for t, w, v in rows] == [
        (3, ["ŽIRAFA"], "invalid"),
        (4, ["ŽIRAFA"], "valid"),
    ]

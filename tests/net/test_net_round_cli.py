"""What the referee's operator reads after ``hub round start``, ``pause``, ``cancel`` and
``hub gong`` on a real ``hub serve``: the round's start, warning and end on this machine's
clock and the stations that took it, in his language — not the hub's JSON record, which
``--json`` still gives scripts; a hall with no station connected is said, not hidden."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

from language_guard import english_on_screen
from net_procs import BIN, Hub, Station, running, wait_for


def _hub(hub: Hub, lang: str, *args: str) -> str:
    done = subprocess.run(
        [str(BIN / "hub"), *args],
        env={**hub.env, "SAMOOBSLUHA_LANG": lang},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


def test_round_and_gong_are_said_in_the_operators_language(tmp_path: Path) -> None:
    hub = Hub(tmp_path / "hub").start()
    with running(hub):
        alone = _hub(hub, "cs", "gong", "warning")
        assert "Žádná stanice není připojená: nic se neodeslalo" in alone
        st = Station(tmp_path / "st", hub, "st-1")
        with running(st):
            st.start()
            wait_for(lambda: json.loads(hub.ctl("stations", "--json")), 30, "the station")
            said = _hub(hub, "cs", "round", "start", "1", "--in", "30", "--warning", "300")
            plan = json.loads(hub.ctl("round", "list", "--json"))[0]["plan"]
            start, basic = plan["start_at"], plan["basic_seconds"]
            assert said.splitlines() == [
                f"1. kolo: začátek v {_clock(start)}, zbývá 5 min v "
                f"{_clock(start + basic - 300)}, konec v {_clock(start + basic)}",
                "Odesláno stanicím: st-1",
            ]
            assert "{" not in said and '"' not in said  # no record for the operator
            paused = _hub(hub, "cs", "round", "pause", "1")
            assert re.match(r"1\. kolo je přerušené \(od \d\d:\d\d:\d\d\)", paused), paused
            for lang in ("sk", "pl", "en"):
                text = _hub(hub, lang, "round", "resume", "1") + _hub(hub, lang, "gong", "end")
                assert "{" not in text and "st-1" in text, text
                if lang != "en":
                    leaks = english_on_screen(text, allowed={"st"}, lang=lang)
                    assert not leaks, (lang, leaks, text)
            record = json.loads(_hub(hub, "cs", "round", "cancel", "1", "--json"))
            assert record["plan"]["cancelled"] is True and record["sent_to"] == ["st-1"]
            assert _hub(hub, "cs", "round", "list", "--json")  # still readable
            gong = json.loads(_hub(hub, "cs", "gong", "start", "--json"))
            assert gong["sent_to"] == ["st-1"] and gong["at"] > 0

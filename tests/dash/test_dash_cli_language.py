"""The ``hub`` commands speak the command line's language: every summary and every
refusal (the service's, the tournament's, the control socket's) in Czech and in Slovak,
with nothing English in them — the terminal counterpart of test_dash_language."""

from __future__ import annotations

from pathlib import Path

import pytest
from dash_testkit import check, deliver, station_store
from language_guard import english_on_screen

from samoobsluha.hub.cli import main
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.lexicon import Lexicon

# (argv, exit code): summaries and the refusals an operator meets.
COMMANDS: list[tuple[list[str], int]] = [
    (["hall"], 1),  # too few stations: the summary and its warnings
    (["enter", "1", "1 412 389", "2 300 350 2"], 0),  # echo, ZH warning
    (["enter", "1", "1 100 200"], 2),  # the operator already entered it
    (["enter", "1", "99 400 300"], 2),  # no such table
    (["enter", "7", "1 400 300"], 2),  # round not paired
    (["overview", "1"], 0),
    (["challenges"], 0),
    (["challenges", "penalties"], 0),
    (["challenges", "requests"], 0),
    (["challenges", "mark", "no/such/1", "1"], 2),
    (["rejected"], 0),
    (["schedule"], 0),
    (["schedule", "--set", "warning_minutes=90"], 2),  # warning after the end
    (["schedule", "start", "1", "--at", "25:61"], 2),
    (["schedule", "start", "42"], 2),  # not in the day's schedule
    (["publish-round", "1"], 2),  # tables without a result
    (["publish-pairings", "1"], 2),  # no server running
    (["dispute"], 0),
    (["players", "list"], 0),
    (["players", "add", "Nový Hráč"], 0),
    (["round", "pair", "3"], 2),  # the next round to pair is 2
    (["round", "pair", "2"], 2),  # round 1 is not complete
    (["round", "pair", "1", "--explain"], 2),  # round 1 already has results
    (["result", "add", "1", "1", "1", "2", "400", "300"], 2),  # not that table's players
    (["result", "add", "1", "3", "2", "7", "999", "300"], 0),  # an unusual score: warning
    (["result", "add", "1", "4", "4", "5", "2500", "300"], 2),  # score out of range
    (["tournament", "missing", "1"], 1),
    (["tournament", "finalise", "1"], 2),  # results not approved yet
    (["time", "status"], 0),
]


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_hub_commands_speak_the_language(
    service: HubService,
    clock: FakeClock,
    tmp_path: Path,
    small_lexicon_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    st = station_store(tmp_path, "st-1")
    check(st, Lexicon.open(small_lexicon_path), ["kůň"], 2, clock.now() - 30)
    st.record_refusal(table_no=2, round_no=1, reason="rate_cap", at=clock.now() - 10)
    deliver(service, st, clock.now())
    with service._tour() as tour:
        names = {w for p in tour.players() for w in p.name.split()}
    allowed = names | {"Nový", "Hráč", "TEST"}  # TEST: the lexicon variant
    for argv, expected in COMMANDS:
        code = main(argv)
        out, err = capsys.readouterr()
        text = out + err
        assert code == expected, f"{argv}: exit {code}\n{text}"
        assert text.strip() or not expected, f"{argv}: refused without a word"
        assert "Traceback" not in text
        # "hub result: …" names the command typed: an identifier, not language.
        leaks = english_on_screen(text, allowed=allowed | {argv[0]}, lang=lang)
        assert not leaks, f"{lang} hub {' '.join(argv)}: English {leaks} in:\n{text}"


def test_the_same_commands_speak_english_when_asked(
    service: HubService, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    assert main(["enter", "1", "99 400 300"]) == 2
    assert capsys.readouterr().err == "hub: 99 400 300: round 1 has no table 99\n"
    assert main(["round", "pair", "3"]) == 2
    assert "the next round to pair is 2" in capsys.readouterr().err
    assert main(["hall"]) == 1
    assert "need 1 station (ČAS 15.8e); 0 of 0 online" in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_hub_stations_speaks_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """``hub stations`` (the running server's view; its reply stood in for here)."""
    import time

    from samoobsluha.hub.commands import serve

    row = {
        "station_id": "st-01",
        "connected": True,
        "last_seen": time.time() - 3,
        "contiguous": 120,
        "stalled": True,
        "revoked": True,
        "cut_off": "sent without waiting for acknowledgements",  # English: the log's
        "over_budget": True,
        "rejected": 2,
        "status": {"backlog": 4, "clock_synced": False, "clock_offset": -0.0123,
                   "clock_uncertainty": 0.0021, "version": "0.1.0",
                   "lexicon_trust": "unsigned", "rows_lost": 3},
    }  # fmt: skip
    info = {  # another hub of the tournament announced, and the backups failing
        "rivals": [{"hub": "hub-2", "addresses": ["192.168.8.12"], "port": 47820,
                    "same_key": True}],
        "backup": {"folder": "/media/usb", "error": "No space left on device"},
    }  # fmt: skip
    monkeypatch.setattr(serve, "_call", lambda op, **args: [row] if op == "stations" else info)
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    assert main(["stations"]) == 0
    out = capsys.readouterr().out
    two_hubs = {"cs": "DVA HUBY: jeden vypněte!", "sk": "DVA HUBY: jeden vypnite!",
                "pl": "DWA HUBY: wyłącz jeden!"}  # fmt: skip
    assert out.startswith(two_hubs[lang])
    assert "192.168.8.12:47820" in out.splitlines()[0]
    assert ("KOPIE ZAPASOWE" if lang == "pl" else "ZÁLOHY") in out.splitlines()[1]
    assert "−0,012 s ±2,1 ms" in out  # decimal commas
    # its lexicon refused (not signed by this hub), its WAL lost 3 confirmed rows
    refused = {"cs": "SLOVNÍK ODMÍTNUT", "sk": "SLOVNÍK ODMIETNUTÝ", "pl": "SŁOWNIK ODRZUCONY"}
    lost = {"cs": "CHYBÍ 3 POTVRZENÉ ZÁZNAMY", "sk": "CHÝBAJÚ 3 POTVRDENÉ ZÁZNAMY",
            "pl": "BRAK 3 POTWIERDZONYCH ZAPISÓW"}  # fmt: skip
    assert refused[lang] in out and lost[lang] in out
    # „hub rejected“: a command; the backup error is the operating system's own words
    leaks = english_on_screen(
        out, allowed={"hub", "rejected", "No", "space", "left", "on", "device"}, lang=lang
    )
    assert not leaks, f"{lang}: English {leaks} in:\n{out}"


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_hub_stations_says_why_backups_fail_in_the_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
) -> None:
    """The real backups into a "folder" that is a file; their status carried as the
    control socket carries it (msgpack): the reason in the operator's words, not the
    system's English."""
    import msgpack

    from samoobsluha.hub import store
    from samoobsluha.hub.backup import Backups, BackupSettings
    from samoobsluha.hub.commands import serve
    from samoobsluha.shared.storage import open_db

    db = open_db(tmp_path / "hub.db", store.migrations)
    store.ensure_identity(db)
    db.close()
    stick = tmp_path / "usb"
    stick.write_text("")  # not a folder
    auto = Backups(tmp_path / "hub.db", BackupSettings(folder=stick))
    assert auto.run(1_800_000_000.0) is None
    info = msgpack.unpackb(msgpack.packb({"backup": auto.status()}))
    monkeypatch.setattr(serve, "_call", lambda op, **args: [] if op == "stations" else info)
    monkeypatch.setenv("SAMOOBSLUHA_LANG", lang)
    assert main(["stations"]) == 0
    out = capsys.readouterr().out
    why = {"cs": "už existuje", "sk": "už existuje", "pl": "już istnieje"}[lang]
    assert out.splitlines()[0].endswith(f"{stick}: {stick}: {why}"), out
    assert not english_on_screen(out, lang=lang), out
    assert "exists" in str(auto.status()["error"])  # scripts (--json) still get the English

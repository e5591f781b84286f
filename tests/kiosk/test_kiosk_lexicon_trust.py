"""A station judges only with a lexicon the hub it pins signed, or one the referee
accepted at the station with the PIN (shared/lextrust.py decides; station/lexicons.py
keeps the answer for the lexicon in use), and its idle screen says which.

Real parts throughout: lexicon files written by the real writer and signed with the
hub's real Ed25519 key (``HallKeys``, as ``hub lexicon sign``, a push and provisioning
sign them), the kiosk built by the runtime's ``build_kiosk`` over a real station
database, typed into with Textual's Pilot; for the push, a real hub on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from kiosk_pilot import settle, start_check, type_text
from testkit import hub_for_a_station, hub_signed, until
from textual.widgets import Label

from samoobsluha.hub import store as hub_store
from samoobsluha.shared.checks import hash_pin
from samoobsluha.shared.lexicon import Status, read_info, write_lexicon
from samoobsluha.shared.lextrust import Trust, signature_path
from samoobsluha.shared.protocol import HallKeys, new_psk
from samoobsluha.shared.storage import open_db
from samoobsluha.station import config as station_config
from samoobsluha.station import outbox
from samoobsluha.station.runtime import RuntimeOptions, StationRuntime, build_kiosk
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.referee import ConfirmScreen, PinScreen, RefereeScreen
from samoobsluha.station.screens.verdict import ErrorScreen, VerdictScreen

SIZE = (80, 24)
WORDS = ["pes", "les", "kočka", "čáp"]
PIN = "471147"
HUB = new_psk()  # the hall secret of the hub this station pins
OTHER = new_psk()  # another hub's (a lexicon made at home with a key of one's own)


def _lexicon(folder: Path, words: list[str] = WORDS, variant: str = "TEST") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cs.lex"
    write_lexicon(words, path, language="cs", variant=variant, source="tests", max_length=9)
    return path


def _kiosk(tmp_path: Path, lexicon: Path, hub_public: bytes | None) -> Any:
    conf = tmp_path / "station.toml"
    conf.write_text(
        '[station]\nname = "st-1"\n\n'
        "[kiosk]\nmin_interval = 0\nstation_min_interval = 0\nverdict_lock = 0\n",
        encoding="utf-8",
    )
    return build_kiosk(
        station_config.load(conf),
        lexicon=lexicon,
        db_path=tmp_path / "station.db",
        hub_public=hub_public,
    )


def _pinned() -> bytes:
    return HallKeys(HUB).public_key


def _trust_line(app: Any) -> str:
    return str(app.screen.query_one("#lexicon-trust", Label).content)


async def _idle(pilot: Any) -> None:
    app = pilot.app
    await settle(pilot)
    await until(lambda: app.lexicons.trust is not None and isinstance(app.screen, IdleScreen))
    await pilot.pause()


async def _check(pilot: Any, table: str, word: str) -> None:
    await start_check(pilot, table, "1")
    await type_text(pilot, word)
    await pilot.press("enter")
    await pilot.press("f10")
    await settle(pilot)


def _rows(app: Any) -> list[dict[str, Any]]:
    return app.store.recent()


async def test_an_unsigned_lexicon_is_refused_with_a_clear_screen(tmp_path: Path) -> None:
    """A lexicon built at home from any word list (a good SHA-256, no hub signature): the
    idle screen says it is refused, a digit shows the refusal instead of the check form
    (call the referee), and nothing is judged or logged."""
    app = _kiosk(tmp_path, _lexicon(tmp_path / "lex"), _pinned())
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.UNSIGNED
        assert "nepodepsaný hubem" in _trust_line(app)
        assert app.screen.query_one("#lexicon-trust", Label).has_class("-refused")
        await pilot.press("5")
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
        text = str(app.screen.query_one("#verdict-reason", Label).content)
        assert "nepodepsal hub turnaje" in text and "Zavolejte rozhodčího" in text
        # the judging path itself refuses too (a check already under way, a race)
        app.judge_and_log(5, ())
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
    assert _rows(app) == []
    assert outbox.pending(app.store.db) == []


async def test_a_signed_lexicon_judges_and_the_idle_screen_says_so(tmp_path: Path) -> None:
    lexicon = hub_signed(_lexicon(tmp_path / "built"), tmp_path / "card", HUB)
    app = _kiosk(tmp_path, lexicon, _pinned())
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.HUB
        assert _trust_line(app) == "Slovník podepsaný hubem"
        await _check(pilot, "5", "kočka")
        assert isinstance(app.screen, VerdictScreen)
        assert app.screen.verdict.status is Status.VALID
    assert [r["status"] for r in _rows(app)] == ["valid"]


async def test_a_lexicon_signed_by_another_key_is_refused(tmp_path: Path) -> None:
    lexicon = hub_signed(_lexicon(tmp_path / "built"), tmp_path / "card", OTHER)
    app = _kiosk(tmp_path, lexicon, _pinned())
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.BAD_SIGNATURE
        assert "nepatří hubu" in _trust_line(app)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
    assert _rows(app) == []


async def test_a_station_without_a_pinned_key_judges_and_says_not_verified(
    tmp_path: Path,
) -> None:
    """A standalone station (no tournament, no key file: a developer's setup) pins no
    hub key: it judges with its lexicon and says that it is not verified."""
    app = _kiosk(tmp_path, _lexicon(tmp_path / "lex"), None)
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.UNPINNED
        assert "neověřený" in _trust_line(app)
        await _check(pilot, "3", "pes")
        assert isinstance(app.screen, VerdictScreen)
    assert [r["status"] for r in _rows(app)] == ["valid"]


async def _accept_with_pin(pilot: Any) -> None:
    app = pilot.app
    app.store.set_referee_pin(hash_pin(PIN), 0.0)
    await pilot.press("f12")
    await settle(pilot)
    assert isinstance(app.screen, PinScreen)
    await type_text(pilot, PIN)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, ConfirmScreen)
    question = str(app.screen.query_one("#confirm-question", Label).content)
    assert app.lexicons.current.info.sha256[:16] in question
    await pilot.press("a")
    await settle(pilot)
    await until(lambda: isinstance(app.screen, RefereeScreen))
    await pilot.press("escape")
    await settle(pilot)


async def test_the_referee_accepts_a_lexicon_with_the_pin_for_that_sha_only(
    tmp_path: Path,
) -> None:
    """Accepted with the PIN: it judges, the acceptance is logged with its time and
    SHA-256 (and queued for the hub), the idle screen says "accepted by the referee";
    after a restart the same file still judges, a replaced one does not."""
    lexicon = _lexicon(tmp_path / "lex")
    sha = read_info(lexicon).sha256
    app = _kiosk(tmp_path, lexicon, _pinned())
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.UNSIGNED
        await _accept_with_pin(pilot)
        assert isinstance(app.screen, IdleScreen)
        assert app.lexicons.trust is Trust.REFEREE
        await until(lambda: _trust_line(app) == "Slovník schválený rozhodčím")
        await _check(pilot, "7", "čáp")
        assert isinstance(app.screen, VerdictScreen)
        assert app.screen.verdict.status is Status.VALID
    logged = list(app.store.db.query("SELECT * FROM lexicon_acceptances"))
    assert [(r["sha256"], r["trust_before"]) for r in logged] == [(sha, "unsigned")]
    assert logged[0]["at"] > 0
    sent = [p for p in outbox.pending(app.store.db) if p["kind"] == "lexicon_accepted"]
    assert [p["payload"]["sha256"] for p in sent] == [sha]
    assert sent[0]["payload"]["station_id"] == "st-1"
    # the hub takes the row as the link delivers it, and keeps it
    hub_db = open_db(tmp_path / "hub.db", hub_store.migrations)
    rows = [
        [p["seq"], p["kind"], json.dumps(p["payload"]), p["created_at"]]
        for p in outbox.pending(app.store.db)
    ]
    hub_store.ingest(hub_db, [("st-1", outbox.meta(app.store.db, "station_epoch"), rows)], 1.0)
    kept = hub_store.inbox_records(hub_db, "lexicon_accepted")
    assert [r.record.sha256 for r in kept] == [sha]  # type: ignore[attr-defined]
    hub_db.close()
    app.store.close()

    again = _kiosk(tmp_path, lexicon, _pinned())  # a restart: the same file judges
    async with again.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert again.lexicons.trust is Trust.REFEREE
        await _check(pilot, "8", "pes")
        assert isinstance(again.screen, VerdictScreen)
    again.store.close()

    _lexicon(tmp_path / "lex", [*WORDS, "xqzvw"])  # replaced in place: another SHA-256
    replaced = _kiosk(tmp_path, lexicon, _pinned())
    async with replaced.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert replaced.lexicons.trust is Trust.UNSIGNED
        await pilot.press("9")
        await settle(pilot)
        assert isinstance(replaced.screen, ErrorScreen)
    assert [r["table_no"] for r in replaced.store.recent()] == [8, 7]
    replaced.store.close()


async def test_a_re_signed_or_replaced_file_is_checked_again(tmp_path: Path) -> None:
    """The signature is read at every start and for every lexicon offered: a file
    replaced under a good signature, or a signature replaced by another hub's, is
    refused; signed again by the hub, it judges."""
    lexicon = hub_signed(_lexicon(tmp_path / "built"), tmp_path / "card", HUB)

    async def trust_at_start() -> Trust:
        app = _kiosk(tmp_path, lexicon, _pinned())
        async with app.run_test(size=SIZE) as pilot:
            await _idle(pilot)
            trust = app.lexicons.trust
        app.store.close()
        return trust

    assert await trust_at_start() is Trust.HUB
    good_sig = Path(signature_path(lexicon)).read_text()
    # another word list under the hub's signature of the first: its header is not the signed one
    shutil.copyfile(_lexicon(tmp_path / "home", [*WORDS, "xqzvw"]), lexicon)
    assert await trust_at_start() is Trust.BAD_SIGNATURE
    hub_signed(lexicon, tmp_path / "card", HUB)  # the hub signs it (`hub lexicon sign`)
    assert await trust_at_start() is Trust.HUB
    # the signature replaced by one of another key
    hub_signed(lexicon, tmp_path / "card", OTHER)
    assert await trust_at_start() is Trust.BAD_SIGNATURE
    assert json.loads(good_sig)["sha256"] != read_info(lexicon).sha256

    # offered while the kiosk runs (a push): decided for the new file before it is in use
    lexicon = hub_signed(lexicon, tmp_path / "card", HUB)
    app = _kiosk(tmp_path, lexicon, _pinned())
    async with app.run_test(size=SIZE) as pilot:
        await _idle(pilot)
        assert app.lexicons.trust is Trust.HUB
        unsigned = _lexicon(tmp_path / "push", [*WORDS, "žába"])
        assert await app.lexicons.offer(unsigned)
        await until(lambda: app.lexicons.pending is None)  # swapped in at the idle moment
        assert app.lexicons.trust is Trust.UNSIGNED
        await until(lambda: "nepodepsaný" in _trust_line(app))
        await pilot.press("4")
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
    app.store.close()


async def test_the_hub_sends_its_signed_lexicon_to_a_station_that_refuses_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A station whose card built its own lexicon (the same words as the hub's, no
    signature): its status says "unsigned", and the hub sends it the published lexicon
    with its signature; the kiosk then judges with it, signed by the hub."""
    hub = await hub_for_a_station(tmp_path, monkeypatch)
    try:
        published = _lexicon(tmp_path / "hub-lex")
        await hub.push_lexicon(published)  # no station yet: published for later joiners
        own = tmp_path / "card" / "cs.lex"
        own.parent.mkdir()
        shutil.copyfile(published, own)  # the same SHA-256, but no signature beside it
        conf = tmp_path / "station.toml"
        conf.write_text(
            '[station]\nname = "st-1"\n\n'
            "[kiosk]\nmin_interval = 0\nstation_min_interval = 0\nverdict_lock = 0\n\n"
            f'[network]\ntournament_id = "{hub.tournament}"\nhub = "127.0.0.1:{hub.port}"\n'
            f'psk_file = "{tmp_path / "tournament.key"}"\nstation_id = "st-1"\n\n'
            '[gong]\naudio = "off"\n',
            encoding="utf-8",
        )
        options = RuntimeOptions(kiosk=True, headless=True, lexicon=own)
        runtime = StationRuntime(station_config.load(conf), options, pin_factory=MockFactory())
        main = asyncio.create_task(runtime.main())
        try:
            await until(lambda: runtime.app is not None and runtime.app.is_running)
            app: Any = runtime.app
            await until(lambda: app.lexicons.trust is Trust.HUB, timeout=60)
            assert Path(signature_path(own)).exists()
            def reported() -> Any:
                conn = hub.conns.get("st-1")
                return conn is not None and conn.status.get("lexicon_trust") == "hub"

            await until(reported)
        finally:
            runtime.stop()
            await asyncio.wait_for(main, 30)
    finally:
        await hub.close()

"""The lexicon in use (station/lexicons.py): a new one goes into use at the kiosk's next
idle moment, never in the middle of a check; verification stamps spare the hash of an
unchanged file and never vouch for a changed one."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from fuzz_typing import type_raw
from kiosk_pilot import settle

from samoobsluha.shared.lexicon import Lexicon, LexiconError, write_lexicon
from samoobsluha.station.lexicons import LexiconInUse, open_lexicon, stamped_sha256
from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.verdict import VerdictScreen


@pytest.fixture
def new_lexicon(tmp_path: Path) -> Lexicon:
    path = tmp_path / "new.lex"
    write_lexicon(["pes", "žirafa"], path, language="cs", variant="NEW", source="t", max_length=9)
    return Lexicon.open(path)


async def test_a_new_lexicon_waits_for_the_idle_screen(make_app, store, new_lexicon) -> None:
    app = make_app(verdict_lock=0.0)
    old_sha = app.lexicon.info.sha256
    swapped: list[str] = []
    app.lexicons.add_listener(lambda lex: swapped.append(lex.info.sha256))
    async with app.run_test(size=(80, 24)) as pilot:
        # a check under way: the table and the word typed, not yet confirmed
        await type_raw(pilot, "5\r1\ržirafa")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
        app.lexicons.offer_opened(new_lexicon)  # pushed meanwhile
        for _ in range(3):
            app._tick()  # the kiosk's own timer: not idle, so no swap
            await pilot.pause()
        assert app.lexicon.info.sha256 == old_sha and not swapped
        await type_raw(pilot, "", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
        assert not app.screen.verdict.valid  # judged with the lexicon it started with
        await type_raw(pilot, "x")  # back to idle: the new one goes into use
        await settle(pilot)
        assert isinstance(app.screen, IdleScreen)
        assert app.lexicon is new_lexicon and swapped == [new_lexicon.info.sha256]
        assert app.lexicons.in_use_sha256 == app.lexicons.on_disk_sha256
        await type_raw(pilot, "6\r1\ržirafa", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen) and app.screen.verdict.valid
    rows = store.recent()
    assert [(r["table_no"], r["status"], r["lexicon_variant"]) for r in rows] == [
        (6, "valid", "NEW"),
        (5, "invalid", "TEST"),
    ]


async def test_a_verdict_prepared_with_the_old_lexicon_is_never_shown(
    make_app, store, new_lexicon
) -> None:
    """A check abandoned after its verdict was prepared, the lexicon swapped, the same
    play typed again: judged again, with the new lexicon."""
    app = make_app(verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "5\r1\ržirafa\r")  # every word in: the verdict is prefilled
        await settle(pilot)
        assert app._prefilled is not None
        app.lexicons.offer_opened(new_lexicon)
        await type_raw(pilot, "\x1b\x1b\x1b")  # Escape back to idle: swapped there
        await settle(pilot)
        assert isinstance(app.screen, IdleScreen) and app.lexicon is new_lexicon
        await type_raw(pilot, "5\r1\ržirafa", "f10")
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen) and app.screen.verdict.valid
    assert store.recent()[0]["lexicon_variant"] == "NEW"


async def test_offer_refuses_a_file_that_is_not_a_lexicon(tmp_path, small_lexicon) -> None:
    owner = LexiconInUse(small_lexicon)
    junk = tmp_path / "junk.lex"
    junk.write_bytes(b"SAMOLEX1 not really")
    assert not await owner.offer(junk)
    assert owner.pending is None and owner.take_pending() is None
    assert owner.current is small_lexicon


def test_a_stamp_spares_the_hash_of_an_unchanged_file(tmp_path: Path) -> None:
    path = tmp_path / "cs.lex"
    stamps = tmp_path / "stamps.json"
    write_lexicon(["pes", "les"], path, language="cs", variant="T", source="t")
    assert stamped_sha256(path, stamps=stamps) is None
    first = open_lexicon(path, stamps=stamps)  # checked, then stamped
    assert stamped_sha256(path, stamps=stamps) == first.info.sha256
    trusted = open_lexicon(path, stamps=stamps)
    assert trusted._verified and trusted._verifier is None  # no hash this time
    assert trusted.contains("pes")


def test_a_changed_file_is_checked_again(tmp_path: Path) -> None:
    """Same size, same modification time, one byte of the payload flipped: the change
    time differs, the stamp no longer vouches, and the hash finds the damage."""
    path = tmp_path / "cs.lex"
    stamps = tmp_path / "stamps.json"
    write_lexicon(["pes", "les", "kočka"], path, language="cs", variant="T", source="t")
    open_lexicon(path, stamps=stamps)
    before = os.stat(path)
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x01
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    assert stamped_sha256(path, stamps=stamps) is None
    with pytest.raises(LexiconError):
        open_lexicon(path, stamps=stamps)


def test_a_background_check_stamps_once_it_passes(tmp_path: Path) -> None:
    path = tmp_path / "cs.lex"
    stamps = tmp_path / "stamps.json"
    write_lexicon(["pes"], path, language="cs", variant="T", source="t")
    lexicon = open_lexicon(path, verify="background", stamps=stamps)
    lexicon.wait_verified()
    deadline = time.monotonic() + 60  # generous: the stamp follows the check at once
    while stamped_sha256(path, stamps=stamps) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert stamped_sha256(path, stamps=stamps) == lexicon.info.sha256

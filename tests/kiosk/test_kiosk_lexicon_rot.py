"""A lexicon that rotted on the card (one 4 KiB block flipped, size and times unchanged,
so its verification stamp still matches) is refused before it judges anything: the
kiosk hashes the content at every start, beside the idle screen, and maps the trie only
once the hash matched. Real Czech lexicon, real station database, the app under Pilot."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from fuzz_typing import type_raw
from kiosk_pilot import settle

from samoobsluha.shared.lexicon import Lexicon, LexiconError
from samoobsluha.station.lexicons import open_lexicon, stamped_sha256
from samoobsluha.station.screens.verdict import ErrorScreen, VerdictScreen

BLOCK = 4096


def rot_one_block(path: Path, stamps: Path, at: float) -> None:
    """Flip every bit of one 4 KiB block at ``at`` of the file, as a dying card would:
    same size, same times; the stamp is made to match the file as it is now (ext4 would
    not have changed its change time either)."""
    st = os.stat(path)
    size = st.st_size
    offset = (int(size * at) // BLOCK) * BLOCK
    with path.open("r+b") as fh:
        fh.seek(offset)
        block = fh.read(BLOCK)
        fh.seek(offset)
        fh.write(bytes(b ^ 0xFF for b in block))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    data = json.loads(stamps.read_text())
    [entry] = data.values()
    now = os.stat(path)
    entry["file"] = [now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns, now.st_ctime_ns]
    stamps.write_text(json.dumps(data))


@pytest.fixture
def rotted(tmp_path: Path, cs_lexicon_path: Path) -> tuple[Path, Path]:
    path = tmp_path / "cs.lex"
    shutil.copyfile(cs_lexicon_path, path)
    stamps = tmp_path / "lexicon-verified.json"
    good = open_lexicon(path, verify="now", stamps=stamps)  # checked once, stamped
    sha = good.info.sha256
    del good
    rot_one_block(path, stamps, 0.5)
    assert stamped_sha256(path, stamps=stamps) == sha  # the stamp still vouches for it
    return path, stamps


@pytest.mark.parametrize("at", [0.5, 0.9])
def test_the_kiosk_open_refuses_a_rotted_lexicon_and_never_maps_it(
    tmp_path: Path, cs_lexicon_path: Path, at: float
) -> None:
    path = tmp_path / "cs.lex"
    shutil.copyfile(cs_lexicon_path, path)
    stamps = tmp_path / "lexicon-verified.json"
    open_lexicon(path, verify="now", stamps=stamps)
    rot_one_block(path, stamps, at)
    lexicon = open_lexicon(path, verify="background", stamps=stamps)
    with pytest.raises(LexiconError, match="SHA-256"):
        lexicon.wait_verified()
    assert lexicon._trie is None  # marisa never read the damaged payload
    from samoobsluha.shared.normalize import Word

    with pytest.raises(LexiconError):
        lexicon.judge((Word("kůň"),))


def test_the_trusting_open_is_what_judged_wrongly(rotted: tuple[Path, Path]) -> None:
    """What the kiosk did before: trusted by the stamp, the rotted file opens and maps."""
    path, stamps = rotted
    lexicon = open_lexicon(path, verify="now", stamps=stamps)
    assert lexicon._trie is not None  # trusted: no hash, the damage is in use


async def test_the_kiosk_shows_the_refusal_and_logs_no_verdict(
    make_app, store, rotted: tuple[Path, Path]
) -> None:
    path, stamps = rotted
    lexicon = open_lexicon(path, verify="background", stamps=stamps)
    app = make_app(lexicon=lexicon, verdict_lock=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_raw(pilot, "5\r1\rkůň", "f10")
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
        assert not isinstance(app.screen, VerdictScreen)
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Slovník nelze použít" in text and "SHA-256" in text
    assert store.recent() == []  # nothing judged, nothing recorded


def test_a_sound_lexicon_still_judges_after_its_background_check(
    tmp_path: Path, cs_lexicon_path: Path
) -> None:
    path = tmp_path / "cs.lex"
    shutil.copyfile(cs_lexicon_path, path)
    lexicon = open_lexicon(path, verify="background", stamps=tmp_path / "s.json")
    assert lexicon.contains("kůň") and not lexicon.contains("xqzvw")
    assert isinstance(lexicon, Lexicon) and lexicon._trie is not None

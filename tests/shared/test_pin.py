"""The referee PIN policy (shared/pin.py): long enough, an expensive salted hash, one salt
per station, old hashes refused rather than trusted, and key files private whatever was
there before. Costs are checked as parameters, never as wall-clock times (bench/pin.py
measures those)."""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

import pytest

from samoobsluha.shared.i18n import error_text
from samoobsluha.shared.paths import write_private
from samoobsluha.shared.pin import (
    MAX_MEMORY,
    MIN_COST,
    PIN_MIN_LENGTH,
    SCRYPT_N,
    SCRYPT_P,
    SCRYPT_R,
    PinError,
    PinHashState,
    check_new_pin,
    hash_pin,
    hash_pin_for,
    is_pin_hash,
    pin_hash_state,
    verify_pin,
)

PIN = "86429753"


def old_hash(pin: str, n: int = 2**14, r: int = 8, p: int = 1) -> str:
    """A hash as the old policy made it (4-character PINs allowed, scrypt N=2**14, p=1)."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


def test_the_policy_makes_the_whole_space_expensive() -> None:
    """At least six characters (10**6 PINs of digits, the worst case) and at least the
    cost bench/pin.py measures at 160 ms a guess; memory a Pi can spare."""
    assert PIN_MIN_LENGTH >= 6
    assert SCRYPT_N * SCRYPT_R * SCRYPT_P == MIN_COST >= 2**19
    assert 128 * SCRYPT_N * SCRYPT_R <= MAX_MEMORY <= 128 * 2**20


@pytest.mark.parametrize("pin", ["", "4711", "12345", "ěščřžý", " 123456", "123456\t", "1" * 33])
def test_short_or_odd_pins_are_refused_in_the_users_language(pin: str) -> None:
    with pytest.raises(PinError) as caught:
        hash_pin(pin)
    assert "alespoň 6 znaků" in error_text(caught.value, "cs")
    assert "aspoň 6 znakov" in error_text(caught.value, "sk")
    assert "at least 6 characters" in error_text(caught.value, "en")


def test_hash_is_salted_current_and_verifies() -> None:
    a, b = hash_pin(PIN), hash_pin(PIN)
    assert a != b and PIN not in a
    assert a.split("$")[:4] == ["scrypt", str(SCRYPT_N), str(SCRYPT_R), str(SCRYPT_P)]
    assert pin_hash_state(a) is PinHashState.OK and is_pin_hash(a)
    assert verify_pin(PIN, a) and verify_pin(PIN, b)
    assert not verify_pin("86429754", a)
    check_new_pin("abc-DEF")  # letters are fine: only a larger space


def test_every_station_gets_its_own_salt() -> None:
    hashes = hash_pin_for(PIN, ["st-2", "st-1", "st-3", "st-1"])
    assert sorted(hashes) == ["st-1", "st-2", "st-3"]
    salts = {h.split("$")[4] for h in hashes.values()}
    assert len(salts) == 3
    assert all(verify_pin(PIN, h) for h in hashes.values())
    assert hash_pin_for(PIN, []) == {}
    with pytest.raises(PinError):
        hash_pin_for("4711", ["st-1"])


def test_an_old_hash_is_outdated_and_opens_nothing() -> None:
    """Migration: a hash made under the old policy cannot tell how long its PIN was (4
    digits fell to an offline search in minutes), so it is refused, not trusted; the
    kiosk says a new PIN must be set."""
    old = old_hash("4711")
    assert pin_hash_state(old) is PinHashState.OUTDATED
    assert is_pin_hash(old)  # well-formed: the kiosk can say why it refuses
    assert not verify_pin("4711", old)
    # an old-cost hash of a long PIN is just as outdated
    assert not verify_pin(PIN, old_hash(PIN))


@pytest.mark.parametrize(
    "stored",
    [
        "1234",
        "scrypt$",
        "bcrypt$16384$8$1$00$00",
        f"scrypt$3$8$1${'00' * 16}${'00' * 32}",  # N not a power of two
        f"scrypt${2**15}$8$2${'zz' * 16}${'00' * 32}",
        f"scrypt${2**15}$8$2${'00' * 16}${'00' * 4}",  # digest too short to mean anything
        # would take a Pi minutes or more memory than it has: never run
        f"scrypt${2**20}$8$1${'00' * 16}${'00' * 32}",
        f"scrypt${2**15}$8$64${'00' * 16}${'00' * 32}",
    ],
)
def test_malformed_or_absurd_hashes_are_invalid(stored: str) -> None:
    assert pin_hash_state(stored) is PinHashState.INVALID
    assert not is_pin_hash(stored)
    assert not verify_pin(PIN, stored)


def test_no_hash_is_none() -> None:
    assert pin_hash_state("") is PinHashState.NONE
    assert pin_hash_state(None) is PinHashState.NONE


def test_key_file_over_a_world_readable_one_is_private(tmp_path: Path) -> None:
    """Written 0600 whatever existed before: a 0644 file is replaced (not rewritten in
    place, which would keep its mode), a symlink is replaced rather than followed."""
    path = tmp_path / "st-1.key"
    path.write_text("old\n")
    path.chmod(0o644)
    write_private(path, "secret\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == "secret\n"

    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("untouched\n")
    link = tmp_path / "link.key"
    link.symlink_to(elsewhere)
    write_private(link, "secret\n")
    assert not link.is_symlink() and stat.S_IMODE(link.stat().st_mode) == 0o600
    assert elsewhere.read_text() == "untouched\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "link.key", "st-1.key"]

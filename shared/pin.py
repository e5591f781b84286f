"""The referee PIN as both sides store it: a salted scrypt hash, never the PIN itself.

The hub hashes a PIN it pushes to the stations (``hub pin set``, the dashboard's F1 ``p``)
once per station, each with its own salt (:func:`hash_pin_for`); a station hashes one set
at the kiosk or with ``station pin set``; only a station verifies.

The threat is a copied station card: its database holds the hash, and whoever holds it can
try every PIN offline at their own speed. The cost below makes that slow: at least
``PIN_MIN_LENGTH`` characters (the worst case, digits only, is 10**6 PINs) and scrypt at
``SCRYPT_N``/``SCRYPT_R``/``SCRYPT_P``, measured by ``bench/pin.py`` at 160 ms of CPU a guess
on one desktop core — the whole space takes 1.8 days — while a Raspberry Pi 4 is expected to
verify one PIN in 0.5–0.65 s (docs/kiosk.md, docs/benchmarks.md).

A stored hash made under the old, weaker policy (4 characters, scrypt N=2**14 with p=1:
the whole space of 4-digit PINs fell in minutes) is *outdated*: it verifies nothing, and
the kiosk asks for a new PIN to be set (:func:`pin_hash_state`). The length of the PIN
behind an old hash cannot be known, so every hash below the current cost is outdated.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from enum import StrEnum

from samoobsluha.shared.i18n import Phrase

#: The shortest PIN accepted anywhere (kiosk, station CLI, hub, provisioning).
PIN_MIN_LENGTH = 6
#: The longest (the kiosk's and the dashboard's input fields take no more).
PIN_MAX_LENGTH = 32

SCRYPT_N = 2**15  # 32 MiB of memory (128 · N · r bytes): a GPU cannot run many at once
SCRYPT_R = 8
SCRYPT_P = 2  # run one after the other by OpenSSL: twice the time, not twice the memory

#: A stored hash cheaper than this (N · r · p) is outdated: made before the policy above.
MIN_COST = SCRYPT_N * SCRYPT_R * SCRYPT_P
#: A stored hash dearer than this, or needing more memory, is refused as invalid: a
#: Raspberry Pi must verify a PIN in well under a second and must not run out of memory.
MAX_COST = 8 * MIN_COST
MAX_MEMORY = 128 * 2**20

_SALT_BYTES = 16
_DKLEN = 32


class PinError(ValueError):
    """A PIN that may not be used (too short or too long, not ASCII); the message is a
    Phrase in the user's language."""


class PinHashState(StrEnum):
    """What a stored PIN hash is good for."""

    NONE = "none"  # no PIN at all
    OK = "ok"
    OUTDATED = "outdated"  # made under the old, weaker policy: a new PIN must be set
    INVALID = "invalid"  # not a hash this code makes (or absurd parameters)


def check_new_pin(pin: str) -> None:
    """Raise :class:`PinError` unless ``pin`` may be chosen as a new referee PIN."""
    if len(pin) < PIN_MIN_LENGTH or len(pin) > PIN_MAX_LENGTH:
        raise PinError(Phrase("pin.too_short", min=PIN_MIN_LENGTH))
    if not pin.isascii() or not pin.isprintable() or pin != pin.strip():
        raise PinError(Phrase("pin.too_short", min=PIN_MIN_LENGTH))


def _derive(pin: str, salt: bytes, n: int, r: int, p: int, dklen: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8", "replace"),
        salt=salt,
        n=n,
        r=r,
        p=p,
        dklen=dklen,
        maxmem=MAX_MEMORY + 2**20,  # OpenSSL's default cap (32 MiB) is below N=2**15, r=8
    )


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """A salted scrypt hash of ``pin`` as ``scrypt$N$r$p$salt$hash`` (hex)."""
    check_new_pin(pin)
    salt = salt or secrets.token_bytes(_SALT_BYTES)
    digest = _derive(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, _DKLEN)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def hash_pin_for(pin: str, stations: Iterable[str]) -> dict[str, str]:
    """One hash of ``pin`` per station, each with its own salt: a hash cracked from one
    copied card is no table for any other card, and no two cards show the same hash. The
    hashes are computed in parallel (scrypt releases the GIL)."""
    check_new_pin(pin)
    names = sorted(set(stations))
    if not names:
        return {}
    workers = max(1, min(len(names), os.cpu_count() or 1))
    with ThreadPoolExecutor(workers, thread_name_prefix="pin-hash") as pool:
        hashes = list(pool.map(lambda _: hash_pin(pin), names))
    return dict(zip(names, hashes, strict=True))


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes] | None:
    try:
        scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
        if scheme != "scrypt":
            return None
        params = int(n), int(r), int(p)
        salt, digest = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex)
    except ValueError:
        return None
    n_, r_, p_ = params
    if n_ < 2 or n_ & (n_ - 1) or r_ < 1 or p_ < 1 or len(salt) < 8 or len(digest) < 16:
        return None
    return n_, r_, p_, salt, digest


def pin_hash_state(stored: str | None) -> PinHashState:
    """Whether ``stored`` can verify a PIN under the current policy."""
    if not stored:
        return PinHashState.NONE
    parsed = _parse(stored)
    if parsed is None:
        return PinHashState.INVALID
    n, r, p, _, _ = parsed
    if n * r * p > MAX_COST or 128 * n * r > MAX_MEMORY:
        return PinHashState.INVALID
    if n * r * p < MIN_COST:
        return PinHashState.OUTDATED
    return PinHashState.OK


def verify_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the PIN behind ``stored``. An outdated or invalid hash verifies
    nothing (its PIN may have fallen to an offline search: a new PIN must be set)."""
    if pin_hash_state(stored) is not PinHashState.OK:
        return False
    parsed = _parse(stored)
    assert parsed is not None
    n, r, p, salt, digest = parsed
    try:
        got = _derive(pin, salt, n, r, p, len(digest))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(got, digest)


def is_pin_hash(value: str) -> bool:
    """Whether ``value`` is a well-formed PIN hash (current or outdated)."""
    return pin_hash_state(value) in (PinHashState.OK, PinHashState.OUTDATED)

"""The referee PIN as both sides store it: a salted scrypt hash, never the PIN itself.

The hub hashes a PIN it pushes to the stations (``hub pin set``, the dashboard's F1 ``p``),
a station hashes one set at the kiosk or with ``station pin set``, and only the station
verifies. See docs/kiosk.md for the policy.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from samoobsluha.shared.i18n import Phrase

PIN_MIN_LENGTH = 4

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class PinError(ValueError):
    """A PIN that may not be used (too short, not ASCII); the message is a Phrase."""


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """A salted scrypt hash of ``pin`` as ``scrypt$n$r$p$salt$hash`` (hex)."""
    if len(pin) < PIN_MIN_LENGTH or not pin.isascii():
        raise PinError(Phrase("pin.too_short", min=PIN_MIN_LENGTH))
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt_hex, digest_hex = stored.split("$")
        if scheme != "scrypt":
            return False
        digest = hashlib.scrypt(
            pin.encode("utf-8", "replace"),
            salt=bytes.fromhex(salt_hex),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(digest_hex) // 2,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)


def is_pin_hash(value: str) -> bool:
    return value.startswith("scrypt$") and value.count("$") == 5

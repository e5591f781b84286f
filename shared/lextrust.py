"""Whether a station may judge with a lexicon: the one owner of that answer.

A lexicon's SHA-256 proves that the file is whole, not who made it: a lexicon built at
home from any word list has a perfectly good hash. So the hub **signs** every lexicon it
builds (``hub lexicon build``, ``hub lexicon sign``), pushes (``hub push-lexicon``) or
puts on a card (``hub provision station --lexicon``), with its Ed25519 signing key — the
key whose public half every station pins at provisioning (shared/protocol.py,
``HallKeys``). The signature is detached, in a small JSON file beside the lexicon,
``<lexicon>.sig``::

    {"format": "samoobsluha/lexicon-signature/1", "sha256": "…", "language": "cs",
     "variant": "PLUS", "built_at": "…", "words": 123, "payload_bytes": 456,
     "hub_public_key": "<hex>", "signature": "<hex>"}

and it signs ``"samoobsluha/lexicon/1\\0"`` followed by the canonical JSON of the
lexicon's identity as its **header** states it: SHA-256 of the payload, language,
variant, lengths, word count, payload size and build time (:func:`identity`). The
header's SHA-256 is what the kiosk's content check (shared/lexicon.py) holds the payload
to, so the one hash the kiosk computes at every start covers both: the payload is what
the header says, and the header is what the hub signed.

:func:`decide` is the only place that answers "is this lexicon trusted"; every path —
the kiosk's start, a pushed lexicon, a referee's acceptance — goes through it
(station/lexicons.py calls it). Its answers (:class:`Trust`):

* ``hub`` — signed by the pinned hub key: judges;
* ``referee`` — not signed by it, but the referee accepted this very SHA-256 at this
  station with the PIN (logged, sent to the hub): judges;
* ``unpinned`` — the station pins no hub key (a standalone station, a developer's
  setup: no ``[network] tournament_id``): judges, and the idle screen says the lexicon
  is not verified. A station of a tournament always pins a key; one whose key file
  cannot be read gets ``b""`` and refuses;
* ``unsigned`` / ``bad_signature`` — no signature file, or one that does not verify
  with the pinned key (another hub's, or a header that is not the one signed):
  refused until the referee accepts it.
"""

from __future__ import annotations

import json
import os
from enum import StrEnum

TYPE_CHECKING = False  # not typing's: `station check` imports this module at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from typing import Any

    from samoobsluha.shared.lexicon import LexiconInfo

    StrPath = str | os.PathLike[str]

SIG_SUFFIX = ".sig"
FORMAT = "samoobsluha/lexicon-signature/1"
DOMAIN = b"samoobsluha/lexicon/1\0"
MAX_SIG_FILE = 4096  # a signature file is a few hundred bytes; anything larger is not one


class Trust(StrEnum):
    HUB = "hub"
    REFEREE = "referee"
    UNPINNED = "unpinned"
    UNSIGNED = "unsigned"
    BAD_SIGNATURE = "bad_signature"

    @property
    def judges(self) -> bool:
        return self in (Trust.HUB, Trust.REFEREE, Trust.UNPINNED)


def signature_path(lexicon: StrPath) -> str:
    return os.fspath(lexicon) + SIG_SUFFIX


def identity(info: LexiconInfo) -> dict[str, Any]:
    """What a signature vouches for: the lexicon's identity as its header states it."""
    return {
        "sha256": info.sha256,
        "language": info.language,
        "variant": info.variant,
        "min_length": info.min_length,
        "max_length": info.max_length,
        "words": info.words,
        "payload_bytes": info.payload_bytes,
        "built_at": info.built_at,
    }


def signed_bytes(info: LexiconInfo) -> bytes:
    text = json.dumps(identity(info), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return DOMAIN + text.encode("utf-8")


def signature_text(info: LexiconInfo, sign: Callable[[bytes], bytes], public: bytes) -> str:
    """The signature file's content: ``sign`` is the hub's (``HallKeys.sign``)."""
    body = {
        "format": FORMAT,
        **identity(info),
        "hub_public_key": public.hex(),
        "signature": sign(signed_bytes(info)).hex(),
    }
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


def write_signature(path: StrPath, text: str) -> str:
    """Write a signature file atomically (fsynced); returns its path."""
    path = os.fspath(path)
    folder, name = os.path.split(path)
    tmp = os.path.join(folder or ".", f".{name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def sign_lexicon(lexicon: StrPath, keys: Any, *, info: LexiconInfo | None = None) -> str:
    """Sign the lexicon file ``lexicon`` with the hub's ``keys`` (``HallKeys``): writes
    ``<lexicon>.sig`` beside it and returns that path. The header is read, not trusted:
    the caller signs only files it built or checked."""
    from samoobsluha.shared.lexicon import read_info

    info = info or read_info(lexicon)
    return write_signature(
        signature_path(lexicon), signature_text(info, keys.sign, keys.public_key)
    )


def read_signature(path: StrPath) -> bytes | None:
    """The signature bytes a signature file holds (None: no file, or not one)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SIG_FILE + 1)
    except OSError:
        return None
    if len(raw) > MAX_SIG_FILE:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
        if data.get("format") != FORMAT:
            return None
        sig = bytes.fromhex(str(data["signature"]))
    except (ValueError, KeyError, AttributeError, TypeError, UnicodeDecodeError):
        return None
    return sig if len(sig) == 64 else None


def verifies(info: LexiconInfo, signature: bytes, public: bytes) -> bool:
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey

    try:
        VerifyKey(public).verify(signed_bytes(info), signature)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def decide(
    info: LexiconInfo,
    lexicon_path: StrPath,
    hub_public: bytes | None,
    accepted: Collection[str] = (),
) -> Trust:
    """Whether the lexicon ``info`` (opened from ``lexicon_path``) may judge on a station
    that pins ``hub_public`` (None: it pins none; ``b""``: it should, but its key cannot
    be read) and whose referee accepted the SHA-256s in ``accepted``. The signature file
    is read now, every time: a replaced or re-signed file is judged anew."""
    if hub_public is None:
        return Trust.UNPINNED
    signature = read_signature(signature_path(lexicon_path))
    if signature is not None and len(hub_public) == 32 and verifies(info, signature, hub_public):
        return Trust.HUB
    if info.sha256 in accepted:
        return Trust.REFEREE
    return Trust.UNSIGNED if signature is None else Trust.BAD_SIGNATURE

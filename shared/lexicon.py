"""The lexicon: built once on the hub, then only read, on every station the same file.

File layout (little-endian)::

    b"SAMOLEX1"                 magic, 8 bytes
    uint32                      length of the header
    header                      UTF-8 JSON: format, language, variant, min/max length,
                                source, built_at, words, sha256, payload_bytes
    payload                     a marisa-trie of the canonical (lowercase NFC) words

``sha256`` is the SHA-256 of the payload. :meth:`Lexicon.open` recomputes it (before
returning, or in the background before the first lookup), so a truncated or altered file
is refused, and the hub can compare the value every station
reports to prove they all judge with the same words.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import time
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import StrEnum

import marisa_trie

from samoobsluha.shared.alphabet import ALPHABETS, Alphabet, get_alphabet
from samoobsluha.shared.normalize import MAX_LETTERS, MIN_LETTERS, Word
from samoobsluha.shared.record import Record

TYPE_CHECKING = False  # not typing's: `station check` imports this module at start-up
if TYPE_CHECKING:
    import threading
    from pathlib import Path
    from typing import Any

    StrPath = str | os.PathLike[str]

MAGIC = b"SAMOLEX1"
FORMAT_VERSION = 1
_HEADER_LEN = struct.Struct("<I")
_MAX_HEADER = 64 * 1024


class LexiconError(Exception):
    """A lexicon file that cannot be used; the message names the file and the problem
    (a :class:`shared.i18n.Phrase`: English in a log, the operator's language through
    ``shared.i18n.error_text``)."""


def _refused(key: str, **values: Any) -> LexiconError:
    from samoobsluha.shared.i18n import Phrase

    return LexiconError(Phrase("lexicon.err." + key, **values))


class LexiconInfo(Record):
    """The header of a lexicon file."""

    _fields = (
        "language",
        "variant",
        "min_length",
        "max_length",
        "source",
        "built_at",
        "words",
        "sha256",
        "payload_bytes",
        "format",
    )
    language: str
    variant: str
    min_length: int
    max_length: int
    source: str
    built_at: str
    words: int
    sha256: str
    payload_bytes: int
    format: int

    def __init__(
        self,
        language: str,
        variant: str,
        min_length: int,
        max_length: int,
        source: str,
        built_at: str,
        words: int,
        sha256: str,
        payload_bytes: int,
        format: int = FORMAT_VERSION,
    ) -> None:
        for name, value in zip(
            self._fields,
            (
                language,
                variant,
                min_length,
                max_length,
                source,
                built_at,
                words,
                sha256,
                payload_bytes,
                format,
            ),
            strict=True,
        ):
            object.__setattr__(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "language": self.language,
            "variant": self.variant,
            "min_length": self.min_length,
            "max_length": self.max_length,
            "source": self.source,
            "built_at": self.built_at,
            "words": self.words,
            "sha256": self.sha256,
            "payload_bytes": self.payload_bytes,
        }


class Status(StrEnum):
    VALID = "valid"
    INVALID = "invalid"
    REFEREE = "referee"  # a word is longer than the lexicon covers: the referee decides


class Verdict(Record):
    """One verdict for the whole play. ``failed`` (which words are not in the lexicon)
    and ``too_long`` are for the log and the referee, not for the player's screen."""

    __slots__ = ("failed", "status", "too_long", "words")
    _fields = ("status", "words", "failed", "too_long")
    status: Status
    words: tuple[Word, ...]
    failed: tuple[str, ...]
    too_long: tuple[str, ...]

    def __init__(
        self,
        status: Status,
        words: tuple[Word, ...],
        failed: tuple[str, ...] = (),
        too_long: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "failed", failed)
        object.__setattr__(self, "too_long", too_long)

    @property
    def valid(self) -> bool:
        return self.status is Status.VALID


class Lexicon:
    """A read-only word set with its verified header.

    The trie is used in place from a memory map of the file (no copy, no transient peak:
    the pages are the page cache's, shared and reclaimable). The payload's SHA-256 is
    checked either before :meth:`open` returns (``verify="now"``) or in a background
    thread (``verify="background"``, the kiosk: hashing releases the GIL), in which
    case every lookup waits for the result first — a tampered file is refused before it
    judges anything."""

    def __init__(
        self,
        path: StrPath,
        info: LexiconInfo,
        trie: marisa_trie.Trie | None,
        *,
        mapping: mmap.mmap | None = None,
    ) -> None:
        self._path = os.fspath(path)  # a string: `station check` imports no pathlib
        self.info = info
        self._trie: Any = trie  # None until a background check has passed (then mapped)
        self._mapping = mapping  # the trie reads from it: kept open as long as the trie
        self.alphabet: Alphabet = get_alphabet(info.language)
        self._verified = True
        self._verify_error: LexiconError | None = None
        self._verifier: threading.Thread | None = None

    @property
    def path(self) -> Path:
        from pathlib import Path

        return Path(self._path)

    def __repr__(self) -> str:
        i = self.info
        return (
            f"<Lexicon {os.path.basename(self._path)} {i.language}/{i.variant} {i.words} words "
            f"{i.min_length}-{i.max_length} sha256={i.sha256[:12]}>"
        )

    @classmethod
    def open(
        cls,
        path: StrPath,
        *,
        language: str | None = None,
        verify: str = "now",
        start_check: bool = True,
    ) -> Lexicon:
        """Open ``path``. ``language``, when given, must match the file's. ``verify``:
        ``"now"`` checks the content hash before returning; ``"background"`` returns at
        once and checks it in a thread (lookups wait for it, and fail with
        :class:`LexiconError` if the file is not what its header says); ``"trusted"``
        skips it — only for a file whose hash the caller knows was checked and that has
        not changed since (the station's verification stamp, station/lexicons.py).
        ``start_check=False`` (background only) starts that thread at :meth:`start_check`
        or at the first lookup, whichever comes first (the kiosk: after its first paint)."""
        if verify not in ("now", "background", "trusted"):
            raise ValueError(f"verify must be 'now', 'background' or 'trusted', not {verify!r}")
        path = os.fspath(path)
        info, mapping, offset = _map(path)
        try:
            if language is not None and info.language != language:
                raise _refused("language", path=path, got=info.language, want=language)
            payload = memoryview(mapping)[offset : offset + info.payload_bytes]
            if verify == "now":
                _check_hash(path, info, payload)
            # In the background the trie is mapped only once the hash matched: a payload
            # damaged on the card (one flipped block, same size and times) never reaches
            # marisa, which may read garbage offsets or crash on it.
            trie = None if verify == "background" else _map_trie(path, info, payload)
        except BaseException:
            import contextlib  # here: only a refused file gets this far

            with contextlib.suppress(BufferError):  # a view still alive: the GC closes it
                mapping.close()
            raise
        lexicon = cls(path, info, trie, mapping=mapping)
        if verify == "background":
            lexicon._verify_in_background(payload, start=start_check)
        return lexicon

    def _verify_in_background(self, payload: memoryview, *, start: bool = True) -> None:
        self._verified = False

        def verify() -> None:
            try:
                _check_hash(self._path, self.info, payload)
                self._trie = _map_trie(self._path, self.info, payload)
            except LexiconError as exc:
                self._verify_error = exc
            except Exception as exc:  # e.g. the file vanished under the map (SIGBUS aside)
                from samoobsluha.shared.i18n import reason

                self._verify_error = _refused("unverified", path=self._path, error=reason(exc))

        import threading  # here: a one-shot `station check` verifies in the foreground

        self._verifier = threading.Thread(target=verify, name="lexicon-verify", daemon=True)
        self._check_started = threading.Event()
        self._start_lock = threading.Lock()
        if start:
            self.start_check()

    def start_check(self) -> None:
        """Start the background hash check now if it is not running yet (thread-safe)."""
        started = getattr(self, "_check_started", None)
        if started is None or self._verifier is None:
            return
        with self._start_lock:
            if started.is_set():
                return
            self._verifier.start()
            started.set()

    def wait_verified(self, *, start: bool = True) -> None:
        """Block until the content hash is checked; raise :class:`LexiconError` if it
        does not match (then every lookup raises it too). ``start=False`` waits for a
        check someone else starts (the stamp writer) rather than starting it."""
        if not self._verified:
            if self._verifier is not None:
                if start:
                    self.start_check()
                else:
                    self._check_started.wait()
                self._verifier.join()
            if self._verify_error is None:
                self._verified = True
        if self._verify_error is not None:
            raise self._verify_error

    def __len__(self) -> int:
        return self.info.words

    def __contains__(self, word: object) -> bool:
        if not self._verified:
            self.wait_verified()
        return isinstance(word, str) and word in self._trie

    def contains(self, word: str | Word) -> bool:
        """Exact membership of one normalised word (no prefixes, no neighbours)."""
        if not self._verified:
            self.wait_verified()
        return str(word) in self._trie

    def covers(self, word: str | Word) -> bool:
        """Whether the lexicon can judge a word of this length at all."""
        return self.info.min_length <= len(str(word)) <= self.info.max_length

    def judge(self, words: Sequence[Word]) -> Verdict:
        """One verdict for one play. A word longer than the lexicon covers sends the whole
        play to the referee (ČAS 9.4.6) rather than risk a wrong NOT VALID."""
        if not self._verified:
            self.wait_verified()
        too_long = tuple(w.text for w in words if not self.covers(w))
        if too_long:
            return Verdict(Status.REFEREE, tuple(words), too_long=too_long)
        failed = tuple(w.text for w in words if w.text not in self._trie)
        return Verdict(Status.INVALID if failed else Status.VALID, tuple(words), failed)

    def iter_words(self) -> Iterable[str]:
        """All words; for building, testing and export on the hub, never for the kiosk."""
        self.wait_verified()
        return iter(self._trie)


def _map_trie(path: str, info: LexiconInfo, payload: memoryview) -> marisa_trie.Trie:
    trie = marisa_trie.Trie()
    try:
        trie.map(payload)
    except Exception as exc:  # marisa raises RuntimeError/ValueError on garbage
        raise _refused("trie", path=path, error=str(exc)) from exc
    if len(trie) != info.words:
        raise _refused("words", path=path, header=info.words, payload=len(trie))
    return trie


def _map(path: str) -> tuple[LexiconInfo, mmap.mmap, int]:
    """Map a lexicon file read-only; check its header and payload length. Returns the
    header, the map and the payload's offset in it."""
    try:
        with open(path, "rb") as fh:
            prefix = fh.read(len(MAGIC) + _HEADER_LEN.size)
            if len(prefix) < len(MAGIC) + _HEADER_LEN.size or not prefix.startswith(MAGIC):
                raise _refused("magic", path=path)
            (header_len,) = _HEADER_LEN.unpack_from(prefix, len(MAGIC))
            header = fh.read(header_len) if header_len <= _MAX_HEADER else b""
            if len(header) != header_len or header_len == 0:
                raise _refused("header", path=path)
            info = _parse_header(path, header)
            offset = len(prefix) + header_len
            size = os.fstat(fh.fileno()).st_size
            if size - offset != info.payload_bytes:
                raise _refused("size", path=path, size=size - offset, header=info.payload_bytes)
            mapping = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as exc:
        raise unreadable(path, exc) from exc
    return info, mapping, offset


def unreadable(path: str, exc: OSError) -> LexiconError:
    """``path`` cannot be read as a lexicon because of ``exc`` (the system's reason)."""
    from samoobsluha.shared.i18n import reason

    why = reason(OSError(exc.errno, exc.strerror))  # the path is said once, first
    return _refused("unreadable", path=path, reason=why)


def _sha256(data: Any) -> str:
    # imported here: loading OpenSSL is a few ms of every start, and a station that
    # trusts its verified lexicon (station/lexicons.py) never hashes it
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _check_hash(path: str, info: LexiconInfo, payload: Any) -> None:
    if _sha256(payload) != info.sha256:
        raise _hash_mismatch(path)


def _hash_mismatch(path: str) -> LexiconError:
    return _refused("sha256", path=path)


def _parse_header(path: str, header: bytes) -> LexiconInfo:
    try:
        info = LexiconInfo(**json.loads(header.decode("utf-8")))
    except (ValueError, TypeError) as exc:
        raise _refused("header_json", path=path, error=str(exc)) from exc
    if info.format != FORMAT_VERSION:
        raise _refused("format", path=path, format=info.format)
    if info.language not in ALPHABETS:
        choices = ", ".join(sorted(ALPHABETS))
        raise _refused("alphabet", path=path, language=info.language, choices=choices)
    return info


def read_info(path: StrPath) -> LexiconInfo:
    """Header of a verified lexicon file (the content hash is checked too)."""
    path = os.fspath(path)
    info, mapping, offset = _map(path)
    with mapping, memoryview(mapping) as view, view[offset:] as payload:
        ok = _sha256(payload) == info.sha256
    if not ok:
        raise _hash_mismatch(path)
    return info


# --- building -------------------------------------------------------------------------


class Drop(StrEnum):
    PROPER_NOUN = "proper noun (capitalised entry)"
    ABBREVIATION = "abbreviation"
    ALPHABET = "character outside the alphabet"
    TOO_SHORT = "fewer than 2 letters"
    TOO_LONG = "more than 15 letters"
    FORBIDDEN = "forbidden by the dictionary"


class BuildReport:
    """What a build kept and what it dropped, with a few examples per reason."""

    def __init__(self) -> None:
        self.kept = 0
        self.dropped: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = {}

    def drop(self, reason: Drop, item: str) -> None:
        self.dropped[reason.value] += 1
        bucket = self.examples.setdefault(reason.value, [])
        if len(bucket) < 5:
            bucket.append(item)

    def lines(self) -> list[str]:
        out = [f"kept: {self.kept}"]
        for reason, count in self.dropped.most_common():
            sample = ", ".join(self.examples.get(reason, []))
            out.append(f"dropped {count}: {reason} (e.g. {sample})")
        return out


def classify_entry(entry: str) -> Drop | None:
    """Why a dictionary *stem* is not a playable word, or None. A capitalised stem is a
    proper noun; all capitals, digits or dots mark an abbreviation."""
    if any(ch.isdigit() for ch in entry) or "." in entry:
        return Drop.ABBREVIATION
    letters = [ch for ch in entry if ch.isalpha()]
    if letters and any(ch.isupper() for ch in letters):
        if sum(ch.isupper() for ch in letters) > 1:
            return Drop.ABBREVIATION
        return Drop.PROPER_NOUN
    return None


def clean_form(form: str, alphabet: Alphabet, report: BuildReport) -> str | None:
    """Canonical form of a word for the lexicon, or None (recorded in ``report``)."""
    word = unicodedata.normalize("NFC", form).lower()
    if not alphabet.letters.issuperset(word):
        report.drop(Drop.ALPHABET, form)
        return None
    if len(word) < MIN_LETTERS:
        report.drop(Drop.TOO_SHORT, form)
        return None
    if len(word) > MAX_LETTERS:
        report.drop(Drop.TOO_LONG, form)
        return None
    return word


def write_lexicon(
    words: Iterable[str],
    out: Path | str,
    *,
    language: str,
    variant: str,
    source: str,
    max_length: int | None = None,
) -> LexiconInfo:
    """Write canonical ``words`` (already cleaned) as a lexicon file, atomically."""
    unique = sorted(set(words))
    if not unique:
        raise _refused("empty", path=str(out))
    longest = max(len(w) for w in unique)
    if max_length is not None and max_length < longest:
        raise _refused("max_length", path=str(out), max=max_length, longest=longest)
    trie = marisa_trie.Trie(unique)
    payload = trie.tobytes()
    info = LexiconInfo(
        language=language,
        variant=variant,
        min_length=MIN_LETTERS,
        max_length=max_length if max_length is not None else longest,
        source=source,
        built_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        words=len(unique),
        sha256=_sha256(payload),
        payload_bytes=len(payload),
    )
    header = json.dumps(info.as_dict(), ensure_ascii=False, sort_keys=True).encode("utf-8")
    import tempfile  # only when building (the hub), not when a station opens a lexicon
    from pathlib import Path

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".lexicon-", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC + _HEADER_LEN.pack(len(header)) + header + payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; stations and the hub share it
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return info


def build_from_wordlist(
    wordlist: Path | str,
    out: Path | str,
    *,
    language: str,
    variant: str,
    max_length: int | None = None,
    source: str | None = None,
) -> tuple[LexiconInfo, BuildReport]:
    """Build from a UTF-8 list, one word a line (an official list such as a NOVEX export).
    Upper-case lists are normal here, so case says nothing about proper nouns."""
    from pathlib import Path

    alphabet = get_alphabet(language)
    report = BuildReport()
    path = Path(wordlist)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _refused("not_utf8", path=str(path), offset=exc.start) from exc
    kept: set[str] = set()
    for line in text.splitlines():
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        word = clean_form(item, alphabet, report)
        if word is not None:
            kept.add(word)
    report.kept = len(kept)
    info = write_lexicon(
        kept,
        out,
        language=language,
        variant=variant,
        source=source or f"word list {path.name}",
        max_length=max_length,
    )
    return info, report


def build_from_hunspell(
    prefix: Path | str,
    out: Path | str,
    *,
    language: str,
    variant: str,
    max_length: int | None = None,
    source: str | None = None,
) -> tuple[LexiconInfo, BuildReport]:
    """Build from a hunspell pair, expanded to every form hunspell accepts."""
    from samoobsluha.shared import hunspell

    alphabet = get_alphabet(language)
    dic, aff_path = hunspell.hunspell_paths(prefix)
    aff = hunspell.read_aff(aff_path)
    expander = hunspell.Expander(aff)
    report = BuildReport()
    kept: set[str] = set()
    forbidden = hunspell.forbidden_words(dic, aff)
    for stem in hunspell.read_dic(dic, aff):
        if aff.forbidden and aff.forbidden in stem.flags:
            report.drop(Drop.FORBIDDEN, stem.word)
            continue
        reason = classify_entry(stem.word)
        if reason is not None:
            report.drop(reason, stem.word)
            continue
        for form in expander.forms(stem):
            if form in forbidden:
                report.drop(Drop.FORBIDDEN, form)
                continue
            word = clean_form(form, alphabet, report)
            if word is not None:
                kept.add(word)
    report.kept = len(kept)
    info = write_lexicon(
        kept,
        out,
        language=language,
        variant=variant,
        source=source or f"hunspell {dic.with_suffix('').name} ({dic.parent})",
        # Hunspell knows words of every length: the lexicon covers the whole board.
        max_length=max_length if max_length is not None else MAX_LETTERS,
    )
    return info, report


def ensure_default_lexicon(language: str = "cs", *, log: Any = None) -> Path:
    """Path of the default lexicon for ``language``, building it from the system hunspell
    dictionary on first use (Debian's hunspell-cs / hunspell-sk). Raises
    :class:`LexiconError` when there is neither a lexicon nor a dictionary to build from."""
    from samoobsluha.shared.paths import default_lexicon_path, hunspell_prefix

    path = default_lexicon_path(language)
    if path.exists():
        return path
    prefix = hunspell_prefix(language)
    if prefix is None:
        package = f"hunspell-{language}" if language in ("cs", "sk", "pl") else "hunspell-…"
        raise _refused("no_default", path=str(path), package=package)
    if log is not None:  # the operator reads it (station check): in his language
        from samoobsluha.shared.i18n import cli_language, t

        log(t("lexicon.building_default", cli_language(), language=language, prefix=str(prefix)))
    build_from_hunspell(prefix, path, language=language, variant="HUNSPELL")
    return path

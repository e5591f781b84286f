"""The lexicon a station judges with: one owner, one lifecycle.

Everything that opens, replaces or reports the station's lexicon goes through this
module; nothing else holds a :class:`~samoobsluha.shared.lexicon.Lexicon` of its own
for judging.

Two lexicons can differ for a while, and both are reported in the station's status
frame (docs/network.md):

* **on disk** — the file the station would open at its next start. ``hub
  push-lexicon`` replaces it: the link (station/sync.py) receives it in chunks, checks
  its size and SHA-256, opens it as a lexicon, moves it into place and fsyncs.
* **in use** — the lexicon the kiosk judges with. A new one goes into use only at an
  idle moment, never in the middle of a check.

Lifecycle of the one in use (:class:`LexiconInUse`)::

    open   ─ at start (runtime.build_kiosk): open_lexicon(path, verify="background") —
             its content hash is checked in a thread started once the idle screen is
             painted (or by the first lookup, if that came first), at every
             start (the trie is mapped only once it matches; the first lookup waits for
             it; a mismatch judges nothing); one-shot commands trust a matching stamp
    offer  ─ a pushed file is in place: offer(path) opens it with its hash checked, off
             the event loop; it is *pending* (a later push replaces a pending one)
    swap   ─ the kiosk, at an idle moment (the idle screen is current: no check under
             way), calls take_pending(): the pending one is in use from the next check
             on; the old mapping is closed once nothing refers to it
    report ─ in_use_sha256 / on_disk_sha256 (the status frame's lexicon_in_use_sha256
             and lexicon_sha256); listeners (the link) are told after each swap

**Trust.** Whether the lexicon in use may judge at all is decided by
shared/lextrust.py (its signature by the pinned hub key, or the referee's acceptance of
its SHA-256 at this station); :attr:`LexiconInUse.trust` holds that answer for the one in
use, decided once after the first paint (:meth:`LexiconInUse.check_trust`), again for each
lexicon offered, and after an acceptance. :meth:`LexiconInUse.judge` is the kiosk's only
way to a verdict and refuses (:class:`LexiconRefused`) whatever the answer does not let
judge.

**Verification stamps.** Hashing a 6 MB lexicon costs tens of milliseconds on a Pi, on
every start of a one-shot command such as ``station check`` (the kiosk pays it at every
start anyway, in the background: a stamp cannot see a block that rotted on the card).
A successful check of a file's SHA-256 is remembered in ``<data>/lexicon-verified.json``,
keyed by the file's path with its device, inode, size, modification and change times
(nanoseconds). A file that is replaced, truncated, rewritten in place or even
``touch``-ed back to its old times gets a new change time, so its stamp no longer
matches and it is checked again.
The stamp guards against corruption and half-copied files, as the hash does; someone
who can rewrite the station's files and reset its clock is beyond what either guards.
"""

from __future__ import annotations

import json
import os

from samoobsluha.shared.lexicon import Lexicon, LexiconError, unreadable
from samoobsluha.shared.lextrust import Trust

TYPE_CHECKING = False  # not typing's: `station check` imports this module at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import Any

    from samoobsluha.shared.lexicon import Verdict
    from samoobsluha.shared.normalize import Word

    StrPath = str | os.PathLike[str]


def _log() -> Any:
    import logging  # here: `station check` never logs, and logging costs its start

    return logging.getLogger(__name__)


STAMP_FILE = "lexicon-verified.json"


# -- verification stamps ------------------------------------------------------------------


def _stamp_file() -> str:
    from samoobsluha.shared.paths import data_folder  # a string: no pathlib at start

    return os.path.join(data_folder(), STAMP_FILE)


def _identity(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _read_stamps(stamps: StrPath) -> dict[str, Any]:
    try:
        with open(stamps, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _key(path: StrPath) -> str:
    """A stamp's key: the file's absolute path, links resolved (``Path.resolve()``)."""
    return os.path.realpath(path)


def stamped_sha256(path: StrPath, *, stamps: StrPath | None = None) -> str | None:
    """The SHA-256 a stamp vouches for, if ``path`` is unchanged since it was checked."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    entry = _read_stamps(stamps or _stamp_file()).get(_key(path))
    if not isinstance(entry, dict) or entry.get("file") != _identity(st):
        return None
    sha = entry.get("sha256")
    return sha if isinstance(sha, str) else None


def write_stamp(
    path: StrPath, sha256: str, st: os.stat_result, *, stamps: StrPath | None = None
) -> None:
    """Remember that ``path`` (as ``st`` describes it) was checked and has ``sha256``. A
    station whose data folder is not writable just checks again next time."""
    import contextlib  # here: a trusted file (the usual start) is never stamped again

    stamps = os.fspath(stamps or _stamp_file())
    with contextlib.suppress(OSError):
        data = _read_stamps(stamps)
        data[_key(path)] = {"file": _identity(st), "sha256": sha256}
        if len(data) > 16:  # old files: keep the newest few
            for key in list(data)[: len(data) - 16]:
                del data[key]
        folder, name = os.path.split(stamps)
        os.makedirs(folder or ".", exist_ok=True)
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(tmp, stamps)


def open_lexicon(
    path: StrPath,
    *,
    verify: str = "now",
    language: str | None = None,
    stamps: StrPath | None = None,
    start_check: bool = True,
) -> Lexicon:
    """Open the station's lexicon: trusted when a stamp vouches for the file as it is,
    else with its hash checked (``verify``: ``"now"`` or ``"background"``) and, once the
    check passes, stamped. ``start_check=False``: the background check starts at
    :meth:`Lexicon.start_check` or the first lookup (the kiosk: after its first paint)."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise unreadable(path, exc) from exc
    # The kiosk (``"background"``) hashes the content at every start, stamp or not: a block
    # flipped on the card changes no size or time, so the stamp would still vouch for a
    # file that judges valid words NOT VALID (or crashes the trie). The hash runs beside
    # the idle screen and the first lookup waits for it; only one-shot commands
    # (``"now"``: station check) trust the stamp.
    sha = None if verify == "background" else stamped_sha256(path, stamps=stamps)
    if sha is not None:
        lexicon = Lexicon.open(path, verify="trusted", language=language)
        if lexicon.info.sha256 == sha:
            return lexicon
    lexicon = Lexicon.open(path, verify=verify, language=language, start_check=start_check)
    if verify == "now":
        write_stamp(path, lexicon.info.sha256, st, stamps=stamps)
    else:
        import threading  # here: only an unstamped file is hashed in the background

        def stamp_when_verified() -> None:
            try:
                lexicon.wait_verified(start=False)  # it stamps, it does not start it
            except LexiconError:
                return  # the kiosk refuses it; nothing to vouch for
            write_stamp(path, lexicon.info.sha256, st, stamps=stamps)

        threading.Thread(target=stamp_when_verified, name="lexicon-stamp", daemon=True).start()
    return lexicon


class LexiconRefused(LexiconError):
    """The lexicon in use is not trusted (shared/lextrust.py): it judges nothing."""

    def __init__(self, trust: Trust, sha256: str) -> None:
        super().__init__(f"lexicon {sha256[:12]} not trusted: {trust.value}")
        self.trust = trust
        self.sha256 = sha256


# -- the lexicon in use ---------------------------------------------------------------------


class LexiconInUse:
    """The owner of the lexicon a station judges with (see the module's lifecycle)."""

    def __init__(
        self,
        lexicon: Lexicon,
        *,
        hub_public: bytes | None = None,
        accepted: set[str] | None = None,
    ) -> None:
        self.current = lexicon
        self.pending: Lexicon | None = None
        self.on_disk_sha256: str | None = lexicon.info.sha256
        self._listeners: list[Callable[[Lexicon], Any]] = []
        # The pinned hub key (None: this station pins none) and the SHA-256s the referee
        # accepted here (station/log.py keeps them); the trust of the one in use and of
        # the pending one (None: not decided yet).
        self.hub_public = hub_public
        self.accepted: set[str] = set(accepted or ())
        self.trust: Trust | None = None
        self._pending_trust: Trust | None = None
        self._trust_listeners: list[Callable[[Trust], Any]] = []

    # -- trust (shared/lextrust.py decides; this keeps the answer for the one in use) ------
    def _decide(self, lexicon: Lexicon) -> Trust:
        from samoobsluha.shared.lextrust import decide

        trust = decide(lexicon.info, lexicon.path, self.hub_public, self.accepted)
        if not trust.judges:
            _log().error("lexicon %s refused: %s", lexicon, trust.value)
        elif trust is not Trust.HUB:
            _log().warning("lexicon %s judges: %s", lexicon, trust.value)
        return trust

    def add_trust_listener(self, listener: Callable[[Trust], Any]) -> None:
        """``listener(trust)`` whenever the trust of the lexicon in use is decided anew
        (after the first paint, an acceptance, a swap): the link reports it at once."""
        self._trust_listeners.append(listener)

    def _trust_changed(self) -> None:
        trust = self.trust
        if trust is None:
            return
        for listener in self._trust_listeners:
            try:
                listener(trust)
            except Exception:
                _log().exception("lexicon trust listener failed")

    def check_trust(self) -> Trust:
        """Decide the trust of the lexicon in use, if not yet (after the first paint)."""
        if self.trust is None:
            self.trust = self._decide(self.current)
            self._trust_changed()
        return self.trust

    def accept(self, sha256: str) -> Trust:
        """The referee accepted ``sha256`` with the PIN (the store has logged it)."""
        self.accepted.add(sha256)
        self.trust = self._decide(self.current)
        if self.pending is not None:
            self._pending_trust = self._decide(self.pending)
        self._trust_changed()
        return self.trust

    def judge(self, words: Sequence[Word]) -> Verdict:
        """The one way to a verdict: refused unless the lexicon in use is trusted (and,
        as always, unless its content hash matched: the lexicon waits for it)."""
        trust = self.check_trust()
        if not trust.judges:
            raise LexiconRefused(trust, self.current.info.sha256)
        return self.current.judge(words)

    @property
    def in_use_sha256(self) -> str:
        return self.current.info.sha256

    def add_listener(self, listener: Callable[[Lexicon], Any]) -> None:
        """``listener(lexicon)`` after each swap (on the thread that swapped)."""
        self._listeners.append(listener)

    def offer_opened(self, lexicon: Lexicon) -> None:
        """A verified lexicon to go into use at the next idle moment (its trust decided
        now: a pushed file comes with the hub's signature beside it)."""
        self._pending_trust = self._decide(lexicon)
        self.pending = lexicon
        self.on_disk_sha256 = lexicon.info.sha256
        _log().info("lexicon %s ready; in use from the next idle moment", lexicon)

    async def offer(self, path: Path) -> bool:
        """A pushed file is in place: open it, its hash checked, off the event loop."""
        import asyncio  # here: `station check` imports this module and never needs it

        try:
            lexicon = await asyncio.to_thread(open_lexicon, path, verify="now")
        except LexiconError as exc:
            _log().error("pushed lexicon not usable, keeping %s: %s", self.current, exc)
            return False
        self.offer_opened(lexicon)
        return True

    def take_pending(self) -> Lexicon | None:
        """At an idle moment only: put the pending lexicon into use. Returns it (None when
        there was none)."""
        new, self.pending = self.pending, None
        if new is None:
            return None
        old, self.current = self.current, new
        self.trust, self._pending_trust = self._pending_trust, None
        _log().info("lexicon in use: %s (was %s)", new, old)
        self._trust_changed()
        for listener in self._listeners:
            try:
                listener(new)
            except Exception:
                _log().exception("lexicon listener failed")
        return new

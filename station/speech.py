"""The spoken verdict: Debian's ``espeak-ng`` (offline) says it in the kiosk's language.

For players who cannot read the screen (ČAS 13.17 asks for another way for those who
cannot use the station), the referee switches it on per station (``speak_verdict``,
referee screen or ``[kiosk]``). What is spoken is the verdict and the table, never a word
of the play: „Stůl 7: platné.“ Nothing here runs before a verdict is painted — the
kiosk imports this module and spawns the process only then (the idle path stays as it
was) — and nothing waits for it: a missing or failing ``espeak-ng`` is logged once and
the verdict stands on the screen as always. A new verdict cuts off one still being said.
"""

from __future__ import annotations

import logging
import shutil
import subprocess

log = logging.getLogger(__name__)

COMMAND = "espeak-ng"
#: espeak-ng's voice for each kiosk language
VOICES = {"cs": "cs", "sk": "sk", "en": "en", "pl": "pl"}

_speaking: subprocess.Popen[bytes] | None = None
_warned = False


def say(text: str, lang: str) -> bool:
    """Start saying ``text`` in ``lang``; returns at once (False: it cannot be said)."""
    global _speaking, _warned
    exe = shutil.which(COMMAND)
    if exe is None:
        if not _warned:
            log.warning("%s not found: the spoken verdict is off (apt install espeak-ng)", COMMAND)
            _warned = True
        return False
    previous, _speaking = _speaking, None
    if previous is not None and previous.poll() is None:
        previous.terminate()  # the last verdict is over
    try:
        _speaking = subprocess.Popen(
            [exe, "-v", VOICES.get(lang, "cs"), text],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,  # never in the kiosk's process group's signals
        )
    except OSError as exc:
        if not _warned:
            log.warning("cannot start %s: %s", exe, exc)
            _warned = True
        return False
    if previous is not None:
        previous.wait()  # reaped: no zombie (it was told to stop)
    return True


def wait(timeout: float | None = None) -> int | None:
    """Wait for what is being said (tests, the station's shutdown); its exit code."""
    proc = _speaking
    if proc is None:
        return None
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        return None

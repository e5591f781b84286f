"""The screen a station shows when its kiosk cannot start (instead of a blank restart loop).

``kiosk-inner`` runs ``station run``; when that exits with an error (a missing or damaged
lexicon, a wrong ``station.toml``, a GPIO failure) or the data partition is missing, it runs

    python -m samoobsluha.station.fallback --reason-file FILE [--kind KIND] [--seconds N]

which fills the terminal with a Czech (or the station's language) message: what is wrong,
what players should do, what the referee should do, and when the station tries again. It
reads no keys (echo and Ctrl+C are off while it shows), needs nothing but the standard
library and the message catalogue, and exits after ``--seconds`` so that systemd starts the
kiosk again: a station whose lexicon is put back recovers by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import sys
import time
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from samoobsluha.shared.i18n import LANGUAGES, t

# "display": cage or foot could not start (kiosk-session shows it on the console instead);
# "crash": the word check was killed by a signal such as SIGSEGV (kiosk-inner).
KINDS = ("lexicon", "config", "hardware", "data", "disk", "display", "crash", "unknown")
DEFAULT_SECONDS = 60
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def classify(reason: str) -> str:
    """Which kind of failure ``station run``'s error output describes (in any of our
    languages: ``station run`` says it in the operator's)."""
    low = reason.lower()
    full = ("disk is full", "no space left on device")
    if any(s in low for s in full) or any(t("err.os.ENOSPC", x).lower() in low for x in LANGUAGES):
        return "disk"
    if "lexicon" in low or "slovník" in low or "słownik" in low or ".lex" in low:
        return "lexicon"
    if "gpio" in low or "pin " in low or "hardware" in low or "lgpio" in low:
        return "hardware"
    configs = ("station.toml", "config", "konfigura", "[gong]", "[station]")
    if any(s in low for s in configs):
        return "config"
    return "unknown"


def clean_reason(text: str, limit: int = 4) -> list[str]:
    """The last ``limit`` meaningful lines of an error output, as plain text (no escape
    sequences or control characters reach the screen)."""
    lines = []
    for raw in text.splitlines():
        line = _CONTROL.sub("", _ANSI.sub("", raw)).strip()
        if line and not line.startswith("Traceback"):
            lines.append(line)
    return lines[-limit:]


def _wrap(text: str, width: int) -> list[str]:
    out: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > width:  # a path longer than the screen
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


def render(
    kind: str, reason: Sequence[str], lang: str, seconds: int, cols: int = 80, rows: int = 24
) -> list[str]:
    """The screen as ``rows`` lines of at most ``cols`` characters (no escapes)."""
    kind = kind if kind in KINDS else "unknown"
    width = max(20, cols - 4)
    body: list[str] = [t("fallback.title", lang), ""]
    body += [*_wrap(t(f"fallback.why.{kind}", lang), width), ""]
    body += [*_wrap(t("fallback.players", lang), width), ""]
    body += _wrap(f"{t('fallback.todo', lang)}: {t(f'fallback.do.{kind}', lang)}", width)
    if reason:
        body += ["", f"{t('fallback.reason', lang)}:"]
        for line in reason:
            body += _wrap(line, width - 2)
    retry = _wrap(t("fallback.retry", lang, seconds=seconds), width)
    if len(body) + 1 + len(retry) > rows:  # a tiny screen: the title first, the retry last
        body = body[: max(1, rows - len(retry))]
    else:
        body.append("")
    body += retry
    top = max(0, (rows - len(body)) // 2)
    lines = [""] * top + [("  " + line)[:cols] for line in body]
    return (lines + [""] * rows)[:rows]


def station_language(config: Path | None) -> str:
    """The station's ``ui_language`` if its config is readable, else Czech."""
    if config is None:
        return "cs"
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
        lang = str(data.get("station", {}).get("ui_language", "cs"))
    except (OSError, ValueError, AttributeError):
        return "cs"
    return lang if lang in LANGUAGES else "cs"


@contextlib.contextmanager
def _quiet_terminal() -> Iterator[None]:
    """No echo, no line editing, no Ctrl+C/Ctrl+Z while the message shows."""
    try:
        import termios

        fd = sys.stdin.fileno()
        old = termios.tcgetattr(fd)
    except (ImportError, OSError, ValueError):
        yield
        return
    new = termios.tcgetattr(fd)
    new[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    termios.tcsetattr(fd, termios.TCSANOW, new)
    try:
        yield
    finally:
        termios.tcflush(fd, termios.TCIFLUSH)  # what was typed meanwhile is dropped
        termios.tcsetattr(fd, termios.TCSANOW, old)


def show(lines: Sequence[str], seconds: float, out: TextIO | None = None) -> None:
    stream = out if out is not None else sys.stdout
    # White on red, cursor hidden, whole screen cleared in that colour.
    text = "\x1b[?25l\x1b[0;97;41m\x1b[2J\x1b[H" + "\n".join(
        f"\x1b[1m{line}\x1b[22m" if i == 0 else line for i, line in enumerate(lines)
    )
    stream.write(text)
    stream.flush()
    if seconds > 0:
        with _quiet_terminal():
            time.sleep(seconds)
    stream.write("\x1b[0m\x1b[?25h")
    stream.flush()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m samoobsluha.station.fallback",
        description="Full-screen message when the station kiosk cannot start.",
    )
    parser.add_argument("--reason-file", type=Path, help="station run's error output")
    parser.add_argument("--kind", choices=KINDS, help="default: guessed from the reason")
    parser.add_argument("--seconds", type=int, default=DEFAULT_SECONDS, help="then exit")
    parser.add_argument("--lang", choices=LANGUAGES, help="default: the station's language")
    parser.add_argument("--print", action="store_true", help="print the text only (no colours)")
    parser.add_argument(
        "--record", type=Path, help="write the kind shown into this file (status checks read it)"
    )
    args = parser.parse_args(argv)
    text = ""
    if args.reason_file is not None:
        with contextlib.suppress(OSError):
            text = args.reason_file.read_text(encoding="utf-8", errors="replace")
    kind = args.kind or classify(text)
    config = os.environ.get("SAMOOBSLUHA_CONFIG")
    lang = args.lang or station_language(Path(config) if config else None)
    size = shutil.get_terminal_size((80, 24))
    lines = render(kind, clean_reason(text), lang, args.seconds, size.columns, size.lines)
    if args.record is not None:
        with contextlib.suppress(OSError):
            args.record.write_text(kind + "\n", encoding="utf-8")
    if args.print:
        print("\n".join(line.rstrip() for line in lines).strip("\n"))
        return 0
    show(lines, args.seconds)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

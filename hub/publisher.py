"""Results online, offline-first: signed static pages sent whenever an uplink exists.

After a round's protest window closes (``ResultBook.protest_closes``: never before — the
*embargo*), the hub renders static pages of every closed round and keeps them, queued,
in ``hub.db`` (``Migrations("hub.online")``); a sender puts them on a configured target
whenever a connection exists — the venue's uplink or a phone hotspot switched on for a
minute — and records each page sent in its own transaction, so a cut connection loses
nothing and resumes without sending a page twice.

**Pages** (paths relative to the target): ``index.html``; ``round-N/pairings.html`` and
``round-N/results.html`` of each closed round; ``standings.html`` after the last closed
round; ``tournament.t``, the tsh file of the closed rounds only; and ``manifest.json``
(every other page's SHA-256, the closed rounds, the tournament id, the hub's public key)
with ``manifest.sig``: the hub's Ed25519 signature (the key the stations pin, ``hub key
public``) over ``LABEL`` ‖ the manifest's bytes, in hex. The manifest and its signature
go last, once every page it names is on the target: a reader never sees a manifest whose
pages are not there. ``hub online verify DIR`` checks a copy.

**Lifecycle of a page** (table ``online_pages``, one row per path)::

    render ─ its bytes and SHA-256 stored (unchanged bytes: nothing changes)
    queued ─ sha256 differs from sent_sha256
    sent   ─ the target accepted it: sent_sha256 = sha256, in its own commit

**Targets**: a folder (a path or ``file://``; each page written to a temporary name and
renamed: a reader never sees half a page), an HTTP(S) endpoint taking ``PUT`` (a bearer
token from a file, optional), or another machine's folder through rsync (an rsync daemon's
``rsync://`` module, or ``HOST:PATH`` over SSH). The target is a setting here (``hub
online target``).
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.i18n import Phrase, os_reason, reason, t
from samoobsluha.shared.protocol import HallKeys, verify_signature
from samoobsluha.shared.storage import Database

log = logging.getLogger("hub.publisher")

migrations = Migrations("hub.online")
LABEL = b"samoobsluha/online-manifest/1\0"
MANIFEST, SIGNATURE = "manifest.json", "manifest.sig"
TYPES = {".html": "text/html; charset=utf-8", ".json": "application/json", ".t": "text/plain"}


@migrations()
def m001_online(db: sqlite_utils.Database) -> None:
    db.table("online_pages").create(
        {
            "path": str,
            "sha256": str,
            "body": bytes,
            "rendered_at": float,
            "sent_sha256": str,
            "sent_at": float,
        },
        pk="path",
    )
    db.table("online_settings").create({"key": str, "value": str}, pk="key")


class PublishError(Exception):
    """The target refused a page or could not be reached: ``args[0]`` says why."""


# -- settings -----------------------------------------------------------------------------


def set_target(db: sqlite_utils.Database, target: str, token_file: str = "") -> None:
    parse_target(target, token_file)  # refused now rather than at the first send
    with db.atomic():
        if setting(db, "target") != target:  # a new target gets every page
            db.execute("UPDATE online_pages SET sent_sha256 = NULL, sent_at = NULL")
        for key, value in (("target", target), ("token_file", token_file)):
            db.table("online_settings").upsert({"key": key, "value": value}, pk="key")


def setting(db: sqlite_utils.Database, key: str) -> str:
    row = db.execute("SELECT value FROM online_settings WHERE key = ?", [key]).fetchone()
    return str(row[0]) if row else ""


# -- rendering ------------------------------------------------------------------------------


def closed_rounds(tour: Any, now: float) -> tuple[list[int], float | None]:
    """(the published rounds whose protest window has closed by ``now``, when the next
    window closes — None when no published round is still under embargo)."""
    closed: list[int] = []
    waiting: float | None = None
    for number in range(1, tour.last_round() + 1):
        closes = tour.book.protest_closes(number)
        if closes is None:
            continue
        if closes <= now:
            closed.append(number)
        elif waiting is None or closes < waiting:
            waiting = closes
    return closed, waiting


def render_pages(tour: Any, closed: list[int], lang: str) -> dict[str, bytes]:
    """The pages of the closed rounds (without the manifest)."""
    from samoobsluha.hub.tournament import tsh
    from samoobsluha.hub.tournament.exports import render

    pages: dict[str, bytes] = {}
    for number in closed:
        for what in ("pairings", "results"):
            text = render(tour, what, "html", round_no=number, lang=lang)
            pages[f"round-{number}/{what}.html"] = text.encode()
    if closed:
        last = closed[-1]
        pages["standings.html"] = render(
            tour, "standings", "html", round_no=last, lang=lang
        ).encode()
        data = tour.data(until_round=last)
        pages["tournament.t"] = tsh.encode(  # forfeits as the tournament's rules rule them
            tsh.from_tournament(data, scored_rounds=last, rules=tour.rules)
        )
    pages["index.html"] = _index(tour.settings()["name"], closed, lang).encode()
    return pages


def _index(name: str, closed: list[int], lang: str) -> str:
    links = []
    for number in reversed(closed):
        links.append(
            f"<li>{html.escape(t('online.round', lang, n=number))}: "
            f'<a href="round-{number}/results.html">{html.escape(t("online.results", lang))}</a>'
            f' · <a href="round-{number}/pairings.html">{html.escape(t("online.pairings", lang))}'
            "</a></li>"
        )
    body = "\n".join(links) or f"<li>{html.escape(t('online.nothing_yet', lang))}</li>"
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(name)}</title>"
        "<style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}"
        "li{margin:.5em 0}</style></head><body>"
        f"<h1>{html.escape(name)}</h1>"
        f'<p><a href="standings.html">{html.escape(t("online.standings", lang))}</a> · '
        f'<a href="tournament.t">{html.escape(t("online.tsh", lang))}</a></p>'
        f"<ul>{body}</ul>"
        f"<p><small>{html.escape(t('online.signed', lang))}</small></p></body></html>\n"
    )


def manifest(
    pages: dict[str, bytes], closed: list[int], tournament: str, keys: HallKeys
) -> tuple[bytes, bytes]:
    """(manifest.json, manifest.sig) for ``pages``."""
    body = {
        "tournament": tournament,
        "closed_rounds": closed,
        "public_key": keys.public_key.hex(),
        "files": {path: hashlib.sha256(data).hexdigest() for path, data in sorted(pages.items())},
    }
    text = json.dumps(body, ensure_ascii=False, indent=1, sort_keys=True).encode() + b"\n"
    return text, keys.sign(LABEL + text).hex().encode() + b"\n"


def store_pages(db: sqlite_utils.Database, pages: dict[str, bytes], now: float) -> list[str]:
    """Keep the rendered pages (one transaction); the paths whose bytes changed."""
    changed = []
    with db.atomic():
        for path, data in pages.items():
            digest = hashlib.sha256(data).hexdigest()
            row = db.execute("SELECT sha256 FROM online_pages WHERE path = ?", [path]).fetchone()
            if row is not None and row[0] == digest:
                continue
            db.execute(
                "INSERT INTO online_pages (path, sha256, body, rendered_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(path) DO UPDATE SET sha256 = excluded.sha256,"
                " body = excluded.body, rendered_at = excluded.rendered_at",
                [path, digest, data, now],
            )
            changed.append(path)
    return changed


@dataclass
class Rendered:
    closed: list[int]
    waiting: float | None  # when the next protest window closes
    changed: list[str]


def render(db: Database, keys: HallKeys, tournament: str, now: float, lang: str = "cs") -> Rendered:
    """Render what the embargo allows at ``now`` and queue what changed. Before any
    protest window has closed nothing is rendered at all."""
    from samoobsluha.hub.tournament import Tournament
    from samoobsluha.shared.clock import SystemClock

    tour = Tournament(db, SystemClock())  # read only here; ``now`` decides the embargo
    closed, waiting = closed_rounds(tour, now)
    if not closed:
        return Rendered(closed, waiting, [])
    pages = render_pages(tour, closed, lang)
    text, sig = manifest(pages, closed, tournament, keys)
    pages[MANIFEST], pages[SIGNATURE] = text, sig
    return Rendered(closed, waiting, store_pages(db, pages, now))


# -- sending --------------------------------------------------------------------------------


class Target(Protocol):
    def put(self, path: str, data: bytes) -> None: ...


class FolderTarget:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def put(self, path: str, data: bytes) -> None:
        out = self.folder / path
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            tmp = out.with_name(f".{out.name}.part")
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, out)
        except OSError as exc:
            raise PublishError(reason(exc)) from exc


class HttpTarget:
    def __init__(self, base: str, token: str = "", timeout: float = 20.0) -> None:
        self.base = base.rstrip("/") + "/"
        self.token = token
        self.timeout = timeout

    def put(self, path: str, data: bytes) -> None:
        url = self.base + urllib.parse.quote(path)
        headers = {"Content-Type": TYPES.get(Path(path).suffix, "application/octet-stream")}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(url, data=data, method="PUT", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                status = answer.status
        except urllib.error.HTTPError as exc:
            status_text = f"{exc.code} {exc.reason}"
            raise PublishError(Phrase("online.err.http", url=url, status=status_text)) from exc
        except (OSError, urllib.error.URLError) as exc:  # no uplink, cut, refused, timeout
            cause = exc.reason if isinstance(exc, urllib.error.URLError) else exc
            why = reason(cause) if isinstance(cause, BaseException) else str(cause)
            raise PublishError(Phrase("online.err.put", url=url, error=why)) from exc
        if status not in (200, 201, 204):
            raise PublishError(Phrase("online.err.http", url=url, status=str(status)))


class RsyncTarget:
    """A folder on another machine through Debian's ``rsync``: an rsync daemon
    (``rsync://[USER@]HOST[:PORT]/MODULE/PATH``, its password from the token file, passed
    in ``RSYNC_PASSWORD``, never on the command line) or SSH (``[USER@]HOST:PATH``, with
    the hub user's SSH key; ``BatchMode``: never a password prompt). rsync writes each page
    to a temporary name beside it and renames it: a reader never sees half a page."""

    def __init__(self, dest: str, password: str = "", timeout: float = 30.0) -> None:
        import shutil

        self.dest = dest.rstrip("/")
        self.password = password
        self.timeout = timeout
        binary = shutil.which("rsync")
        if binary is None:
            raise PublishError(Phrase("online.no_rsync", target=dest))
        self.binary = binary

    def put(self, path: str, data: bytes) -> None:
        import subprocess
        import tempfile

        daemon = self.dest.startswith("rsync://")
        cmd = [self.binary, "--quiet", "--mkpath", "--chmod=F644", f"--timeout={self.timeout:.0f}"]
        if daemon:
            cmd.append("--contimeout=10")
        else:
            cmd += ["-e", "ssh -o BatchMode=yes -o ConnectTimeout=10"]
        env = {**os.environ, "RSYNC_PASSWORD": self.password} if self.password else None
        with tempfile.TemporaryDirectory(prefix="samoobsluha-online-") as tmp:
            local = Path(tmp) / Path(path).name
            local.write_bytes(data)
            dest = f"{self.dest}/{path}"
            try:
                done = subprocess.run(
                    [*cmd, str(local), dest],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=self.timeout * 2,
                    check=False,
                )
            except subprocess.TimeoutExpired as exc:
                late = Phrase("online.err.rsync_timeout", dest=dest, s=round(self.timeout * 2))
                raise PublishError(late) from exc
            except OSError as exc:
                failed = Phrase("online.err.rsync", dest=dest, error=reason(exc))
                raise PublishError(failed) from exc
        if done.returncode != 0:
            lines = [x for x in done.stderr.splitlines() if x.strip()]
            why = lines[0] if lines else f"exit {done.returncode}"  # rsync's own words
            raise PublishError(Phrase("online.err.rsync", dest=dest, error=why))


def _token(token_file: str) -> str:
    if not token_file:
        return ""
    try:
        return Path(token_file).read_text().strip()
    except OSError as exc:
        raise PublishError(
            Phrase("online.token_file", path=token_file, error=os_reason(exc))
        ) from exc


def parse_target(text: str, token_file: str = "") -> Target:
    """The target ``text`` names. Raises :class:`PublishError` (its message a
    :class:`~shared.i18n.Phrase`) for a malformed one or an unreadable token file."""
    if text.startswith(("http://", "https://")):
        return HttpTarget(text, _token(token_file))
    if text.startswith("rsync://") or (":" in text.split("/", 1)[0] and "://" not in text):
        return RsyncTarget(text, _token(token_file))
    if text.startswith("file://"):
        text = text[len("file://") :]
    if not text.startswith("/"):
        raise PublishError(Phrase("online.bad_target", target=repr(text)))
    return FolderTarget(Path(text))


@dataclass
class Sent:
    sent: list[str]
    remaining: int
    error: str = ""


def send(
    db: sqlite_utils.Database,
    target: Target,
    now: Callable[[], float],
) -> Sent:
    """Put every queued page on ``target``, the manifest and its signature last; each
    page marked sent in its own commit. Stops at the first failure (the rest stay
    queued for the next attempt)."""
    queued = [
        str(path)
        for (path,) in db.execute(
            "SELECT path FROM online_pages WHERE sent_sha256 IS NOT sha256 ORDER BY path"
        )
    ]
    last = [p for p in (MANIFEST, SIGNATURE) if p in queued]
    order = [p for p in queued if p not in last] + last
    done: list[str] = []
    for path in order:
        row = db.execute("SELECT body, sha256 FROM online_pages WHERE path = ?", [path]).fetchone()
        try:
            target.put(path, bytes(row[0]))
        except PublishError as exc:
            log.warning("online: %s", exc)
            return Sent(done, len(order) - len(done), reason(exc))  # a phrase: any language
        with db.atomic():
            db.execute(
                "UPDATE online_pages SET sent_sha256 = ?, sent_at = ? WHERE path = ?",
                [row[1], now(), path],
            )
        done.append(path)
    return Sent(done, 0)


@dataclass
class Pass:
    """One render-and-send pass: ``code`` 0 (sent, or nothing to send yet), 1 (the
    connection was cut: the rest stays queued) or 2 (no target set); ``lines`` say so."""

    code: int
    lines: list[str]
    sent: list[str]
    error: str = ""


def pages_language(data: Path) -> str:
    """The pages' language: the hall screen's (``[screen] lang`` of hub.toml, the event's
    language), Czech when hub.toml has none or is malformed (``hub serve`` says why)."""
    from samoobsluha.hub.web.config import ScreenConfigError, load

    try:
        return load(data).lang
    except (ScreenConfigError, OSError):
        return "cs"


def publish_pass(
    db: Database, keys: HallKeys, tournament: str, now: float, lang: str, say: str | None = None
) -> Pass:
    """Render what the embargo allows at ``now`` (the pages in ``lang``), then send what is
    queued — what ``hub online send`` does once and ``hub serve`` every minute; the lines
    in ``say``, the operator's language (default: the pages'). Raises
    :class:`PublishError` for a target that cannot be used (malformed, its token file
    unreadable)."""
    import time

    from samoobsluha.shared.i18n import time_text

    say = say or lang
    target_text = setting(db, "target")
    if not target_text:
        return Pass(2, [t("online.no_target", say)], [])
    done = render(db, keys, tournament, now, lang)
    lines = []
    if not done.closed:
        when = time_text(done.waiting, say) if done.waiting else ""
        lines.append(
            t("online.embargo_until", say, time=when) if when else t("online.embargo", say)
        )
    try:
        target = parse_target(target_text, setting(db, "token_file"))
        sent = send(db, target, time.time)
    finally:
        record_pass(db, now)
    queued, _sent = pending(db)
    lines.append(t("online.sent", say, n=len(sent.sent), queued=queued, target=target_text))
    if sent.error:
        lines.append(t("online.cut", say, error=sent.error))
        return Pass(1, lines, sent.sent, sent.error)
    return Pass(0, lines, sent.sent)


def record_pass(db: sqlite_utils.Database, now: float) -> None:
    """Count one render-and-send pass and keep its time (``online_settings``: ``passes``,
    ``last_pass_at``): ``hub online status`` shows it, and whoever watches ``hub serve``
    (the operator, a test) sees that it tried, whatever it sent."""
    with db.atomic():  # one statement each: ``hub online send`` beside ``hub serve`` loses none
        db.execute(
            "INSERT INTO online_settings (key, value) VALUES ('passes', '1') ON CONFLICT(key)"
            " DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
        )
        db.execute(
            "INSERT INTO online_settings (key, value) VALUES ('last_pass_at', ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [repr(now)],
        )


def passes(db: sqlite_utils.Database) -> tuple[int, float | None]:
    """(render-and-send passes so far, when the last one ran)."""
    at = setting(db, "last_pass_at")
    return int(setting(db, "passes") or 0), float(at) if at else None


def pending(db: sqlite_utils.Database) -> tuple[int, int]:
    """(pages queued, pages sent)."""
    row = db.execute(
        "SELECT COUNT(CASE WHEN sent_sha256 IS NOT sha256 THEN 1 END), "
        "COUNT(CASE WHEN sent_sha256 IS sha256 THEN 1 END) FROM online_pages"
    ).fetchone()
    return int(row[0]), int(row[1])


# -- checking a copy --------------------------------------------------------------------


def verify_copy(folder: Path, public_key: bytes | None = None) -> list[str]:
    """What is wrong with a published copy in ``folder`` ([] when the signature verifies
    with ``public_key`` — default: the manifest's own, which the reader must compare with
    the hub's — and every page matches its SHA-256); each problem a
    :class:`~shared.i18n.Phrase` (English as text, ``localize`` for the operator)."""
    from samoobsluha.shared.protocol import ProtocolError

    try:
        text = (folder / MANIFEST).read_bytes()
        sig = bytes.fromhex((folder / SIGNATURE).read_text().strip())
        body = json.loads(text)
    except OSError as exc:
        return [Phrase("online.no_manifest", path=exc.filename or MANIFEST, error=os_reason(exc))]
    except ValueError as exc:  # not JSON, a signature not in hex
        return [Phrase("online.no_manifest", path=MANIFEST, error=str(exc))]
    problems: list[str] = []
    try:
        key = public_key or bytes.fromhex(str(body.get("public_key", "")))
        verify_signature(key, LABEL + text, sig)
    except (ProtocolError, ValueError):
        problems.append(Phrase("online.bad_signature"))
    for path, digest in sorted(body.get("files", {}).items()):
        try:
            found = hashlib.sha256((folder / path).read_bytes()).hexdigest()
        except OSError:
            problems.append(Phrase("online.page_missing", path=path))
            continue
        if found != digest:
            problems.append(Phrase("online.page_changed", path=path))
    return problems

"""The referee checks words for a player at the hub (ČAS 13.17).

Players who cannot use the station (mobility, no computer skills) are served by the
referee: on the dashboard (F3, key ``k``) or with ``hub check TABLE WORD…`` he types the
table and the words and gets the one verdict a kiosk would give, because every step is the
kiosk's own:

* **the same input rules**: the table must be one of the round's tables (else the kiosk's
  range), at most the kiosk's number of words, each word normalised by
  :func:`shared.checks.prepare_words` (SIT notation, blanks in brackets) with the kiosk's
  refusal texts (``refused.*``, ``kiosk.error.*``);
* **the same lexicon the stations use**: the one the hub pushed (``hub push-lexicon``),
  else the hub's default lexicon file — the reference the Stations screen compares the
  stations' lexicons with;
* **the same settings**: the hall configuration the hub published last (``hub publish
  config``: tables, words per play, limits; :func:`hall_kiosk_settings`) over the kiosk's
  defaults — what every station without its own ``[kiosk]`` values uses;
* **the same limits**: the table's interval and its checks per round
  (:func:`shared.checks.rate_decision` with those settings), counted over
  every station's checks of that table in the hub's log, with the kiosk's refusal texts;
* **the same record**: the rows a kiosk sends for a check (:class:`shared.payloads.
  CheckPayload`, and a referee request for a word too long for the lexicon) stored by the
  hub's own ingest (:func:`hub.store.ingest`) under the station id
  :data:`REFEREE_STATION`, in one transaction, before the verdict is shown. The hub
  imports nothing of the station: the kiosk's input rules and limits are
  :mod:`shared.checks`. It is a first-instance check of that table and round:
  it counts against the table's limits, shows on the challenges screen (station and
  instance read „rozhodčí“) and the chief referee's appeal (``v``/``n``) works on it as on
  any kiosk's check.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from samoobsluha.shared.i18n import Phrase, reason, t
from samoobsluha.shared.lexicon import Lexicon, LexiconError, Status
from samoobsluha.shared.normalize import WordRefused
from samoobsluha.shared.payloads import CheckPayload, RefereeRequestPayload
from samoobsluha.shared.rounds import Phase
from samoobsluha.shared.storage import open_db

log = logging.getLogger("hub.refcheck")

REFEREE_STATION = "hub"  # the station id of the referee's checks at the hub
REFEREE_EPOCH = "referee"  # and its one epoch: the hub's log is its only copy
NOTE = "ČAS 13.17"


class CheckRefused(Exception):
    """The check cannot be made (input, limit, no lexicon): ``args[0]`` is a
    :class:`~shared.i18n.Phrase` in the kiosk's words."""


@dataclass(frozen=True)
class HubCheck:
    """One check made at the hub, as logged."""

    key: str  # the challenge log key (station/epoch/seq)
    table_no: int
    round_no: int | None
    status: str  # valid | invalid | referee
    words: tuple[str, ...]  # the tile faces judged, ŽIR(A)FA
    failed: tuple[str, ...]
    variant: str
    max_length: int

    def verdict_text(self, lang: str) -> str:
        return t(f"verdict.{self.status}", lang)

    def line(self, lang: str) -> str:
        """``stůl 7 · ŽIR(A)FA: PLATNÉ (PLUS)`` (and why the referee decides)."""
        text = t(
            "refcheck.line",
            lang,
            table=self.table_no,
            words=" ".join(self.words),
            verdict=self.verdict_text(lang),
            variant=self.variant,
        )
        if self.status == Status.REFEREE.value:
            text += " " + t("verdict.referee_long", lang, max=self.max_length)
        return text


def lexicon_path(service: Any) -> Path:
    """The lexicon the stations are meant to use: the pushed one, else the hub's default."""
    from samoobsluha.hub import store as sync_store

    with service._db() as db:
        published = sync_store.load_published(db)
    if "lexicon" in published:
        info = published["lexicon"][1]
        path = Path(str(info.get("path", "")))
        if path.is_file():
            return path
    path = Path(service.default_lexicon())  # the event's language: cs, sk or pl
    if path.is_file():
        return path
    raise CheckRefused(Phrase("refcheck.no_lexicon"))


def hall_kiosk_settings(service: Any) -> Any:
    """The kiosk settings of the hall: the newest published configuration over the
    defaults (a stored one the stations would refuse — published before the hub checked
    them — is logged and left out, as a station leaves it out)."""
    import dataclasses

    from samoobsluha.hub import store as sync_store
    from samoobsluha.shared.checks import KioskSettings, SettingsError, hall_settings

    with service._db() as db:
        published = sync_store.load_published(db)
    settings = KioskSettings()
    if "config" in published:
        item, data = published["config"]
        try:
            settings = dataclasses.replace(settings, **hall_settings(data))
        except SettingsError as exc:
            log.error("hall configuration %s not used: %s", item, exc)
    return settings


def check_round(service: Any, now: float) -> int | None:
    """The round a check made now belongs to, as a kiosk decides it: the round under way
    (or ended less than the play-out display ago); before a planned round starts, the one
    before it; without any plan, the tournament's current round (None before pairing)."""
    from samoobsluha.hub import store as sync_store
    from samoobsluha.shared.rounds import PLAYOUT_DISPLAY_SECONDS

    with service._db() as db:
        plans = [p for p in sync_store.load_plans(db) if not p.cancelled]
    running = [p for p in plans if p.status(now).phase in (Phase.RUNNING, Phase.WARNING)]
    if running:
        return max(p.number for p in running)
    ended = [
        p
        for p in plans
        if p.status(now).phase is Phase.ENDED and now - p.end_at(now) < PLAYOUT_DISPLAY_SECONDS
    ]
    if ended:
        return max(p.number for p in ended)
    scheduled = [p for p in plans if p.status(now).phase is Phase.SCHEDULED]
    if scheduled:
        number = min(scheduled, key=lambda p: p.start_at).number
        return number - 1 if number > 1 else None
    current = int(service.current_round())
    return current or None


def _tables(service: Any, round_no: int | None, default: frozenset[int]) -> frozenset[int]:
    """The round's tables when it is paired, else the kiosk's table range."""
    if round_no is None:
        return default
    try:
        with service._tour() as tour:
            boards = tour.pairing(round_no).boards
    except Exception:
        return default
    return frozenset(b.table for b in boards) or default


def referee_check(
    service: Any,
    table: str | int,
    raw_words: Sequence[str],
    *,
    lang: str = "cs",
    round_no: int | None = None,
) -> HubCheck:
    """Judge ``raw_words`` for table ``table`` as a kiosk would, log it as that table's
    check (see the module docstring) and return it. Raises :class:`CheckRefused`."""
    from samoobsluha.shared.checks import (
        Limit,
        RateState,
        StepError,
        prepare_words,
        rate_decision,
        validate_count,
        validate_table,
    )

    settings = hall_kiosk_settings(service)
    now = float(service.clock.now())
    if round_no is None:
        round_no = check_round(service, now)
    tables = _tables(service, round_no, settings.tables)
    try:
        table_no = validate_table(str(table), tables)
        words_in = [w for w in raw_words if w.strip()]
        if not words_in:
            raise CheckRefused(Phrase("kiosk.error.word_missing", i=1))
        validate_count(str(len(words_in)), settings.max_words)
    except StepError as exc:
        raise CheckRefused(Phrase(f"kiosk.error.{exc.problem.value}", **exc.values)) from None
    try:
        lexicon = Lexicon.open(lexicon_path(service))
    except LexiconError as exc:
        raise CheckRefused(Phrase("lexicon.unusable", error=reason(exc))) from None
    try:
        words = prepare_words(words_in, lexicon.alphabet)
    except WordRefused as exc:
        detail = exc.detail
        if detail and detail.isspace():
            detail = t("char.space", lang)
        raise CheckRefused(
            Phrase(f"refused.{exc.reason.value}", raw=exc.raw, detail=detail)
        ) from None
    # the table's limits over every station's checks of it (the referee's included)
    judged = [
        c
        for c in service.challenges(round_no=round_no, table_no=table_no, limit=10**9)
        if c.instance == "first" and c.verdict != "refused" and c.round_no == round_no
    ]
    state = RateState(last_at=max((c.at for c in judged), default=None), used=len(judged))
    decision = rate_decision(settings, now=now, state=state)
    if not decision.allowed:
        if decision.limit is Limit.CAP:
            raise CheckRefused(
                Phrase("kiosk.refused.cap", table=table_no, max=settings.max_checks_per_round)
            )
        raise CheckRefused(
            Phrase("kiosk.refused.interval", table=table_no, wait=max(1, round(decision.wait)))
        )
    verdict = lexicon.judge(words)
    key = _log(service, verdict, lexicon, table_no, round_no, now, lang)
    return HubCheck(
        key=key,
        table_no=table_no,
        round_no=round_no,
        status=verdict.status.value,
        words=tuple(w.face for w in verdict.words),
        failed=tuple(w.face for w in verdict.words if w.text in verdict.failed),
        variant=lexicon.info.variant,
        max_length=lexicon.info.max_length,
    )


def _log(
    service: Any,
    verdict: Any,
    lexicon: Lexicon,
    table_no: int,
    round_no: int | None,
    now: float,
    lang: str,
) -> str:
    """Store the check in the hub's log and return its key: the rows a kiosk would send
    (the check, and the referee request a word too long for the lexicon makes), as the
    hub's own station :data:`REFEREE_STATION`, through the hub's own ingest, in ONE
    transaction — committed before the verdict is shown, and two referee checks at once
    (dashboard and ``hub check``) take different seqs. At a kiosk the too-long word calls
    the referee; here the referee is the one asking, so that call is acknowledged at once."""
    from samoobsluha.hub import store as sync_store

    hub_db = open_db(service.db_path, sync_store.migrations)
    try:
        with hub_db.atomic():
            last = hub_db.execute(
                "SELECT max(seq) FROM inbox WHERE station_id = ? AND station_epoch = ?",
                [REFEREE_STATION, REFEREE_EPOCH],
            ).fetchone()[0]
            seq = int(last or 0) + 1
            check = CheckPayload.from_dict(
                {
                    "id": seq,
                    "at": now,
                    "station_id": REFEREE_STATION,
                    "table_no": table_no,
                    "round_no": round_no,
                    "instance": "first",
                    "status": verdict.status.value,
                    "words": [w.face for w in verdict.words],
                    "canonical": [w.text for w in verdict.words],
                    "failed": list(verdict.failed),
                    "too_long": list(verdict.too_long),
                    "refused_reason": None,
                    "lexicon_sha256": lexicon.info.sha256,
                    "lexicon_variant": lexicon.info.variant,
                    "ui_language": lang,
                    "appeal_of": None,
                    "note": NOTE,
                }
            )
            rows = [[seq, check.KIND, _json(check.to_dict()), now]]
            if verdict.status is Status.REFEREE:
                request = RefereeRequestPayload.from_dict(
                    {
                        "id": seq + 1,
                        "at": now,
                        "station_id": REFEREE_STATION,
                        "table_no": table_no,
                        "round_no": round_no,
                        "reason": "too_long",
                        "challenge_id": seq,
                    }
                )
                rows.append([seq + 1, request.KIND, _json(request.to_dict()), now])
            sync_store.ingest(hub_db, [(REFEREE_STATION, REFEREE_EPOCH, rows)], now)
    finally:
        hub_db.close()
    key = sync_store.row_key(REFEREE_STATION, REFEREE_EPOCH, seq)
    if len(rows) > 1:
        service.acknowledge_request(sync_store.row_key(REFEREE_STATION, REFEREE_EPOCH, seq + 1))
    return key


def _json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)

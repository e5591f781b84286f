"""``hub rehearse``: the hall check on the real stations, the evening before.

The running hub (:func:`broadcast`, reached through the control socket) sends every
connected station a ``show`` item of kind ``rehearse``: a rehearsal id, the hub-clock
instant of a test stroke a few seconds ahead, and what to ask (the keyboard test line,
the referee button). Each station answers with one outbox row of kind ``rehearse``
(:mod:`station.rehearse`); :func:`run` waits for the answers in the hub database, adds
what the hub already knows (link, version, lexicon, clock from the station's status;
players registered) and judges every station **go** or **no-go** with a reason per check.

The result is kept with the tournament (table ``rehearsals`` in ``hub.db``) and renders
as text (the CLI), as a dashboard table (F1, key ``z``) and as an A4 HTML page to print
and show the chief referee.

**The rehearsal knows the hall.** While a round is being played (:func:`round_in_play`:
under way or paused, in its play-out, or starting before the rehearsal would be over) the
hub refuses it unless the operator explicitly asks (``hub rehearse --during-round``; on
the dashboard, the round's number typed). Even then it is *quiet*: the request says so,
and a station rings no bell and covers no player's screen (no keyboard test, no button
wait); it reports only what it knows, and those checks read "not tried: round N". A
station also stays quiet on its own when its clock shows a round under way, whatever the
request says.
"""

from __future__ import annotations

import html
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.i18n import Phrase, date_text, t
from samoobsluha.shared.rounds import Phase, RoundPlan

KIND = "rehearse"
TEST_LETTERS = "ěščřžýáíéúůďťň"
#: The test line of a hall whose rehearsal speaks that language: a Polish hall types the
#: Polish letters (its keyboards have no ě or ů, and must have ą … ż); others the Czech line.
LETTERS = {"pl": "ąćęłńóśźż"}


def checked_letters(value: Any) -> str:
    """A test line asked for over the control socket: letters only, at most 40; anything
    else is the default line."""
    text = str(value or "")
    return text if 0 < len(text) <= 40 and text.isalpha() else TEST_LETTERS


def letters_for(lang: str) -> str:
    """The keyboard test line of a rehearsal run in ``lang``."""
    return LETTERS.get(lang, TEST_LETTERS)


SPREAD_TARGET = 0.020  # seconds: every bell within 20 ms of the others
CLOCK_UNCERTAINTY_OK = 0.010  # half the best round trip
DEFAULT_LEAD = 3.0
DEFAULT_WAIT = 60.0
PLAYOUT_SECONDS = 20 * 60  # after the end signal the players finish (DOHRÁVKA)

OK, WARN, FAIL = "ok", "warn", "fail"

migrations = Migrations("hub.rehearse")


@migrations()
def m001_rehearsals(db: sqlite_utils.Database) -> None:
    db.table("rehearsals").create(
        {"id": str, "started_at": float, "finished_at": float, "go": int, "report": str},
        pk="id",
    )


# -- the hub server's side -------------------------------------------------------------------


def round_in_play(plans: list[RoundPlan], now: float, until: float) -> tuple[RoundPlan, str] | None:
    """The round being played between ``now`` and ``until`` (the rehearsal's end), and how:
    ``running`` (under way or paused), ``playout`` (basic time over less than
    :data:`PLAYOUT_SECONDS` ago: the players are finishing) or ``soon`` (it starts before
    ``until``). None when the hall is free."""
    found: list[tuple[int, RoundPlan, str]] = []
    for plan in plans:
        if plan.cancelled:
            continue
        phase = plan.status(now).phase
        if phase in (Phase.RUNNING, Phase.WARNING):
            found.append((0, plan, "running"))
        elif phase is Phase.ENDED and now - plan.end_at(now) < PLAYOUT_SECONDS:
            found.append((1, plan, "playout"))
        elif phase is Phase.SCHEDULED and plan.start_at <= until:
            found.append((2, plan, "soon"))
    if not found:
        return None
    _, plan, how = min(found, key=lambda f: (f[0], -f[1].number))
    return plan, how


class RoundInPlay(ValueError):
    """A rehearsal asked for while a round is being played, without ``during_round``."""


async def broadcast(
    server: Any,
    *,
    lead: float = DEFAULT_LEAD,
    wait: float = DEFAULT_WAIT,
    keyboard: bool = True,
    button: bool = True,
    letters: str = TEST_LETTERS,
    during_round: bool = False,
) -> dict[str, Any]:
    """Ask every connected station to rehearse; the test stroke rings ``lead`` s ahead.
    Not stored as a published item: a station that connects later was not in the hall
    when the check ran, and a reconnect must not ring the test again.

    While a round is being played (:func:`round_in_play`) it is refused with
    :class:`RoundInPlay` unless ``during_round``; then the request is quiet (no bell, no
    keyboard test, no button wait: ``quiet`` names the round)."""
    if not 0.5 <= lead <= 60 or not 1 <= wait <= 600:
        raise ValueError("rehearse: lead 0.5–60 s, wait 1–600 s")
    from samoobsluha.hub import store

    now = server.clock.now()
    plans = await server.dbw.run(store.load_plans)
    in_play = round_in_play(plans, now, now + lead + wait)
    if in_play is not None and not during_round:
        plan, how = in_play
        raise RoundInPlay(Phrase(f"err.rehearse.{how}", round=plan.number))
    rid = f"rehearse:{int(now)}:{secrets.token_hex(4)}"
    data: dict[str, Any] = {
        "id": rid,
        "at": now + lead,
        "wait": wait,
        "keyboard": keyboard,
        "button": button,
        "letters": letters,
    }
    if in_play is not None:
        data.update(quiet=in_play[0].number, keyboard=False, button=False)
    msg = {"t": "show", "id": rid, "ver": int(now * 1000), "kind": KIND, "data": data}
    sent = await server._broadcast(msg)
    out = {"id": rid, "at": data["at"], "asked_at": now, "sent_to": sent}
    if in_play is not None:
        out["quiet"] = in_play[0].number
    return out


# -- judging ------------------------------------------------------------------------------------


@dataclass
class Check:
    key: str  # link, answer, version, lexicon, clock, gong, keyboard, bell, lamp, button …
    level: str  # ok | warn | fail
    text: str


@dataclass
class StationResult:
    station_id: str
    go: bool
    checks: list[Check]
    late: float | None = None  # seconds the test stroke switched after the instant asked
    missing: str | None = None  # keyboard letters that did not arrive


@dataclass
class Rehearsal:
    id: str
    started_at: float
    finished_at: float
    at: float
    lang: str
    hub_version: str
    expected_lexicon: str | None
    players: int
    required: int
    go_stations: int
    online: int
    spread: float | None
    stations: list[StationResult]
    hall: list[Check] = field(default_factory=list)

    @property
    def go(self) -> bool:
        return all(c.level != FAIL for c in self.hall) and all(s.go for s in self.stations)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rehearsal:
        stations = [
            StationResult(**{**s, "checks": [Check(**c) for c in s["checks"]]})
            for s in data["stations"]
        ]
        hall = [Check(**c) for c in data.get("hall", [])]
        rest = {k: v for k, v in data.items() if k not in ("stations", "hall")}
        return cls(**rest, stations=stations, hall=hall)


def _ms(seconds: float, lang: str = "cs") -> str:
    text = f"{seconds * 1000:+.1f}"
    return text if lang == "en" else text.replace(".", ",")  # decimal comma in cs and sk


def _mb(n: int) -> str:
    return str(int(n // (1024 * 1024)))


def judge_station(
    row: Any,
    answer: dict[str, Any] | None,
    *,
    hub_version: str,
    expected_lexicon: str | None,
    lang: str = "cs",
) -> StationResult:
    """Every check of one station: ``row`` is its :class:`hub.service.StationRow`,
    ``answer`` the payload of its ``rehearse`` row (None: it did not answer)."""

    def tr(key: str, **kw: Any) -> str:
        return t(f"rehearse.{key}", lang, **kw)

    checks: list[Check] = []
    add = checks.append
    if row is None or not row.online:
        add(Check("link", FAIL, tr("link.down")))
    else:
        add(Check("link", OK, tr("link.ok", address=row.address)))
    if row is not None:
        if row.version == hub_version:
            add(Check("version", OK, tr("version.ok", version=row.version)))
        else:
            add(Check("version", WARN, tr("version.bad", version=row.version, hub=hub_version)))
        sha = (row.lexicon_sha256 or "")[:12]
        if not sha:
            add(Check("lexicon", FAIL, tr("lexicon.none")))
        elif row.lexicon_ok is True:
            add(Check("lexicon", OK, tr("lexicon.ok", sha=sha)))
        elif row.lexicon_ok is False:
            add(Check("lexicon", FAIL, tr("lexicon.bad", sha=sha)))
        else:
            add(Check("lexicon", WARN, tr("lexicon.unknown", sha=sha)))
    late = missing = None
    if answer is None:
        if row is not None and row.online:
            add(Check("answer", FAIL, tr("answer.none")))
        return StationResult(row.station_id if row else "?", False, checks)
    synced = bool(answer.get("clock_synced"))
    delay = answer.get("clock_delay")
    offset = float(answer.get("clock_offset") or 0.0)
    if not synced or delay is None:
        add(Check("clock", FAIL, tr("clock.unsynced")))
    else:
        unc = float(delay) / 2
        level = OK if unc <= CLOCK_UNCERTAINTY_OK else WARN
        add(
            Check(
                "clock",
                level,
                tr("clock.ok", offset=_ms(offset, lang), unc=_ms(unc, lang).lstrip("+")),
            )
        )
    gong = answer.get("gong") or {}
    if gong.get("skipped"):
        # a rehearsal during a round: nothing rang, nobody's screen was covered
        add(Check("gong", WARN, tr("gong.skipped", round=gong.get("round", "?"))))
    elif gong.get("error"):
        add(Check("gong", FAIL, tr("gong.error", error=gong["error"])))
    elif gong.get("switched_at") is None:
        add(Check("gong", FAIL, tr("gong.none")))
    else:
        late = float(gong["switched_at"]) - float(gong["at"])
        level = OK if abs(late) <= SPREAD_TARGET else FAIL
        output = (
            tr(f"output.{gong.get('output')}") if gong.get("output") in ("bell", "sound") else "?"
        )
        add(Check("gong", level, tr("gong.ok", late=_ms(late, lang), output=output)))
    kb = answer.get("keyboard")
    if kb is not None and kb.get("skipped"):
        add(Check("keyboard", WARN, tr("keyboard.skipped", round=kb.get("round", "?"))))
    elif kb is not None:
        if kb.get("error"):
            add(Check("keyboard", FAIL, tr("keyboard.error", error=kb["error"])))
        elif not kb.get("answered"):
            add(Check("keyboard", FAIL, tr("keyboard.none")))
        elif kb.get("missing"):
            missing = str(kb["missing"])
            add(Check("keyboard", FAIL, tr("keyboard.missing", letters=" ".join(missing))))
        else:
            missing = ""
            add(Check("keyboard", OK, tr("keyboard.ok", letters=letters_for(lang))))
    if answer.get("bell"):
        level = WARN if answer.get("simulated") else OK
        key = "bell.simulated" if answer.get("simulated") else "bell.ok"
        add(Check("bell", level, tr(key, bell=answer["bell"])))
    elif answer.get("sound"):
        add(Check("bell", WARN, tr("bell.sound_only", sound=answer["sound"])))
    else:
        add(Check("bell", FAIL, tr("bell.none")))
    add(
        Check("lamp", OK, tr("lamp.ok", lamp=answer["lamp"]))
        if answer.get("lamp")
        else Check("lamp", WARN, tr("lamp.none"))
    )
    button = answer.get("button") or {}
    if button.get("skipped"):
        add(Check("button", WARN, tr("button.skipped", round=button.get("round", "?"))))
    elif "pressed" in button:
        add(
            Check("button", OK, tr("button.pressed"))
            if button["pressed"]
            else Check("button", FAIL, tr("button.not_pressed"))
        )
    elif button.get("fitted"):
        add(Check("button", WARN, tr("button.not_asked")))
    else:
        add(Check("button", WARN, tr("button.none")))
    # what the station holds in force (its own, the hub's push, its config): the record
    # the kiosk verifies against; an outdated hash is set but opens nothing
    add(
        Check("pin", OK, tr("pin.ok"))
        if answer.get("pin_set")
        else Check("pin", FAIL, tr("pin.outdated"))
        if answer.get("pin_state") == "outdated"
        else Check("pin", FAIL, tr("pin.none"))
    )
    add(Check("tables", OK, tr("tables", tables=answer.get("tables") or "—")))
    free = answer.get("free_bytes")
    need = int(answer.get("min_free_bytes") or 0)
    if free is None:
        add(Check("disk", WARN, tr("disk.unknown")))
    elif free < need:
        add(Check("disk", FAIL, tr("disk.low", free=_mb(free), need=_mb(need))))
    else:
        add(Check("disk", OK, tr("disk.ok", free=_mb(free))))
    ro = answer.get("root_read_only")
    add(
        Check("root", OK, tr("root.ro"))
        if ro
        else Check("root", WARN, tr("root.rw" if ro is False else "root.unknown"))
    )
    wd = answer.get("watchdog")
    add(
        Check("watchdog", OK, tr("watchdog.ok"))
        if wd
        else Check("watchdog", WARN, tr("watchdog.off" if wd is False else "watchdog.none"))
    )
    go = all(c.level != FAIL for c in checks)
    return StationResult(row.station_id if row else answer["station"], go, checks, late, missing)


def judge(
    rid: str,
    started: float,
    at: float,
    report: Any,
    answers: dict[str, dict[str, Any]],
    *,
    hub_version: str,
    lang: str = "cs",
    finished: float | None = None,
    quiet: int | None = None,
) -> Rehearsal:
    """The whole hall: ``report`` is :meth:`hub.service.HubService.stations`. ``quiet``:
    the round during which the rehearsal ran without a bell (nothing rang on purpose)."""
    stations = [
        judge_station(
            row,
            answers.get(row.station_id),
            hub_version=hub_version,
            expected_lexicon=report.expected_lexicon,
            lang=lang,
        )
        for row in report.rows
    ]
    known = {row.station_id for row in report.rows}
    for sid, answer in sorted(answers.items()):  # answered before its status was stored
        if sid not in known:
            stations.append(
                judge_station(
                    None,
                    answer,
                    hub_version=hub_version,
                    expected_lexicon=report.expected_lexicon,
                    lang=lang,
                )
            )
    switched = [
        float(a["gong"]["switched_at"])
        for a in answers.values()
        if (a.get("gong") or {}).get("switched_at") is not None
    ]
    spread = max(switched) - min(switched) if len(switched) >= 2 else (0.0 if switched else None)
    go_count = sum(1 for s in stations if s.go)
    hall: list[Check] = []
    skipped = sorted(
        str((a.get("gong") or {}).get("round", "?"))
        for a in answers.values()
        if (a.get("gong") or {}).get("skipped")
    )
    if quiet is None and skipped:  # a station kept quiet on its own (its clock: a round)
        quiet_round: int | str | None = skipped[0]
    else:
        quiet_round = quiet
    if spread is None and quiet_round is not None:  # during a round nothing rings, on purpose
        hall.append(Check("spread", WARN, t("rehearse.spread.quiet", lang, round=quiet_round)))
    elif spread is None:
        hall.append(Check("spread", FAIL, t("rehearse.spread.none", lang)))
    else:
        level = OK if spread <= SPREAD_TARGET else FAIL
        hall.append(
            Check(
                "spread",
                level,
                t(
                    "rehearse.spread",
                    lang,
                    spread=_ms(spread, lang).lstrip("+"),
                    n=len(switched),
                    target=int(SPREAD_TARGET * 1000),
                ),
            )
        )
    level = OK if go_count >= report.required and report.required > 0 else FAIL
    if report.players == 0:
        level = WARN
    hall.append(
        Check(
            "cas_15_8e",
            level,
            t(
                "rehearse.cas",
                lang,
                players=report.players,
                required=report.required,
                go=go_count,
                online=report.online,
                rule=report.rule,
            ),
        )
    )
    return Rehearsal(
        id=rid,
        started_at=started,
        finished_at=finished if finished is not None else time.time(),
        at=at,
        lang=lang,
        hub_version=hub_version,
        expected_lexicon=report.expected_lexicon,
        players=report.players,
        required=report.required,
        go_stations=go_count,
        online=report.online,
        spread=spread,
        stations=stations,
        hall=hall,
    )


# -- running it ----------------------------------------------------------------------------------


def hub_version() -> str:
    try:
        from importlib.metadata import version

        return version("samoobsluha")
    except Exception:
        return "unknown"


def answers_for(db: sqlite_utils.Database, rid: str) -> dict[str, dict[str, Any]]:
    """The stations' answers to rehearsal ``rid`` (the last one per station)."""
    out: dict[str, dict[str, Any]] = {}
    for sid, payload in db.execute(
        "SELECT station_id, payload FROM inbox WHERE kind = ? ORDER BY station_id, seq", [KIND]
    ):
        data = json.loads(payload)
        if isinstance(data, dict) and data.get("id") == rid:
            out[str(sid)] = data
    return out


def run(
    service: Any,
    *,
    lead: float = DEFAULT_LEAD,
    wait: float = DEFAULT_WAIT,
    keyboard: bool = True,
    button: bool = True,
    lang: str = "cs",
    progress: Callable[[str], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    during_round: bool = False,
) -> Rehearsal:
    """Run one rehearsal on the hall through the running hub; store and return it.
    While a round is being played the hub refuses it unless ``during_round`` (then it is
    quiet: see the module docstring)."""
    args: dict[str, Any] = {"lead": lead, "wait": wait, "keyboard": keyboard, "button": button}
    args["letters"] = letters_for(lang)
    if during_round:
        args["during_round"] = True
    asked = service.control("rehearse", timeout=15.0, **args)
    rid, sent = str(asked["id"]), list(asked["sent_to"])
    if progress:
        if asked.get("quiet"):
            progress(t("rehearse.progress.quiet", lang, n=len(sent), round=asked["quiet"]))
        else:
            progress(t("rehearse.progress.asked", lang, n=len(sent), wait=int(wait)))
    if asked.get("quiet"):
        wait = min(wait, 5.0)  # nothing to type or press: the answers come at once
    # each station answers after its own wait at the latest; then the sync carries it
    deadline = time.monotonic() + lead + wait + 15.0
    answers: dict[str, dict[str, Any]] = {}
    while time.monotonic() < deadline:
        with service._db() as db:
            answers = answers_for(db, rid)
        if all(s in answers for s in sent):
            break
        sleep(0.25)
    report = service.stations()
    result = judge(
        rid,
        float(asked["asked_at"]),
        float(asked["at"]),
        report,
        answers,
        hub_version=hub_version(),
        lang=lang,
        quiet=asked.get("quiet"),
    )
    save(service, result)
    return result


def save(service: Any, result: Rehearsal) -> None:
    with service._db() as db:
        migrations.apply(db)
        with db.atomic():
            db.table("rehearsals").upsert(
                {
                    "id": result.id,
                    "started_at": result.started_at,
                    "finished_at": result.finished_at,
                    "go": int(result.go),
                    "report": json.dumps(result.to_dict(), ensure_ascii=False),
                },
                pk="id",
            )


def load(service: Any, rid: str | None = None) -> Rehearsal | None:
    """A stored rehearsal (the last one when ``rid`` is None)."""
    with service._db() as db:
        migrations.apply(db)
        if rid:
            row = db.execute("SELECT report FROM rehearsals WHERE id = ?", [rid]).fetchone()
        else:
            row = db.execute(
                "SELECT report FROM rehearsals ORDER BY finished_at DESC LIMIT 1"
            ).fetchone()
    return Rehearsal.from_dict(json.loads(row[0])) if row else None


def history(service: Any) -> list[tuple[str, float, bool]]:
    with service._db() as db:
        migrations.apply(db)
        return [
            (str(i), float(f), bool(g))
            for i, f, g in db.execute(
                "SELECT id, finished_at, go FROM rehearsals ORDER BY finished_at"
            )
        ]


# -- rendering -------------------------------------------------------------------------------------

MARK = {OK: "✓", WARN: "!", FAIL: "✗"}


def _when(at: float, lang: str = "cs") -> str:
    """The date as its reader writes it (CLDR: „14. 3. 2026“, „14 Mar 2026“), the time."""
    return f"{date_text(at, lang, 'medium')} {time.strftime('%H:%M:%S', time.localtime(at))}"


def station_line(s: StationResult, lang: str) -> str:
    """The one-line verdict of a station: go, or no-go with its first reason."""
    if s.go:
        extra = [c.text for c in s.checks if c.level == WARN]
        tail = f" ({'; '.join(extra)})" if extra else ""
        return f"{s.station_id}: {t('rehearse.go', lang)}{tail}"
    reasons = "; ".join(c.text for c in s.checks if c.level == FAIL)
    return f"{s.station_id}: {t('rehearse.nogo', lang)} — {reasons}"


def render_text(r: Rehearsal, lang: str | None = None) -> str:
    lang = lang or r.lang
    out = [
        t("rehearse.title", lang, when=_when(r.finished_at, lang)),
        t("rehearse.verdict." + ("go" if r.go else "nogo"), lang),
        "",
    ]
    for c in r.hall:
        out.append(f" {MARK[c.level]} {c.text}")
    out.append("")
    for s in r.stations:
        out.append(station_line(s, lang))
        for c in s.checks:
            out.append(f"   {MARK[c.level]} {c.text}")
    if any(s.missing for s in r.stations):
        out += ["", t("rehearse.sit_hint", lang)]
    return "\n".join(out) + "\n"


def render_html(r: Rehearsal, lang: str | None = None, tournament: str = "") -> str:
    """An A4 page to print: the verdict, the hall checks, one block per station; the
    prints' own page (hub.tournament.exports.a4_page): the event and the date in every
    page's margin, page numbers."""
    from samoobsluha.hub.tournament.exports import PrintHeader, a4_page

    lang = lang or r.lang
    e = html.escape
    css = (
        "<style>table.rh{width:100%;margin-bottom:3mm}table.rh td{white-space:normal;"
        "vertical-align:top}h3{font-size:1.1em;margin:4mm 0 1mm;break-after:avoid}"
        ".ok{color:#060}.warn{color:#a60}.fail{color:#b00;font-weight:bold}"
        ".verdict{font-size:14pt;font-weight:bold;padding:4pt;border:2px solid}"
        ".sign{margin-top:18pt}</style>"
    )
    parts = [
        css,
        f"<p>{e(t('rehearse.title', lang, when=_when(r.finished_at, lang)))}<br>"
        f"{e(t('rehearse.meta', lang, id=r.id, version=r.hub_version))}</p>",
        f'<p class="verdict {OK if r.go else FAIL}">'
        f"{e(t('rehearse.verdict.' + ('go' if r.go else 'nogo'), lang))}</p>",
        '<table class="rh">',
    ]
    for c in r.hall:
        parts.append(f'<tr><td class="{c.level}">{MARK[c.level]}</td><td>{e(c.text)}</td></tr>')
    parts.append("</table>")
    for s in r.stations:
        verdict = t("rehearse.go" if s.go else "rehearse.nogo", lang)
        parts.append(
            f'<h3>{e(s.station_id)}: <span class="{OK if s.go else FAIL}">{e(verdict)}</span></h3>'
        )
        parts.append('<table class="rh">')
        for c in s.checks:
            label = t(f"rehearse.check.{c.key}", lang)
            parts.append(
                f'<tr><td class="{c.level}">{MARK[c.level]}</td><td>{e(label)}</td>'
                f"<td>{e(c.text)}</td></tr>"
            )
        parts.append("</table>")
    if any(s.missing for s in r.stations):
        parts.append(f"<p>{e(t('rehearse.sit_hint', lang))}</p>")
    parts.append(f'<p class="sign">{e(t("rehearse.signature", lang))}</p>')
    header = PrintHeader(event=tournament, day=_day(r.finished_at))
    return a4_page(header, [(t("rehearse.html_title", lang), "\n".join(parts) + "\n")], lang)


def _day(at: float) -> Any:
    import datetime

    return datetime.datetime.fromtimestamp(at).date()


def write_html(r: Rehearsal, path: Path, tournament: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(r, tournament=tournament), encoding="utf-8")
    return path


def in_play_now(service: Any) -> tuple[RoundPlan, str] | None:
    """(dashboard) The round a rehearsal started now would disturb (see
    :func:`round_in_play`), from the hub database."""
    from samoobsluha.hub import store

    now = service.clock.now()
    with service._db() as db:
        plans = store.load_plans(db)
    return round_in_play(plans, now, now + DEFAULT_LEAD + DEFAULT_WAIT)


def rehearse_for_dashboard(
    service: Any, lang: str, *, during_round: bool = False
) -> dict[str, Any]:
    """F1, key ``z``: run the rehearsal, keep its A4 page beside the hub database."""
    result = run(service, lang=lang, during_round=during_round)
    name = result.id.replace(":", "-") + ".html"
    path = write_html(result, Path(service.data) / "rehearsals" / name, _name(service))
    verdict = t("rehearse.verdict." + ("go" if result.go else "nogo"), lang)
    lines = [f"{MARK[c.level]} {c.text}" for c in result.hall]
    lines += [station_line(s, lang) for s in result.stations]
    return {"verdict": verdict, "lines": lines, "path": str(path), "go": result.go}


def _name(service: Any) -> str:
    try:
        return str(service.info().get("name", ""))
    except Exception:
        return ""

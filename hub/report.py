"""The report for the association (ČAS, SSS, PFS) at the end of an event: what it needs to
rate the event, in one folder (``hub report -o DIR``):

* ``<event>.t`` — the tsh file the rating list is computed from: the ruled results
  (forfeits as ruled, byes, absences), as :meth:`Tournament.export_tsh` writes it, so it
  reads back to the hall's standings;
* ``results.csv`` — the results table with every tie-break figure (wins, losses, spread,
  points, points against, TurČAS, Buchholz, starts, seconds, balance), in the reader's
  spreadsheet form (``--plain``: the machine form);
* ``report.html`` (and ``report.pdf`` with ``--pdf``) — A4: the event's metadata (name,
  place, date, chief referee, rule set with its settings, rounds, players, the lexicon
  variant and its SHA-256 — the one published to the stations and every one the stations'
  checks were judged with), the results table, the prize list and the sanctions;
* ``event.json`` — the same metadata for tools.

It reads the tournament (the facade) and the stations' logs (:mod:`hub.store`); it writes
nothing into the hub database.
"""

from __future__ import annotations

import datetime
import html
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.tournament import exports, tsh
from samoobsluha.hub.tournament.facade import Tournament
from samoobsluha.shared.i18n import fixed, t

REPORT_COLUMNS = [
    "rank",
    "name",
    "club",
    "games",
    "wins",
    "losses",
    "spread",
    "points",
    "opp_points",
    "turcas",
    "opp_wins",
    "starts",
    "seconds",
    "balance",
]


@dataclass
class LexiconUse:
    variant: str
    sha256: str
    language: str = ""
    checks: int = 0  # checks the stations judged with it
    published: bool = False  # the lexicon the hub sent the stations


@dataclass
class ReportMeta:
    event: str
    place: str
    date: str
    referee: str
    rules: str
    settings: dict[str, str]
    rounds_planned: int
    rounds_played: int
    players: int
    lexicons: list[LexiconUse] = field(default_factory=list)


def gather(tour: Tournament, db: Any, division: str | None = None) -> ReportMeta:
    """The event's metadata from the tournament and the hub's sync tables; the rounds and
    players are ``division``'s (default: the only one)."""
    division = tour.division(division)
    s = tour.settings()
    uses: dict[tuple[str, str], LexiconUse] = {}
    published = sync_store.load_published(db).get("lexicon")
    if published is not None:
        record = published[1]
        sha = str(record.get("lexicon_sha256", ""))
        variant, language = _lexicon_header(Path(str(record.get("path", ""))))
        uses[(variant, sha)] = LexiconUse(variant, sha, language, published=True)
    for _, check in sync_store.check_records(db):
        if check.lexicon_sha256 is None:
            continue
        key = (check.lexicon_variant or "", check.lexicon_sha256)
        use = uses.setdefault(key, LexiconUse(key[0], key[1]))
        use.checks += 1
    return ReportMeta(
        event=s["name"],
        place=s["place"],
        date=s["date"],
        referee=s["referee"],
        rules=exports.RULES_LABELS.get(s["rules"], s["rules"].upper()),
        settings={k: str(v) for k, v in s["overrides"].items()},
        rounds_planned=s["rounds"],
        rounds_played=tour.last_scored_round(division),
        players=len(tour.players(division=division)),
        lexicons=sorted(uses.values(), key=lambda u: (not u.published, -u.checks, u.sha256)),
    )


def _lexicon_header(path: Path) -> tuple[str, str]:
    if not path.is_file():
        return "", ""
    from samoobsluha.shared.lexicon import Lexicon

    info = Lexicon.open(path, verify="trusted").info
    return info.variant, info.language


def result_rows(
    tour: Tournament, lang: str | None, division: str | None = None
) -> list[dict[str, str]]:
    """Every player of ``division`` (default: the only one) with every tie-break figure
    (machine numbers without ``lang``)."""
    rows = []
    table = tour.standings(division=division)
    for s in table:
        figures = {
            "rank": str(s.rank),
            "name": s.player.name,
            "club": s.player.club,
            "games": str(s.games),
            "wins": _n(s.wins, lang),
            "losses": _n(s.losses, lang),
            "spread": _n(s.spread, lang),
            "points": _n(s.points, lang),
            "opp_points": _n(s.opp_points, lang),
            "turcas": f"{s.turcas:.2f}" if lang is None else fixed(s.turcas, lang, 2),
            "opp_wins": _n(s.opp_wins, lang),
            "starts": str(s.starts),
            "seconds": str(s.seconds),
            "balance": _n(s.balance, lang),
        }
        rows.append(figures)
    return rows


def _n(value: float, lang: str | None) -> str:
    return exports._num(value, lang)


def slug(name: str) -> str:
    """A file name for the event: letters, digits and dashes (diacritics kept out)."""
    import unicodedata

    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return text or "turnaj"


def report_html(
    tour: Tournament,
    meta: ReportMeta,
    lang: str,
    day: datetime.date | None,
    division: str | None = None,
) -> str:
    esc = html.escape
    header = exports.PrintHeader.of(tour, day)
    header = exports.PrintHeader(
        header.event, header.place, header.rules, meta.rounds_played, True, header.day
    )
    facts = [
        ("report.event", meta.event),
        ("report.place", meta.place),
        ("report.date", meta.date),
        ("report.referee", meta.referee),
        ("report.rules", meta.rules + _settings_text(meta.settings)),
        ("report.rounds", f"{meta.rounds_played} / {meta.rounds_planned or '—'}"),
        ("report.players", str(meta.players)),
    ]
    items = "".join(
        f"<tr><th>{esc(t(key, lang))}</th><td>{esc(value or '—')}</td></tr>" for key, value in facts
    )
    lexicons = []
    for u in meta.lexicons:
        where = t("report.lexicon.published", lang) if u.published else ""
        checks = t("report.lexicon.checks", lang, n=u.checks) if u.checks else ""
        note = ", ".join(x for x in (where, checks) if x)
        lexicons.append(
            f"<tr><th>{esc(t('report.lexicon', lang))}</th><td>{esc(u.variant or '?')}"
            f" {esc(u.language)} — SHA-256 <code>{esc(u.sha256)}</code>"
            f"{' (' + esc(note) + ')' if note else ''}</td></tr>"
        )
    if not lexicons:
        lexicons.append(
            f"<tr><th>{esc(t('report.lexicon', lang))}</th>"
            f"<td>{esc(t('report.lexicon.none', lang))}</td></tr>"
        )
    meta_table = f'<table class="meta">{items}{"".join(lexicons)}</table>\n'
    cols = [c for c in REPORT_COLUMNS if c != "club"]
    results = exports.table_html(cols, result_rows(tour, lang, division), lang, 10.0)
    sections = [(t("report.title", lang), meta_table + results)]
    players = {p.id: p for p in tour.players()}
    awards = tour.prize_list(division=division)
    if awards:
        prize = exports.table_html(
            exports.PRIZE_COLUMNS, exports.prize_rows(awards, players, lang), lang
        )
        sections.append((t("print.prizes", lang), prize))
    given = tour.sanctions()
    if given:
        rows = exports.sanction_rows(given, players, lang)
        sections.append(
            (t("print.sanctions", lang), exports.table_html(exports.SANCTION_COLUMNS, rows, lang))
        )
    return exports.a4_page(header, sections, lang, size="protocol")


def _settings_text(settings: dict[str, str]) -> str:
    if not settings:
        return ""
    return " (" + ", ".join(f"{k} = {v}" for k, v in sorted(settings.items())) + ")"


def write_report(
    service: Any,
    out: Path,
    *,
    lang: str = "cs",
    plain: bool = False,
    pdf: bool = False,
    day: datetime.date | None = None,
    division: str | None = None,
) -> list[Path]:
    """Write the report's files into ``out`` (created) for ``division`` (default: the
    only one; in a hall of several, one report a division, as each is rated on its own);
    returns them."""
    out.mkdir(parents=True, exist_ok=True)
    with service._db() as db:
        tour = Tournament(db, service.clock)
        division = tour.division(division)
        meta = gather(tour, db, division)
        name = slug(meta.event)
        made = [out / f"{name}.t"]
        tsh.write(tour.export_tsh(division), made[0])
        rows = result_rows(tour, None if plain else lang, division)
        csv_text = exports.to_csv(REPORT_COLUMNS, rows, None if plain else lang)
        made.append(out / "results.csv")
        made[-1].write_text(csv_text, encoding="utf-8")
        page = report_html(tour, meta, lang, day, division)
    made.append(out / "report.html")
    made[-1].write_text(page, encoding="utf-8")
    made.append(out / "event.json")
    made[-1].write_text(
        json.dumps(asdict(meta), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    if pdf:
        from samoobsluha.hub.printpdf import html_to_pdf

        made.append(html_to_pdf(page, out / "report.pdf"))
    return made

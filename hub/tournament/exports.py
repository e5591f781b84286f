"""Standings, pairings, results and scorecards as CSV, plain text, printable A4 HTML and JSON.

Two CSV forms. The default (``lang`` given) is for the spreadsheet a Czech or Slovak
director has: UTF-8 with a BOM, ``;`` between fields, numbers in the reader's form
(decimal comma in cs/sk) and headers in the language asked for — Excel opens it as
columns. The *plain* form (``lang=None``; ``hub export --plain``, ``hub standings``,
``hub pair``) is for other tools: English machine names as headers (standings start
``rank,name,wins,spread,points``; pairings are ``table,first,second`` with an empty
``second`` for a bye), ``,`` separators, ``.`` decimals, no BOM.

HTML is for the wall and the printer: A4, in ``lang`` (default Czech), no scripts, no
external files. Every printed page carries the event, place, rules, round and date and
``strana N z M`` in its margins (CSS page-margin boxes, repeated by the browser's print
engine), table headers repeat on every page, names never break, columns take the width of
their content, each section starts a new page. JSON is what the hub sends to the stations.

Everything printed comes in as data (the hall screen's address and its QR code as an SVG
string made by the caller): this module imports nothing from the hub's web server, service
or screens.
"""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from samoobsluha.hub.tournament.model import Game, Kind, Player
from samoobsluha.hub.tournament.pairing import Pairing
from samoobsluha.hub.tournament.rules import CAS, RuleSet
from samoobsluha.hub.tournament.standings import game_lines
from samoobsluha.shared.i18n import Phrase, date_text, decimal, fixed, localize, t, time_text

if TYPE_CHECKING:
    from samoobsluha.hub.tournament.facade import Tournament

EXPORTS = (
    "standings",
    "pairings",
    "results",
    "stations",
    "scorecard",
    "sanctions",
    "categories",
    "prizes",
)
FORMATS = ("csv", "html", "json")

RULES_LABELS = {"cas": "ČAS", "sss": "SSS", "pfs": "PFS"}


@dataclass(frozen=True)
class PrintHeader:
    """What every printed page says in its margins: the event, where, under which rules,
    which round (``after``: standings *after* the round) and the day it was printed."""

    event: str = ""
    place: str = ""
    rules: str = ""
    round: int | None = None
    after: bool = False
    day: datetime.date | None = None

    @classmethod
    def of(cls, tour: Tournament, day: datetime.date | None = None) -> PrintHeader:
        settings = tour.settings()
        return cls(
            event=str(settings.get("name", "")),
            place=str(settings.get("place", "")),
            rules=RULES_LABELS.get(settings["rules"], str(settings["rules"]).upper()),
            day=day,
        )

    def left(self, lang: str) -> list[str]:
        """The event on the first line, the place and the rules on the second."""
        second = [self.place]
        if self.rules:
            second.append(t("print.rules", lang, rules=self.rules))
        return [self.event or "Samoobsluha", " · ".join(p for p in second if p)]

    def right(self, lang: str) -> list[str]:
        """The round on the first line, the date on the second."""
        first = ""
        if self.round:
            key = "print.after_round" if self.after else "print.round"
            first = t(key, lang, round=self.round)
        return [first, date_text(self.day or datetime.date.today(), lang)]


@dataclass(frozen=True)
class ScreenLink:
    """What the printed pairings carry of the hall screen, made by the caller (the hub's
    web side): its address and QR code; the players' network, its password and join code."""

    url: str
    qr_svg: str = ""
    wifi: str = ""
    wifi_password: str = ""
    wifi_qr_svg: str = ""


def render(
    tour: Tournament,
    what: str,
    fmt: str,
    *,
    round_no: int | None = None,
    player: int | None = None,
    lang: str = "cs",
    plain: bool = False,
    screen_url: str | None = None,
    qr_svg: str | None = None,
    wifi: str | None = None,
    wifi_password: str = "",
    wifi_qr_svg: str | None = None,
    link: ScreenLink | None = None,
    day: datetime.date | None = None,
    division: str | None = None,
) -> str:
    """The one way to turn a tournament into an export (``hub export``, the dashboard).

    ``standings`` after ``round_no`` (default: every round played); ``pairings`` and
    ``results`` of ``round_no`` (default: the last paired round); ``stations``: what the
    stations show for ``round_no`` (JSON); ``scorecard`` of ``player`` (default: every
    player's, a page each). ``fmt``: csv, html or json; ``plain``: the machine CSV (English
    names, ``,``) instead of the spreadsheet's. Printed pairings carry ``screen_url`` (the
    hall screen's address) as text and ``qr_svg``, its QR code, made by the caller; with
    ``wifi`` (the players' network), its name, password and join code ``wifi_qr_svg``.
    ``link``: all of these at once. ``day``: the date printed on every page (default
    today). ``division``: that division's standings, pairings, results, scorecards, prizes,
    category standings and sanctions (default: the only one; in a hall with several, the
    pairings, results, the stations' JSON and the sanctions are the whole hall's, each
    table with its division; the prizes and category standings every division's, each
    under its name; standings and scorecards are refused, naming the divisions)."""
    if link is not None:
        screen_url, qr_svg = link.url, link.qr_svg
        wifi, wifi_password, wifi_qr_svg = link.wifi, link.wifi_password, link.wifi_qr_svg
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    players = {p.id: p for p in tour.players()}
    header = PrintHeader.of(tour, day)
    csv_lang = None if plain else lang
    if division is not None:
        division = tour.division(division)
    if what == "standings":
        table = tour.standings(after_round=round_no, division=division)
        rules = tour.rules
        if fmt == "html":
            after = round_no if round_no is not None else tour.last_scored_round(division)
            return standings_html(
                table, rules, after_round=after, lang=lang, header=replace(header, after=True)
            )
        if fmt == "json":
            return json.dumps(standings_rows(table, rules), ensure_ascii=False, indent=1)
        return standings_csv(table, rules, csv_lang)
    if what in ("pairings", "stations", "results"):
        number = round_no if round_no is not None else tour.last_round(division)
        pairing = tour.pairing(number, division)
        header = replace(header, round=number)
        if what == "results":
            rows = result_rows(pairing, players, tour.results(number), lang, tour.rules)
            if fmt == "html":
                return results_html(rows, number, lang=lang, header=header)
            if fmt == "json":
                return json.dumps(rows, ensure_ascii=False, indent=1)
            machine = result_rows(pairing, players, tour.results(number), None, tour.rules)
            return to_csv(RESULT_COLUMNS, machine if plain else rows, csv_lang)
        if what == "stations" or fmt == "json":
            names = tour.divisions() if division is None else [division]
            table = [s for d in names for s in tour.standings(after_round=number - 1, division=d)]
            many = len(tour.divisions()) > 1
            return json.dumps(
                station_json(pairing, players, table, divisions=many),
                ensure_ascii=False,
                indent=1,
            )
        if fmt == "html":
            return pairings_html(
                pairing,
                players,
                lang=lang,
                screen_url=screen_url,
                qr_svg=qr_svg,
                wifi=wifi,
                wifi_password=wifi_password,
                wifi_qr_svg=wifi_qr_svg,
                header=header,
                sanctions=sanction_rows(tour.sanction_book.published_before(number), players, lang),
            )
        return pairings_csv(pairing, players, csv_lang)
    if what in ("categories", "prizes"):
        # One division's, or — none named in a hall of several — every division's, each
        # under its name (each is given the prize table on its own, as the hall screen shows).
        names = [division] if division is not None else tour.divisions()
        many = len(names) > 1
        after = round_no if round_no is not None else tour.last_scored_round(division)
        head = replace(header, round=after, after=True)
        rules = tour.rules
        if what == "prizes":
            per = {
                d: prize_rows(
                    tour.prize_list(after_round=round_no, division=d),
                    players,
                    None if (plain and fmt == "csv") else lang,
                )
                for d in names
            }
            rows = [({"division": d} if many else {}) | r for d, v in per.items() for r in v]
            if fmt == "html":
                sections = []
                for d, some in per.items():
                    heading = (
                        t("print.prizes_division", lang, division=d)
                        if many
                        else t("print.prizes", lang)
                    )
                    # no tie: nobody's share, and the column is left out
                    cols = _filled(
                        PRIZE_COLUMNS, some, optional=set(PRIZE_COLUMNS) - {"award", "name"}
                    )
                    sections.append((heading, _table(cols, some, lang, _pt("wall"))))
                return a4_page(head, sections, lang, "wall")
            if fmt == "json":
                return json.dumps(rows, ensure_ascii=False, indent=1)
            return to_csv((["division"] if many else []) + PRIZE_COLUMNS, rows, csv_lang)
        tables = {
            (d, c.name): tour.category_standings(c.name, after_round=round_no, division=d)
            for d in names
            for c in tour.prize_book.categories()
        }
        if fmt == "json":
            out: dict[str, list[dict[str, str]]] = {}
            for (d, n), v in tables.items():
                out.setdefault(n, []).extend(
                    ({"division": d} if many else {}) | r for r in category_rows(v, rules, None)
                )
            return json.dumps(out, ensure_ascii=False, indent=1)
        if fmt == "csv":
            out_rows = []
            for (d, n), v in tables.items():
                for row in category_rows(v, rules, csv_lang):
                    out_rows.append(({"division": d} if many else {}) | {"category": n, **row})
            lead = ["division", "category"] if many else ["category"]
            return to_csv([*lead, *category_columns(rules)], out_rows, csv_lang)
        sections = []
        cols = [c for c in category_columns(rules) if c not in ("games", "seconds")]
        for (d, n), v in tables.items():
            heading = (
                t("print.category_division", lang, name=n, division=d)
                if many
                else t("print.category", lang, name=n)
            )
            rows = category_rows(v, rules, lang)
            sections.append((heading, _table(_filled(cols, rows), rows, lang, 12.0)))
        return a4_page(head, sections, lang, "standings")
    if what == "sanctions":
        given = tour.sanctions(round_no=round_no)
        if division is not None:  # the hall's record, or one division's players'
            given = [s for s in given if players[s.player].division == division]
        if fmt == "html":
            rows = sanction_rows(given, players, lang)
            heading = t("print.sanctions", lang)
            section = _table(SANCTION_COLUMNS, rows, lang, _pt("card"))
            return a4_page(replace(header, round=round_no), [(heading, section)], lang, "card")
        rows = sanction_rows(given, players, None if plain else lang)
        if fmt == "json":
            return json.dumps(rows, ensure_ascii=False, indent=1)
        return to_csv(SANCTION_COLUMNS, rows, csv_lang)
    if what == "scorecard":
        by_id = {s.player.id: s for s in tour.standings(after_round=round_no, division=division)}
        if player is not None and player not in by_id:
            raise ValueError(Phrase("err.tour.no_player", id=player))
        chosen = [by_id[player]] if player is not None else list(by_id.values())
        if player is None:
            chosen.sort(key=lambda s: _collate(s.player.name))
        if fmt == "html":
            after = round_no if round_no is not None else tour.last_scored_round(division)
            return scorecards_html(
                chosen, players, lang=lang, header=replace(header, round=after, after=True)
            )
        if fmt == "json":
            return json.dumps(
                {s.player.name: scorecard_rows(s, players, lang) for s in chosen},
                ensure_ascii=False,
                indent=1,
            )
        if player is None:
            raise ValueError(Phrase("err.export.scorecard_player"))
        return scorecard_csv(chosen[0], players, csv_lang)
    raise ValueError(f"cannot export {what!r} (one of {', '.join(EXPORTS)})")


# --- standings -----------------------------------------------------------------------------


def standings_columns(rules: RuleSet) -> list[str]:
    cols = ["rank", "name", "wins", "spread", "points"]
    if "turcas" in rules.criteria:
        cols += ["turcas", "opp_wins", "starts", "seconds"]
    elif "opp_wins" in rules.criteria:
        cols += ["opp_wins"]
    if "balance" in rules.criteria:
        cols += ["balance"]
    # "note": „vyloučen“ / „wykluczony“ beside a player expelled from the event (PFS zeroes
    # his tally, ČAS and SSS keep it: either way the reader sees why); the print leaves the
    # column out when nobody has one
    return [*cols, "games", "club", "note"]


def standing_note(standing: Any, lang: str | None = None) -> str:
    """What the standings say beside a player's name: „vyloučen“ (``expelled`` in the
    machine form) for one expelled from the event, else nothing."""
    if not getattr(standing, "expelled", False):
        return ""
    return "expelled" if lang is None else t("tour.expelled", lang)


def _num(value: float, lang: str | None = None) -> str:
    """A count or score: the machine form (``0.5``) without ``lang``, else the reader's
    (``0,5``, ``1 116`` with a no-break space in cs and sk)."""
    if lang is not None:
        return decimal(value, lang)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def division_rows(rows: list[dict[str, str]], standings: Sequence[Any]) -> list[dict[str, str]]:
    """``rows`` (of ``standings``) each with its player's division: what a hall of several
    divisions sends, ranks being per division."""
    for row, line in zip(rows, standings, strict=True):
        row["division"] = line.player.division
    return rows


def standings_rows(
    standings: Sequence[Any], rules: RuleSet, lang: str | None = None
) -> list[dict[str, str]]:
    """The table's cells as text: machine numbers without ``lang`` (stations, CSV for
    tools), the reader's numbers with it (prints, the hall screen, CSV for Excel)."""
    rows = []
    for s in standings:
        row = {
            "rank": str(s.rank),
            "name": s.player.name,
            "wins": _num(s.wins, lang),
            "spread": _num(s.spread, lang),
            "points": _num(s.points, lang),
            "turcas": f"{s.turcas:.2f}" if lang is None else fixed(s.turcas, lang, 2),
            "opp_wins": _num(s.opp_wins, lang),
            "starts": str(s.starts),
            "seconds": str(s.seconds),
            "balance": _num(s.balance, lang),
            "games": str(s.games),
            "club": s.player.club,
            "note": standing_note(s, lang),
        }
        rows.append({c: row[c] for c in standings_columns(rules)})
    return rows


def to_csv(
    columns: Sequence[str], rows: Sequence[Mapping[str, str]], lang: str | None = None
) -> str:
    """CSV text. With ``lang``: the spreadsheet's form (a BOM, ``;``, headers in
    ``lang``; the rows must already carry the reader's numbers); without: the plain form."""
    out = io.StringIO()
    if lang is None:
        writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()
    plain = csv.writer(out, delimiter=";", lineterminator="\r\n")
    plain.writerow([_col_label(c, lang) for c in columns])
    plain.writerows([[row[c] for c in columns] for row in rows])
    return "\ufeff" + out.getvalue()


def to_text(columns: Sequence[str], rows: Sequence[Mapping[str, str]]) -> str:
    widths = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in columns}
    words = ("name", "club", "first", "second", "opponent", "note")
    numeric = {c for c in columns if c not in words}

    def cell(c: str, v: str) -> str:
        return v.rjust(widths[c]) if c in numeric else v.ljust(widths[c])

    lines = ["  ".join(cell(c, c) for c in columns).rstrip()]
    lines += ["  ".join(cell(c, r[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(lines) + "\n"


def standings_csv(standings: Sequence[Any], rules: RuleSet, lang: str | None = None) -> str:
    return to_csv(standings_columns(rules), standings_rows(standings, rules, lang), lang)


def standings_text(standings: Sequence[Any], rules: RuleSet) -> str:
    return to_text(standings_columns(rules), standings_rows(standings, rules))


def standings_html(
    standings: Sequence[Any],
    rules: RuleSet,
    *,
    after_round: int,
    title: str = "",
    lang: str = "cs",
    header: PrintHeader | None = None,
) -> str:
    header = replace(header or PrintHeader(event=title), round=after_round, after=True)
    rows = standings_rows(standings, rules, lang)
    cols = _filled([c for c in standings_columns(rules) if c not in ("games", "seconds")], rows)
    heading = t("tour.standings", lang, round=after_round)
    section = _table(cols, rows, lang, _pt("standings"))
    return a4_page(header, [(heading, section)], lang, size="standings")


# --- pairings ------------------------------------------------------------------------------

PAIRING_COLUMNS = ["table", "first", "second"]
BY_NAME_COLUMNS = ["name", "table", "opponent", "role"]


def pairing_rows(pairing: Pairing, players: Mapping[int, Player]) -> list[dict[str, str]]:
    return [
        {
            "table": str(b.table),
            "first": players[b.first].name,
            "second": players[b.second].name if b.second is not None else "",
        }
        for b in pairing.boards
    ]


def pairings_csv(pairing: Pairing, players: Mapping[int, Player], lang: str | None = None) -> str:
    rows = pairing_rows(pairing, players)
    if lang is not None:
        for row in rows:
            row["second"] = row["second"] or f"({t('tour.bye', lang)})"
    return to_csv(PAIRING_COLUMNS, rows, lang)


def pairings_explain(pairing: Pairing, players: Mapping[int, Player], lang: str = "cs") -> str:
    """The pairing's notes and why each pair, as ``#`` comment lines in ``lang``."""
    lines = [f"# {localize(note, lang)}" for note in pairing.notes]
    for b in pairing.boards:
        lines.append("# " + t("pair.explain.table", lang, table=b.table, why=b.explain(lang)))
    return "\n".join(lines) + "\n"


def by_name_rows(
    pairing: Pairing, players: Mapping[int, Player], lang: str
) -> list[dict[str, str]]:
    """Every player by name: his table, his opponent and *his own* role (ZH starts)."""
    rows = []
    for b in pairing.boards:
        for me, other, role in ((b.first, b.second, "ZH"), (b.second, b.first, "DH")):
            if me is None:
                continue
            rows.append(
                {
                    "name": players[me].name,
                    "table": str(b.table),
                    "opponent": players[other].name if other is not None else t("tour.bye", lang),
                    "role": t(f"tour.role.{role.lower()}", lang) if other is not None else "",
                }
            )
    rows.sort(key=lambda row: _collate(row["name"]))
    return rows


def pairings_html(
    pairing: Pairing,
    players: Mapping[int, Player],
    *,
    title: str = "",
    lang: str = "cs",
    screen_url: str | None = None,
    qr_svg: str | None = None,
    wifi: str | None = None,
    wifi_password: str = "",
    wifi_qr_svg: str | None = None,
    header: PrintHeader | None = None,
    sanctions: Sequence[Mapping[str, str]] = (),
) -> str:
    """The pairings for the wall: by table, then (a new page) every player by name.
    ``sanctions``: the warnings and expulsions to publish before this round (ČAS 13.13,
    :func:`sanction_rows`), printed under the tables.
    ``screen_url`` and ``qr_svg``: the hall screen's address and its QR code (an inline
    SVG the caller made), printed so players find their table on their phones; ``wifi``,
    ``wifi_password``, ``wifi_qr_svg``: the players' network to join first."""
    header = header or PrintHeader(event=title, round=pairing.round)
    rows = pairing_rows(pairing, players)
    for row in rows:
        if not row["second"]:
            row["second"] = f"({t('tour.bye', lang)})"
    columns = PAIRING_COLUMNS
    if len({players[b.first].division for b in pairing.boards}) > 1:
        # the hall's tables, several divisions: whose each table is
        columns = ["table", "division", "first", "second"]
        for row, b in zip(rows, pairing.boards, strict=True):
            row["division"] = players[b.first].division
    qr = ""
    if screen_url:
        esc = html.escape
        code = f'<div class="code">{qr_svg}</div>' if qr_svg else ""
        join = ""
        caption = esc(t("screen.qr.caption", lang))
        if wifi:
            secret = (
                f"<br>{esc(t('print.qr.wifi_password', lang, password=wifi_password))}"
                if wifi_password
                else ""
            )
            join = (
                f'<div class="code">{wifi_qr_svg or ""}</div>'
                f"<p>{esc(t('print.qr.wifi', lang, ssid=wifi))}{secret}</p>"
            )
            caption = "2. " + caption
        qr = f'<div class="qr">{join}{code}<p>{caption}<br><b>{esc(screen_url)}</b></p></div>\n'
    published = ""
    if sanctions:
        published = f"<h3>{html.escape(t('print.sanctions.published', lang))}</h3>\n" + _table(
            SANCTION_COLUMNS, sanctions, lang
        )
    sections = [
        (
            t("tour.pairings", lang, round=pairing.round),
            qr + _table(columns, rows, lang, _pt("wall")) + published,
        ),
        (
            f"{t('tour.pairings', lang, round=pairing.round)} — {t('tour.by_name', lang)}",
            qr + _table(BY_NAME_COLUMNS, by_name_rows(pairing, players, lang), lang, _pt("wall")),
        ),
    ]
    return a4_page(header, sections, lang, size="wall")


# --- categories and prizes -----------------------------------------------------------------

PRIZE_COLUMNS = ["award", "prize", "name", "share", "note"]


def category_columns(rules: RuleSet) -> list[str]:
    return ["rank", "overall", *standings_columns(rules)[1:]]


def category_rows(
    table: Sequence[tuple[int, Any]], rules: RuleSet, lang: str | None
) -> list[dict[str, str]]:
    """A category's standings: the rank in the category, the overall rank, the figures."""
    rows = []
    for (rank, s), row in zip(
        table, standings_rows([s for _, s in table], rules, lang), strict=True
    ):
        rows.append(
            {
                "rank": str(rank),
                "overall": str(s.rank),
                **{k: v for k, v in row.items() if k != "rank"},
            }
        )
    return rows


def prize_rows(
    awards: Sequence[Any], players: Mapping[int, Player], lang: str | None
) -> list[dict[str, str]]:
    """The prize list: what (the place, overall or in a category; "shared" for a tie),
    the prize (several pooled for a tie), the winners, each one's share of an amount.
    Without ``lang`` the machine form (``place 3-4``, ``category junior 1``)."""
    rows = []
    for a in awards:
        start, end = a.places
        if a.kind == "barred" and a.bar is not None:
            rows.append(_barred_row(a, players, lang))
            continue
        if lang is None:
            where = f"{a.kind} {a.category} " if a.category else f"{a.kind} "
            label = where + (f"{start}" if start == end else f"{start}-{end}")
        else:
            place = (
                t("prize.place", lang, place=start)
                if start == end
                else t("prize.places", lang, start=start, end=end)
            )
            label = (
                t("prize.in_category", lang, category=a.category, place=place)
                if a.category
                else place
            )
            if a.shared:
                label += f" ({t('prize.shared', lang)})"
        rows.append(
            {
                "award": label,
                "prize": " + ".join(p.value for p in a.prizes),
                "name": ", ".join(players[pid].name for pid in a.players),
                "share": _share_text(a.share, lang),
                "note": "",
            }
        )
    return rows


def _share_text(share: str, lang: str | None) -> str:
    """A winner's share (``14.29 Kč``, machine form) in the reader's form (``14,29 Kč``)."""
    number, _, unit = share.partition(" ")
    if lang is None or not number:
        return share
    try:
        value = float(number)
    except ValueError:
        return share
    return f"{decimal(value, lang)} {unit}".strip()


def _barred_row(a: Any, players: Mapping[int, Player], lang: str | None) -> dict[str, str]:
    """A player who would have won ``a.prizes`` and may not take them: "no prize", and
    why (an expulsion with the referee's published reason, ČAS 13.13, or a withdrawal)."""
    start, end = a.places
    places = f"{start}" if start == end else f"{start}-{end}"
    if lang is None:
        where = f"{a.category} {places}" if a.category else places
        return {
            "award": f"barred {a.bar.cause}",
            "prize": f"{where}: {' + '.join(p.value for p in a.prizes)}",
            "name": players[a.players[0]].name,
            "share": "",
            "note": a.bar.reason,
        }
    place = (
        t("prize.place", lang, place=start)
        if start == end
        else t("prize.places", lang, start=start, end=end)
    )
    if a.category:
        place = t("prize.in_category", lang, category=a.category, place=place)
    why = t(f"prize.barred.{a.bar.cause}", lang)
    if a.bar.reason:
        why = t("prize.barred.because", lang, why=why, reason=a.bar.reason)
    return {
        "award": t("prize.barred", lang),
        "prize": t(
            "prize.barred.would", lang, place=place, prize=" + ".join(p.value for p in a.prizes)
        ),
        "name": players[a.players[0]].name,
        "share": "",
        "note": why,
    }


# --- sanctions -----------------------------------------------------------------------------

SANCTION_COLUMNS = ["name", "sanction", "round", "table", "reason", "referee", "time"]


def _recorder(who: str, lang: str | None) -> str:
    """Who recorded a sanction, as a reader says it: the commands' default names
    (``operator``, ``referee``) are roles, shown in the reader's language; a name the
    referee typed is shown as typed. The machine form keeps the stored value."""
    if lang is not None and who in ("operator", "referee"):
        return t(f"dash.source.{who}", lang)
    return who


def sanction_rows(
    sanctions: Sequence[Any], players: Mapping[int, Player], lang: str | None
) -> list[dict[str, str]]:
    """One row per sanction: who, what (with what the rules make of it: the third cross
    in a game is „ztráta tahu“, the third warning expels from the game), when, why, by whom.
    Without ``lang`` the machine form (kinds as words, times as Unix seconds)."""
    rows = []
    for s in sanctions:
        if lang is None:
            what = s.kind + (f" {s.points}" if s.kind == "penalty" else "")
            what += {True: " turn_lost", False: ""}[s.turn_lost]
            what += " expel_game" if s.expel_game else ""
            what += " event" if s.kind == "expulsion" and s.scope == "event" else ""
            when = f"{s.at:.0f}"
        else:
            key = f"sanction.kind.{s.kind}"
            if s.kind == "expulsion":
                key += f".{s.scope}"
            what = t(key, lang, n=s.nth_in_game, points=s.points)
            if s.turn_lost:
                what += " — " + t("sanction.turn_lost", lang)
            if s.expel_game:
                what += " — " + t("sanction.expel_game", lang)
            when = time_text(s.at, lang)
        rows.append(
            {
                "name": players[s.player].name if s.player in players else f"#{s.player}",
                "sanction": what,
                "round": "" if s.round is None else str(s.round),
                "table": "" if s.table is None else str(s.table),
                "reason": s.reason,
                "referee": _recorder(s.referee, lang),
                "time": when,
            }
        )
    return rows


# --- results -------------------------------------------------------------------------------

RESULT_COLUMNS = ["table", "first", "score", "second", "note"]


def result_rows(
    pairing: Pairing,
    players: Mapping[int, Player],
    results: Sequence[Mapping[str, Any]],
    lang: str | None,
    rules: RuleSet | None = None,
) -> list[dict[str, str]]:
    """One row per table of the round: ZH, the score (ZH's first), DH and what else a
    reader must know (a forfeit, a disputed or a missing result). Without ``lang`` the
    machine form (the note is the result's kind and state). The score is the *ruled* one,
    as the standings count it (a forfeit 200:0 by ``rules``, default ČAS's values); a
    forfeit's score at the table is in the note."""
    rules = rules or CAS
    by_table = {int(r["table_no"]): r for r in results}
    rows = []
    for b in pairing.boards:
        r = by_table.get(b.table)
        first = players[b.first].name
        second = players[b.second].name if b.second is not None else ""
        if b.second is None and lang is not None:
            second = f"({t('tour.bye', lang)})"
        score, note, at_table = "", "", ""
        if r is not None and r.get("s_first") is not None:
            score = f"{_num(r['s_first'], lang)}:{_num(r['s_second'], lang)}"
        if r is not None and b.second is not None and r["kind"] != Kind.PLAYED.value:
            at_table = score
            own, opp = ruled_scores(pairing.round, b.first, b.second, r, rules)
            score = f"{_num(own, lang)}:{_num(opp, lang)}"
        if lang is None:
            note = "" if r is None else f"{r['kind']} {r['status']}"
        elif r is None:
            note = t("print.result.missing", lang) if b.second is not None else ""
        else:
            notes = []
            if r["kind"] not in (Kind.PLAYED.value, Kind.BYE.value):
                notes.append(t(f"tour.kind.{r['kind']}", lang))
                if at_table and at_table != score:
                    notes.append(t("print.result.at_table", lang, score=at_table))
            if r["status"] == "conflict":
                notes.append(t("print.result.conflict", lang))
            note = ", ".join(notes)
        rows.append(
            {"table": str(b.table), "first": first, "score": score, "second": second, "note": note}
        )
    return rows


def ruled_scores(
    round_no: int, first: int, second: int, result: Mapping[str, Any], rules: RuleSet
) -> tuple[int, int]:
    """A table's result as the standings count it (a forfeit 200:0 or its kept score, a
    double forfeit 0:0), ZH's first: what every export shows."""
    game = Game(
        round_no,
        first,
        second,
        result.get("s_first"),
        result.get("s_second"),
        kind=Kind(result["kind"]),
        forfeited=result.get("forfeited"),
    )
    ruled = game_lines(game, rules)
    return ruled[first].own, ruled[second].own


def results_html(
    rows: Sequence[Mapping[str, str]], round_no: int, *, lang: str, header: PrintHeader
) -> str:
    section = _table(RESULT_COLUMNS, rows, lang, _pt("wall"))
    return a4_page(header, [(t("print.results", lang, round=round_no), section)], lang, "wall")


# --- scorecard -----------------------------------------------------------------------------

SCORECARD_COLUMNS = ["round", "table", "opponent", "started", "own", "opp", "result", "wins"]


def scorecard_rows(
    standing: Any, players: Mapping[int, Player], lang: str | None = "cs"
) -> list[dict[str, str]]:
    """One line a game; ``lang`` None: the machine form (numbers, result letters in cs)."""
    words = lang or "cs"
    rows = []
    cumulative = 0.0
    for line in standing.lines:
        cumulative += line.wins
        if line.opponent is None:
            opponent = t("tour.bye", words) if line.kind is Kind.BYE else ""
        else:
            opponent = players[line.opponent].name
        if line.kind not in (Kind.PLAYED, Kind.BYE):
            opponent = f"{opponent} ({t(f'tour.kind.{line.kind.value}', words)})".strip()
        result = {1.0: "tour.win", 0.5: "tour.draw"}.get(line.wins, "tour.loss")
        rows.append(
            {
                "round": str(line.round),
                "table": "" if line.table is None else str(line.table),
                "opponent": opponent,
                "started": {
                    True: t("tour.role.zh", words),
                    False: t("tour.role.dh", words),
                    None: "",
                }[line.started],
                "own": _num(line.own, lang),
                "opp": _num(line.opp, lang),
                "result": t(result, words),
                "wins": _num(cumulative, lang),
            }
        )
    return rows


def scorecard_csv(standing: Any, players: Mapping[int, Player], lang: str | None = None) -> str:
    return to_csv(SCORECARD_COLUMNS, scorecard_rows(standing, players, lang), lang)


def scorecard_html(
    standing: Any,
    players: Mapping[int, Player],
    *,
    title: str = "",
    lang: str = "cs",
    header: PrintHeader | None = None,
) -> str:
    return scorecards_html([standing], players, lang=lang, header=header or PrintHeader(title))


def scorecards_html(
    standings: Sequence[Any],
    players: Mapping[int, Player],
    *,
    lang: str = "cs",
    header: PrintHeader,
) -> str:
    """Players' scorecards, a page each."""
    sections = []
    for s in standings:
        heading = f"{t('tour.scorecard', lang)}: {s.player.name}"
        summary = t(
            "print.scorecard.summary",
            lang,
            rank=s.rank,
            wins=_num(s.wins, lang),
            spread=_num(s.spread, lang),
        )
        body = f'<p class="sum">{html.escape(summary)}</p>\n' + _table(
            SCORECARD_COLUMNS, scorecard_rows(s, players, lang), lang, _pt("card")
        )
        sections.append((heading, body))
    return a4_page(header, sections, lang, size="card")


# --- JSON for stations ---------------------------------------------------------------------


def station_json(
    pairing: Pairing,
    players: Mapping[int, Player],
    standings: Sequence[Any] = (),
    *,
    divisions: bool = False,
) -> dict[str, Any]:
    """What a station shows: the round's tables (who starts first) and the standings.
    With ``divisions`` (a hall of several), every table and standings row also names its
    division (the division of its players; ranks are per division)."""
    tables: list[dict[str, Any]] = []
    for b in pairing.boards:
        row: dict[str, Any] = {
            "table": b.table,
            "first": {"id": b.first, "name": players[b.first].name},
            "second": None
            if b.second is None
            else {"id": b.second, "name": players[b.second].name},
            "bye": b.second is None,
        }
        if divisions:
            row["division"] = players[b.first].division
        tables.append(row)
    rows: list[dict[str, Any]] = []
    for s in standings:
        line: dict[str, Any] = {
            "rank": s.rank,
            "id": s.player.id,
            "name": s.player.name,
            "wins": s.wins,
            "spread": s.spread,
            "points": s.points,
        }
        if divisions:
            line["division"] = s.player.division
        rows.append(line)
    return {"round": pairing.round, "tables": tables, "standings": rows}


# --- the A4 page ---------------------------------------------------------------------------

# Font sizes by what the sheet is for: pairings and results are read on the wall from about
# 2 m (16 pt: a 3 mm x-height, the size notice boards use at that distance), the standings
# have the most columns, a scorecard is read in the hand.
_SIZES = {"wall": "16pt", "standings": "12pt", "card": "12pt", "protocol": "11pt"}


def _pt(size: str) -> float:
    return float(_SIZES[size].removesuffix("pt"))


_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
.sheet-head { display: flex; justify-content: space-between; gap: 4mm; font-size: 9pt;
  border-bottom: 0.3mm solid #000; margin-bottom: 3mm; }
.sheet-head .r { text-align: right; }
@media print { .sheet-head { display: none; } }
h2 { font-size: 1.25em; margin: 0 0 3mm; break-after: avoid; }
section + section { break-before: page; }
table { border-collapse: collapse; width: auto; max-width: 100%; }
th, td { border: 0.3mm solid #444; padding: 0.6mm 1.8mm; text-align: left; white-space: nowrap; }
th { background: #ddd; font-size: 0.8em; white-space: normal; vertical-align: bottom; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.name { font-weight: bold; }
td.wrap { white-space: normal; min-width: 20mm; }  /* a club or a note may wrap, a name not */
table.meta { margin: 0 0 4mm; } table.meta th { text-align: left; background: #eee; }
table.meta td { white-space: normal; } code { font-size: 0.85em; word-break: break-all; }
tr { break-inside: avoid; } thead { display: table-header-group; }
div.qr { display: flex; align-items: center; gap: 4mm; margin: 0 0 3mm; font-size: 10pt; }
div.qr p { margin: 0; }
p.sum { margin: 0 0 3mm; }
"""

_NUMERIC = {
    "rank",
    "wins",
    "spread",
    "points",
    "turcas",
    "opp_wins",
    "starts",
    "balance",
    "table",
    "round",
    "own",
    "opp",
    "score",
}


_WIDTH_PT = (210 - 2 * 12) / 25.4 * 72  # A4 less the side margins
_PAD_PT = 4.2 / 25.4 * 72  # a cell's padding and borders


def _fitted_pt(
    cols: Sequence[str], rows: Sequence[Mapping[str, str]], lang: str, size_pt: float
) -> float:
    """The font size at which the table's widest rows fit across the page: ``size_pt``,
    or less when names are long (DejaVu Sans: about 0.5 em a letter, 0.56 in names;
    a club or a note wraps after 12 letters, a header after 8)."""
    em = 0.0
    for c in cols:
        longest = max([len(r[c]) for r in rows] + [min(len(_col_label(c, lang)), 8)])
        if c in ("club", "note"):
            longest = min(longest, 12)
        em += longest * (0.56 if c in ("name", "first", "second", "opponent") else 0.5)
    if not em:
        return size_pt
    return min(size_pt, (_WIDTH_PT - _PAD_PT * len(cols)) / em)


def _filled(
    columns: Sequence[str], rows: Sequence[Mapping[str, str]], optional: Iterable[str] = ("note",)
) -> list[str]:
    """``columns`` for a print, an ``optional`` one left out when no row has a value in it
    (nobody expelled: no note column; no tie: no share column)."""
    empty = {c for c in optional if not any(r.get(c) for r in rows)}
    return [c for c in columns if c not in empty]


def _table(
    cols: Sequence[str],
    rows: Sequence[Mapping[str, str]],
    lang: str,
    size_pt: float | None = None,
) -> str:
    """A table; with ``size_pt`` (the sheet's font size) a smaller one when its longest
    names would not fit across the page at that size — names never wrap."""
    esc = html.escape
    style = ""
    if size_pt is not None:
        fitted = _fitted_pt(cols, rows, lang, size_pt)
        if fitted < size_pt:
            style = f' style="font-size: {max(fitted, 7.0):.1f}pt"'
    head = "".join(f"<th>{esc(_col_label(c, lang))}</th>" for c in cols)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{esc(row[c])}</td>'
            if c in _NUMERIC
            else f'<td class="name">{esc(row[c])}</td>'
            if c == "name"
            else f'<td class="wrap">{esc(row[c])}</td>'
            if c in ("club", "note", "reason", "sanction")
            else f"<td>{esc(row[c])}</td>"
            for c in cols
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f"<table{style}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
        + "\n".join(body)
        + "\n</tbody>\n</table>\n"
    )


def table_html(
    cols: Sequence[str],
    rows: Sequence[Mapping[str, str]],
    lang: str,
    size_pt: float | None = None,
) -> str:
    """An A4 table of these exports' kind, for other printed documents (the report)."""
    return _table(cols, rows, lang, size_pt)


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal (for the page-margin boxes)."""
    escaped = "".join(c if c.isalnum() or c in " .,:;·–—()/" else f"\\{ord(c):x} " for c in text)
    return f'"{escaped}"'


def _lines(lines: Sequence[str]) -> str:
    """Lines as one CSS string (``\\A`` breaks them in a ``white-space: pre`` box)."""
    return ' "\\A" '.join(_css_string(line) for line in lines if line) or '""'


def _page_counter(lang: str) -> str:
    """``strana N z M`` as CSS content: the message around the page counters."""
    marker = t("print.page", lang, page="\x00", pages="\x01")
    before, rest = marker.split("\x00")
    middle, after = rest.split("\x01")
    return (
        f"{_css_string(before)} counter(page) {_css_string(middle)} counter(pages) "
        f"{_css_string(after)}"
    )


def a4_page(
    header: PrintHeader,
    sections: Sequence[tuple[str, str]],
    lang: str,
    size: str = "card",
) -> str:
    """One printable document: every section (heading, HTML body) starts a page; the
    header's two lines and the page number are in every page's margins."""
    esc = html.escape
    left, right = header.left(lang), header.right(lang)
    font = 'font: 9pt "DejaVu Sans", Arial, sans-serif; white-space: pre;'
    variables = (
        "@page { size: A4; margin: 18mm 12mm 14mm;\n"
        f"  @top-left {{ content: {_lines(left)}; {font} width: 70%; }}\n"
        f"  @top-right {{ content: {_lines(right)}; {font} text-align: right; }}\n"
        f"  @bottom-center {{ content: {_page_counter(lang)}; {font} }} }}\n"
        f"body {{ font-size: {_SIZES.get(size, '12pt')}; }}"
    )
    title = sections[0][0] if sections else left[0]
    shown_left = "<br>".join(esc(x) for x in left if x)
    shown_right = "<br>".join(esc(x) for x in right if x)
    parts = [
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(header.event or title)} — {esc(title)}</title>\n"
        f"<style>{_CSS}{variables}\n</style>\n</head>\n<body>\n"
        f'<div class="sheet-head"><span>{shown_left}</span>'
        f'<span class="r">{shown_right}</span></div>\n'
    ]
    for heading, body in sections:
        parts.append(f"<section>\n<h2>{esc(heading)}</h2>\n{body}</section>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)


# Polish letters are letters of their own right after their base (ą after a, ł after l,
# ź and ż after z): no Czech or Slovak name has them, so the Czech order is unchanged.
_CZECH_LETTERS = [
    "a",
    "ą",
    "b",
    "c",
    "ć",
    "č",
    "d",
    "e",
    "ę",
    "f",
    "g",
    "h",
    "ch",
    "i",
    "j",
    "k",
    "l",
    "ł",
    "m",
    "n",
    "ń",
    "o",
    "p",
    "q",
    "r",
    "ř",
    "s",
    "ś",
    "š",
    "t",
    "u",
    "v",
    "w",
    "x",
    "y",
    "z",
    "ź",
    "ż",
    "ž",
]
_FOLD = str.maketrans("áäďéěíĺľňóôŕťúůý", "aadeeillnoortuuy")


def _collate(name: str) -> tuple[list[int], str]:
    """Czech/Slovak alphabetical order: č ř š ž and ch are letters of their own (ch after h),
    other accents only break ties (Ábel before Abraham); Polish names sort as in Polish
    (Głowacka before Grabowski, Łuczak after Lewandowski). Good enough for a notice board."""
    text = name.lower()
    folded = text.translate(_FOLD)
    primary = []
    i = 0
    while i < len(folded):
        if folded.startswith("ch", i):
            primary.append(_CZECH_LETTERS.index("ch"))
            i += 2
            continue
        ch = folded[i]
        if ch in _CZECH_LETTERS:
            primary.append(_CZECH_LETTERS.index(ch))
        else:  # a space or comma ends the surname: "Nová Eva" before "Novák"
            primary.append(-1 if ch in " ,-" else 100 + ord(ch))
        i += 1
    return primary, text


def _col_label(col: str, lang: str) -> str:
    if col in ("own", "opp"):
        return t("tour.col.score", lang) + (" +" if col == "own" else " −")
    return t(f"tour.col.{col}", lang)

"""Standings, pairings and scorecards as CSV, plain text, printable A4 HTML and JSON.

CSV headers are English machine names (other tools rely on them: standings start with
``rank,name,wins,spread,points``; pairings are ``table,first,second`` with an empty
``second`` for a bye). HTML is for the notice board and the printer: A4, Czech headings by
default (``lang`` = "cs", "sk" or "en"), no scripts, no external files. JSON is what the
hub sends to the stations.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from samoobsluha.hub.tournament.model import Kind, Player
from samoobsluha.hub.tournament.pairing import Pairing
from samoobsluha.hub.tournament.rules import RuleSet
from samoobsluha.shared.i18n import localize, t

if TYPE_CHECKING:
    from samoobsluha.hub.tournament.facade import Tournament

EXPORTS = ("standings", "pairings", "stations", "scorecard")
FORMATS = ("csv", "html", "json")


def render(
    tour: Tournament,
    what: str,
    fmt: str,
    *,
    round_no: int | None = None,
    player: int | None = None,
    lang: str = "cs",
    screen_url: str | None = None,
) -> str:
    """The one way to turn a tournament into an export (``hub export``, the dashboard).

    ``standings`` after ``round_no`` (default: every round played); ``pairings`` of
    ``round_no`` (default: the last paired round); ``stations``: what the stations show for
    ``round_no`` (JSON); ``scorecard`` of ``player``. ``fmt``: csv, html or json. Printed
    pairings carry ``screen_url`` (the hall screen's address) as text and a QR code."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    players = {p.id: p for p in tour.players()}
    title = tour.settings()["name"]
    if what == "standings":
        table = tour.standings(after_round=round_no)
        rules = tour.rules
        if fmt == "html":
            after = round_no if round_no is not None else tour.last_scored_round()
            return standings_html(table, rules, after_round=after, title=title, lang=lang)
        if fmt == "json":
            return json.dumps(standings_rows(table, rules), ensure_ascii=False, indent=1)
        return standings_csv(table, rules)
    if what in ("pairings", "stations"):
        number = round_no if round_no is not None else tour.last_round()
        pairing = tour.pairing(number)
        if what == "stations" or fmt == "json":
            table = tour.standings(after_round=number - 1)
            return json.dumps(station_json(pairing, players, table), ensure_ascii=False, indent=1)
        if fmt == "html":
            return pairings_html(pairing, players, title=title, lang=lang, screen_url=screen_url)
        return pairings_csv(pairing, players)
    if what == "scorecard":
        if player is None:
            raise ValueError("a scorecard needs --player")
        standing = {s.player.id: s for s in tour.standings(after_round=round_no)}.get(player)
        if standing is None:
            raise ValueError(f"no player {player}")
        if fmt == "html":
            return scorecard_html(standing, players, title=title, lang=lang)
        return scorecard_csv(standing, players)
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
    return [*cols, "games", "club"]


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def standings_rows(standings: Sequence[Any], rules: RuleSet) -> list[dict[str, str]]:
    rows = []
    for s in standings:
        row = {
            "rank": str(s.rank),
            "name": s.player.name,
            "wins": _num(s.wins),
            "spread": str(s.spread),
            "points": str(s.points),
            "turcas": f"{s.turcas:.2f}",
            "opp_wins": _num(s.opp_wins),
            "starts": str(s.starts),
            "seconds": str(s.seconds),
            "balance": _num(s.balance),
            "games": str(s.games),
            "club": s.player.club,
        }
        rows.append({c: row[c] for c in standings_columns(rules)})
    return rows


def to_csv(columns: Sequence[str], rows: Sequence[Mapping[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def to_text(columns: Sequence[str], rows: Sequence[Mapping[str, str]]) -> str:
    widths = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in columns}
    numeric = {c for c in columns if c not in ("name", "club", "first", "second", "opponent")}

    def cell(c: str, v: str) -> str:
        return v.rjust(widths[c]) if c in numeric else v.ljust(widths[c])

    lines = ["  ".join(cell(c, c) for c in columns).rstrip()]
    lines += ["  ".join(cell(c, r[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(lines) + "\n"


def standings_csv(standings: Sequence[Any], rules: RuleSet) -> str:
    return to_csv(standings_columns(rules), standings_rows(standings, rules))


def standings_text(standings: Sequence[Any], rules: RuleSet) -> str:
    return to_text(standings_columns(rules), standings_rows(standings, rules))


def standings_html(
    standings: Sequence[Any], rules: RuleSet, *, after_round: int, title: str = "", lang: str = "cs"
) -> str:
    cols = [c for c in standings_columns(rules) if c not in ("games", "seconds")]
    heading = t("tour.standings", lang, round=after_round)
    return _page(title, heading, cols, standings_rows(standings, rules), lang)


# --- pairings ------------------------------------------------------------------------------

PAIRING_COLUMNS = ["table", "first", "second"]


def pairing_rows(pairing: Pairing, players: Mapping[int, Player]) -> list[dict[str, str]]:
    return [
        {
            "table": str(b.table),
            "first": players[b.first].name,
            "second": players[b.second].name if b.second is not None else "",
        }
        for b in pairing.boards
    ]


def pairings_csv(pairing: Pairing, players: Mapping[int, Player]) -> str:
    return to_csv(PAIRING_COLUMNS, pairing_rows(pairing, players))


def pairings_explain(
    pairing: Pairing, players: Mapping[int, Player], lang: str = "cs"
) -> str:
    """The pairing's notes and why each pair, as ``#`` comment lines in ``lang``."""
    lines = [f"# {localize(note, lang)}" for note in pairing.notes]
    for b in pairing.boards:
        lines.append("# " + t("pair.explain.table", lang, table=b.table, why=b.explain(lang)))
    return "\n".join(lines) + "\n"


def pairings_html(
    pairing: Pairing,
    players: Mapping[int, Player],
    *,
    title: str = "",
    lang: str = "cs",
    screen_url: str | None = None,
) -> str:
    """The pairings for the notice board; ``screen_url``: the hall screen's address, printed
    with its QR code so players find their table on their phones."""
    rows = pairing_rows(pairing, players)
    for row in rows:
        if not row["second"]:
            row["second"] = f"({t('tour.bye', lang)})"
    page = _page(title, t("tour.pairings", lang, round=pairing.round), PAIRING_COLUMNS, rows, lang)
    # Second part for the notice board: every player by name, so nobody hunts for his table.
    by_name = []
    for b in pairing.boards:
        # the referee's terms on paper: ZH starts, DH replies (the column is "started")
        for me, other, role in ((b.first, b.second, "ZH"), (b.second, b.first, "DH")):
            if me is None:
                continue
            by_name.append(
                {
                    "name": players[me].name,
                    "table": str(b.table),
                    "opponent": players[other].name if other is not None else t("tour.bye", lang),
                    "started": role if other is not None else "",
                }
            )
    by_name.sort(key=lambda row: _collate(row["name"]))
    section = _table(["name", "table", "opponent", "started"], by_name, lang)
    heading = f'<h2 class="break">{html.escape(t("tour.by_name", lang))}</h2>\n'
    if screen_url:
        from samoobsluha.hub.web.qr import svg

        qr = (
            f'<div class="qr">{svg(screen_url)}<p>{html.escape(t("screen.qr.caption", lang))}'
            f"<br><b>{html.escape(screen_url)}</b></p></div>\n"
        )
        page = page.replace("</h2>\n", "</h2>\n" + qr, 1)
        heading += qr
    return page.replace("</body>", heading + section + "</body>")


# --- scorecard -----------------------------------------------------------------------------

SCORECARD_COLUMNS = ["round", "table", "opponent", "started", "own", "opp", "result", "wins"]


def scorecard_rows(
    standing: Any, players: Mapping[int, Player], lang: str = "cs"
) -> list[dict[str, str]]:
    rows = []
    cumulative = 0.0
    for line in standing.lines:
        cumulative += line.wins
        if line.opponent is None:
            opponent = t("tour.bye", lang) if line.kind is Kind.BYE else ""
        else:
            opponent = players[line.opponent].name
        if line.kind not in (Kind.PLAYED, Kind.BYE):
            opponent = f"{opponent} ({t(f'tour.kind.{line.kind.value}', lang)})".strip()
        result = {1.0: "tour.win", 0.5: "tour.draw"}.get(line.wins, "tour.loss")
        rows.append(
            {
                "round": str(line.round),
                "table": "" if line.table is None else str(line.table),
                "opponent": opponent,
                "started": {True: "ZH", False: "DH", None: ""}[line.started],
                "own": str(line.own),
                "opp": str(line.opp),
                "result": t(result, lang),
                "wins": _num(cumulative),
            }
        )
    return rows


def scorecard_csv(standing: Any, players: Mapping[int, Player]) -> str:
    return to_csv(SCORECARD_COLUMNS, scorecard_rows(standing, players))


def scorecard_html(
    standing: Any, players: Mapping[int, Player], *, title: str = "", lang: str = "cs"
) -> str:
    heading = f"{t('tour.scorecard', lang)}: {standing.player.name}"
    return _page(title, heading, SCORECARD_COLUMNS, scorecard_rows(standing, players, lang), lang)


# --- JSON for stations ---------------------------------------------------------------------


def station_json(
    pairing: Pairing, players: Mapping[int, Player], standings: Sequence[Any] = ()
) -> dict[str, Any]:
    """What a station shows: the round's tables (who starts first) and the standings."""
    return {
        "round": pairing.round,
        "tables": [
            {
                "table": b.table,
                "first": {"id": b.first, "name": players[b.first].name},
                "second": None
                if b.second is None
                else {"id": b.second, "name": players[b.second].name},
                "bye": b.second is None,
            }
            for b in pairing.boards
        ],
        "standings": [
            {
                "rank": s.rank,
                "id": s.player.id,
                "name": s.player.name,
                "wins": s.wins,
                "spread": s.spread,
                "points": s.points,
            }
            for s in standings
        ],
    }


# --- HTML page -----------------------------------------------------------------------------

_CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 11pt; color: #000; }
h1 { font-size: 14pt; margin: 0 0 2mm; } h2 { font-size: 12pt; margin: 0 0 4mm; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 0.3mm solid #444; padding: 1mm 2mm; text-align: left; }
th { background: #ddd; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr { page-break-inside: avoid; } thead { display: table-header-group; }
h2.break { page-break-before: always; margin-top: 0; }
div.qr { display: flex; align-items: center; gap: 4mm; margin: 0 0 4mm; }
div.qr p { margin: 0; font-size: 10pt; }
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
}


def _table(cols: Sequence[str], rows: Sequence[Mapping[str, str]], lang: str) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(_col_label(c, lang))}</th>" for c in cols)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{esc(row[c])}</td>' if c in _NUMERIC else f"<td>{esc(row[c])}</td>"
            for c in cols
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n"
        + "\n".join(body)
        + "\n</tbody>\n</table>\n"
    )


def _page(
    title: str, heading: str, cols: Sequence[str], rows: Sequence[Mapping[str, str]], lang: str
) -> str:
    esc = html.escape
    title_html = f"<h1>{esc(title)}</h1>" if title else ""
    return (
        f'<!DOCTYPE html>\n<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{esc(title or heading)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"{title_html}<h2>{esc(heading)}</h2>\n" + _table(cols, rows, lang) + "</body>\n</html>\n"
    )


_CZECH_LETTERS = [
    "a",
    "b",
    "c",
    "č",
    "d",
    "e",
    "f",
    "g",
    "h",
    "ch",
    "i",
    "j",
    "k",
    "l",
    "m",
    "n",
    "o",
    "p",
    "q",
    "r",
    "ř",
    "s",
    "š",
    "t",
    "u",
    "v",
    "w",
    "x",
    "y",
    "z",
    "ž",
]
_FOLD = str.maketrans("áäďéěíĺľňóôŕťúůý", "aadeeillnoortuuy")


def _collate(name: str) -> tuple[list[int], str]:
    """Czech/Slovak alphabetical order: č ř š ž and ch are letters of their own (ch after h),
    other accents only break ties (Ábel before Abraham). Good enough for a notice board."""
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

"""What the hall screen shows, as one JSON-ready dict built from the hub's own layers.

Everything comes through :class:`hub.service.HubService` (round results, standings,
round plans), :mod:`hub.store` (the pairings published to the stations) and the
:class:`hub.tournament.Tournament` facade (each player's games so far); nothing here
writes, and nothing secret goes in: no challenge log, no words, no station keys or
addresses. The page (``static/screen.js``) renders this dict. After the planned last round
is published it carries the prize list and the warnings and expulsions of the last round
(ČAS 13.13: published before the results are announced); before that, with a pairing sent,
the warnings and expulsions published before that round (who, what, why — public by the rule).

The pairing shown is the one the operator **sent** to the stations (``hub
publish-pairings``), not a draft he may still re-pair; results of that round appear as they
are approved (entered by the operator, or confirmed by a station and the scoresheet);
standings are those after the last round whose results were published.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.hub.tournament import Tournament, TournamentError, exports
from samoobsluha.hub.tournament.model import Kind
from samoobsluha.shared.i18n import LANGUAGES
from samoobsluha.shared.rounds import PLAYOUT_DISPLAY_SECONDS


def signature(service: HubService) -> str:
    """Changes whenever what :func:`build` returns may change, for a fraction of its cost:
    the tournament's revision, the items published to the stations, the round plans. A
    station's status or a word check commits to the same database but changes none."""
    with service._db() as db:
        published = sync_store.load_published(db)
        plans = sync_store.load_plans(db)
        revision = Tournament(db, service.clock).revision()
    return _dumps([revision, {k: v[0] for k, v in published.items()}, [p.to_dict() for p in plans]])


def build(service: HubService) -> dict[str, Any]:
    """The screen's whole state now (blocking: call it from a thread)."""
    with service._db() as db:
        published = sync_store.load_published(db)
        plans = sync_store.load_plans(db)
        tour = Tournament(db, service.clock)
        settings = tour.settings()
        players = {p.id: p for p in tour.players()}
        last_paired = tour.last_round()
        done = [
            r for r in range(1, last_paired + 1) if tour.round_state(r)["published_at"] is not None
        ]
        after = max(done) if done else 0
        table = tour.hall_standings(after_round=after) if after else []
        rules = tour.rules
        divisions = tour.divisions()
        raw = published.get("pairings", ("", None))[1]
        pairing: dict[str, Any] = raw if isinstance(raw, dict) else {}
        round_no = int(pairing.get("round", 0) or 0)
        # After the planned last round is published: the prize list. With a pairing sent:
        # the warnings and expulsions published before its round (ČAS 13.13).
        # Each division is given the prize table on its own: in a hall of several, every
        # row says whose division's prize it is.
        per_division = (
            [(d, tour.prize_list(after_round=after, division=d)) for d in divisions]
            if tour.event_over()
            else []
        )
        awards = [a for _, given in per_division for a in given]
        # a forfeit shows as ruled (200:0), as the standings count it and every export says
        ruled = {
            r["table_no"]: exports.ruled_scores(
                round_no, r["player_first"], r["player_second"], r, rules
            )
            for r in (tour.results(round_no) if round_no else [])
            if r["kind"] != Kind.PLAYED.value and r["player_second"] is not None
        }
        given = tour.sanction_book.published_before(round_no) if round_no else []
        if awards or tour.event_over():  # the last round's: before the results are announced
            given = tour.sanction_book.published_before(tour.settings()["rounds"] + 1)
    many = len(divisions) > 1
    prize_cols = (["division"] if many else []) + exports.PRIZE_COLUMNS
    sanction_cols = [c for c in exports.SANCTION_COLUMNS if c not in ("referee", "time")]
    prizes = {
        lang: [
            [({"division": d} | r)[c] for c in prize_cols]
            for d, given in per_division
            for r in exports.prize_rows(given, players, lang)
        ]
        for lang in LANGUAGES
    }
    sanctions = {
        lang: [[r[c] for c in sanction_cols] for r in exports.sanction_rows(given, players, lang)]
        for lang in LANGUAGES
    }
    tables: list[list[Any]] = []
    if round_no:
        for row in pairing.get("tables", []):
            first = row.get("first") or {}
            second = row.get("second") or {}
            tables.append([int(row["table"]), first.get("id"), second.get("id")])
    names = {pid: p.name for pid, p in players.items()}
    for row in pairing.get("tables", []) if round_no else []:
        for side in ("first", "second"):  # a name published before a later rename
            who = row.get(side) or {}
            if who.get("id") is not None and who["id"] not in names:
                names[who["id"]] = str(who.get("name", ""))
    results = [
        [table, *ruled[table]] if table in ruled else [table, first, second]
        for table, first, second in _approved_results(service, round_no)
    ]
    where = []
    for number, first, second in tables:
        for me, other, zh in ((first, second, "ZH"), (second, first, "DH")):
            if me is None:
                continue
            where.append([me, number, other, zh if other is not None else ""])
    where.sort(key=lambda row: exports._collate(names.get(row[0], "")))
    columns = exports.standings_columns(rules) if after else []
    columns = [c for c in columns if c not in ("seconds", "games")]
    # Numbers reach the page already written as its reader writes them (Babel, CLDR:
    # „0,5“ and „1 116“ in cs and sk), one table per language the page may ask for.
    rows = {
        lang: [[row[c] for c in columns] for row in exports.standings_rows(table, rules, lang)]
        for lang in LANGUAGES
    }
    standings = {
        "after": after,
        "columns": columns,
        "rows": rows if after else {lang: [] for lang in LANGUAGES},
        "ids": [s.player.id for s in table],
    }
    if len(divisions) > 1:  # ranks are per division: each row's division, in the same order
        standings["divisions"] = [s.player.division for s in table]
    cards = {str(s.player.id): _card(s) for s in table}
    snap: dict[str, Any] = {
        "name": settings["name"],
        "rules": settings["rules"],
        "round": round_no,
        "players": {str(pid): name for pid, name in names.items()},
        # a hall of several divisions: whose player each one is ({} in a hall of one)
        "division": (
            {str(pid): p.division for pid, p in players.items()} if len(divisions) > 1 else {}
        ),
        "tables": tables,
        "where": where,
        "results": results,
        "standings": standings,
        "cards": cards,
        "prizes": {"columns": prize_cols, "rows": prizes if awards else {}},
        "sanctions": {"columns": sanction_cols, "rows": sanctions if given else {}},
        # Every live plan: the page picks the one the kiosk shows, as time goes on
        # (station.rounds.RoundStore.current), and runs the same RoundPlan.status maths.
        "plans": [p.to_dict() for p in plans if not p.cancelled],
        "playout": PLAYOUT_DISPLAY_SECONDS,
    }
    snap["v"] = hashlib.sha256(_dumps(snap).encode()).hexdigest()[:16]
    return snap


def _approved_results(service: HubService, round_no: int) -> list[list[Any]]:
    """[table, score of ZH, score of DH] of the round's tables whose result is in."""
    if not round_no:
        return []
    try:
        rr = service.round_results(round_no)
    except ServiceError:
        return []
    except TournamentError:
        return []
    return [
        [t.table, t.score_first, t.score_second]
        for t in rr.tables
        # a disputed table keeps its published result until the operator decides
        if t.state in ("in", "dispute") and t.score_first is not None
    ]


def _card(standing: Any) -> list[list[Any]]:
    """One player's games: [round, table, opponent id, ZH/DH, own, opp, wins, kind]."""
    out = []
    for line in standing.lines:
        out.append(
            [
                line.round,
                line.table,
                line.opponent,
                {True: "ZH", False: "DH", None: ""}[line.started],
                line.own,
                line.opp,
                line.wins,
                "" if line.kind in (Kind.PLAYED,) else line.kind.value,
            ]
        )
    return out


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def dumps(snap: dict[str, Any]) -> str:
    """The compact JSON the page receives."""
    return _dumps(snap)

"""Categories and prizes: the director's free list of categories (junior, senior, women, a
club, a region …), with birth-date rules where they apply, standings by category, and a
prize table as tsh's ``prize`` configuration has it.

One module owns ``tour_categories``, ``tour_player_categories``, ``tour_player_birth`` and
``tour_prizes``: this one (:class:`PrizeBook`); the facade delegates. Lifecycle: categories
and prizes are defined (and changed) by the director at any time — they change no result;
who is in a category is read at the moment (the assignments, plus every player whose birth
date the category's rule takes); the prize list is computed from the standings when it is
asked for (:func:`award`), so it always follows the results. Every write has an audit row.

**Awarding** (:func:`award`), in the prize table's order:

* the ``place`` prizes first: prize N is for the player placed N-th overall; then the
  ``category`` prizes in the table's order: prize N of category C is for the N-th best
  player of C *who has no prize yet* — **one prize a player**;
* **ties are shared**: players equal on every criterion (one rank in the standings) who
  stand on prized places share all the prizes of those places — an amount (``1000``,
  ``1 000 Kč``) is split evenly, anything else is awarded to them jointly; every one of them
  then has a prize.

**Who may not take a prize** (``barred``, :meth:`Tournament.prize_bars`): a player expelled
from the event (ČAS 13.12–13.14; PFS 1.3 "zerując jego dorobek punktowy" — his results are
void; SSS "vylúčiť hráča z celých majstrovstiev") takes no prize under all three rule sets,
and a withdrawn player none when the rule set says so (``prize_withdrawn``; ČAS 13.3, the SSS
and PFS originals do not take a prize from a player who withdrew, so all three keep it by
default). The prizes then go down the list: the places (overall and in a category) are
counted among the players who may take a prize, as if the barred one were not there, and
every barred player who would have won a prize is listed after the awards (``kind``
``barred``) with what he would have won and why not.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from samoobsluha.hub.tournament.intake import ResultBook, TournamentError
from samoobsluha.shared.clock import Clock
from samoobsluha.shared.i18n import Phrase
from samoobsluha.shared.storage import Database

PRIZE_KINDS = ("place", "category")
BAR_CAUSES = ("expelled", "withdrawn")
_AMOUNT = re.compile(r"^\s*(\d[\d\s\u00a0]*(?:[.,]\d+)?)\s*(\D*?)\s*$")


@dataclass(frozen=True)
class Category:
    name: str
    born_from: datetime.date | None = None  # players born on or after (juniors)
    born_to: datetime.date | None = None  # players born on or before (seniors)

    def takes(self, born: datetime.date | None) -> bool:
        """Whether the birth-date rule takes a player born on ``born``."""
        if born is None or (self.born_from is None and self.born_to is None):
            return False
        if self.born_from is not None and born < self.born_from:
            return False
        return not (self.born_to is not None and born > self.born_to)


@dataclass(frozen=True)
class Prize:
    id: int
    position: int  # order in the prize table: prizes are awarded in this order
    kind: str  # place | category
    rank: int  # the place (overall, or within the category)
    value: str  # what is won: "1000 Kč", "pohár" …
    category: str = ""


@dataclass(frozen=True)
class Bar:
    """Why a player may take no prize: ``cause`` is one of :data:`BAR_CAUSES`; ``reason``
    the referee's published reason of an expulsion (ČAS 13.13), else ""."""

    cause: str
    reason: str = ""


@dataclass
class Award:
    """One line of the prize list: the prizes (one, or several shared) and who won them."""

    prizes: list[Prize]
    players: list[int]
    places: tuple[int, int]  # the places it covers (overall or in the category), from–to
    share: str = ""  # each winner's share when an amount is split; else ""
    kind: str = "place"  # place | category | barred (would have won, may not take it)
    category: str = ""
    bar: Bar | None = None  # for kind "barred": why not

    @property
    def shared(self) -> bool:
        return len(self.players) > 1


def members(
    category: Category,
    assigned: Iterable[int],
    births: dict[int, datetime.date],
    players: Iterable[int],
) -> set[int]:
    """Who is in ``category``: the players assigned to it and those its rule takes."""
    chosen = set(assigned)
    chosen |= {pid for pid in players if category.takes(births.get(pid))}
    return chosen


def category_ranks(standings: Sequence[Any], who: set[int]) -> list[tuple[int, Any]]:
    """Standings of one category: (rank within the category, standing), ties shared."""
    out: list[tuple[int, Any]] = []
    previous_rank = None
    for index, s in enumerate((s for s in standings if s.player.id in who), start=1):
        rank = out[-1][0] if previous_rank == s.rank else index
        out.append((rank, s))
        previous_rank = s.rank
    return out


def award(
    standings: Sequence[Any],
    prizes: Sequence[Prize],
    categories: dict[str, set[int]],
    barred: Mapping[int, Bar] | None = None,
) -> list[Award]:
    """The prize list (see the module docstring): place prizes, then category prizes in
    the prize table's order, among the players not ``barred``; then one ``barred`` line
    for each barred player who would have won a prize without the bar."""
    if not barred:
        return _award(standings, prizes, categories)
    awards = _award([s for s in standings if s.player.id not in barred], prizes, categories)
    for a in _award(standings, prizes, categories):
        for pid in a.players:
            if pid in barred:
                awards.append(
                    Award(
                        prizes=a.prizes,
                        players=[pid],
                        places=a.places,
                        kind="barred",
                        category=a.category,
                        bar=barred[pid],
                    )
                )
    return awards


def _award(
    standings: Sequence[Any], prizes: Sequence[Prize], categories: dict[str, set[int]]
) -> list[Award]:
    won: set[int] = set()
    done: set[int] = set()
    awards: list[Award] = []
    ordered = sorted(prizes, key=lambda p: (p.kind != "place", p.position, p.id))
    for prize in ordered:
        if prize.id in done:
            continue
        if prize.kind == "place":
            field_ = list(standings)
            pool = [p for p in ordered if p.kind == "place"]
        else:
            who = categories.get(prize.category, set())
            field_ = [s for s in standings if s.player.id in who and s.player.id not in won]
            pool = [p for p in ordered if p.kind == "category" and p.category == prize.category]
        for start, end, group in _places(field_):
            if not start <= prize.rank <= end:
                continue
            shared = [p for p in pool if start <= p.rank <= end and p.id not in done]
            done |= {p.id for p in shared}
            won |= set(group)
            awards.append(
                Award(
                    prizes=shared,
                    players=group,
                    places=(start, end),
                    share=_share(shared, len(group)),
                    kind=prize.kind,
                    category=prize.category,
                )
            )
            break
        else:
            done.add(prize.id)  # nobody on that place (a small category): not awarded
    return awards


def _places(field_: Sequence[Any]) -> list[tuple[int, int, list[int]]]:
    """Places 1, 2 … of ``field_`` (standings, best first): (from, to, players), players of
    one rank in the standings sharing the places they stand on."""
    places: list[tuple[int, int, list[int]]] = []
    last_rank = None
    for position, s in enumerate(field_, start=1):
        if places and s.rank == last_rank:
            start, _, group = places[-1]
            places[-1] = (start, position, [*group, s.player.id])
        else:
            places.append((position, position, [s.player.id]))
        last_rank = s.rank
    return places


def _share(prizes: Sequence[Prize], players: int) -> str:
    """Each winner's share of the pooled prizes when they are amounts of one currency."""
    if players < 2 or not prizes:
        return ""
    total = 0.0
    unit = None
    for p in prizes:
        m = _AMOUNT.match(p.value)
        if m is None:
            return ""
        number = float(m.group(1).replace(" ", "").replace("\u00a0", "").replace(",", "."))
        if unit is not None and m.group(2) != unit:
            return ""
        unit = m.group(2)
        total += number
    each = total / players
    text = f"{each:.2f}".rstrip("0").rstrip(".")
    return f"{text} {unit}".strip()


class PrizeBook:
    """Categories, birth dates, category assignments and the prize table of one database."""

    def __init__(self, db: Database, clock: Clock, book: ResultBook) -> None:
        self.db = db
        self.clock = clock
        self.book = book  # the audit trail

    # -- categories -----------------------------------------------------------------------

    def define(
        self,
        name: str,
        *,
        born_from: datetime.date | None = None,
        born_to: datetime.date | None = None,
        who: str = "operator",
    ) -> Category:
        name = " ".join(name.split())
        if not name:
            raise TournamentError(Phrase("err.category.name"))
        if born_from and born_to and born_from > born_to:
            raise TournamentError(Phrase("err.category.dates"))
        before = self.find(name)
        row = {
            "name": name,
            "born_from": born_from.isoformat() if born_from else None,
            "born_to": born_to.isoformat() if born_to else None,
        }
        with self.db.atomic():
            self.db.table("tour_categories").upsert(row, pk="name")
            self.book.audit(who, "category", None, None, before and _cat_json(before), row)
        return self.get(name)

    def remove(self, name: str, *, who: str = "operator") -> None:
        before = self.get(name)
        with self.db.atomic():
            self.db.execute("DELETE FROM tour_player_categories WHERE category = ?", [name])
            self.db.execute("DELETE FROM tour_categories WHERE name = ?", [name])
            self.book.audit(who, "category_remove", None, None, _cat_json(before), None)

    def find(self, name: str) -> Category | None:
        return next((c for c in self.categories() if c.name == name), None)

    def get(self, name: str) -> Category:
        found = self.find(name)
        if found is None:
            raise TournamentError(Phrase("err.category.none", name=name))
        return found

    def categories(self) -> list[Category]:
        return [
            Category(
                r["name"],
                datetime.date.fromisoformat(r["born_from"]) if r["born_from"] else None,
                datetime.date.fromisoformat(r["born_to"]) if r["born_to"] else None,
            )
            for r in self.db.query("SELECT * FROM tour_categories ORDER BY rowid")
        ]

    def assign(
        self, name: str, players: Sequence[int], *, present: bool = True, who: str = "operator"
    ) -> None:
        self.get(name)
        with self.db.atomic():
            for pid in players:
                if not self.db.execute("SELECT 1 FROM tour_players WHERE id = ?", [pid]).fetchone():
                    raise TournamentError(Phrase("err.tour.no_player", id=pid))
                if present:
                    self.db.execute(
                        "INSERT OR IGNORE INTO tour_player_categories (player, category)"
                        " VALUES (?, ?)",
                        [pid, name],
                    )
                else:
                    self.db.execute(
                        "DELETE FROM tour_player_categories WHERE player = ? AND category = ?",
                        [pid, name],
                    )
            action = "category_assign" if present else "category_unassign"
            self.book.audit(who, action, None, None, None, {"category": name, "players": players})

    def set_birth(self, player: int, born: datetime.date | None, *, who: str = "operator") -> None:
        if not self.db.execute("SELECT 1 FROM tour_players WHERE id = ?", [player]).fetchone():
            raise TournamentError(Phrase("err.tour.no_player", id=player))
        before = self.births().get(player)
        with self.db.atomic():
            if born is None:
                self.db.execute("DELETE FROM tour_player_birth WHERE player = ?", [player])
            else:
                self.db.table("tour_player_birth").upsert(
                    {"player": player, "born": born.isoformat()}, pk="player"
                )
            self.book.audit(
                who,
                "birth_date",
                None,
                None,
                {"player": player, "born": before.isoformat() if before else None},
                {"player": player, "born": born.isoformat() if born else None},
            )

    def births(self) -> dict[int, datetime.date]:
        return {
            r["player"]: datetime.date.fromisoformat(r["born"])
            for r in self.db.query("SELECT * FROM tour_player_birth")
        }

    def membership(self) -> dict[str, set[int]]:
        """Every category and who is in it now."""
        births = self.births()
        players = [r[0] for r in self.db.execute("SELECT id FROM tour_players")]
        assigned: dict[str, list[int]] = {}
        for r in self.db.query("SELECT * FROM tour_player_categories"):
            assigned.setdefault(r["category"], []).append(r["player"])
        return {
            c.name: members(c, assigned.get(c.name, []), births, players) for c in self.categories()
        }

    # -- prizes ---------------------------------------------------------------------------

    def add_prize(
        self, kind: str, rank: int, value: str, *, category: str = "", who: str = "operator"
    ) -> Prize:
        if kind not in PRIZE_KINDS:
            raise TournamentError(Phrase("err.prize.kind", kinds=", ".join(PRIZE_KINDS)))
        if rank < 1:
            raise TournamentError(Phrase("err.prize.rank"))
        if kind == "category":
            if not category.strip():
                raise TournamentError(Phrase("err.prize.category_needed"))
            self.get(category)
        else:
            category = ""
        value = " ".join(value.split())
        if not value:
            raise TournamentError(Phrase("err.prize.value"))
        with self.db.atomic():
            position = self.db.execute(
                "SELECT COALESCE(MAX(position), 0) + 1 FROM tour_prizes"
            ).fetchone()[0]
            cursor = self.db.execute(
                "INSERT INTO tour_prizes (position, kind, rank, category, value)"
                " VALUES (?, ?, ?, ?, ?)",
                [position, kind, rank, category, value],
            )
            prize = self.prize(int(cursor.lastrowid or 0))
            self.book.audit(who, "prize", None, None, None, asdict(prize))
        return prize

    def remove_prize(self, prize_id: int, *, who: str = "operator") -> None:
        before = self.prize(prize_id)
        with self.db.atomic():
            self.db.execute("DELETE FROM tour_prizes WHERE id = ?", [prize_id])
            self.book.audit(who, "prize_remove", None, None, asdict(before), None)

    def prize(self, prize_id: int) -> Prize:
        for p in self.prizes():
            if p.id == prize_id:
                return p
        raise TournamentError(Phrase("err.prize.none", id=prize_id))

    def prizes(self) -> list[Prize]:
        return [
            Prize(r["id"], r["position"], r["kind"], r["rank"], r["value"], r["category"])
            for r in self.db.query("SELECT * FROM tour_prizes ORDER BY position, id")
        ]


def _cat_json(c: Category) -> dict[str, Any]:
    return {
        "name": c.name,
        "born_from": c.born_from.isoformat() if c.born_from else None,
        "born_to": c.born_to.isoformat() if c.born_to else None,
    }

"""The tournament's tables in the hub database (``data_dir()/hub.db``).

Schema, in its own migration set ``hub.tournament`` (tables prefixed ``tour_``):

* ``tour_settings``  key/value: name, rule set, overrides, rounds planned, protest window.
* ``tour_players``   id, name, club, rating, status (active/paused/withdrawn), checked_in.
* ``tour_rounds``    one row per paired round: seed, method, notes, published/final times.
* ``tour_boards``    the pairing: round, table_no, first (ZH), second (NULL = bye), reason.
* ``tour_absences``  rounds a player missed: kind ``late`` (ČAS 14.4 late entry, 0:0) or
  ``absent`` (temporary withdrawal, 0:200).
* ``tour_entries``   every result entry as received (operator or station), never changed.
* ``tour_results``   the agreed result per table and its state
  (entered / confirmed / conflict / final), scores in board order (first, second).
* ``tour_protests``  protests lodged against a result; an open one holds it.
* ``tour_disputes``  entries that arrived after the round was published and differ from its
  result: kept with the entry they came with until the operator keeps the result or takes
  the entry (:mod:`hub.tournament.intake`).
* ``tour_audit``     who did what when, with the row before and after (JSON).
* ``tour_sanctions`` warnings, penalty crosses, point penalties and expulsions per player
  (round, table, time, reason, referee), and dismissed suggestions
  (:mod:`hub.tournament.sanctions`).
* ``tour_undos``     results the director took back before publication: the table's
  entries up to ``last_entry`` no longer count (:mod:`hub.tournament.intake`).
* ``tour_withdrawals`` a station's withdrawal of its own table's entry: before publication
  that station's entries up to ``last_entry`` no longer count; after it the withdrawal is
  kept refused (``refused`` = 1) and changes nothing (:mod:`hub.tournament.intake`).
* ``tour_categories``, ``tour_player_categories``, ``tour_player_birth``, ``tour_prizes``
  the director's categories (with birth-date rules), who is in them, birth dates and the
  prize table (:mod:`hub.tournament.prizes`).
* ``tour_divisions`` the hall's divisions (groups): name, order, the tsh file name. Every
  tournament has at least one; a single-field tournament is the one division ``A`` (tsh's
  default name).
* ``tour_division_rounds`` one row per division and paired round: that division's seed,
  method and notes. ``tour_rounds`` is the hall's round (one gong, one publication, one
  protest window, one finality for every division).
* ``tour_division_tsh`` per division, the tsh file it was imported from (decoded text and its
  encoding), so that an export gives back every token the hub did not change.

``tour_players.division`` names the division a player plays in. Boards, entries and results
stay keyed by (round, table): tables are numbered across the hall, so a table belongs to one
division in a round (the division of its players).
"""

from __future__ import annotations

from pathlib import Path

import sqlite_utils
from sqlite_utils.migrations import Migrations

from samoobsluha.shared.paths import data_dir
from samoobsluha.shared.storage import Database, open_db

migrations = Migrations("hub.tournament")


@migrations()
def m001_tournament(db: sqlite_utils.Database) -> None:
    # One statement at a time: executescript() would commit the migration's transaction.
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)


_SCHEMA = """
        CREATE TABLE tour_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE tour_players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            club TEXT NOT NULL DEFAULT '',
            rating INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'paused', 'withdrawn')),
            checked_in INTEGER NOT NULL DEFAULT 0,
            created_at REAL NOT NULL,
            extra TEXT NOT NULL DEFAULT '{}'
        );
        CREATE TABLE tour_rounds (
            round INTEGER PRIMARY KEY,
            seed INTEGER NOT NULL,
            method TEXT NOT NULL,
            notes TEXT NOT NULL DEFAULT '[]',
            paired_at REAL NOT NULL,
            published_at REAL,
            final_at REAL
        );
        CREATE TABLE tour_boards (
            round INTEGER NOT NULL REFERENCES tour_rounds(round),
            table_no INTEGER NOT NULL,
            first INTEGER NOT NULL REFERENCES tour_players(id),
            second INTEGER REFERENCES tour_players(id),
            reason TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (round, table_no)
        );
        CREATE TABLE tour_absences (
            round INTEGER NOT NULL,
            player INTEGER NOT NULL REFERENCES tour_players(id),
            kind TEXT NOT NULL CHECK (kind IN ('late', 'absent')),
            PRIMARY KEY (round, player)
        );
        CREATE TABLE tour_entries (
            id INTEGER PRIMARY KEY,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            source TEXT NOT NULL,
            who TEXT NOT NULL,
            at REAL NOT NULL,
            s_first INTEGER,
            s_second INTEGER,
            starter INTEGER,
            kind TEXT NOT NULL,
            forfeited INTEGER
        );
        CREATE INDEX tour_entries_table ON tour_entries(round, table_no);
        CREATE TABLE tour_results (
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            s_first INTEGER,
            s_second INTEGER,
            starter INTEGER,
            kind TEXT NOT NULL,
            forfeited INTEGER,
            status TEXT NOT NULL
                CHECK (status IN ('entered', 'confirmed', 'conflict', 'final')),
            sources TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (round, table_no),
            FOREIGN KEY (round, table_no) REFERENCES tour_boards(round, table_no)
        );
        CREATE TABLE tour_protests (
            id INTEGER PRIMARY KEY,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            who TEXT NOT NULL,
            at REAL NOT NULL,
            note TEXT NOT NULL DEFAULT '',
            closed_at REAL,
            closed_by TEXT,
            close_note TEXT
        );
        CREATE TABLE tour_audit (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            who TEXT NOT NULL,
            action TEXT NOT NULL,
            round INTEGER,
            table_no INTEGER,
            before TEXT,
            after TEXT
        );
"""


@migrations()
def m002_tsh_source(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE TABLE tour_tsh_source (id INTEGER PRIMARY KEY CHECK (id = 1),"
        " file TEXT NOT NULL, encoding TEXT NOT NULL, text TEXT NOT NULL,"
        " imported_at REAL NOT NULL)"
    )


@migrations()
def m003_disputes(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE TABLE tour_disputes (id INTEGER PRIMARY KEY, round INTEGER NOT NULL,"
        " table_no INTEGER NOT NULL, entry_id INTEGER NOT NULL REFERENCES tour_entries(id),"
        " source TEXT NOT NULL, who TEXT NOT NULL, at REAL NOT NULL, s_first INTEGER,"
        " s_second INTEGER, starter INTEGER, kind TEXT NOT NULL, forfeited INTEGER,"
        " resolved_at REAL, resolved_by TEXT,"
        " resolution TEXT CHECK (resolution IN ('keep', 'take', 'corrected')))"
    )
    db.execute("CREATE INDEX tour_disputes_open ON tour_disputes(round, resolved_at)")


@migrations()
def m004_event_sanctions(db: sqlite_utils.Database) -> None:
    # The sanctions record (hub/tournament/sanctions.py); keyed by the tournament's player.
    db.execute(
        "CREATE TABLE tour_sanctions (id INTEGER PRIMARY KEY,"
        " player INTEGER REFERENCES tour_players(id),"
        " kind TEXT NOT NULL CHECK (kind IN ('warning', 'cross', 'penalty', 'expulsion')),"
        " round INTEGER, table_no INTEGER, reason TEXT NOT NULL, referee TEXT NOT NULL,"
        " at REAL NOT NULL, points INTEGER NOT NULL DEFAULT 0,"
        " scope TEXT NOT NULL DEFAULT 'game' CHECK (scope IN ('game', 'event')),"
        " source TEXT NOT NULL CHECK (source IN ('referee', 'suggestion')),"
        " check_key TEXT NOT NULL DEFAULT '',"
        " status TEXT NOT NULL CHECK (status IN ('active', 'dismissed', 'revoked')),"
        " revoked_at REAL, revoked_by TEXT, revoke_note TEXT)"
    )
    db.execute("CREATE INDEX tour_sanctions_player ON tour_sanctions(player, round)")


@migrations()
def m005_event_undos(db: sqlite_utils.Database) -> None:
    # A director's undo of a result before publication (hub/tournament/intake.py): the
    # table's entries up to ``last_entry`` no longer count.
    db.execute(
        "CREATE TABLE tour_undos (id INTEGER PRIMARY KEY, round INTEGER NOT NULL,"
        " table_no INTEGER NOT NULL, last_entry INTEGER NOT NULL, who TEXT NOT NULL,"
        " at REAL NOT NULL, note TEXT NOT NULL DEFAULT '')"
    )


@migrations()
def m006_event_categories(db: sqlite_utils.Database) -> None:
    # Categories, birth dates and the prize table (hub/tournament/prizes.py), keyed by the
    # tournament's player id.
    for statement in (
        "CREATE TABLE tour_categories (name TEXT PRIMARY KEY, born_from TEXT, born_to TEXT)",
        "CREATE TABLE tour_player_categories (player INTEGER NOT NULL"
        " REFERENCES tour_players(id), category TEXT NOT NULL"
        " REFERENCES tour_categories(name), PRIMARY KEY (player, category))",
        "CREATE TABLE tour_player_birth (player INTEGER PRIMARY KEY"
        " REFERENCES tour_players(id), born TEXT NOT NULL)",
        "CREATE TABLE tour_prizes (id INTEGER PRIMARY KEY, position INTEGER NOT NULL,"
        " kind TEXT NOT NULL CHECK (kind IN ('place', 'category')), rank INTEGER NOT NULL,"
        " category TEXT NOT NULL DEFAULT '', value TEXT NOT NULL)",
    ):
        db.execute(statement)


@migrations()
def m007_withdrawals(db: sqlite_utils.Database) -> None:
    # A station's withdrawal of its own entry (hub/tournament/intake.py): before publication
    # the station's entries up to ``last_entry`` no longer count; after it the withdrawal is
    # kept here refused (``refused`` = 1) for the operator to see, and changes nothing.
    db.execute(
        "CREATE TABLE tour_withdrawals (id INTEGER PRIMARY KEY, round INTEGER NOT NULL,"
        " table_no INTEGER NOT NULL, station TEXT NOT NULL, last_entry INTEGER NOT NULL,"
        " key TEXT NOT NULL DEFAULT '', at REAL NOT NULL,"
        " refused INTEGER NOT NULL DEFAULT 0)"
    )
    db.execute("CREATE INDEX tour_withdrawals_table ON tour_withdrawals(round, table_no)")


DEFAULT_DIVISION = "A"  # tsh's name for the only division of an event


@migrations()
def m008_divisions(db: sqlite_utils.Database) -> None:
    """Several divisions in one hall. An existing tournament becomes the one division
    ``A``: its players, its pairings' seeds and notes, its imported tsh file."""
    db.execute(
        "CREATE TABLE tour_divisions (name TEXT PRIMARY KEY, position INTEGER NOT NULL,"
        " tsh_file TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL DEFAULT 0)"
    )
    db.execute("INSERT INTO tour_divisions (name, position) VALUES (?, 1)", [DEFAULT_DIVISION])
    # SQLite refuses REFERENCES with a non-NULL default on ALTER TABLE while foreign keys
    # are on: the facade checks the name against tour_divisions.
    db.execute(
        f"ALTER TABLE tour_players ADD COLUMN division TEXT NOT NULL DEFAULT '{DEFAULT_DIVISION}'"
    )
    db.execute(
        "CREATE TABLE tour_division_rounds ("
        " division TEXT NOT NULL REFERENCES tour_divisions(name) ON UPDATE CASCADE,"
        " round INTEGER NOT NULL REFERENCES tour_rounds(round),"
        " seed INTEGER NOT NULL, method TEXT NOT NULL, notes TEXT NOT NULL DEFAULT '[]',"
        " paired_at REAL NOT NULL, PRIMARY KEY (division, round))"
    )
    db.execute(
        "INSERT INTO tour_division_rounds (division, round, seed, method, notes, paired_at)"
        " SELECT ?, round, seed, method, notes, paired_at FROM tour_rounds",
        [DEFAULT_DIVISION],
    )
    db.execute(
        "CREATE TABLE tour_division_tsh ("
        " division TEXT PRIMARY KEY REFERENCES tour_divisions(name) ON UPDATE CASCADE,"
        " file TEXT NOT NULL, encoding TEXT NOT NULL, text TEXT NOT NULL,"
        " imported_at REAL NOT NULL)"
    )
    db.execute(
        "INSERT INTO tour_division_tsh (division, file, encoding, text, imported_at)"
        " SELECT ?, file, encoding, text, imported_at FROM tour_tsh_source",
        [DEFAULT_DIVISION],
    )
    db.execute("DROP TABLE tour_tsh_source")


def hub_db_path() -> Path:
    return data_dir() / "hub.db"


def open_tournament_db(path: Path | str | None = None) -> Database:
    """The hub database with the tournament tables migrated."""
    return open_db(path if path is not None else hub_db_path(), migrations)

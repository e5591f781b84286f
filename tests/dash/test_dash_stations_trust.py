"""The Stations screen (F1) says whose word each station's lexicon is (shared/lextrust.py:
signed by the hub, accepted by the referee, not verified, refused) and the confirmed rows a
station's log lost (station.db's lost WAL), as ``hub stations`` does — a refused lexicon
or lost rows in the alarm style —, on a line that wraps inside an 80×24 screen and the
demo's pane; and the automatic backups' failure with its reason in the operator's language,
driven by Pilot over a real hub database and the hub server running inside the app."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dash_testkit import label_text, settle
from language_guard import english_on_screen
from textual.widgets import Label

from samoobsluha.hub import store as sync_store
from samoobsluha.hub.app import HubApp
from samoobsluha.hub.service import HubService
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.storage import open_db

LOOPBACK = {"host": "127.0.0.1", "port": 0, "advertise": False, "screen_port": 0}
DEMO = (100, 49)  # the dashboard's tmux pane in the demo

# (station, what its status says): one of each trust, one that lost rows
STATUSES = [
    ("st-1", {"lexicon_trust": "hub"}),
    ("st-2", {"lexicon_trust": "referee"}),
    ("st-3", {"lexicon_trust": "unpinned"}),
    ("st-4", {"lexicon_trust": "unsigned"}),
    ("st-5", {"lexicon_trust": "bad_signature", "rows_lost": 3}),
    ("st-6", {"lexicon_trust": "hub", "rows_lost": 0}),
]
WORDS = {
    "cs": {
        "prefix": "Slovníky:",
        "hub": "st-1 podepsal hub",
        "referee": "st-2 schválil rozhodčí",
        "unpinned": "st-3 neověřený",
        "refused": "st-4 ODMÍTNUT: NEPODEPSAL HO TENTO HUB",
        "lost": "st-5 ODMÍTNUT: NEPODEPSAL HO TENTO HUB, CHYBÍ 3 POTVRZENÉ ZÁZNAMY",
    },
    "pl": {
        "prefix": "Słowniki:",
        "hub": "st-1 podpisał hub",
        "referee": "st-2 zatwierdził sędzia",
        "unpinned": "st-3 niezweryfikowany",
        "refused": "st-4 ODRZUCONY: NIE PODPISAŁ GO TEN HUB",
        "lost": "st-5 ODRZUCONY: NIE PODPISAŁ GO TEN HUB, BRAK 3 POTWIERDZONYCH ZAPISÓW",
    },
}


def _save(served: HubService, clock: FakeClock, statuses: list[tuple[str, dict]]) -> None:
    db = open_db(served.db_path, sync_store.migrations)
    base = {"version": "0.1.0", "lexicon_sha256": "a" * 64, "clock_synced": True, "backlog": 0}
    for n, (station, status) in enumerate(statuses, 1):
        sync_store.save_status(
            db, station, f"e{n}", f"127.0.0.1:{n}", base | status, clock.now() - 3
        )
    db.close()


def _one_line(text: str) -> str:
    """The label's text as it reads, its wrapping undone."""
    return " ".join(text.split())


@pytest.mark.parametrize("size", [(80, 24), DEMO], ids=["80x24", "demo"])
@pytest.mark.parametrize("lang", ["cs", "pl"])
async def test_stations_screen_shows_lexicon_trust_and_rows_lost(
    served: HubService, clock: FakeClock, lang: str, size: tuple[int, int]
) -> None:
    _save(served, clock, STATUSES)
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK, lang=lang)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert app.current_mode == "stations"
        label = app.screen.query_one("#stations-lexicons", Label)
        assert label.display
        text = label_text(app.screen, "#stations-lexicons")
        line = _one_line(text)
        words = WORDS[lang]
        assert line.startswith(words["prefix"])
        for what in ("hub", "referee", "unpinned", "refused", "lost"):
            assert words[what] in line, f"{what}: {line}"
        # signed by the hub, 0 rows lost: the trust alone
        assert line.endswith(words["hub"].replace("st-1", "st-6"))
        # the alarm: the line marked, and the refused and lost parts bold red in it
        assert label.has_class("alarm")
        rendered = label.render()
        bad = {
            str(rendered)[span.start : span.end]
            for span in rendered.spans
            if "red" in str(span.style)
        }
        assert bad and all(part.isupper() or not part.strip("0123456789 ") for part in bad)
        assert words["hub"].split(" ", 1)[1] not in " ".join(bad)  # the trusted: plain
        # it wraps inside the screen, nothing cut at its right edge
        region = label.region
        assert region.right <= size[0] and region.bottom <= size[1]
        assert region.height >= -(-len(line) // region.width) >= 2  # tall enough for all
        assert english_on_screen(text, lang=lang) == [], text
        await pilot.press("ctrl+q")


async def test_a_hall_of_trusted_lexicons_raises_no_alarm_and_says_nothing_it_does_not_know(
    served: HubService, clock: FakeClock
) -> None:
    _save(served, clock, [("st-1", {"lexicon_trust": "hub"}), ("st-2", {})])
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK, lang="cs")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        label = app.screen.query_one("#stations-lexicons", Label)
        assert _one_line(label_text(app.screen, "#stations-lexicons")) == (
            "Slovníky: st-1 podepsal hub"
        )  # st-2 (a daemon, an older station) says nothing: nothing shown for it
        assert not label.has_class("alarm")
        await pilot.press("ctrl+q")


@pytest.mark.parametrize("lang", ["cs", "pl"])
async def test_failing_backups_are_told_with_their_reason_in_the_language(
    served: HubService, clock: FakeClock, tmp_path: Path, lang: str
) -> None:
    """The embedded server's real backups into a "folder" that is a file: the warning
    says why in the operator's language, not the system's English."""
    stick = tmp_path / "usb"
    stick.write_text("")  # not a folder: every backup fails
    app = HubApp(served, refresh_every=None, tick_every=None, serve=LOOPBACK, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        server = app._server
        assert server is not None
        server.backups.settings.folder = stick
        assert await asyncio.to_thread(server.backups.run, clock.now()) is None
        assert server.backups.status()["error"]
        app.action_reload()
        await settle(pilot)
        warnings = _one_line(label_text(app.screen, "#stations-warnings"))
        want = {
            "cs": f"Zálohy do {stick} selhávají ({stick}: už existuje)",
            "pl": f"Kopie zapasowe do {stick} zawodzą ({stick}: już istnieje)",
        }
        assert want[lang] in warnings, warnings
        assert english_on_screen(warnings, lang=lang) == [], warnings
        await pilot.press("ctrl+q")

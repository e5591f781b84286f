"""A player sees his own table's entry at the kiosk and withdraws it with his opponent: F8
asks, the opponent agrees with the confirm key (a double press by the same player is not
an agreement; Esc: no, the entry stays). The withdrawal is in SQLite and the outbox before
the kiosk says it is asked (the hub decides: test_kiosk_withdraw_published.py); the
players may then enter the table again. The referee's entry is not the players' to
withdraw. A real kiosk app under Pilot at 80x24."""

from __future__ import annotations

import pytest
from kiosk_pilot import settle, type_text
from test_kiosk_flows import SIZE
from textual.widgets import Label

from samoobsluha.station import outbox
from samoobsluha.station.log import Result
from samoobsluha.station.screens.result import ResultScreen
from samoobsluha.station.screens.verdict import SavedScreen


def _text(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Label).content)


async def _look_up(pilot, round_no: str = "2", table: str = "5") -> None:
    await pilot.press("f2")
    for text in (round_no, table):
        await type_text(pilot, text)
        await pilot.press("enter")
    await settle(pilot)


async def test_the_players_see_and_withdraw_their_entry(make_app, store, clock):
    store.replace_pairings(2, [(5, "Novák Jan", "Dvořáková Eva")], at=clock.now())
    store.store_result(
        Result(2, 5, 412, 388, "second", "Novák Jan", "Dvořáková Eva"), at=clock.now()
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _look_up(pilot)
        line = _text(app, "#result-entry")
        assert line == (
            "Záznam této stanice: 412:388, začínal B — potvrzený oběma, čeká na odeslání. "
            "F8 = stáhnout"
        )
        assert app.screen.query_one("#result-entry").region.bottom <= SIZE[1]
        await pilot.press("f8")
        await settle(pilot)
        assert _text(app, "#result-confirm") == (
            "Stáhnout záznam kola 2, stůl 5 (412:388)? Soupeř souhlasí: F10 = ano, Esc = ne"
        )
        assert app.screen.query_one("#result-confirm").region.bottom <= SIZE[1]
        assert _text(app, "#result-hint") == "F10 = stáhnout · Esc = nestahovat"
        await pilot.press("f10")  # the same player at once: not the opponent's yes
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen) and not store.result(2, 5).withdrawn
        await pilot.press("escape")  # the opponent does not agree
        await settle(pilot)
        assert "Nestaženo" in _text(app, "#result-error")
        assert not store.result(2, 5).withdrawn and len(outbox.pending(store.db)) == 1
        await pilot.press("f8")
        await settle(pilot)
        clock.advance(1)
        await pilot.press("f10")  # the opponent agrees
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
        # asked: the hub decides (no link here, no word from it)
        assert _text(app, "#verdict-reason").startswith("Stažení požadováno: kolo 2, stůl 5.")
        # durable and queued when it is shown done
        gone = store.result(2, 5)
        assert (gone.withdrawn, gone.revision) == (True, 2)
        rows = outbox.pending(store.db)
        assert [r["payload"]["withdrawn"] for r in rows] == [False, True]
        assert (rows[1]["payload"]["score_first"], rows[1]["payload"]["revision"]) == (412, 2)

        # withdrawn: the players may enter the table again, and confirm it
        clock.advance(app.settings.verdict_seconds + 1)
        await pilot.pause(0.3)
        await _look_up(pilot)
        assert "stažení požadováno, rozhodne hub" in _text(app, "#result-entry")
        assert "F8" not in _text(app, "#result-entry")
        for text in ("410", "388", "b"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await pilot.press("f10")
        await settle(pilot)
        clock.advance(1)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
    again = store.result(2, 5)
    assert (again.score_first, again.withdrawn, again.revision) == (410, False, 3)


async def test_the_referees_entry_is_not_the_players_to_withdraw(make_app, store, clock):
    store.store_result(Result(2, 5, 412, 388, "first"), at=clock.now(), by_referee=True)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _look_up(pilot)
        assert "zapsal ho rozhodčí" in _text(app, "#result-entry")
        await pilot.press("f8")
        await settle(pilot)
        assert _text(app, "#result-error") == (
            "! Tento výsledek zapsal rozhodčí: změnit ho může jen rozhodčí."
        )
        assert _text(app, "#result-confirm") == ""
    assert not store.result(2, 5).withdrawn and len(outbox.pending(store.db)) == 1


async def test_a_publication_older_than_the_entry_refuses_nothing(make_app, store, clock):
    """Standings kept from before the entry — another tournament on the same card, or a
    result typed after the publication — do not make the kiosk refuse: it cannot know
    that this entry is in a published round, so the withdrawal is asked. A publication
    after the entry — even one that comes while the opponent is being asked — is refused
    on the screen, nothing stored."""
    from samoobsluha.station import sync

    sync.migrations.apply(store.db)  # the link's tables, as on a station that ever linked
    published = {"round": 2, "columns": [], "rows": [], "published": [1, 2]}
    at_ms = int((clock.now() - 86_400) * 1000)  # yesterday
    sync._store_item(store.db, "standings", f"standings:{at_ms}:x", published, 0.0, at_ms)
    store.store_result(Result(2, 5, 412, 388, "first", "Novák Jan", "Dvořák Petr"), at=clock.now())
    store.store_result(Result(2, 6, 300, 350, "first", "Malá Eva", "Veselý Jan"), at=clock.now())
    assert not store.round_published(2, 5)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _look_up(pilot)
        assert _text(app, "#result-entry").endswith("F8 = stáhnout")
        await pilot.press("f8")
        await settle(pilot)
        assert _text(app, "#result-confirm").startswith("Stáhnout záznam kola 2, stůl 5")

        # the publication comes while the opponent is asked (after the entries: the hub's
        # time of it is the version): his yes stores nothing, the screen says why
        later = int((clock.now() + 60) * 1000)
        sync._store_item(store.db, "standings", f"standings:{later}:y", published, 0.0, later)
        clock.advance(1)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert _text(app, "#result-error").startswith("! Kolo 2 je zveřejněné: záznam platí")
        assert _text(app, "#result-entry").endswith(
            "Kolo 2 je zveřejněné: opravit ho může jen rozhodčí."
        )
        assert not store.result(2, 5).withdrawn
        clock.advance(120)
        await pilot.press("escape")
        await settle(pilot)
        await _look_up(pilot, table="6")
        assert _text(app, "#result-entry").endswith(
            "Kolo 2 je zveřejněné: opravit ho může jen rozhodčí."
        )
        await pilot.press("f8")
        await settle(pilot)
        assert _text(app, "#result-error").startswith("! Kolo 2 je zveřejněné: záznam platí")
        assert _text(app, "#result-confirm") == ""
    assert not store.result(2, 6).withdrawn and len(outbox.pending(store.db)) == 2


@pytest.mark.parametrize("lang", ["cs", "sk", "pl", "en"])
async def test_the_hubs_refusal_fits_80x24_in_every_language(make_app, store, clock, lang):
    """The hub's word on a withdrawal as the link stores it (the ``withdrawals`` item
    naming the tombstone's outbox row): the idle notice and the entry's line, at 80x24."""
    from samoobsluha.station import sync

    sync.migrations.apply(store.db)
    store.store_result(Result(2, 5, 412, 388, "first", "Novák Jan", "Dvořák Petr"), at=clock.now())
    store.withdraw_result(2, 5, at=clock.now())
    seq = store.db.execute("SELECT outbox_seq FROM results").fetchone()[0]
    epoch = outbox.meta(store.db, "station_epoch")
    decision = {"epoch": epoch, "seq": seq, "round": 2, "table": 5, "outcome": "withdraw_refused"}
    sync._store_item(store.db, "withdrawals", "withdrawals:1:x", {"decisions": [decision]}, 0.0, 1)
    app = make_app(ui_language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        notice = app.screen.query_one("#withdraw-notice")
        assert notice.display and notice.region.bottom <= SIZE[1]
        assert ("2" in _text(app, "#withdraw-notice")) and "5" in _text(app, "#withdraw-notice")
        await _look_up(pilot)
        line = _text(app, "#result-entry")
        assert app.screen.query_one("#result-entry").region.bottom <= SIZE[1]
        assert line.startswith(
            {"cs": "Záznam", "sk": "Záznam", "pl": "Wpis", "en": "Entry from this station"}[lang]
        )
        refused = {"cs": "odmítl", "sk": "odmietol", "pl": "odrzucił", "en": "refused"}[lang]
        assert refused in line
        hub_has_it = {
            "cs": "hub ho má",
            "sk": "hub ho má",
            "pl": "jest już w hubie",
            "en": "the hub has it",
        }
        assert line.endswith(hub_has_it[lang] + ".")  # its word says so, whatever the ack
        await pilot.press("escape")
        await settle(pilot)
        assert not app.screen.query_one("#withdraw-notice").display  # looked at

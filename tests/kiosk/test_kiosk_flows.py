"""Every flow of the kiosk, driven with Pilot against a real lexicon file and a real
SQLite station database, on a fake clock."""

from __future__ import annotations

import json

import pytest
from kiosk_pilot import settle, start_check, type_text
from textual.widgets import Input, Label

from samoobsluha.shared.lexicon import Status
from samoobsluha.shared.rounds import RoundPlan
from samoobsluha.station import outbox
from samoobsluha.station.screens.check import CheckScreen
from samoobsluha.station.screens.idle import IdleScreen
from samoobsluha.station.screens.referee import AppealScreen, LogScreen, PinScreen, RefereeScreen
from samoobsluha.station.screens.result import ResultScreen
from samoobsluha.station.screens.verdict import RefusedScreen, SavedScreen, VerdictScreen
from samoobsluha.station.screens.where import WhereScreen
from samoobsluha.station.widgets.word_input import WordInput

SIZE = (80, 24)


def error_text(app) -> str:
    return str(app.screen.query_one("#check-error", Label).content)


async def check_words(pilot, table: str, words: list[str]) -> None:
    await start_check(pilot, table, str(len(words)))
    for word in words:
        await type_text(pilot, word)
        await pilot.press("enter")
    await pilot.press("f10")
    await settle(pilot)


async def test_valid_play_is_logged_and_shown(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "5", ["čáp", "kočka"])
        screen = app.screen
        assert isinstance(screen, VerdictScreen)
        assert screen.verdict.status is Status.VALID
        assert "PLATNÉ" in str(screen.query_one("#verdict-word", Label).content)
        assert "ČÁP KOČKA" in str(screen.query_one("#verdict-words", Label).content)
        assert "TEST" in str(screen.query_one("#verdict-details", Label).content)
        assert app.screen.has_class("-valid")
    rows = store.recent()
    assert len(rows) == 1
    row = rows[0]
    assert (row["table_no"], row["status"], row["words"]) == (5, "valid", ["ČÁP", "KOČKA"])
    assert row["lexicon_sha256"] == app.lexicon.info.sha256
    assert row["station_id"] == "test-station"
    pending = outbox.pending(store.db)
    assert [p["kind"] for p in pending] == ["challenge"]
    assert pending[0]["payload"]["canonical"] == ["čáp", "kočka"]


async def test_invalid_play_hides_which_word_failed(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "3", ["čáp", "xyzq"])
        screen = app.screen
        assert screen.verdict.status is Status.INVALID
        assert screen.has_class("-invalid")
        assert "NEPLATNÉ" in str(screen.query_one("#verdict-word", Label).content)
        assert not screen.query("#verdict-failed")  # never which word, by default
    assert json.loads(store.db.execute("SELECT failed FROM challenges").fetchone()[0]) == ["xyzq"]


async def test_failed_words_shown_when_configured(make_app):
    app = make_app(show_failed_words=True)
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "3", ["čáp", "xyzq"])
        assert "XYZQ" in str(app.screen.query_one("#verdict-failed", Label).content)


async def test_sit_notation_and_blank_brackets(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "2", "1")
        await type_text(pilot, "c+a-p")
        assert str(app.screen.query_one("#face-0", Label).content) == "ČÁP"
        await pilot.press("enter", "f10")
        await settle(pilot)
        assert app.screen.verdict.valid
    async with make_app(min_interval=0).run_test(size=SIZE) as pilot:
        await check_words(pilot, "2", ["rec(e)se"])
        assert pilot.app.screen.verdict.valid
    assert store.recent()[0]["words"] == ["REC(E)SE"]


async def test_space_moves_to_next_word(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "4", "2")
        await type_text(pilot, "pes les")
        words = [w for w in app.screen.query(WordInput) if w.display and w.parent.display]
        assert [w.value for w in words] == ["pes", "les"]
        await pilot.press("enter", "f10")
        await settle(pilot)
        assert app.screen.verdict.valid


async def test_wrong_table_is_refused(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_text(pilot, "31")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
        assert app.screen.step == "table"
        assert "31" in error_text(app) and "1-30" in error_text(app)
        await pilot.press("enter")  # empty is not a table either
        assert error_text(app)
    assert store.recent() == []


@pytest.mark.parametrize("count", ["0", "9"])
async def test_word_count_outside_1_to_8(make_app, count):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "1", count)
        assert app.screen.step == "count"
        assert "1 až 8" in error_text(app)


async def test_digits_cannot_be_typed_as_table_or_count_letters(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # start with an empty table field
        await type_text(pilot, "a1")
        assert app.screen.query_one("#table", Input).value == "1"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("ko1ka", "„1“"),  # a digit
        ("köčka", "„ö“"),  # Latin-1 ö is not a Czech letter
        ("abcdefghijklmnop", "16 písmen"),  # 16 letters: more than the board
        ("a", "alespoň 2"),
    ],
)
async def test_word_refused_with_reason(make_app, store, typed, expected):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "1", "1")
        await type_text(pilot, typed)
        await pilot.press("enter")
        assert expected in error_text(app)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
    assert store.recent() == []


async def test_empty_confirm_is_refused(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "1", "2")
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
        assert "1. slovo" in error_text(app)
        await type_text(pilot, "pes")
        await pilot.press("enter")
        await pilot.press("enter")  # empty second word
        assert "2. slovo" in error_text(app)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, CheckScreen)
    assert store.recent() == []


async def test_word_longer_than_lexicon_calls_referee(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "9", ["čáp", "nejkrásnější"])
        screen = app.screen
        assert screen.verdict.status is Status.REFEREE
        assert "ZAVOLEJTE ROZHODČÍHO" in str(screen.query_one("#verdict-word", Label).content)
    requests = store.referee_requests()
    assert [(r["table_no"], r["reason"]) for r in requests] == [(9, "too_long")]
    kinds = [p["kind"] for p in outbox.pending(store.db)]
    assert kinds == ["challenge", "referee_request"]


async def test_verdict_ignores_keys_for_half_a_second_then_returns_to_idle(make_app, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "5", ["pes"])
        assert isinstance(app.screen, VerdictScreen)
        await pilot.press("x")  # a stray key right after confirming
        assert isinstance(app.screen, VerdictScreen)
        clock.advance(0.6)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, IdleScreen)
        assert not app.screen.query(WordInput)  # nothing of the check left


async def test_verdict_times_out(make_app, clock):
    app = make_app(verdict_seconds=10)
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "5", ["pes"])
        clock.advance(9)
        await pilot.pause(0.25)
        assert isinstance(app.screen, VerdictScreen)
        clock.advance(1.1)
        await pilot.pause(0.25)
        assert isinstance(app.screen, IdleScreen)


async def test_unfinished_input_is_wiped_after_inactivity(make_app, clock):
    app = make_app(inactivity_seconds=15)
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "5", "2")
        await type_text(pilot, "pe")
        clock.advance(14)
        await pilot.pause(0.25)
        assert isinstance(app.screen, CheckScreen)
        await type_text(pilot, "s")  # a key restarts the timer
        clock.advance(14)
        await pilot.pause(0.25)
        assert isinstance(app.screen, CheckScreen)
        clock.advance(1.5)
        await pilot.pause(0.25)
        assert isinstance(app.screen, IdleScreen)
        assert not app.query(WordInput)


async def test_escape_steps_back_and_leaves(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_check(pilot, "5", "2")
        assert app.screen.step == "words"
        await pilot.press("escape")
        assert app.screen.step == "count"
        await pilot.press("escape")
        assert app.screen.step == "table"
        await pilot.press("escape")
        assert isinstance(app.screen, IdleScreen)


async def test_rate_limit_interval_refuses_and_flags(make_app, store, clock):
    app = make_app(min_interval=20)
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "6", ["pes"])
        clock.advance(1)
        await pilot.press("x")
        await settle(pilot)
        clock.advance(5)
        await type_text(pilot, "6")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefusedScreen)
        reason = str(app.screen.query_one("#verdict-reason", Label).content)
        assert "14 s" in reason and "rozhodčího" in reason
        clock.advance(1)
        await pilot.press("x")
        await settle(pilot)
        # another table is not affected
        await check_words(pilot, "7", ["les"])
        assert isinstance(app.screen, VerdictScreen)
    rows = store.recent()
    assert [(r["table_no"], r["status"], r["refused_reason"]) for r in rows] == [
        (7, "valid", None),
        (6, "refused", "rate_interval"),
        (6, "valid", None),
    ]
    assert [r["reason"] for r in store.referee_requests()] == ["rate_interval"]


async def test_rate_limit_cap_per_round(make_app, store, clock):
    import threading

    plan = RoundPlan(number=3, start_at=clock.now() - 60)

    def round_status():
        # The station's RoundSchedule is bound to the UI thread's SQLite connection.
        assert threading.current_thread() is threading.main_thread()
        return plan.status(clock.now())

    app = make_app(max_checks_per_round=2, round_status=round_status)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await check_words(pilot, "8", ["pes"])
            clock.advance(1)
            await pilot.press("x")
            await settle(pilot)
        await type_text(pilot, "8")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefusedScreen)
        assert "2 kontrol" in str(app.screen.query_one("#verdict-reason", Label).content)
    rows = store.recent()
    assert rows[0]["status"] == "refused" and rows[0]["refused_reason"] == "rate_cap"
    assert {r["round_no"] for r in rows} == {3}


def give_pin(store, pin: str = "471147") -> None:
    """The PIN as ``station pin set`` (or provisioning, or the hub) leaves it."""
    from samoobsluha.shared.checks import hash_pin

    store.set_referee_pin(hash_pin(pin), 0.0)


async def set_pin(pilot, pin: str = "471147") -> None:
    """Give the station a PIN (as the console would) and open the referee screen."""
    give_pin(pilot.app.store, pin)
    await pilot.press("f12")
    await settle(pilot)
    assert isinstance(pilot.app.screen, PinScreen)
    await type_text(pilot, pin)
    await pilot.press("enter")
    await settle(pilot)


async def test_no_default_quit_keys(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for key in ("ctrl+q", "ctrl+c", "ctrl+p", "escape", "ctrl+d", "ctrl+z"):
            await pilot.press(key)
            await pilot.pause()
        assert app.is_running
        assert isinstance(app.screen, IdleScreen)


async def test_without_a_pin_the_referee_key_opens_nothing(make_app, store):
    """A fresh station: no PIN provisioned, sent or set. F12 does nothing, a player cannot
    choose a PIN, and the idle screen says nothing about PINs."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await pilot.press("f12")
            await settle(pilot)
            assert isinstance(app.screen, IdleScreen)
        await type_text(pilot, "1234")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, PinScreen | RefereeScreen)
        await pilot.press("escape", "escape")
        await settle(pilot)
        text = " ".join(str(label.content) for label in app.screen.query(Label))
        assert "PIN" not in text.upper()
    assert store.referee_pin() == ""


async def test_pin_set_at_the_console_opens_the_referee_screen(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        give_pin(store)  # after start: looked up again at the key
        await pilot.press("f12")
        await settle(pilot)
        await type_text(pilot, "471147")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)


async def test_pin_sent_by_the_hub_wins_over_an_older_one(make_app, store):
    from samoobsluha.shared.checks import hash_pin
    from samoobsluha.station.sync import _store_item, migrations

    give_pin(store, "471147")
    migrations.apply(store.db)
    _store_item(
        store.db, "referee_pin", "referee_pin:1:x", {"hash": hash_pin("864286")}, 10.0, 1
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await settle(pilot)
        await type_text(pilot, "864286")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
    # a PIN set later on the station itself wins again
    store.set_referee_pin(hash_pin("135713"), 20.0)
    from samoobsluha.shared.checks import verify_pin

    assert verify_pin("135713", store.referee_pin())


async def test_changing_the_pin_asks_twice_and_confirms(make_app, store):
    from samoobsluha.shared.checks import verify_pin

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await set_pin(pilot)
        await pilot.press("6")
        await settle(pilot)
        for _ in range(2):
            await type_text(pilot, "999999")
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("escape")  # "really?" — no
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
        assert verify_pin("471147", store.referee_pin())
        await pilot.press("6")
        await settle(pilot)
        for _ in range(2):
            await type_text(pilot, "999999")
            await pilot.press("enter")
            await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
    assert verify_pin("999999", store.referee_pin())


async def test_wrong_pins_are_delayed_then_locked_out(make_app, store, clock):
    give_pin(store)
    app = make_app(pin_free_attempts=3, pin_delay=2, pin_lockout=60)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f12")
        await settle(pilot)
        pin_field = app.screen.query_one("#pin", Input)
        for attempt in range(1, 4):
            await type_text(pilot, "000000")
            await pilot.press("enter")
            await settle(pilot)
            assert pin_field.disabled  # a wrong PIN is always followed by a wait
            clock.advance(2 * attempt + 0.1)
            await pilot.pause(0.25)
            if attempt < 3:
                assert not pin_field.disabled
        message = str(app.screen.query_one("#pin-message", Label).content)
        assert "ZAMČENO" in message
        assert pin_field.disabled
        # the right PIN does not help during the lockout
        await type_text(pilot, "471147")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PinScreen)
        clock.advance(60)
        await pilot.pause(0.25)
        assert isinstance(app.screen, IdleScreen)  # the PIN screen gave up meanwhile
        await pilot.press("f12")
        await settle(pilot)
        await pilot.pause(0.2)
        assert not app.screen.query_one("#pin", Input).disabled
        await type_text(pilot, "471147")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
    failures, _ = store.pin_failures()
    assert failures == 0
    attempts = store.db.execute("SELECT ok FROM pin_attempts ORDER BY id").fetchall()
    assert [a[0] for a in attempts] == [0, 0, 0, 1]


async def test_lockout_survives_a_restart_and_a_clock_step(make_app, store, clock):
    """Three wrong PINs lock the prompt for a minute. Neither a restart of the app nor the
    wall clock stepping back 30 minutes opens it; the minute is counted on the monotonic
    clock, and after a reboot (a new monotonic clock) it starts again from the first look."""
    from samoobsluha.shared.checks import KioskSettings, PinLock

    give_pin(store)
    settings = KioskSettings(pin_free_attempts=3, pin_lockout=60)
    lock = PinLock()
    for _ in range(3):
        lock = lock.failed(settings, "boot-1", clock.monotonic())
        store.record_pin_attempt(False, clock.now(), lock=lock)

    async def prompt_open(app) -> bool:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f12")
            await settle(pilot)
            await pilot.pause(0.2)
            field = app.screen.query_one("#pin", Input)
            if field.disabled:
                assert "ZAMČENO" in str(app.screen.query_one("#pin-message", Label).content)
            return not field.disabled

    app = make_app(pin_free_attempts=3, pin_lockout=60)
    app.boot = "boot-1"
    assert not await prompt_open(app)
    clock.set_wall(clock.now() - 1800)  # the wall clock steps back: nothing changes
    clock.advance(30)
    app = make_app(pin_free_attempts=3, pin_lockout=60)
    app.boot = "boot-1"
    assert not await prompt_open(app)
    # a reboot: the monotonic clock starts again; the rest of the wait (30 s) counts anew
    app = make_app(pin_free_attempts=3, pin_lockout=60)
    app.boot = "boot-2"
    assert not await prompt_open(app)
    clock.advance(31)
    app = make_app(pin_free_attempts=3, pin_lockout=60)
    app.boot = "boot-2"
    assert await prompt_open(app)
    # the lockout asked for the referee at the hub
    assert [r["reason"] for r in store.referee_requests()] == ["pin_locked"]


async def test_referee_appeal_is_logged_as_second_instance(make_app, store):
    app = make_app(show_failed_words=False)
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "4", ["pes", "xyzq"])
        await pilot.press("escape")  # locked: ignored
        app.clock.advance(1)
        await pilot.press("x")
        await settle(pilot)
        await set_pin(pilot)
        await pilot.press("1")
        assert isinstance(app.screen, AppealScreen)
        await type_text(pilot, "4")
        await pilot.press("enter")
        await type_text(pilot, "pes xyzq")
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VerdictScreen) and screen.appeal
        assert "XYZQ" in str(screen.query_one("#verdict-failed", Label).content)
        app.clock.advance(1)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, AppealScreen)
    rows = store.recent()
    assert [(r["instance"], r["status"]) for r in rows] == [
        ("appeal", "invalid"),
        ("first", "invalid"),
    ]
    assert rows[0]["appeal_of"] == rows[1]["id"]
    assert [p["kind"] for p in outbox.pending(store.db)] == ["challenge", "appeal"]


async def test_referee_log_tables_gong_and_quit(make_app, store):
    rung = []

    async def ring(name: str) -> None:  # as the station's Gong.ring is
        rung.append(name)

    app = make_app(gong_test=lambda: ring("start"))
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "4", ["pes"])
        app.clock.advance(1)
        await pilot.press("x")
        await settle(pilot)
        await set_pin(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert isinstance(app.screen, LogScreen)
        assert app.screen.query_one("#log-table").row_count == 1
        await pilot.press("escape")
        await pilot.press("3")
        field = app.screen.query_one("#tables-input", Input)
        assert field.value == "1-30"
        field.value = ""
        await type_text(pilot, "1-12")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
        assert app.tables == frozenset(range(1, 13))
        await pilot.press("4")
        await settle(pilot)
        assert rung == ["start"]
        assert "Gong zazněl" in str(app.screen.query_one("#referee-message", Label).content)
        await pilot.press("7")  # quit: "really?" first
        await settle(pilot)
        assert app.is_running
        await pilot.press("n")
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, RefereeScreen)
        await pilot.press("7")
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
    assert app.return_code == 0
    assert store.setting("tables") == "1-12"


async def test_result_entry_and_only_referee_changes_it(make_app, store, clock):
    store.replace_pairings(2, [(5, "Novák Jan", "Dvořáková Eva")], at=clock.now())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        assert isinstance(app.screen, ResultScreen)
        for text in ("2", "5"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await settle(pilot)
        names = str(app.screen.query_one("#result-names", Label).content)
        assert "Novák Jan" in names and "Dvořáková Eva" in names
        for text in ("412", "388", "b"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await pilot.press("f10")
        await settle(pilot)
        # the opponent confirms it on the same screen
        assert "Souhlasí?" in str(app.screen.query_one("#result-confirm", Label).content)
        clock.advance(1)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, SavedScreen)
        clock.advance(1)
        await pilot.press("x")
        # players cannot overwrite it
        await pilot.press("f2")
        for text in ("2", "5", "400", "400", "a"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, ResultScreen)
        assert "jen rozhodčí" in str(app.screen.query_one("#result-error", Label).content)
        await pilot.press("escape")
        # the referee can
        await set_pin(pilot)
        await pilot.press("5")
        for text in ("2", "5"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await settle(pilot)
        assert app.screen.query_one("#res-score-a", Input).value == "412"
        app.screen.query_one("#res-score-b", Input).value = "398"
        await pilot.press("f10")
        await settle(pilot)
        assert isinstance(app.screen, RefereeScreen)
    result = store.result(2, 5)
    assert (result.score_first, result.score_second, result.started) == (412, 398, "second")
    assert (result.entered_by, result.revision, result.first) == ("referee", 2, "Novák Jan")
    assert store.db["result_history"].count == 2
    assert [p["kind"] for p in outbox.pending(store.db)] == ["result", "result"]


async def test_where_do_i_play(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        assert isinstance(app.screen, WhereScreen)
        await type_text(pilot, "nov")
        await settle(pilot)
        answer = app.screen.query_one("#where-answer", Label)
        assert "není k dispozici" in str(answer.content)
        await pilot.press("escape")
        store.replace_pairings(
            4, [(1, "Novák Jan", "Dvořáková Eva"), (2, "Šťastný Petr", "")], at=clock.now()
        )
        await pilot.press("f3")
        await type_text(pilot, "dvorak")
        await settle(pilot)
        text = str(app.screen.query_one("#where-answer", Label).content)
        assert "Dvořáková Eva: stůl 1, soupeř Novák Jan" in text
        app.screen.query_one("#where-name", Input).value = "stast"
        await settle(pilot)
        text = str(app.screen.query_one("#where-answer", Label).content)
        assert "stůl 2" in text and "volný los" in text


async def test_language_switch_lasts_one_flow(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f4")
        assert app.lang == "sk"
        await pilot.press("f4")
        assert app.lang == "en"
        assert "table number" in str(app.screen.query_one("#instruction", Label).content)
        await check_words(pilot, "5", ["xyzq"])
        assert "NOT VALID" in str(app.screen.query_one("#verdict-word", Label).content)
        app.clock.advance(1)
        await pilot.press("x")
        await pilot.pause()
        assert app.lang == "cs"
        assert "číslo stolu" in str(app.screen.query_one("#instruction", Label).content)


async def test_round_clock_phases(make_app, clock):
    plan = RoundPlan(number=4, start_at=clock.now() + 90)
    app = make_app(round_status=lambda: plan.status(clock.now()), hub_status=lambda: True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        title = app.screen.query_one("#round-title", Label)
        digits = app.screen.query_one("#round-time")
        assert "Kolo 4 začne za" in str(title.content)
        assert digits.text == "01:30"
        assert "hub: spojeno" in str(app.screen.query_one("#hub-status", Label).content)
        clock.advance(90 + 31 * 60)
        await pilot.pause(0.2)
        assert "poslední minuty" in str(title.content)
        assert digits.text == "09:00"
        clock.advance(9 * 60)
        await pilot.pause(0.2)
        assert app.screen.query_one("#round-big").text == "DOHRÁVKA"


async def test_fast_typing_loses_nothing(make_app, store):
    """Keys arrive faster than screens mount (a player typing "12⏎2⏎pes⏎les⏎" at once):
    none is lost or lands in the wrong field."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        keys = [("1", "1"), ("2", "2"), ("enter", "\r"), ("2", "2"), ("enter", "\r")]
        keys += [(ch, ch) for ch in "pes"] + [("enter", "\r")]
        keys += [(ch, ch) for ch in "les"] + [("enter", "\r"), ("f10", None)]
        for key, char in keys:
            app.post_message(events.Key(key, char))
        await settle(pilot)
        await pilot.pause(0.1)
        await settle(pilot)
        assert isinstance(app.screen, VerdictScreen)
    row = store.recent()[0]
    assert (row["table_no"], row["words"]) == (12, ["PES", "LES"])


async def burst(pilot, keys: list[str]) -> None:
    """Post keys all at once, as a terminal delivers a fast typist's burst."""
    from textual import events

    for key in keys:
        char = {"enter": "\r", "space": " "}.get(key, key if len(key) == 1 else None)
        pilot.app.post_message(events.Key(key, char))
    await settle(pilot)
    await pilot.pause(0.05)
    await settle(pilot)


async def test_result_form_and_pin_typed_in_a_burst(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        give_pin(store)
        await pilot.press("f12")
        await settle(pilot)
        await burst(pilot, [*"471147", "enter"])
        assert isinstance(app.screen, RefereeScreen)
        await pilot.press("5")
        await burst(pilot, ["2", "enter", "5", "enter", *"401", "enter", *"399", "enter", "b"])
        values = [
            app.screen.query_one(f"#{f}", Input).value
            for f in ("res-round", "res-table", "res-score-a", "res-score-b", "res-starter")
        ]
        assert values == ["2", "5", "401", "399", "b"]


async def test_where_do_i_play_shows_the_next_round_from_its_publication(make_app, store, clock):
    """Round 2 is in its play-out when round 3's pairings are published: players see
    both, labelled; once round 3 runs, it is the one shown."""
    from samoobsluha.shared.rounds import Phase, RoundStatus

    status = {"now": RoundStatus(2, Phase.ENDED, 0.0, 0.0, 0.0)}
    store.replace_pairings(2, [(5, "Novák Jan", "Dvořáková Eva")], at=clock.now())
    store.replace_pairings(3, [(9, "Novák Jan", "Šťastný Petr")], at=clock.now())
    app = make_app(round_status=lambda: status["now"])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await type_text(pilot, "novak")
        await settle(pilot)
        text = str(app.screen.query_one("#where-answer", Label).content)
        assert text.index("Příští kolo (3. kolo)") < text.index("Právě se hraje 2. kolo")
        assert "stůl 9, soupeř Šťastný Petr" in text and "stůl 5" in text
        await pilot.press("escape")
        status["now"] = RoundStatus(3, Phase.RUNNING, 1000.0, 0.0, 0.0)
        await pilot.press("f3")
        await type_text(pilot, "novak")
        await settle(pilot)
        text = str(app.screen.query_one("#where-answer", Label).content)
        assert "Právě se hraje 3. kolo" in text and "stůl 5" not in text


async def test_outbox_counter_follows_the_acknowledgements(make_app, store, clock):
    """„k odeslání 1“ goes away once the hub has acknowledged the row (the ack is written
    by the sync on its own connection)."""
    app = make_app(hub_status=lambda: True)
    async with app.run_test(size=SIZE) as pilot:
        await check_words(pilot, "4", ["pes"])
        clock.advance(1)
        await pilot.press("x")
        await settle(pilot)
        hub = app.screen.query_one("#hub-status", Label)
        assert "k odeslání 1" in str(hub.content)
        outbox.acknowledge(store.db, outbox.pending(store.db)[-1]["seq"])
        clock.advance(3)
        await pilot.pause(0.3)
        await settle(pilot)
        await pilot.pause(0.2)
        assert "k odeslání" not in str(hub.content)

"""Automatic backups and ``hub restore`` (hub/backup.py) on real SQLite files: a running
hub backs up at start, after every publication and on its timer; a backup restored on a
"fresh machine" (another data folder) gives the same standings and rows; a damaged or
foreign file is refused naming it, and nothing is changed."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from testkit import until

from samoobsluha.hub import backup, store
from samoobsluha.hub.cli import main as hub_main
from samoobsluha.hub.sample import play_sample
from samoobsluha.hub.server import HubServer
from samoobsluha.hub.tournament import Tournament
from samoobsluha.shared.protocol import new_psk
from samoobsluha.shared.storage import open_db


def _tournament(data: Path, rounds: int = 3) -> Path:
    path = data / "hub.db"
    db = open_db(path, store.migrations)
    store.ensure_identity(db)
    db.close()
    with Tournament.open(path) as tour:
        play_sample(tour, rounds)
    return path


def _standings(path: Path) -> list[object]:
    with Tournament.open(path) as tour:
        return list(tour.standings())


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the backup's own stamp, in a fixed order."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        out = {}
        for table in tables:
            rows = conn.execute(f"SELECT * FROM [{table}]").fetchall()
            if table == "hub_meta":
                rows = [r for r in rows if r[0] not in ("backup_at", "backup_reason")]
            out[table] = sorted(rows, key=repr)
        return out
    finally:
        conn.close()


def test_a_backup_restored_on_a_fresh_machine_gives_the_same_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    primary = tmp_path / "primary"
    stick = tmp_path / "usb"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(primary))
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    db = _tournament(primary)
    assert hub_main(["backup", "--to", str(stick)]) == 0
    (made,) = backup.backups(stick)
    out = capsys.readouterr().out
    assert str(made) in out and "players: 32" in out and "by hand" in out
    before = _standings(db)
    rows = _rows(db)
    # the primary goes on after the backup: what it records later is not in the backup
    with Tournament.open(db) as tour:
        tour.add_player("Pozdní Příchozí")
    fresh = tmp_path / "fresh"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(fresh))
    assert hub_main(["restore", str(made)]) == 0
    out = capsys.readouterr().out
    assert f"Restored into {fresh / 'hub.db'}" in out
    assert "tournament.key" in out  # the hall secret is never in a backup: said so
    assert _standings(fresh / "hub.db") == before
    assert _rows(fresh / "hub.db") == rows
    assert len(before) == 32


def _damage(path: Path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as fh:  # a page in the middle overwritten, as a bad stick does
        fh.seek(size // 2)
        fh.write(os.urandom(4096))


@pytest.mark.parametrize("how", ["damaged", "truncated", "not a database", "foreign"])
def test_a_bad_backup_is_refused_naming_the_file_and_nothing_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    made = backup.take(
        _tournament(tmp_path / "primary", rounds=2), tmp_path / "usb", reason="manual", now=1e9
    )
    if how == "damaged":
        _damage(made)
    elif how == "truncated":
        os.truncate(made, made.stat().st_size // 3)
    elif how == "not a database":
        made.write_bytes(b"PK\x03\x04" + os.urandom(8000))
    else:  # a valid SQLite file that is not a hub's
        made.unlink()
        db = open_db(made)
        db["notes"].insert({"text": "hello"})
        db.close()
    fresh = tmp_path / "fresh"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(fresh))
    assert hub_main(["restore", str(made)]) == 2
    err = capsys.readouterr().err
    assert str(made) in err and "nothing was restored" in err
    assert not (fresh / "hub.db").exists()


def test_restore_replaces_a_hub_database_only_when_asked_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "cs")
    made = backup.take(
        _tournament(tmp_path / "primary", rounds=1), tmp_path / "usb", reason="manual", now=1e9
    )
    here = tmp_path / "here"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(here))
    _tournament(here, rounds=3)
    old = _rows(here / "hub.db")
    assert hub_main(["restore", str(made)]) == 2
    assert "--force" in capsys.readouterr().err  # Czech, and says how
    assert _rows(here / "hub.db") == old
    assert hub_main(["restore", "--force", str(made)]) == 0
    (kept,) = here.glob("hub.db.replaced-*")
    assert _rows(kept) == old
    assert len(_rows(here / "hub.db")["tour_rounds"]) == 2  # round 1 played, round 2 paired


def test_backups_are_named_stamped_and_pruned(tmp_path: Path) -> None:
    db = _tournament(tmp_path / "primary", rounds=1)
    folder = tmp_path / "usb"
    made = [
        backup.take(db, folder, reason="timer", now=1_700_000_000 + 60 * i, keep=3)
        for i in range(5)
    ]
    assert backup.backups(folder) == made[2:]
    info = backup.describe(made[-1])
    assert info.taken_at == 1_700_000_240 and info.reason == "timer"
    assert info.players == 32 and info.rounds_paired == 2
    assert not list(folder.glob(".*part"))  # no half-written file left


def _publish(path: Path, kind: str, now: float) -> None:
    db = open_db(path, store.migrations)
    try:
        store.save_published(db, kind, f"{kind}:{int(now * 1000)}:x", {"n": now}, now)
    finally:
        db.close()


def test_the_decision_when_a_backup_is_due(tmp_path: Path) -> None:
    db = _tournament(tmp_path / "primary", rounds=1)
    folder = tmp_path / "usb"
    auto = backup.Backups(db, backup.BackupSettings(folder=folder, every_minutes=10))
    t0 = 1_800_000_000.0
    assert auto.run(t0) is not None and auto.last_path is not None
    assert "-start.db" in auto.last_path.name
    assert auto.run(t0 + 5) is None  # nothing new
    _publish(db, "pairings", t0 + 9)  # something published: a backup at once
    assert auto.due(t0 + 10) == "publication"
    assert auto.due(t0 + 11) is None
    assert auto.run(t0 + 601) is not None and "-timer.db" in str(auto.last_path)
    # the stick pulled: the failure is told, and the same backup tried again a minute on
    auto.settings.folder = tmp_path / "file-not-folder"
    auto.settings.folder.write_text("")
    _publish(db, "standings", t0 + 699)
    assert auto.run(t0 + 700) is None
    assert auto.status()["error"] and str(auto.settings.folder) in str(auto.status()["error"])
    assert auto.due(t0 + 730) is None
    auto.settings.folder = folder
    assert auto.run(t0 + 761) is not None and "-publication.db" in str(auto.last_path)
    assert auto.status()["error"] is None


def test_settings_come_from_hub_toml(tmp_path: Path) -> None:
    assert backup.load_settings(tmp_path).folder is None
    (tmp_path / "hub.toml").write_text('[backup]\nfolder = "/media/usb"\nevery_minutes = 5\n')
    settings = backup.load_settings(tmp_path)
    assert settings.folder == Path("/media/usb") and settings.every_minutes == 5
    assert backup.load_settings(tmp_path, tmp_path / "x").folder == tmp_path / "x"
    (tmp_path / "hub.toml").write_text("[backup]\nevery_minute = 5\n")
    with pytest.raises(backup.BackupError, match="every_minute"):
        backup.load_settings(tmp_path)


async def test_a_running_hub_backs_up_at_start_and_after_a_publication(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "hubdata"))
    db = _tournament(tmp_path / "hubdata", rounds=1)
    folder = tmp_path / "usb"
    hub = HubServer(
        db,
        new_psk(),
        host="127.0.0.1",
        port=0,
        advertise=False,
        backup=backup.BackupSettings(folder=folder),
    )
    await hub.start()
    try:
        await until(lambda: len(backup.backups(folder)) == 1, timeout=30)
        assert backup.backups(folder)[0].name.endswith("-start.db")
        standings = _standings(db)
        # an automatic backup restored on a fresh machine: the standings the hub had
        fresh = tmp_path / "fresh" / "hub.db"
        backup.restore(backup.backups(folder)[0], fresh, now=1e9)
        assert _standings(fresh) == standings and len(standings) == 32
        await hub.publish("standings", {"rows": [1, 2, 3]})
        await until(lambda: len(backup.backups(folder)) == 2, timeout=30)
        newest = backup.backups(folder)[-1]
        assert newest.name.endswith("-publication.db")
        conn = sqlite3.connect(f"file:{newest}?mode=ro", uri=True)
        try:  # the published item is in the backup taken because of it
            (data,) = conn.execute("SELECT data FROM published WHERE kind = 'standings'").fetchone()
        finally:
            conn.close()
        assert '"rows"' in data
        # the file is in place a moment before the backup thread records it as the last
        await until(lambda: hub.backups.status()["last_path"] == str(newest), timeout=30)
    finally:
        await hub.close()


async def test_restore_is_refused_while_the_hub_runs_on_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from samoobsluha.hub import control

    data = tmp_path / "hubdata"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(data))
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    db = _tournament(data, rounds=1)
    made = backup.take(db, tmp_path / "usb", reason="manual", now=1e9)
    hub = HubServer(db, new_psk(), host="127.0.0.1", port=0, advertise=False)
    await hub.start()
    ctl = await control.start_control(hub)
    try:
        before = _rows(db)
        code = await asyncio.to_thread(hub_main, ["restore", "--force", str(made)])
        assert code == 2
        assert "hub serve is running" in capsys.readouterr().err
        assert _rows(db) == before and not list(data.glob("hub.db.replaced-*"))
    finally:
        ctl.close()
        await hub.close()


def test_the_projectors_token_travels_in_the_backup_and_comes_back_with_restore(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The projector opens ``…/projector?k=TOKEN`` full screen, set up once: a restored
    hub (or a standby that took over) with a new token would leave it without its
    reserve until someone retypes the address mid-event. So the token is in every backup
    (in its hub_meta) and ``hub restore`` puts it back into ``projector.token`` (0600),
    not into the restored database; a backup of a hub without one leaves none."""
    from samoobsluha.hub.web.config import TOKEN_NAME, projector_token

    primary = tmp_path / "primary"
    stick = tmp_path / "usb"
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    _tournament(primary, rounds=1)
    token = projector_token(primary)  # what hub serve makes on its first start
    made = backup.take(primary / "hub.db", stick, reason="manual", now=1e9)
    assert backup.describe(made).projector_token
    fresh = tmp_path / "fresh"
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(fresh))
    assert hub_main(["restore", str(made)]) == 0
    assert "the projector's address (…/projector?k=…) stays the same" in capsys.readouterr().out
    assert (fresh / TOKEN_NAME).read_text().strip() == token
    assert os.stat(fresh / TOKEN_NAME).st_mode & 0o777 == 0o600
    assert projector_token(fresh) == token  # what the restored hub serve then uses
    conn = sqlite3.connect(f"file:{fresh / 'hub.db'}?mode=ro", uri=True)
    try:
        kept = conn.execute("SELECT value FROM hub_meta WHERE key = ?", [backup.TOKEN_META])
        assert kept.fetchone() is None  # the file is the one place it lives
    finally:
        conn.close()
    # a newer token (the old one deleted for a new one) is what the next backup carries
    (primary / TOKEN_NAME).unlink()
    newer = projector_token(primary)
    again = backup.take(primary / "hub.db", stick, reason="manual", now=1e9 + 60)
    other = tmp_path / "other"
    backup.restore(again, other / "hub.db", now=1e9 + 61)
    assert (other / TOKEN_NAME).read_text().strip() == newer != token
    # a hub without a token: its backup carries none, and restore writes none
    (primary / TOKEN_NAME).unlink()
    bare = backup.take(primary / "hub.db", stick, reason="manual", now=1e9 + 120)
    assert not backup.describe(bare).projector_token
    backup.restore(bare, tmp_path / "bare" / "hub.db", now=1e9 + 121)
    assert not (tmp_path / "bare" / TOKEN_NAME).exists()

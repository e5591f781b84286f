"""``./dev demo``: a hub and stations on this machine, with the real Czech lexicon, a
sample tournament of 32 players and mock GPIO whose bell is the audio or terminal bell.
``./dev demo --lang pl``: a Polish (PFS) event instead — 120 Polish players paired by the
PFS rules, the real Polish lexicon (hunspell-pl), and every screen in Polish.

What runs (all on 127.0.0.1; data under ``.demo/`` in the repository):

* ``hub serve`` in the background — the hub the stations sync with;
* station ``st-2``: ``station daemon`` + ``station simulate`` in the background —
  simulated players checking words (they appear on the hub's Challenges screen) and
  entering half of the results after each round;
* station ``st-1``: the kiosk (``station run``, linked to the hub) — in a tmux pane beside
  the dashboard when tmux is installed, else started by hand with ``./dev demo station``;
* the dashboard (``hub run``) in the foreground;
* the hall screen, served by ``hub serve``: its address is printed at the start and shown
  on the dashboard's F1 (Q for its QR code).

Rounds last 5 minutes (warning 2 minutes before the end) so a whole round fits a demo.
Quit the dashboard (Ctrl+Q) to stop everything.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEMO = Path(os.environ.get("SAMOOBSLUHA_DEMO_DIR") or REPO / ".demo")
HUB = DEMO / "hub"
STATIONS = ("st-1", "st-2")
DEMO_PIN = "582914"  # the demo's referee PIN (F12 at the kiosk); a real hall sets its own


class Event:
    """What the demo's hall plays: the Czech default or a Polish (PFS) event."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        polish = lang == "pl"
        self.players = 120 if polish else 32
        self.rules = "pfs" if polish else "cas"
        self.name = "Turniej pokazowy PFS" if polish else "Ukázkový turnaj"
        self.tables = f"1-{self.players // 2}"
        self.what = (
            "120 players (Polish names, PFS ranking, fixed seed), PFS rules"
            if polish
            else "32 players (Czech and Slovak names, fixed seed)"
        )
        self.lexicon_note = "the Polish lexicon, ~40 s" if polish else "the Czech lexicon, ~15 s"


def say(text: str) -> None:
    print(f"\033[1m==> {text}\033[0m", file=sys.stderr, flush=True)


def env_for(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["SAMOOBSLUHA_DATA"] = str(data)
    env["GPIOZERO_PIN_FACTORY"] = "mock"  # no GPIO here: the bell is the audio/terminal bell
    env.pop("SAMOOBSLUHA_CONFIG", None)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(cmd: list[str], data: Path, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, env=env_for(data), check=True, text=True, capture_output=True, **kwargs
    )


def setup(fresh: bool, event: Event | None = None) -> dict[str, str]:
    """Create (or reuse) the demo's hub and stations; returns what the processes need."""
    from samoobsluha.hub import auth, store
    from samoobsluha.hub.sample import sample_csv
    from samoobsluha.shared.lexicon import ensure_default_lexicon
    from samoobsluha.shared.protocol import HallKeys
    from samoobsluha.shared.storage import open_db

    if fresh and DEMO.exists():
        keep = HUB / "lexicons"
        for child in DEMO.iterdir():
            if child == HUB:
                for sub in HUB.iterdir():
                    if sub != keep:
                        shutil.rmtree(sub) if sub.is_dir() else sub.unlink()
            else:
                shutil.rmtree(child) if child.is_dir() else child.unlink()
    event = event or Event("cs")
    HUB.mkdir(parents=True, exist_ok=True)
    os.environ["SAMOOBSLUHA_DATA"] = str(HUB)
    lexicon_lang = "pl" if event.lang == "pl" else "cs"
    lexicon = ensure_default_lexicon(
        lexicon_lang, log=lambda msg: say(f"{msg} (the first run builds {event.lexicon_note})")
    )
    # the hall screen speaks the event's language ([screen] lang of hub.toml)
    (HUB / "hub.toml").write_text(f'[screen]\nlang = "{event.lang}"\n', encoding="utf-8")
    hub_bin = str(BIN / "hub")
    if not (HUB / "hub.db").exists() or fresh:
        say(f"sample tournament: {event.what}, round 1 paired")
        players = DEMO / "players.csv"
        players.write_text(sample_csv(event.players, 2026, event.lang), encoding="utf-8")
        init = [hub_bin, "tournament", "init", "--name", event.name, "--rounds", "9"]
        run([*init, "--rules", event.rules], HUB)
        run([hub_bin, "players", "import", str(players)], HUB)
        ids = (str(i) for i in range(1, event.players + 1))
        run([hub_bin, "players", "checkin", *ids], HUB)
        run([hub_bin, "round", "pair", "1", "--seed", "1"], HUB)
        start = time.strftime("%H:%M", time.localtime(time.time() + 120))
        run(
            [
                hub_bin,
                "schedule",
                "--set",
                f"first_start={start}",
                "--set",
                "slot_minutes=7",
                "--set",
                "break_minutes=3",
                "--set",
                "basic_minutes=5",
                "--set",
                "warning_minutes=2",
            ],
            HUB,
        )
    db = open_db(store.db_path(), store.migrations)
    tournament, _, _ = store.ensure_identity(db)
    db.close()
    secret, _ = store.ensure_key(store.key_path())
    keys = HallKeys(secret)
    from samoobsluha.shared.lextrust import sign_lexicon

    port = free_port()
    for name in STATIONS:
        folder = DEMO / name
        folder.mkdir(parents=True, exist_ok=True)
        # like a provisioned card: a key derived for this one station, never the hall
        # secret (a copy of it would be the whole hall)
        key_file = folder / "station.key"
        auth.write_station_key(store.db_path(), keys, name, key_file, time.time())
        # its own lexicon file, as on a card: a pushed lexicon replaces the station's file,
        # never the hub's or another station's (two writing one file raced, and the hub's
        # reference was overwritten)
        own = folder / "lexicons" / lexicon.name
        if not own.exists():
            own.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(lexicon, own)
        # signed by this hub, as provisioning signs a card's: the station pins its key and
        # judges with nothing else (shared/lextrust.py); signed again each run (a demo
        # folder kept from another hub key would otherwise be refused)
        sign_lexicon(own, keys)
        (folder / "station.toml").write_text(
            f'[station]\nname = "{name}"\nlexicon = "{own}"\nui_language = "{event.lang}"\n\n'
            f'[kiosk]\ntables = "{event.tables}"\n\n'
            f'[network]\ntournament_id = "{tournament}"\n'
            f'psk_file = "{key_file}"\nhub = "127.0.0.1:{port}"\n'
            f'station_id = "{name}"\n',
            encoding="utf-8",
        )
    return {
        "port": str(port),
        "screen_port": str(free_port()),
        "tournament": tournament,
        "lexicon": str(lexicon),
    }


def start_background(port: str, screen_port: str) -> list[subprocess.Popen[bytes]]:
    procs = []
    logs = DEMO / "logs"
    logs.mkdir(exist_ok=True)

    def spawn(cmd: list[str], data: Path, log: str) -> None:
        out = (logs / log).open("ab")
        procs.append(
            subprocess.Popen(
                cmd,
                env=env_for(data),
                stdout=out,
                stderr=out,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        )

    spawn(
        [
            *(str(BIN / "hub"), "serve", "--host", "127.0.0.1", "--port", port, "--no-mdns"),
            *("--screen-port", screen_port),
        ],
        HUB,
        "hub.log",
    )
    sock = HUB / "hub.sock"
    for _ in range(100):
        if sock.exists():
            break
        time.sleep(0.1)
    # Published before the stations start: each gets the pairings when it connects.
    subprocess.run(
        [str(BIN / "hub"), "publish-pairings", "1"],
        env=env_for(HUB),
        capture_output=True,
        check=False,
    )
    st2 = DEMO / "st-2"
    conf = str(st2 / "station.toml")
    spawn([str(BIN / "station"), "daemon", "--config", conf], st2, "st-2-daemon.log")
    time.sleep(1.0)  # the daemon creates the station database first
    spawn(
        [
            str(BIN / "station"),
            "simulate",
            "--config",
            conf,
            "--every",
            "15",
            "--results",
            "--index",
            "1",
            "--of",
            "2",
            "--seed",
            "2",
        ],
        st2,
        "st-2-simulate.log",
    )
    time.sleep(1.0)
    subprocess.run(
        [str(BIN / "hub"), "publish-pairings", "1"],
        env=env_for(HUB),
        capture_output=True,
        check=False,
    )
    # The referee PIN, sent by the hub as on the day (`hub pin set`): without one F12 opens
    # nothing and the hall check (`z` on the dashboard) says no station is ready.
    subprocess.run(
        [str(BIN / "hub"), "pin", "set"],
        env=env_for(HUB),
        input=DEMO_PIN + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    return procs


def station_command() -> str:
    st1 = DEMO / "st-1"
    return (
        f"SAMOOBSLUHA_DATA={shlex.quote(str(st1))} GPIOZERO_PIN_FACTORY=mock "
        f"{shlex.quote(str(BIN / 'station'))} run --config "
        f"{shlex.quote(str(st1 / 'station.toml'))} "
        f"--log {shlex.quote(str(DEMO / 'logs' / 'st-1.log'))}"
    )


def dashboard_command(lang: str = "cs") -> str:
    return (
        f"SAMOOBSLUHA_DATA={shlex.quote(str(HUB))} SAMOOBSLUHA_LANG={lang} "
        f"{shlex.quote(str(BIN / 'hub'))} run --no-serve --lang {lang}"
    )


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev demo", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "what",
        nargs="?",
        choices=("all", "station"),
        default="all",
        help="station: only the kiosk st-1 (for a second terminal)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the last demo's tournament")
    parser.add_argument("--no-tmux", action="store_true", help="do not split the terminal")
    parser.add_argument(
        "--lang",
        choices=("cs", "sk", "en", "pl"),
        default="cs",
        help="the hall's language; pl: a Polish PFS event of 120 players with the Polish lexicon",
    )
    args = parser.parse_args(argv)
    if args.what == "station":
        if not (DEMO / "st-1" / "station.toml").exists():
            print("start ./dev demo first", file=sys.stderr)
            return 2
        return subprocess.call(station_command(), shell=True)
    info = setup(fresh=not args.keep, event=Event(args.lang))
    say(f"hub on 127.0.0.1:{info['port']}, tournament {info['tournament']}; data in {DEMO}")
    procs = start_background(info["port"], info["screen_port"])
    url = f"http://127.0.0.1:{info['screen_port']}/"
    from samoobsluha.hub.web.config import projector_token

    projector = f"{url}projector?k={projector_token(HUB)}"
    say(f"hall screen (open in a browser): phones {url}  projector {projector}")
    say(f"referee PIN of the demo's stations (F12 at the kiosk): {DEMO_PIN}")
    tmux = shutil.which("tmux") and not args.no_tmux and sys.stdout.isatty()
    # A closed terminal (SIGHUP) or a kill (SIGTERM) still stops the background processes.
    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, _exit_on_signal)
    try:
        if tmux:
            # The demo's own tmux server: nothing it does touches the user's tmux sessions.
            server = ["tmux", "-S", str(DEMO / "tmux.sock")]
            say(
                "tmux: the dashboard on the left, the station's kiosk on the right "
                "(Ctrl+B then arrow keys to switch; Ctrl+Q in the dashboard ends the demo)"
            )
            quit_all = " ".join(shlex.quote(a) for a in server) + " kill-server"
            subprocess.run(
                [
                    *server,
                    "new-session",
                    "-d",
                    "-s",
                    "demo",
                    "-x",
                    "200",
                    "-y",
                    "50",
                    f"{dashboard_command(args.lang)}; {quit_all}",
                ],
                check=True,
            )
            subprocess.run(
                [*server, "split-window", "-h", "-t", "demo", station_command()], check=True
            )
            subprocess.run([*server, "select-pane", "-t", "demo:0.0"], check=True)
            plain = {k: v for k, v in os.environ.items() if k != "TMUX"}  # nested is fine
            try:
                return subprocess.call([*server, "attach-session", "-t", "demo"], env=plain)
            finally:
                subprocess.run([*server, "kill-server"], capture_output=True, check=False)
        say(
            "no tmux: the dashboard runs here; for the kiosk open a second terminal and run "
            "./dev demo station"
        )
        time.sleep(2)
        return subprocess.call(dashboard_command(args.lang), shell=True)
    finally:
        stop(procs)
        say(f"demo stopped; logs in {DEMO / 'logs'}")


if __name__ == "__main__":
    sys.exit(main())

"""``station gong …`` (the bell) and ``station round …`` (the round clock, standalone).

``station gong test [start|warning|end|all]``  ring a pattern for the sound check
``station gong off``                           force the bell off (systemd ExecStopPost)
``station gong run``                           ring the rounds, watch the button, light the lamp
``station round start|status|pause|resume|extend|delay|cancel``
                                               the referee's round clock without a hub
"""

from __future__ import annotations

import argparse
import sys

from samoobsluha.shared import cli
from samoobsluha.shared.countdown import countdown  # the one format; imports nothing
from samoobsluha.station.commands import LANGUAGES, SIGNAL_NAMES

TYPE_CHECKING = False  # not `typing`'s: `station --help` builds this parser too
if TYPE_CHECKING:
    from collections.abc import Callable

    from samoobsluha.shared.rounds import RoundPlan
    from samoobsluha.station import config as station_config
    from samoobsluha.station.gong import GongConfig
    from samoobsluha.station.rounds import RoundSchedule

# The bell's modules (gpiozero, sqlite-utils), the config and the round model are
# imported by the commands that use them, not when the parser is built: `station --help`
# and `station check` stay fast.

EXIT_OK, EXIT_REFUSED, EXIT_HARDWARE = 0, 1, 3


def _load(args: argparse.Namespace) -> tuple[station_config.StationConfig, GongConfig]:
    from samoobsluha.station import config as station_config
    from samoobsluha.station.gong import GongConfig

    cfg = station_config.load(args.config)
    return cfg, GongConfig.from_station(cfg)


def _logging(verbose: bool) -> None:
    import logging

    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def _errors(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        from samoobsluha.shared.i18n import cli_language, error_text
        from samoobsluha.station.config import ConfigError
        from samoobsluha.station.hardware import HardwareError
        from samoobsluha.station.rounds import RoundError

        try:
            return func(args)
        except (ConfigError, HardwareError) as exc:
            print(f"station: {error_text(exc, cli_language())}", file=sys.stderr)
            return EXIT_HARDWARE
        except RoundError as exc:
            print(f"station: {error_text(exc, cli_language())}", file=sys.stderr)
            return EXIT_REFUSED

    return wrapped


# -- station gong ----------------------------------------------------------------------
@_errors
def _gong_test(args: argparse.Namespace) -> int:
    import asyncio

    from samoobsluha.shared.i18n import cli_language, decimal, t
    from samoobsluha.station.gong import build_gong
    from samoobsluha.station.hardware import guard_outputs

    _logging(True)
    _, gong = _load(args)
    lang = cli_language()
    names = SIGNAL_NAMES if args.pattern == "all" else (args.pattern,)
    guard_outputs()
    with build_gong(gong, with_button=False, with_lamp=False) as outputs:
        print(outputs.summary())

        async def ring_all() -> None:
            for i, name in enumerate(names):
                if i:
                    await asyncio.sleep(2.0)
                pattern = gong.patterns[name]
                strokes = " ".join(f"{decimal(p, lang)} s" for p in pattern.pulses)
                print(
                    t(
                        "cli.gong.pattern",
                        lang,
                        signal=t(f"cli.signal.{name}", lang),
                        strokes=strokes,
                        gap=f"{decimal(pattern.gap, lang)} s",
                    )
                )
                await outputs.ring(name)

        asyncio.run(ring_all())
    return EXIT_OK


@_errors
def _gong_off(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import cli_language, t
    from samoobsluha.station.gong import GongConfig, build_gong

    _, gong = _load(args)
    if gong.bell_pin is None:
        return EXIT_OK
    off_only = GongConfig(
        bell_pin=gong.bell_pin,
        bell_active_high=gong.bell_active_high,
        button_pin=None,
        lamp_pin=gong.lamp_pin,
        lamp_active_high=gong.lamp_active_high,
        audio="off",
    )
    with build_gong(off_only, with_button=False) as outputs:
        outputs.off()
    print(t("cli.bell_off", cli_language()))
    return EXIT_OK


@_errors
def _gong_run(args: argparse.Namespace) -> int:
    """The station runtime without the kiosk: ring the rounds, obey the button, light the
    lamp; linked to the hub with ``--networked`` or when the config names a tournament."""
    from samoobsluha.station.runtime import RuntimeOptions, StationRuntime

    _logging(True)
    cfg, _ = _load(args)
    options = RuntimeOptions(kiosk=False, link=True if args.networked else None)
    return StationRuntime(cfg, options).run()


# -- station round ---------------------------------------------------------------------
def _schedule(
    args: argparse.Namespace,
) -> tuple[station_config.StationConfig, GongConfig, RoundSchedule]:
    from samoobsluha.shared.clock import SystemClock
    from samoobsluha.station.rounds import RoundSchedule
    from samoobsluha.station.runtime import tournament_of

    cfg, gong = _load(args)
    schedule = RoundSchedule.open(
        clock=SystemClock(),
        tournament=tournament_of(cfg),
        grace=gong.grace,
        playout_display=gong.playout_display_minutes * 60,
    )
    return cfg, gong, schedule


@_errors
def _round_status(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import decimal, t

    cfg, _, schedule = _schedule(args)
    ui = args.ui or cfg.ui_language
    now = schedule.clock.now()
    status = schedule.status(now)
    if status is None:
        print(t("round.phase.idle", ui))
        return EXIT_OK
    line = f"{t('round.number', ui, number=status.number)}: {t(f'round.phase.{status.phase}', ui)}"
    if status.phase.value in ("scheduled", "running", "warning"):
        line += f" {countdown(status.remaining)}"
    if status.paused:
        line += f" ({t('round.paused', ui)})"
    print(line)
    for rec in schedule.signals(status.number):  # in the station's language, not the log's
        signal = t(f"cli.signal.{rec.signal.value}", ui)
        outcome = t(f"cli.gong.outcome.{rec.outcome}", ui)
        late = ("−" if rec.late < 0 else "+") + decimal(abs(rec.late) * 1000, ui, 1)
        print(f"  {signal:11} {outcome:9} {late:>8} ms")
    return EXIT_OK


@_errors
def _round_start(args: argparse.Namespace) -> int:
    from samoobsluha.shared.i18n import cli_language, decimal, t

    _, gong, schedule = _schedule(args)
    plan = schedule.start_local(
        number=args.number,
        lead=args.lead,
        basic_seconds=(args.basic or gong.basic_minutes) * 60,
        warning_seconds=(args.warning if args.warning is not None else gong.warning_minutes) * 60,
    )
    lang = cli_language()
    print(t("cli.round.starts", lang, round=plan.number, lead=decimal(args.lead, lang)))
    return EXIT_OK


def _change(make: Callable[[argparse.Namespace], Callable[[RoundPlan, float], RoundPlan]]):
    @_errors
    def command(args: argparse.Namespace) -> int:
        import time

        from samoobsluha.shared.i18n import Phrase, cli_language, t
        from samoobsluha.station.rounds import RoundError

        _, _, schedule = _schedule(args)
        now = schedule.clock.now()
        shown = schedule.status(now)
        if args.command_name == "pause" and shown is not None and shown.phase.value == "scheduled":
            raise RoundError(Phrase("err.round.not_started"))
        plan = schedule.change_local(make(args), args.number)
        status = plan.status(now)
        lang = cli_language()
        phase = t(f"round.phase.{status.phase.value}", lang)
        if status.phase.value in ("scheduled", "running", "warning"):
            phase += f" {countdown(status.remaining)}"
        if status.paused:
            phase += f" ({t('round.paused', lang)})"
        ends = time.strftime("%H:%M:%S", time.localtime(status.end_at))
        print(
            t(
                "cli.round.changed",
                lang,
                round=plan.number,
                revision=plan.revision,
                phase=phase,
                ends=ends,
            )
        )
        return EXIT_OK

    return command


def register(sub: argparse._SubParsersAction) -> None:
    common = cli.options_parser()
    common.add_argument("--config", metavar="FILE", help="station.toml (default: the usual places)")

    gong = sub.add_parser("gong", help="the bell: sound check, off, run the round clock")
    gsub = gong.add_subparsers(dest="gong_command", required=True, metavar="ACTION")
    test = gsub.add_parser(
        "test",
        parents=[common],
        help="ring a pattern for the referee's sound check",
        description="Ring one pattern (or all three) on every configured output.",
    )
    test.add_argument("pattern", nargs="?", default="start", choices=(*SIGNAL_NAMES, "all"))
    test.set_defaults(func=_gong_test)
    off = gsub.add_parser(
        "off",
        parents=[common],
        help="switch the bell and lamp off (systemd ExecStopPost, after a crash)",
    )
    off.set_defaults(func=_gong_off)
    run = gsub.add_parser(
        "run",
        parents=[common],
        help="run the round clock headless: ring signals, obey the referee button",
    )
    run.add_argument(
        "--networked",
        action="store_true",
        help=(
            "link to the hub even without [network] tournament_id (rounds and clock from the "
            "hub; the button rings a manual gong; the lamp blinks until synced)"
        ),
    )
    run.set_defaults(func=_gong_run)

    rnd = sub.add_parser("round", help="the round clock on this station (standalone use)")
    rsub = rnd.add_subparsers(dest="round_command", required=True, metavar="ACTION")
    status = rsub.add_parser("status", parents=[common], help="phase, time left, signals given")
    status.add_argument("--ui", choices=LANGUAGES, help="language (default: [station] ui_language)")
    status.set_defaults(func=_round_status)
    start = rsub.add_parser("start", parents=[common], help="plan a local round")
    start.add_argument("--number", type=int, help="round number (default: the next one)")
    start.add_argument(
        "--in",
        dest="lead",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="seconds until the start signal (default 5)",
    )
    start.add_argument("--basic", type=float, metavar="MINUTES", help="basic time (default 40)")
    start.add_argument(
        "--warning", type=float, metavar="MINUTES", help="warning before the end (default 10)"
    )
    start.set_defaults(func=_round_start)

    changes: dict[
        str, tuple[str, Callable[[argparse.Namespace], Callable[[RoundPlan, float], RoundPlan]]]
    ] = {
        "pause": ("stop the round clock", lambda a: lambda p, now: p.paused(now)),
        "resume": ("restart a paused round clock", lambda a: lambda p, now: p.resumed(now)),
        "cancel": (
            "cancel the round (no more signals)",
            lambda a: lambda p, now: p.cancelled_plan(),
        ),
        "extend": (
            "add minutes to the basic time",
            lambda a: lambda p, now: p.extended(a.minutes * 60),
        ),
        "delay": ("move the start later", lambda a: lambda p, now: p.delayed(a.minutes * 60)),
    }
    for name, (help_text, make) in changes.items():
        p = rsub.add_parser(name, parents=[common], help=help_text)
        if name in ("extend", "delay"):
            p.add_argument("minutes", type=float)
        p.add_argument("--number", type=int, help="round number (default: the one on the clock)")
        p.set_defaults(func=_change(make), command_name=name)

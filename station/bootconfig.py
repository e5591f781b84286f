"""The station's lines in the Raspberry Pi's ``config.txt`` (written by install.sh).

The bell's relay must stay off from power-on until ``station run`` drives the pin, even on
a relay module that switches on a LOW input: the firmware sets the pin as an output at its
"off" level long before Linux starts (``gpio=5=op,dh`` for the default active-low relay on
GPIO 5; ``op,dl`` for an active-high one). See hardware/README.md.

    python -m samoobsluha.station.bootconfig STATION_TOML CONFIG_TXT

rewrites CONFIG_TXT with one marked block (replaced on every run, never duplicated)::

    # >>> samoobsluha ...
    [all]
    dtparam=watchdog=on
    gpio=5=op,dh
    # <<< samoobsluha
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from samoobsluha.station import config as station_config
from samoobsluha.station.gong import GongConfig

BEGIN = "# >>> samoobsluha (install.sh rewrites this block; edit station.toml instead)"
END = "# <<< samoobsluha"


def bcm_number(pin: int | str) -> int | None:
    """The BCM GPIO number of a gpiozero pin spec (5, "GPIO5", "BCM5", "BOARD29", "J8:29")."""
    if isinstance(pin, int):
        return pin
    text = pin.strip().upper()
    for prefix in ("GPIO", "BCM"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit():
            return int(text[len(prefix) :])
    if text.isdigit():
        return int(text)
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    try:
        for _header, info in factory.board_info.find_pin(text):
            match = re.fullmatch(r"GPIO(\d+)", info.name)
            if match:
                return int(match.group(1))
    except Exception:  # gpiozero raises its own errors for unknown names
        return None
    finally:
        factory.close()
    return None


def lines_for(gong: GongConfig) -> list[str]:
    """The config.txt lines for this station (the watchdog, and the bell's boot level)."""
    lines = ["[all]", "dtparam=watchdog=on"]
    if gong.bell_pin is not None:
        number = bcm_number(gong.bell_pin)
        if number is not None:
            # Drive the relay's input to its OFF level from power-on.
            level = "dl" if gong.bell_active_high else "dh"
            lines.append(f"gpio={number}=op,{level}")
    return lines


def apply(text: str, lines: Sequence[str]) -> str:
    """``text`` (a config.txt) with our block replaced by ``lines`` (added at the end)."""
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.strip() == BEGIN:
            inside = True
            continue
        if inside:
            if line.strip() == END:
                inside = False
            continue
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    block = [BEGIN, *lines, END]
    return "\n".join([*kept, "", *block]) + "\n" if kept else "\n".join(block) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print(
            "usage: python -m samoobsluha.station.bootconfig STATION_TOML CONFIG_TXT",
            file=sys.stderr,
        )
        return 2
    toml, target = Path(args[0]), Path(args[1])
    try:
        gong = GongConfig.from_station(station_config.load(toml))
    except station_config.ConfigError as exc:
        print(f"bootconfig: {exc}", file=sys.stderr)
        return 2
    old = target.read_text(encoding="utf-8") if target.exists() else ""
    lines = lines_for(gong)
    new = apply(old, lines)
    if new != old:
        target.write_text(new, encoding="utf-8")
    print(" ".join(lines[1:]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

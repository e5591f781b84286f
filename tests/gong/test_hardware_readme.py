"""hardware/README.md's pin map must match the code's defaults and the Pi's header."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from samoobsluha.station.gong import GongConfig

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"
# BCM283x/BCM2711 reset state: GPIO 0-8 pulled up, 9-27 pulled down.
PULLED_UP_AT_BOOT = range(0, 9)


def pin_map() -> list[dict[str, str]]:
    text = README.read_text()
    section = text.split("## Pin map", 1)[1].splitlines()
    start = next(i for i, line in enumerate(section) if line.startswith("|"))
    rows = []
    for line in section[start:]:
        if not line.startswith("|"):
            break  # the first table only
        rows.append(line)
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    table = []
    for line in rows[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        table.append(dict(zip(header, cells, strict=True)))
    return table


def test_table_lists_every_pin_of_the_config():
    keys = [row["Config key"].strip("`") for row in pin_map()]
    assert sorted(keys) == sorted(GongConfig.PIN_KEYS)


@pytest.mark.parametrize("row", pin_map(), ids=lambda r: r["Config key"].strip("`"))
def test_row_matches_defaults_and_header(row):
    cfg = GongConfig()
    key = row["Config key"].strip("`")
    gpio = int(row["GPIO (BCM)"])
    assert getattr(cfg, key) == gpio
    factory = MockFactory()
    try:
        headers = {h.name: info for h, info in factory.board_info.find_pin(f"GPIO{gpio}")}
        assert headers["J8"].number == int(row["Header pin"])
        # "30 ¹": a footnote may follow the number
        ground = factory.board_info.headers["J8"].pins[int(row["Ground pin"].split()[0])]
        assert ground.name == "GND"
        # the ground pin sits next to (or across from) the signal pin
        assert abs(ground.row - headers["J8"].row) <= 1
    finally:
        factory.close()
    expected_pull = "up" if gpio in PULLED_UP_AT_BOOT else "down"
    assert row["Pull at boot"] == expected_pull
    active_high = {
        "bell_pin": cfg.bell_active_high,
        "lamp_pin": cfg.lamp_active_high,
        "button_pin": not cfg.button_pull_up,
    }[key]
    assert row["Active level"] == ("high" if active_high else "low")


def test_default_bell_pin_keeps_an_active_low_relay_off_while_booting():
    cfg = GongConfig()
    assert cfg.bell_active_high is False
    # pulled up at reset, and not I2C (2, 3), SPI CE (7, 8) or the HAT EEPROM (0, 1)
    assert cfg.bell_pin in (4, 5, 6)
    assert re.search(rf"gpio={cfg.bell_pin}=op,dh", README.read_text())

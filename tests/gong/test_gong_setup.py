"""``[gong]`` parsing, pin-factory detection, clear startup errors, and the CLI."""

from __future__ import annotations

import pytest
from gpiozero import Device, OutputDevice
from gpiozero.pins.mock import MockFactory

from samoobsluha.station import cli
from samoobsluha.station.config import ConfigError
from samoobsluha.station.gong import GongConfig, TerminalBell, build_gong
from samoobsluha.station.hardware import HardwareError, detect_pin_factory


def test_defaults():
    cfg = GongConfig.parse({})
    assert (cfg.bell_pin, cfg.bell_active_high, cfg.button_pin, cfg.lamp_pin) == (5, False, 26, 13)
    assert (cfg.basic_seconds, cfg.warning_seconds, cfg.grace) == (2400, 600, 5.0)


def test_parse_values():
    cfg = GongConfig.parse(
        {
            "bell_pin": "GPIO17",
            "bell_active_high": True,
            "lamp_pin": False,
            "grace_seconds": 3,
            "long_press": "cancel",
            "patterns": {"warning": [0.3, 0.3, 0.3]},
        }
    )
    assert (cfg.bell_pin, cfg.bell_active_high, cfg.lamp_pin, cfg.grace) == (
        "GPIO17",
        True,
        None,
        3.0,
    )
    assert cfg.patterns["warning"].pulses == (0.3, 0.3, 0.3)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"bel_pin": 5}, "bel_pin: unknown key"),
        ({"bell_pin": True}, "bell_pin: true is not a pin"),
        ({"bell_pin": 99}, "bell_pin: 99 is not a GPIO number"),
        ({"bell_pin": 1.5}, "bell_pin: must be a BCM number"),
        ({"lamp_pin": "GPIO5"}, "lamp_pin: 'GPIO5' is already used by bell_pin"),
        ({"bell_active_high": "yes"}, "bell_active_high: must be true or false"),
        ({"grace_seconds": -1}, "grace_seconds: must be a number >= 0"),
        ({"short_press": "explode"}, "short_press: must be one of auto, start, gong"),
        ({"audio": "loud"}, "audio: must be one of auto, on, off"),
        ({"warning_minutes": 40}, "warning_minutes: must be less than basic_minutes"),
        ({"patterns": {"finish": [1]}}, "unknown pattern 'finish'"),
        ({"patterns": {"end": "long"}}, "end must be a list of stroke lengths"),
        ({"patterns": {"end": [0]}}, "end: a pattern needs 1 or more strokes"),
    ],
)
def test_parse_errors_name_the_key(section, message):
    with pytest.raises(ConfigError, match="gong") as err:
        GongConfig.parse(section, where="/etc/samoobsluha/station.toml")
    assert message in str(err.value)
    assert str(err.value).startswith("/etc/samoobsluha/station.toml: [gong] ")


def test_invalid_pin_is_a_clear_error():
    factory = MockFactory()
    with pytest.raises(HardwareError) as err:
        build_gong(GongConfig(bell_pin="GPIO77"), pin_factory=factory)
    assert str(err.value).startswith("[gong] bell_pin = 'GPIO77': the bell cannot use this pin")
    assert "not a GPIO pin on this board" in str(err.value)
    factory.close()


def test_pin_in_use_is_a_clear_error_and_releases_the_others():
    factory = MockFactory()
    other = OutputDevice(26, pin_factory=factory)  # e.g. a fan controller on our button pin
    with pytest.raises(HardwareError, match=r"button_pin = 26: .* already uses it"):
        build_gong(GongConfig(audio="off"), pin_factory=factory)
    other.close()
    # the bell and lamp opened before the failure were released again
    outputs = build_gong(GongConfig(audio="off"), pin_factory=factory)
    outputs.close()
    factory.close()


def test_no_gpio_falls_back_to_mock_and_says_so(monkeypatch, caplog):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    factory, simulated = detect_pin_factory()
    assert simulated and isinstance(factory, MockFactory)
    caplog.set_level("INFO")
    outputs = build_gong(GongConfig(), pin_factory=factory)
    line = outputs.summary()
    assert "bell on GPIO5 (active-low) simulated (MockFactory)" in line
    assert "lamp on GPIO13 simulated" in line and "button on GPIO26 simulated" in line
    # no GPIO: the sound output is live (aplay if present, else the terminal bell)
    assert outputs.sound is not None and line in caplog.text
    outputs.close()
    factory.close()


def test_explicit_factory_that_fails_is_an_error(monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    with pytest.raises(HardwareError, match="GPIOZERO_PIN_FACTORY=lgpio cannot be used"):
        detect_pin_factory()


def test_audio_choice():
    factory = MockFactory()
    sound = TerminalBell({})
    live = build_gong(GongConfig(audio="auto"), pin_factory=factory, sound=sound)
    assert live.sound is sound
    live.close()
    off = build_gong(GongConfig(audio="off"), pin_factory=factory)
    assert off.sound is None
    off.close()
    factory.close()


# -- CLI -----------------------------------------------------------------------------------
@pytest.fixture
def toml(tmp_path, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(Device, "pin_factory", None)

    def write(text: str) -> str:
        path = tmp_path / "station.toml"
        path.write_text(text)
        return str(path)

    return write


FAST = """
[gong]
audio = "off"
[gong.patterns]
start = [0.05]
warning = [0.02, 0.02]
end = [0.05, 0.05, 0.05]
gap = 0.02
"""


def test_cli_gong_test_rings_pattern(toml, capsys):
    assert cli.main(["gong", "test", "warning", "--config", toml(FAST)]) == 0
    out = capsys.readouterr().out
    assert "bell on GPIO5 (active-low) simulated (MockFactory)" in out
    assert "upozornění: 0,02 s 0,02 s (mezera 0,02 s)" in out  # the station's language


def test_cli_gong_test_bad_pin_is_not_a_traceback(toml, capsys):
    assert cli.main(["gong", "test", "--config", toml("[gong]\nbell_pin = 'GPIO99'\n")]) == 3
    err = capsys.readouterr().err
    assert err.startswith("station: [gong] bell_pin = 'GPIO99': the bell cannot use this pin")
    assert "Traceback" not in err


def test_cli_gong_off(toml, capsys):
    assert cli.main(["gong", "off", "--config", toml(FAST)]) == 0
    assert capsys.readouterr().out == "zvonek vypnut\n"


def test_cli_round_lifecycle(toml, capsys):
    conf = toml(FAST)
    assert cli.main(["round", "status", "--config", conf]) == 0
    assert capsys.readouterr().out.strip() == "Žádné kolo"
    assert cli.main(["round", "start", "--in", "60", "--config", conf]) == 0
    assert "1. kolo začne za 60 s" in capsys.readouterr().out
    assert cli.main(["round", "status", "--config", conf]) == 0
    assert capsys.readouterr().out.strip() == "1. kolo: Začátek za 01:00"
    assert cli.main(["round", "pause", "--config", conf]) == 1
    assert "použijte „station round delay“" in capsys.readouterr().err
    assert cli.main(["round", "delay", "5", "--config", conf]) == 0
    assert "1. kolo (verze 1): Začátek za 06:00, konec v " in capsys.readouterr().out
    assert cli.main(["round", "status", "--ui", "en", "--config", conf]) == 0
    assert capsys.readouterr().out.strip() == "Round 1: Starts in 06:00"
    assert cli.main(["round", "start", "--config", conf]) == 1
    assert "1. kolo je naplánované nebo běží" in capsys.readouterr().err
    assert cli.main(["round", "cancel", "--config", conf]) == 0
    assert cli.main(["round", "status", "--config", conf]) == 0
    assert capsys.readouterr().out.strip().endswith("1. kolo: Kolo zrušeno")

"""The hub's clock after a reboot: samoobsluha-time restores and saves it on the
data partition, and no round starts on a restored clock until the operator confirms it.

The shell script runs for real with its clock and RTC injected (a fake ``date`` that records
what it would set, a file standing in for /sys/class/rtc/rtc0/since_epoch): nothing here
touches this machine's clock.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from samoobsluha.hub import hubtime
from samoobsluha.hub.cli import main as hub_main
from samoobsluha.hub.server import HubServer
from samoobsluha.hub.service import HubService, ServiceError
from samoobsluha.shared.clock import FakeClock
from samoobsluha.shared.i18n import error_text

T0 = 1_780_000_000  # 2026-05-28
PAYLOAD = resources.files("samoobsluha.hub.provision").joinpath("payload")


def script(name: str) -> str:
    return str(PAYLOAD.joinpath(name))


class Pi:
    """A data directory, a boot id, an RTC file and a fake ``date`` whose "now" is a file."""

    def __init__(self, tmp: Path, now: int, rtc: int | None = None) -> None:
        self.data = tmp / "srv"
        self.data.mkdir()
        self.now_file = tmp / "now"
        self.set_file = tmp / "set"
        self.boot = tmp / "boot_id"
        self.boot.write_text("boot-1\n")
        self.rtc = tmp / "since_epoch"
        if rtc is not None:
            self.rtc.write_text(f"{rtc}\n")
        self.date = tmp / "date"
        self.date.write_text(
            "#!/bin/bash\n"
            f'if [ "$1" = -u ] && [ "$2" = -s ]; then echo "${{3#@}}" > {self.set_file};'
            f' echo "${{3#@}}" > {self.now_file}; exit 0; fi\n'
            f'if [ "$1" = +%s ]; then cat {self.now_file}; exit 0; fi\n'
            'exec date "$@"\n'
        )
        self.date.chmod(0o755)
        self.now_file.write_text(f"{now}\n")

    def run(self, action: str) -> subprocess.CompletedProcess[str]:
        env = {
            **os.environ,
            "SAMOOBSLUHA_DATA": str(self.data),
            "SAMOOBSLUHA_RTC": str(self.rtc),
            "SAMOOBSLUHA_BOOT_ID": str(self.boot),
            "SAMOOBSLUHA_DATE": str(self.date),
        }
        return subprocess.run(
            ["bash", script("samoobsluha-time"), action],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    def clock_set_to(self) -> int | None:
        return int(self.set_file.read_text()) if self.set_file.exists() else None


def test_restore_puts_the_clock_a_save_interval_past_the_saved_time(tmp_path: Path) -> None:
    pi = Pi(tmp_path, now=T0)
    pi.run("save")
    assert (pi.data / "clock").read_text().strip() == str(T0)
    # power cut; the Pi comes back believing it is much earlier (no battery clock)
    pi.now_file.write_text(f"{T0 - 86_400}\n")
    done = pi.run("restore")
    assert done.returncode == 0, done.stderr
    assert pi.clock_set_to() == T0 + 60  # never behind anything logged before the cut
    boot = json.loads((pi.data / "time-boot.json").read_text())
    assert boot == {"boot_id": "boot-1", "source": "saved", "restored_to": T0 + 60, "saved": T0}
    # the hub now wants the operator's confirmation (same boot id)
    assert not hubtime.status(pi.data, "boot-1").confirmed


def test_restore_never_sets_the_clock_back(tmp_path: Path) -> None:
    pi = Pi(tmp_path, now=T0)
    pi.run("save")
    pi.now_file.write_text(f"{T0 + 3600}\n")  # the clock is already later (NTP, RTC...)
    assert pi.run("restore").returncode == 0
    assert pi.clock_set_to() is None
    assert json.loads((pi.data / "time-boot.json").read_text())["source"] == "system"


def test_a_pi5_rtc_with_a_battery_wins_one_without_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    with_battery = Pi(tmp_path / "a", now=T0, rtc=T0 + 7200)
    with_battery.run("save")
    with_battery.now_file.write_text("1000\n")
    with_battery.run("restore")
    assert with_battery.clock_set_to() == T0 + 7200
    assert json.loads((with_battery.data / "time-boot.json").read_text())["source"] == "rtc"

    (tmp_path / "b").mkdir()
    no_battery = Pi(tmp_path / "b", now=T0, rtc=42)  # restarted from 1970 at power-on
    no_battery.run("save")
    no_battery.now_file.write_text("1000\n")
    no_battery.run("restore")
    assert no_battery.clock_set_to() == T0 + 60


def test_save_refuses_a_clock_behind_the_saved_time(tmp_path: Path) -> None:
    pi = Pi(tmp_path, now=T0)
    pi.run("save")
    pi.now_file.write_text(f"{T0 - 500}\n")
    done = pi.run("save")
    assert done.returncode == 0 and "not saved" in done.stderr
    assert (pi.data / "clock").read_text().strip() == str(T0)


def test_serve_only_after_a_confirmation_in_this_boot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pi = Pi(tmp_path, now=T0)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    chronyc = bin_dir / "chronyc"
    chronyc.write_text(f'#!/bin/bash\necho "$*" >> {tmp_path / "chronyc.log"}\n')
    chronyc.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    assert "not confirmed" in pi.run("serve").stdout
    assert not (tmp_path / "chronyc.log").exists()
    hubtime.confirm(pi.data, FakeClock(T0), "operator", "boot-0")  # an earlier boot
    assert "not confirmed" in pi.run("serve").stdout
    hubtime.confirm(pi.data, FakeClock(T0), "operator", "boot-1")
    assert "serving" in pi.run("serve").stdout
    assert (tmp_path / "chronyc.log").read_text() == "-n local stratum 8\n"


# -- the rule (hub.hubtime) on injected clocks and boot ids -----------------------------------
def restored(data: Path, boot: str, at: float = T0) -> None:
    (data / hubtime.BOOT_FILE).write_text(
        json.dumps({"boot_id": boot, "source": "saved", "restored_to": at})
    )


def test_nothing_to_confirm_without_a_restore_in_this_boot(tmp_path: Path) -> None:
    assert hubtime.status(tmp_path, "b2").confirmed  # a laptop, a hub that never restored
    restored(tmp_path, "b1")
    assert hubtime.status(tmp_path, "b2").confirmed  # the restore was in another boot
    st = hubtime.status(tmp_path, "b1")
    assert not st.confirmed and st.source == "saved" and st.restored_to == T0


def test_a_confirmation_holds_for_its_boot_only(tmp_path: Path) -> None:
    clock = FakeClock(T0 + 90)
    restored(tmp_path, "b1")
    done = hubtime.confirm(tmp_path, clock, "Eva", "b1")
    assert done.confirmed and done.confirmed_at == T0 + 90 and done.confirmed_by == "Eva"
    restored(tmp_path, "b2", T0 + 500)  # the hub rebooted again
    assert not hubtime.status(tmp_path, "b2").confirmed
    with pytest.raises(hubtime.TimeNotConfirmed):
        hubtime.require_confirmed(tmp_path, "b2")
    hubtime.require_confirmed(tmp_path, "b1")


def test_service_refuses_a_round_until_confirmed(tmp_path: Path) -> None:
    clock = FakeClock(T0)
    svc = HubService(tmp_path, clock=clock, boot_id="b1", control_path=tmp_path / "none.sock")
    restored(tmp_path, "b1")
    with pytest.raises(ServiceError) as refused:
        svc.start_round(1)
    assert "není potvrzen" in error_text(refused.value, "cs")  # the screen's language
    clock.advance(20)
    assert svc.confirm_time().confirmed_at == T0 + 20
    # now it goes on to the (absent) server: a different refusal
    with pytest.raises(ServiceError, match="not running"):  # English where logged
        svc.start_round(1)


def test_server_refuses_a_round_until_confirmed(tmp_path: Path) -> None:
    """``hub round start`` goes to the server's control socket, not through the service."""
    server = HubServer(tmp_path / "hub.db", b"k" * 32, advertise=False, clock=FakeClock(T0))
    restored(tmp_path, hubtime.current_boot_id())
    with pytest.raises(hubtime.TimeNotConfirmed):
        asyncio.run(server.start_round(1))


def test_the_servers_refusal_reaches_the_dashboard_in_its_language(tmp_path: Path) -> None:
    """Through the control socket the refusal travels as a catalogue phrase: the operator
    reads it in the dashboard's language, a log gets English."""
    import shutil
    import tempfile

    from samoobsluha.hub import control

    server = HubServer(tmp_path / "hub.db", b"k" * 32, advertise=False, clock=FakeClock(T0))
    restored(tmp_path, hubtime.current_boot_id())
    folder = Path(tempfile.mkdtemp(prefix="hs"))  # AF_UNIX paths are short

    async def refused() -> control.ControlError:
        srv = await control.start_control(server, folder / "hub.sock")
        try:
            await asyncio.to_thread(control.request, "start_round", folder / "hub.sock", number=1)
        except control.ControlError as exc:
            return exc
        finally:
            srv.close()
        raise AssertionError("the round started on an unconfirmed clock")

    try:
        exc = asyncio.run(refused())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert "není potvrzen" in error_text(exc, "cs")
    assert "nie je potvrdený" in error_text(exc, "sk")
    assert "not confirmed" in str(exc)


def test_hub_time_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path))
    restored(tmp_path, hubtime.current_boot_id())
    assert hub_main(["time", "status"]) == 1
    assert "potvrzeno:       NE – " in capsys.readouterr().out
    assert hub_main(["time", "confirm", "--yes", "--who", "Eva"]) == 0
    assert hub_main(["time", "status"]) == 0
    assert ", Eva\n" in capsys.readouterr().out
    monkeypatch.setenv("SAMOOBSLUHA_LANG", "en")
    assert hub_main(["time", "status"]) == 0
    assert "by Eva" in capsys.readouterr().out

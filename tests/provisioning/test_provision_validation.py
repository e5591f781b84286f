"""The generated files checked by the tools that will read them on the Pi.

cloud-init's own user-data schema, netplan's parser (what cloud-init hands network-config to
on Raspberry Pi OS Trixie), ``systemd-analyze verify``, ``shellcheck``, ``chronyd -p`` and
``loadkeys``. The Debian packages are in ``./dev``'s APT_PACKAGES.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest
import yaml

from samoobsluha.hub.provision import NetworkSpec, ProvisionSpec, render
from samoobsluha.hub.provision.generator import PAYLOAD_DIR

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((Path(__file__).parent / "data" / "schema-cloud-config-v1.json").read_text())
KEY = "cd" * 32
SSH = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHtVrTm1Qq4p0e1e7c2a9b1e0f3c4d5e6f7a8b9 org@laptop"

SPECS = {
    "station-dhcp": ProvisionSpec(role="station", hostname="station-01", psk=KEY),
    "station-wifi-static": ProvisionSpec(
        role="station",
        hostname="station-02",
        psk=KEY,
        ssh_keys=(SSH,),
        password_hash="$6$abc$def",
        network=NetworkSpec(
            wifi_ssid="Sál",
            wifi_password="heslo1234",
            address="192.168.50.22/24",
            gateway="192.168.50.1",
            dns=("192.168.50.1",),
        ),
        hub_address="192.168.50.2:7310",
        display="console",
    ),
    "station-bookworm-open-wifi": ProvisionSpec(
        role="station",
        hostname="station-03",
        psk=KEY,
        image="bookworm",
        ssh_keys=(SSH,),
        keyboard="sk",
        network=NetworkSpec(wifi_ssid="Hala"),
    ),
    "station-bookworm-static-eth": ProvisionSpec(
        role="station",
        hostname="station-04",
        psk=KEY,
        image="bookworm",
        network=NetworkSpec(address="10.1.2.3/16", gateway="10.1.0.1", dns=("10.1.0.1",)),
    ),
    "hub": ProvisionSpec(
        role="hub",
        hostname="hub",
        psk=KEY,
        ssh_keys=(SSH,),
        network=NetworkSpec(address="192.168.50.2/24"),
    ),
}


# ./dev unpacks tools that would replace a host service (chrony) here instead of installing.
TOOLS = REPO / ".cache" / "tools"


def need(tool: str) -> str:
    path = (
        shutil.which(tool)
        or shutil.which(tool, path="/usr/sbin:/sbin")
        or shutil.which(tool, path=f"{TOOLS}/usr/sbin:{TOOLS}/usr/bin")
    )
    if path is None:  # ./dev installs them; a missing tool is a broken setup, not a skip
        pytest.fail(f"{tool} is not installed: run ./dev setup (APT_PACKAGES, TOOL_PACKAGES)")
    return path


@pytest.fixture(params=sorted(SPECS))
def files(request: pytest.FixtureRequest) -> dict[str, str]:
    return render(SPECS[request.param])


# Bookworm cards carry no cloud-init files (firstrun.sh only: what that image reads).
@pytest.fixture(params=sorted(k for k, spec in SPECS.items() if spec.image != "bookworm"))
def cloud_files(request: pytest.FixtureRequest) -> dict[str, str]:
    return render(SPECS[request.param])


# cloud-init -----------------------------------------------------------------------------
def test_user_data_is_valid_against_cloud_inits_schema(cloud_files: dict[str, str]) -> None:
    text = cloud_files["user-data"]
    assert text.startswith("#cloud-config\n")
    jsonschema.validate(yaml.safe_load(text), SCHEMA)


@pytest.mark.parametrize(
    "broken",
    [
        {"power_state": {"mode": "hibernate"}},
        {"users": [{"name": "x", "lock_passwd": "yes"}]},
        {"keyboard": {"model": "pc105"}},  # layout is required
    ],
)
def test_the_schema_check_catches_mistakes(broken: dict[str, object]) -> None:
    doc = yaml.safe_load(render(SPECS["station-dhcp"])["user-data"])
    doc.update(broken)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, SCHEMA)


def _netplan(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    conf = tmp_path / "etc" / "netplan"
    conf.mkdir(parents=True, exist_ok=True)
    path = conf / "50-cloud-init.yaml"
    path.write_text(text)
    path.chmod(0o600)
    return subprocess.run(
        [need("netplan"), "generate", "--root-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_network_config_is_accepted_by_netplan(cloud_files: dict[str, str], tmp_path: Path) -> None:
    files = cloud_files
    done = _netplan(tmp_path, files["network-config"])
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "run").rglob("*eth0*"))  # it really rendered something
    doc = yaml.safe_load(files["network-config"])
    if "wifis" in doc["network"]:
        assert list((tmp_path / "run").rglob("*wlan0*"))


def test_netplan_check_catches_mistakes(tmp_path: Path) -> None:
    bad = render(SPECS["station-dhcp"])["network-config"].replace("dhcp4: true", "dhcp4: maybe")
    assert _netplan(tmp_path, bad).returncode != 0


def test_meta_data_gives_a_fresh_instance_id_each_time() -> None:
    one = yaml.safe_load(render(SPECS["hub"])["meta-data"])
    two = yaml.safe_load(
        render(ProvisionSpec(role="hub", hostname="hub", psk=KEY, ssh_keys=(SSH,)))["meta-data"]
    )
    assert one["instance-id"].startswith("samoobsluha-hub-")
    assert one["instance-id"] != two["instance-id"]


# systemd --------------------------------------------------------------------------------
def test_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    """Strict: any message (unknown key, bad value, missing binary) fails the test.

    Our executables do not exist on the test machine, so their paths are pointed at stubs.
    """
    files = render(SPECS["station-dhcp"])
    stubs = tmp_path / "stub"
    stubs.mkdir()
    for name in ("station", "hub", "kiosk-session", "kiosk-lockdown", "samoobsluha-time"):
        (stubs / name).write_text("#!/bin/sh\n")
        (stubs / name).chmod(0o755)
    units = []
    for rel, text in files.items():
        if rel.endswith((".service", ".timer", ".path")):
            text = text.replace("/usr/local/bin/", f"{stubs}/")
            text = text.replace("/usr/local/lib/samoobsluha/", f"{stubs}/")
            unit = tmp_path / Path(rel).name
            unit.write_text(text)
            units.append(str(unit))
    assert len(units) == 10
    done = subprocess.run(
        [need("systemd-analyze"), "verify", "--man=no", *units],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "SYSTEMD_LOG_LEVEL": "info"},
    )
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_systemd_verify_catches_mistakes(tmp_path: Path) -> None:
    unit = tmp_path / "x.service"
    unit.write_text("[Service]\nExecStart=/bin/true\nRestartt=always\n")
    done = subprocess.run(
        [need("systemd-analyze"), "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Unknown key" in done.stderr


def test_kiosk_unit_is_locked_down() -> None:
    unit = render(SPECS["station-dhcp"])[f"{PAYLOAD_DIR}/files/samoobsluha-kiosk.service"]
    for line in (
        "TTYPath=/dev/tty1",
        "Restart=always",
        "StartLimitIntervalSec=0",
        "Conflicts=getty@tty1.service",
        # "-": no implicit dependency on the data partition's mount (systemd.exec(5)):
        # without it a missing partition left tty1 black instead of the red screen
        "WorkingDirectory=-/srv/samoobsluha/run",
        "After=srv-samoobsluha.mount",
        "After=console-setup.service keyboard-setup.service",
        # the console path's screen (and its failure screen) is tty1, not the journal
        "StandardOutput=tty",
        "PAMName=samoobsluha-kiosk",
        "ExecStopPost=-/usr/local/bin/station gong off",
    ):
        assert line in unit.splitlines()
    files = render(SPECS["station-dhcp"])
    assert "NAutoVTs=0" in files[f"{PAYLOAD_DIR}/files/logind-kiosk.conf"]
    manager = files[f"{PAYLOAD_DIR}/files/system-samoobsluha.conf"]
    assert "RuntimeWatchdogSec=15s" in manager and "CtrlAltDelBurstAction=none" in manager
    installer = files[f"{PAYLOAD_DIR}/install.sh"]
    assert "systemctl mask ctrl-alt-del.target" in installer
    assert "overlayroot=tmpfs:recurse=0" in installer


# shell ----------------------------------------------------------------------------------
def _shell_scripts(tmp_path: Path) -> list[Path]:
    scripts = sorted((REPO / "provisioning").glob("*.sh"))
    for name, spec in SPECS.items():
        for rel, text in render(spec).items():
            if text.startswith("#!/bin/bash") and (rel.endswith(".sh") or "/files/" in rel):
                path = tmp_path / name / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                scripts.append(path)
    return scripts


def test_scripts_pass_shellcheck(tmp_path: Path) -> None:
    scripts = _shell_scripts(tmp_path)
    names = {p.name for p in scripts}
    assert {"install.sh", "firstrun.sh", "kiosk-session", "kiosk-lockdown"} <= names
    assert {"build-bundle.sh", "dry-run.sh", "add-data-partition.sh", "hall-check.sh"} <= names
    done = subprocess.run(
        [need("shellcheck"), "--severity=style", *map(str, scripts)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


# chrony ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["station-dhcp", "station-wifi-static", "hub"])
def test_chrony_config_parses(name: str, tmp_path: Path) -> None:
    conf = tmp_path / "chrony.conf"
    conf.write_text(render(SPECS[name])[f"{PAYLOAD_DIR}/files/chrony.conf"])
    done = subprocess.run(
        [need("chronyd"), "-p", "-f", str(conf)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    # -p prints the parsed directives: the server/local lines made it through.
    # (the hub serves its own clock only once confirmed: no "local" line, see hub.hubtime)
    assert ("allow" if name == "hub" else "server ") in done.stdout


def test_chrony_check_catches_mistakes(tmp_path: Path) -> None:
    conf = tmp_path / "chrony.conf"
    conf.write_text("makestep abc\n")
    done = subprocess.run([need("chronyd"), "-p", "-f", str(conf)], capture_output=True)
    assert done.returncode != 0


# keyboard lock-down ---------------------------------------------------------------------
def test_lockdown_keymap_loads_and_voids_console_switching() -> None:
    kmap = REPO / "hub" / "provision" / "payload" / "kiosk-lockdown.kmap"
    done = subprocess.run(
        [need("loadkeys"), "--mktable", str(kmap)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    text = kmap.read_text()
    for fkey in (59, 68, 87, 88):  # F1, F10, F11, F12
        assert f"alt keycode {fkey} = VoidSymbol" in text
        assert f"control alt keycode {fkey} = VoidSymbol" in text
    assert "control alt keycode 111 = VoidSymbol" in text  # Ctrl+Alt+Del
    assert "alt keycode 99 = VoidSymbol" in text  # Alt+PrtSc: Last_Console


# kiosk sizing ---------------------------------------------------------------------------
PAYLOAD = REPO / "hub" / "provision" / "payload"


def _fake_drm(tmp_path: Path, mode: str) -> Path:
    drm = tmp_path / "drm"
    (drm / "card1-HDMI-A-1").mkdir(parents=True)
    (drm / "card1-HDMI-A-1" / "status").write_text("disconnected\n")
    (drm / "card1-HDMI-A-2").mkdir()
    (drm / "card1-HDMI-A-2" / "status").write_text("connected\n")
    (drm / "card1-HDMI-A-2" / "modes").write_text(f"{mode}\n1280x720\n")
    return drm


@pytest.mark.parametrize(
    ("mode", "cells", "pixels"),
    [("1920x1080", "80x24", 38), ("1920x1080", "64x20", 45), ("800x480", "80x24", 16)],
)
def test_foot_font_fills_the_screen_with_the_requested_cells(
    tmp_path: Path, mode: str, cells: str, pixels: int
) -> None:
    cols, rows = cells.split("x")
    done = subprocess.run(
        ["bash", str(PAYLOAD / "kiosk-session"), "--font-pixels"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "KIOSK_DRM_DIR": str(_fake_drm(tmp_path, mode)),
             "KIOSK_COLS": cols, "KIOSK_ROWS": rows},
    )  # fmt: skip
    assert int(done.stdout) == pixels
    # Larger than the console's 32 px cells on a full-HD screen: the reason for cage + foot.
    if mode == "1920x1080":
        assert pixels * 118 // 100 > 32


@pytest.mark.parametrize(
    ("size", "font"),
    [
        ("1920,1080", "Lat2-TerminusBold32x16"),
        ("1280,720", "Lat2-TerminusBold28x14"),
        ("800,480", "Lat2-TerminusBold20x10"),
        ("640,480", "Lat2-TerminusBold16"),
    ],
)
def test_console_path_picks_the_largest_terminus_that_fits(
    tmp_path: Path, size: str, font: str
) -> None:
    fb = tmp_path / "virtual_size"
    fb.write_text(size + "\n")
    done = subprocess.run(
        ["bash", str(PAYLOAD / "kiosk-lockdown"), "--print-font"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "KIOSK_FB_SIZE": str(fb), "KIOSK_COLS": "80", "KIOSK_ROWS": "24"},
    )
    assert done.stdout.strip() == font
    assert (Path("/usr/share/consolefonts") / f"{font}.psf.gz").is_file()

"""What the first boot leaves behind: no secrets on the card (also when the
install fails), the bell pin held off in config.txt, a working read-only-root switch,
stations deaf to Power/Reboot/Suspend keys, and only the files the chosen image reads.

The payload scripts run for real on a folder standing in for the FAT boot partition.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from samoobsluha.hub.provision import NetworkSpec, ProvisionSpec, render, write
from samoobsluha.shared.pin import hash_pin
from samoobsluha.station import bootconfig
from samoobsluha.station.config import load as load_station
from samoobsluha.station.gong import GongConfig

KEY = "cd" * 32
PASSWORD_HASH = "$6$saltsalt$" + "h" * 86
WIFI_PASSWORD = "hall-wifi-secret-42"
# Whatever form the referee PIN's hash takes, it is the station's own owner who makes it.
PIN_HASH = hash_pin("482193")
PAYLOAD = resources.files("samoobsluha.hub.provision").joinpath("payload")
README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def spec(**kw: object) -> ProvisionSpec:
    base: dict[str, object] = {
        "role": "station",
        "hostname": "station-07",
        "psk": KEY,
        "password_hash": PASSWORD_HASH,
        "network": NetworkSpec(wifi_ssid="Sal", wifi_password=WIFI_PASSWORD),
        "referee_pin_hash": PIN_HASH,
    }
    base.update(kw)
    return ProvisionSpec(**base)  # type: ignore[arg-type]


def card(tmp_path: Path, **kw: object) -> Path:
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "config.txt").write_text("dtparam=audio=on\n[all]\n")
    (boot / "cmdline.txt").write_text("console=tty1 root=PARTUUID=1-02 rootwait quiet\n")
    if kw.get("image", "trixie") == "trixie":
        stock_cloud_init(boot)
    write(spec(**kw), boot)
    return boot


def stock_cloud_init(boot: Path) -> None:
    """What a Trixie image's boot partition carries before it is customised (pi-gen's
    stage2/04-cloud-init installs these three files)."""
    (boot / "meta-data").write_text("instance-id: rpi-image\n")
    (boot / "user-data").write_text("#cloud-config\n")
    (boot / "network-config").write_text("network:\n  version: 2\n")


def secrets_left(boot: Path) -> list[str]:
    found = []
    for path in boot.rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            for secret in (KEY, PASSWORD_HASH, WIFI_PASSWORD, PIN_HASH):
                if secret.encode() in text:
                    found.append(f"{path.relative_to(boot)}: {secret[:8]}")
    return found


def wipe(boot: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(boot / "samoobsluha" / "files" / "wipe-secrets"), str(boot)],
        capture_output=True,
        text=True,
        check=False,
    )


# -- only what the image reads ----------------------------------------------------------------
def test_bookworm_card_carries_no_cloud_init_files_trixie_no_firstrun() -> None:
    bookworm = render(spec(image="bookworm"))
    assert "firstrun.sh" in bookworm
    assert not {"user-data", "network-config", "meta-data"} & set(bookworm)
    trixie = render(spec(image="trixie"))
    assert {"user-data", "network-config", "meta-data"} <= set(trixie)
    assert "firstrun.sh" not in trixie


@pytest.mark.parametrize("image", ["trixie", "bookworm"])
def test_wipe_secrets_leaves_none_on_the_card(tmp_path: Path, image: str) -> None:
    boot = card(tmp_path, image=image)
    assert secrets_left(boot)  # the generated card does carry them
    done = wipe(boot)
    assert done.returncode == 0, done.stderr
    assert secrets_left(boot) == []
    assert not (boot / "samoobsluha" / "tournament.key").exists()
    assert not (boot / "firstrun.sh").exists()
    if image == "trixie":
        # stubs, so nothing that looks for the files trips over their absence
        assert (boot / "user-data").read_text().startswith("#cloud-config\n")
        assert "removed" in (boot / "network-config").read_text()
    # station.toml stays (what the station is), only without its referee PIN lines
    toml = (boot / "samoobsluha" / "station.toml").read_text()
    assert 'name = "station-07"' in toml and "referee_pin" not in toml
    # the rest of the payload is untouched; a second run changes nothing
    assert (boot / "samoobsluha" / "install.sh").exists()
    assert "0 file(s) wiped" in wipe(boot).stdout


def test_wipe_overwrites_before_deleting(tmp_path: Path) -> None:
    """A FAT delete only marks the clusters free: the bytes must be overwritten first.
    Checked through a hard link (the same data blocks, still reachable after the delete)."""
    boot = card(tmp_path)
    key = boot / "samoobsluha" / "tournament.key"
    before = key.read_bytes()  # the station's own key file (its key, the hub's public key)
    witness = tmp_path / "same-blocks"
    os.link(key, witness)
    wipe(boot)
    assert not key.exists()
    data = witness.read_bytes()
    assert len(data) == len(before) and data != before
    assert not any(line and line in data for line in before.splitlines() if b"=" in line)


def test_a_failing_install_still_wipes_the_card(tmp_path: Path) -> None:
    """install.sh removes the secrets on every exit: here it fails at its very start (a
    broken setup.env), before it has changed anything on this machine."""
    boot = card(tmp_path)
    payload = boot / "samoobsluha"
    (payload / "setup.env").write_text("this_command_does_not_exist_14\n")
    done = subprocess.run(
        ["bash", str(payload / "install.sh")], capture_output=True, text=True, check=False
    )
    assert done.returncode != 0
    assert (payload / "STATUS.txt").read_text().startswith("FAILED")
    assert secrets_left(boot) == []
    assert "wiped" in (payload / "install.log").read_text()


def test_install_stages_the_secrets_before_anything_can_fail() -> None:
    text = (PAYLOAD / "install.sh").read_text()
    trap = text.index("trap wipe_secrets EXIT")
    source = text.index('. "$HERE/setup.env"')
    staged = text.index('install -m 0600 "$f" "$ETC/staged/')
    packages = text.index("# --- 1. Debian packages")
    assert trap < source < staged < packages


@pytest.mark.parametrize("lang", ["cs", "sk", "pl"])
def test_a_card_without_a_lexicon_builds_it_from_its_own_languages_dictionary(lang: str) -> None:
    """install.sh's choice of Debian dictionary, run by bash: a Polish station built its
    lexicon from the Czech one before (the choice knew sk and 'anything else')."""
    from samoobsluha.shared.paths import hunspell_prefix

    text = (PAYLOAD / "install.sh").read_text()
    start = text.index('case "$LEXICON_LANG" in')
    block = text[start : text.index("esac", start) + 4]
    done = subprocess.run(
        ["bash", "-c", f'LEXICON_LANG={lang}\n{block}\nprintf %s "$hunspell"'],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert Path(done.stdout) == hunspell_prefix(lang), (lang, done.stdout)


# -- config.txt: the bell off from power-on ---------------------------------------------------
def test_bell_line_follows_the_gong_config() -> None:
    assert bootconfig.lines_for(GongConfig()) == ["[all]", "dtparam=watchdog=on", "gpio=5=op,dh"]
    high = GongConfig.parse({"bell_pin": "GPIO17", "bell_active_high": True})
    assert bootconfig.lines_for(high)[-1] == "gpio=17=op,dl"
    assert bootconfig.lines_for(GongConfig.parse({"bell_pin": "BOARD29"}))[-1] == "gpio=5=op,dh"
    no_bell = bootconfig.lines_for(GongConfig.parse({"bell_pin": False}))
    assert not any(line.startswith("gpio=") for line in no_bell)


def test_config_txt_block_is_replaced_not_duplicated(tmp_path: Path) -> None:
    stock = "dtparam=audio=on\ncamera_auto_detect=1\n\n[cm4]\notg_mode=1\n\n[all]\n"
    once = bootconfig.apply(stock, ["[all]", "gpio=5=op,dh"])
    assert once.startswith(stock.rstrip("\n"))
    assert once.count("gpio=5=op,dh") == 1
    twice = bootconfig.apply(once, ["[all]", "gpio=6=op,dh"])
    assert "gpio=5" not in twice and twice.count(bootconfig.BEGIN) == 1
    assert twice.startswith(stock.rstrip("\n"))


def test_provisioned_station_toml_gives_the_readme_line(tmp_path: Path) -> None:
    """The line hardware/README.md tells the organiser about is the one install.sh writes
    for a provisioned station (python -m samoobsluha.station.bootconfig, as install.sh
    runs it)."""
    toml = tmp_path / "station.toml"
    toml.write_text(render(spec())["samoobsluha/station.toml"])
    cfg_txt = tmp_path / "config.txt"
    cfg_txt.write_text("[all]\n")
    done = subprocess.run(
        [sys.executable, "-m", "samoobsluha.station.bootconfig", str(toml), str(cfg_txt)],
        capture_output=True,
        text=True,
        check=True,
    )
    line = re.search(r"gpio=\d+=op,d[hl]", done.stdout)
    assert line is not None
    gong = GongConfig.from_station(load_station(toml))
    assert line.group(0) == bootconfig.lines_for(gong)[-1]
    assert line.group(0) in cfg_txt.read_text()
    assert f"`{line.group(0)}`" in README.read_text()


# -- read-only root switch --------------------------------------------------------------------
def admin(
    boot: Path, *args: str, proc: str = "", root: str = "ext4", data: str = "ext4"
) -> subprocess.CompletedProcess[str]:
    proc_file = boot.parent / "proc-cmdline"
    proc_file.write_text(proc or "console=tty1\n")
    return subprocess.run(
        ["bash", str(PAYLOAD / "samoobsluha-admin"), *args],
        env={
            **os.environ,
            "SAMOOBSLUHA_BOOT": str(boot),
            "SAMOOBSLUHA_PROC_CMDLINE": str(proc_file),
            # what findmnt says about / and the data partition on the Pi
            "SAMOOBSLUHA_ROOT_FSTYPE": root,
            "SAMOOBSLUHA_DATA_FSTYPE": data,
            "PATH": "/usr/bin:/bin",  # no raspi-config here
        },
        capture_output=True,
        text=True,
        check=False,
    )


def test_admin_rw_and_ro_edit_the_one_cmdline_line(tmp_path: Path) -> None:
    boot = tmp_path / "boot"
    boot.mkdir()
    # what raspi-config's enable_overlayfs leaves, and what its disable does not match
    (boot / "cmdline.txt").write_text(
        "console=tty1 root=PARTUUID=1-02 rootwait overlayroot=tmpfs\n"
    )
    assert admin(boot, "ro").returncode == 0
    assert (boot / "cmdline.txt").read_text() == (
        "console=tty1 root=PARTUUID=1-02 rootwait overlayroot=tmpfs:recurse=0\n"
    )
    assert "next boot: read-only" in admin(boot, "status").stdout
    assert admin(boot, "rw").returncode == 0
    assert (boot / "cmdline.txt").read_text() == "console=tty1 root=PARTUUID=1-02 rootwait\n"
    asked = "console=tty1 overlayroot=tmpfs:recurse=0\n"
    st = admin(boot, "status", proc=asked, root="overlay").stdout
    assert "now: read-only root" in st and "next boot: writable" in st
    admin(boot, "ro")
    admin(boot, "ro")  # twice: still one parameter, still one line
    text = (boot / "cmdline.txt").read_text()
    assert text.count("overlayroot=") == 1 and text.count("\n") == 1


# -- stations ignore power keys; units have file limits ---------------------------------------
def test_station_logind_ignores_power_reboot_suspend_keys() -> None:
    conf = (PAYLOAD / "logind-kiosk.conf").read_text()
    for key in ("HandlePowerKey", "HandleRebootKey", "HandleSuspendKey", "HandleHibernateKey"):
        assert re.search(rf"^{key}=ignore$", conf, re.M), key


@pytest.mark.parametrize(
    "unit", ["samoobsluha-kiosk.service", "samoobsluha-station.service", "samoobsluha-hub.service"]
)
def test_units_set_limit_nofile(unit: str) -> None:
    """One explicit limit per unit: the hub's above its connection cap (512, hub/server.py)
    plus databases and logs; a station's one hub link, databases and GPIO fit the default."""
    limits = re.findall(r"^LimitNOFILE=(\d+)$", (PAYLOAD / unit).read_text(), re.M)
    assert len(limits) == 1
    assert int(limits[0]) >= (4096 if unit == "samoobsluha-hub.service" else 1024)


def test_hub_chrony_serves_only_after_confirmation_stations_only_slew_later() -> None:
    hub = render(spec(role="hub", network=NetworkSpec()))["samoobsluha/files/chrony.conf"]
    assert not re.search(r"^local\b", hub, re.M) and "\nallow\n" in hub
    station = render(spec())["samoobsluha/files/chrony.conf"]
    assert re.search(r"^makestep 0\.5 3$", station, re.M)


def test_station_check_uses_the_lexicon_the_card_carried(
    tmp_path: Path, small_lexicon_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a provisioned station station.toml names the carried lexicon (not cs.lex), and
    `station check kůň` from the admin shell must use it (the dry run found this)."""
    from samoobsluha.station.cli import main as station_main

    toml = tmp_path / "station.toml"
    text = render(spec(lexicon_file="cs-carried.lex"))["samoobsluha/station.toml"]
    toml.write_text(
        text.replace("/srv/samoobsluha/lexicons/cs-carried.lex", str(small_lexicon_path))
    )
    monkeypatch.setenv("SAMOOBSLUHA_CONFIG", str(toml))
    monkeypatch.setenv("SAMOOBSLUHA_DATA", str(tmp_path / "empty-data"))
    assert station_main(["check", "kůň"]) == 0
    assert station_main(["check", "xqzwy"]) == 1


def test_admin_check_reads_the_mounts_not_the_command_line(tmp_path: Path) -> None:
    """A Pi 5 whose initramfs lacks overlayroot boots with overlayroot= on the command line
    and a writable root: only findmnt tells. hall-check runs 'check' on every Pi."""
    boot = tmp_path / "boot"
    boot.mkdir()
    (boot / "cmdline.txt").write_text("console=tty1 rootwait overlayroot=tmpfs:recurse=0\n")
    asked = "console=tty1 overlayroot=tmpfs:recurse=0\n"
    assert admin(boot, "check", proc=asked, root="overlay").returncode == 0
    no_overlay = admin(boot, "check", proc=asked, root="ext4")
    assert no_overlay.returncode == 1 and "WRITABLE" in no_overlay.stdout
    assert admin(boot, "check", proc="console=tty1\n", root="ext4").returncode == 1
    no_data = admin(boot, "check", proc=asked, root="overlay", data="")
    assert no_data.returncode == 1 and "NOT MOUNTED" in no_data.stdout
    assert admin(boot, "status", proc=asked, root="ext4").returncode == 0  # status only says

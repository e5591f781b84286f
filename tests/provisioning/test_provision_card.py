"""The card as the image reads it: ``--image`` checked against the card before anything is
written, cloud-init's instance id on the command line (Imager 2.x), Bookworm's open Wi-Fi,
and every start-up failure of the kiosk ending on the recorded red screen."""

from __future__ import annotations

import os
import shlex
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from samoobsluha.hub.provision import NetworkSpec, ProvisionSpec, write
from samoobsluha.hub.provision.generator import ProvisionError, card_image

KEY = "ab" * 32
PAYLOAD = resources.files("samoobsluha.hub.provision").joinpath("payload")
REPO = Path(__file__).resolve().parents[2]
VENV_PY = REPO / ".venv" / "bin" / "python"
STOCK_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait quiet\n"


def spec(**kw: object) -> ProvisionSpec:
    base: dict[str, object] = {"role": "station", "hostname": "station-03", "psk": KEY}
    base.update(kw)
    return ProvisionSpec(**base)  # type: ignore[arg-type]


def boot_partition(tmp_path: Path, release: str, cmdline: str = STOCK_CMDLINE) -> Path:
    """A freshly written image's boot partition: Trixie's carries pi-gen's cloud-init seed
    (stage2/04-cloud-init), Bookworm's none."""
    boot = tmp_path / f"boot-{release}"
    boot.mkdir()
    (boot / "config.txt").write_text("dtparam=audio=on\n[all]\n")
    (boot / "cmdline.txt").write_text(cmdline)
    if release == "trixie":
        (boot / "meta-data").write_text("instance-id: rpi-image\n")
        (boot / "user-data").write_text("#cloud-config\n")
        (boot / "network-config").write_text("network:\n  version: 2\n")
    return boot


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- --image against the card ----------------------------------------------------------------
@pytest.mark.parametrize(("card", "image"), [("bookworm", "trixie"), ("trixie", "bookworm")])
def test_image_mismatch_is_refused_before_anything_is_written(
    tmp_path: Path, card: str, image: str
) -> None:
    boot = boot_partition(tmp_path, card)
    before = snapshot(boot)
    with pytest.raises(ProvisionError, match=f"--image {image}"):
        write(spec(image=image, password_hash="$6$salt$" + "h" * 86), boot)
    assert snapshot(boot) == before  # no key, no hash, no passphrase, nothing


def test_imager_written_cards_are_recognised(tmp_path: Path) -> None:
    # Imager 2.x on a Trixie image: its own seed and instance id on the command line
    trixie = boot_partition(
        tmp_path, "trixie", STOCK_CMDLINE.strip() + " ds=nocloud;i=rpi-imager-1\n"
    )
    (trixie / "meta-data").unlink()
    assert card_image(trixie) == "trixie"
    # Imager on a Bookworm image: firstrun.sh from the command line
    bookworm = boot_partition(tmp_path, "bookworm")
    (bookworm / "firstrun.sh").write_text("#!/bin/bash\n")
    assert card_image(bookworm) == "bookworm"
    assert card_image(tmp_path / "empty-folder") is None  # a folder to copy later: no check


def test_trixie_cmdline_carries_our_instance_id_once(tmp_path: Path) -> None:
    imager = STOCK_CMDLINE.strip() + " ds=nocloud;i=rpi-imager-1733 cfg80211.ieee80211_regdom=CZ\n"
    boot = boot_partition(tmp_path, "trixie", imager)
    for _ in range(2):  # provisioned twice (a correction): still one instance id
        write(spec(image="trixie"), boot)
        line = (boot / "cmdline.txt").read_text()
        assert line.endswith("\n") and line.count("\n") == 1
        ids = [w for w in line.split() if w.startswith("ds=nocloud")]
        meta = (boot / "meta-data").read_text()
        assert len(ids) == 1 and f'instance-id: "{ids[0].split(";i=")[1]}"' in meta
    assert "rpi-imager-1733" not in line
    assert line.startswith(STOCK_CMDLINE.strip()) and "cfg80211.ieee80211_regdom=CZ" in line


# -- Bookworm: an open hall Wi-Fi ---------------------------------------------------------------
@pytest.mark.parametrize(("password", "want"), [(None, ""), ("hall-secret-1", "hall-secret-1")])
def test_bookworm_set_wlan_arguments_are_positional(
    tmp_path: Path, password: str | None, want: str
) -> None:
    """imager_custom set_wlan SSID PASS COUNTRY: the country never takes the passphrase's
    place (an open network gets an empty one, as Imager passes it)."""
    boot = boot_partition(tmp_path, "bookworm")
    net = NetworkSpec(wifi_ssid="Sál A", wifi_password=password, country="SK")
    write(spec(image="bookworm", network=net), boot)
    [line] = [x for x in (boot / "firstrun.sh").read_text().splitlines() if "set_wlan" in x]
    assert shlex.split(line)[1:] == ["set_wlan", "Sál A", want, "SK"]


# -- every start-up failure ends on the red screen, recorded -----------------------------------
def kiosk_inner(
    tmp_path: Path, station_script: str, **env: str
) -> tuple[subprocess.CompletedProcess[str], str]:
    data = tmp_path / "data"
    (data / "run").mkdir(parents=True, exist_ok=True)
    runtime = tmp_path / "runtime"
    runtime.mkdir(exist_ok=True)
    station = tmp_path / "station"
    station.write_text("#!/bin/bash\n" + station_script)
    station.chmod(0o755)
    done = subprocess.run(
        ["bash", str(PAYLOAD / "kiosk-inner")],
        env={
            **os.environ,
            "SAMOOBSLUHA_DATA": str(data),
            "SAMOOBSLUHA_CONFIG": str(tmp_path / "none.toml"),
            "STATION_BIN": str(station),
            "FALLBACK_PYTHON": str(VENV_PY) if VENV_PY.exists() else "python3",
            "FALLBACK_SECONDS": "0",
            "RUNTIME_DIRECTORY": str(runtime),
            "REQUIRE_DATA_FLAG": str(tmp_path / "no-flag"),
            **env,
        },
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    record = runtime / "fallback"
    return done, record.read_text().strip() if record.exists() else ""


RAN = 'touch "$(dirname "$0")/ran"\n'


def test_missing_data_partition(tmp_path: Path) -> None:
    flag = tmp_path / "require-data-mount"
    flag.touch()  # install.sh found the partition; now it is not mounted
    done, shown = kiosk_inner(tmp_path, RAN, REQUIRE_DATA_FLAG=str(flag))
    assert done.returncode == 1 and shown == "data"
    assert not (tmp_path / "ran").exists()  # the word check never started


def test_full_data_partition(tmp_path: Path) -> None:
    done, shown = kiosk_inner(tmp_path, RAN, MIN_FREE_KIB=str(10**15))
    assert done.returncode == 1 and shown == "disk"
    assert not (tmp_path / "ran").exists()


def test_disk_full_while_starting(tmp_path: Path) -> None:
    crash = 'echo "sqlite3.OperationalError: database or disk is full" >&2\nexit 1\n'
    done, shown = kiosk_inner(tmp_path, crash)
    assert done.returncode == 1 and shown == "disk"


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Slovník nelze použít: /srv/x.lex: cannot read lexicon", "lexicon"),
        ("station run: station.toml: [gong] bell_pin: 99 is not a pin", "config"),
    ],
)
def test_config_and_lexicon_errors(tmp_path: Path, message: str, kind: str) -> None:
    done, shown = kiosk_inner(tmp_path, f'echo "{message}" >&2\nexit 2\n')
    assert done.returncode == 2 and shown == kind
    assert "\x1b[" in done.stdout  # the full-screen message was drawn on the terminal


def test_a_crash_is_unknown_and_a_clean_exit_shows_nothing(tmp_path: Path) -> None:
    done, shown = kiosk_inner(tmp_path, 'echo "Traceback: config.py" >&2\nexit 1\n')
    assert done.returncode == 1 and shown == "unknown"
    done, shown = kiosk_inner(tmp_path, "exit 0\n")
    assert done.returncode == 0 and shown == ""


def test_a_bind_mounted_directory_is_no_data_partition(tmp_path: Path) -> None:
    """Inside the kiosk unit ReadWritePaths= bind-mounts the data directory onto itself:
    an empty directory on the root is then a mount point, but still the root's device."""
    flag = tmp_path / "require-data-mount"
    flag.touch()
    # the data directory on the same device as "the root": not mounted, whatever mountinfo says
    done, shown = kiosk_inner(tmp_path, RAN, REQUIRE_DATA_FLAG=str(flag), KIOSK_ROOT=str(tmp_path))
    assert done.returncode == 1 and shown == "data"
    # a file system of its own (here: the root itself is another device, /proc)
    done, shown = kiosk_inner(tmp_path, RAN, REQUIRE_DATA_FLAG=str(flag), KIOSK_ROOT="/proc")
    assert shown == "" and (tmp_path / "ran").exists()


@pytest.mark.parametrize("signal", ["SEGV", "BUS", "ABRT"])
def test_a_crashed_word_check_ends_on_the_red_screen(tmp_path: Path, signal: str) -> None:
    """A trie that segfaults on a damaged lexicon is a crash (rc > 128), not a stop."""
    done, shown = kiosk_inner(tmp_path, f"echo 'trie lookup' >&2\nkill -{signal} $$\n")
    assert done.returncode > 128 and shown == "crash"
    assert "Kontrola slov spadla" in done.stdout
    assert f"SIG{signal}" in done.stdout  # the reason says which signal
    assert f"SIG{signal}" in (tmp_path / "data" / "run" / "last-start-error.txt").read_text()
    assert (tmp_path / "runtime" / "inner-started").exists()  # kiosk-session reads it


@pytest.mark.parametrize("signal", ["TERM", "INT", "HUP"])
def test_a_stopped_word_check_is_no_crash(tmp_path: Path, signal: str) -> None:
    done, shown = kiosk_inner(tmp_path, f"kill -{signal} $$\n")
    assert done.returncode > 128 and shown == ""
    assert done.stdout == ""

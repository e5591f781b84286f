"""The data partition is mounted by its own id, never by its label: a USB stick named
SAMODATA plugged in before a reboot must not be mounted instead of the card's partition.
install.sh's functions (between its "data partition identity" markers) run with the real
blkid and mkfs.ext4 on real file-system images."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "hub" / "provision" / "payload" / "install.sh"


def _functions() -> str:
    text = INSTALL.read_text()
    start = text.index("# >>> data partition identity")
    end = text.index("# <<< data partition identity")
    return text[start:end]


def _bash(script: str, tmp_path: Path) -> str:
    prelude = (
        'DATA_LABEL=SAMODATA\nDATA=/srv/samoobsluha\nlog() { echo "log: $*" >&2; }\n' + _functions()
    )
    done = subprocess.run(
        ["bash", "-c", prelude + script], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _ext4(path: Path, label: str) -> None:
    mkfs = shutil.which("mkfs.ext4") or shutil.which("mkfs.ext4", path="/usr/sbin:/sbin")
    if mkfs is None:
        pytest.fail("mkfs.ext4 missing (e2fsprogs)")
    with path.open("wb") as f:
        f.truncate(8 * 1024 * 1024)
    subprocess.run([mkfs, "-q", "-F", "-L", label, str(path)], check=True)


def test_fstab_names_the_card_partition_not_its_label(tmp_path: Path) -> None:
    card = tmp_path / "card-data.img"
    stick = tmp_path / "stick.img"
    _ext4(card, "SAMODATA")
    _ext4(stick, "SAMODATA")  # the thief's stick, same label
    spec = _bash(f"data_spec {card}", tmp_path).strip()
    assert spec.startswith(("PARTUUID=", "UUID=")) and "LABEL" not in spec
    # What the spec resolves to among both devices (blkid is what mount and udev consult):
    key, value = spec.split("=", 1)
    blkid = shutil.which("blkid") or "/usr/sbin/blkid"
    found = subprocess.run(
        [blkid, "-p", "-s", key, "-o", "value", str(card), str(stick)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert found.count(value) == 1  # only the card's partition answers to it
    # ...whereas both answer to the label the old fstab used:
    labels = subprocess.run(
        [blkid, "-p", "-s", "LABEL", "-o", "value", str(card), str(stick)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert labels == ["SAMODATA", "SAMODATA"]


def test_an_old_label_line_is_replaced_not_kept(tmp_path: Path) -> None:
    fstab = tmp_path / "fstab"
    fstab.write_text(
        "PARTUUID=00000000-02 / ext4 defaults,noatime 0 1\n"
        "LABEL=SAMODATA /srv/samoobsluha ext4 defaults,noatime,nofail 0 2\n"
    )
    _bash(f"write_data_fstab PARTUUID=5a5a0001-03 {fstab}", tmp_path)
    _bash(f"write_data_fstab PARTUUID=5a5a0001-03 {fstab}", tmp_path)  # idempotent
    lines = fstab.read_text().splitlines()
    assert lines[0].startswith("PARTUUID=00000000-02 / ")
    data = [line for line in lines if " /srv/samoobsluha " in line]
    assert data == [
        "PARTUUID=5a5a0001-03 /srv/samoobsluha ext4 "
        "defaults,noatime,nofail,x-systemd.device-timeout=20s 0 2"
    ]
    assert "LABEL=" not in fstab.read_text()


def test_install_never_writes_a_label_into_fstab() -> None:
    text = INSTALL.read_text()
    assert "LABEL=%s" not in text and 'LABEL=$DATA_LABEL" /etc/fstab' not in text
    assert 'write_data_fstab "$spec"' in text

"""What a station reports about itself for ``hub rehearse``, read from the files Raspberry
Pi OS really has (``/proc/mounts`` with and without the overlay file system, the watchdog
class directory), and the keyboard comparison."""

from __future__ import annotations

from pathlib import Path

from samoobsluha.station.rehearse import (
    TEST_LETTERS,
    missing_letters,
    root_read_only,
    watchdog_armed,
)

# /proc/mounts of Raspberry Pi OS Bookworm, as installed (root writable) …
PLAIN = """/dev/mmcblk0p2 / ext4 rw,noatime 0 0
devtmpfs /dev devtmpfs rw,relatime,size=1867796k,nr_inodes=466949,mode=755 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw,relatime,fmask=0022,dmask=0022 0 0
/dev/mmcblk0p3 /srv/samoobsluha ext4 rw,noatime 0 0
"""
# … and with raspi-config's overlay file system on (the card stays read-only)
OVERLAY = (
    (
        "overlayroot / overlay rw,relatime,lowerdir=/media/root-ro,"
        "upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir 0 0\n"
    )
    + """/dev/mmcblk0p2 /media/root-ro ext4 ro,relatime 0 0
tmpfs /media/root-rw tmpfs rw,relatime 0 0
/dev/mmcblk0p3 /srv/samoobsluha ext4 rw,noatime 0 0
"""
)
READ_ONLY = "/dev/mmcblk0p2 / ext4 ro,noatime 0 0\n"


def test_read_only_root(tmp_path: Path) -> None:
    for text, expected in ((PLAIN, False), (OVERLAY, True), (READ_ONLY, True), ("", None)):
        mounts = tmp_path / "mounts"
        mounts.write_text(text)
        assert root_read_only(mounts) is expected, text
    assert root_read_only(tmp_path / "absent") is None


def test_watchdog(tmp_path: Path) -> None:
    wd = tmp_path / "watchdog"
    assert watchdog_armed(wd) is None  # no watchdog class at all
    (wd / "watchdog0").mkdir(parents=True)
    (wd / "watchdog0" / "state").write_text("inactive\n")
    assert watchdog_armed(wd) is False
    (wd / "watchdog0" / "state").write_text("active\n")  # systemd's RuntimeWatchdogSec
    assert watchdog_armed(wd) is True


def test_missing_letters() -> None:
    assert missing_letters(TEST_LETTERS, TEST_LETTERS) == ""
    assert missing_letters(TEST_LETTERS, TEST_LETTERS.upper()) == ""  # Caps Lock is fine
    assert missing_letters(TEST_LETTERS, "escrzyaieuun") == TEST_LETTERS  # no diacritics at all
    assert missing_letters(TEST_LETTERS, "ěščřžýáíéúůň") == "ďť"  # the caron dead key
    assert missing_letters(TEST_LETTERS, "") == TEST_LETTERS

#!/bin/bash
# Give a freshly flashed Raspberry Pi OS card its data partition, on the organiser's Linux
# laptop, before the card's first boot (needs root; the card must not be mounted).
#
#   sudo provisioning/add-data-partition.sh /dev/sdX [DATA_GIB]
#
# Grows the root partition (2) and its file system to fill the card except the last
# DATA_GIB GiB (default 4), then makes partition 3 there: ext4, label SAMODATA. install.sh
# mounts it at /srv/samoobsluha and only then turns on the read-only root overlay, so the
# SQLite files survive power cuts and reboots. Raspberry Pi OS does not grow root by itself
# any more once it is not the last partition - that is why this script grows it.
#
# Without a laptop running Linux: label a USB stick's ext4 partition SAMODATA and leave it
# plugged into the station; install.sh uses it the same way.
set -euo pipefail

disk=${1:?usage: add-data-partition.sh /dev/sdX [DATA_GIB]}
gib=${2:-4}
label=SAMODATA
[ "$(id -u)" -eq 0 ] || { echo "add-data-partition: run as root" >&2; exit 1; }
[ -b "$disk" ] || { echo "add-data-partition: $disk is not a block device" >&2; exit 1; }

part() {  # /dev/sdb + 2 -> /dev/sdb2; /dev/mmcblk0 or /dev/loop0 + 2 -> ...p2
    case "$1" in
        *[0-9]) echo "${1}p$2" ;;
        *) echo "$1$2" ;;
    esac
}

if lsblk -nro MOUNTPOINT "$disk" | grep -q .; then
    echo "add-data-partition: unmount $disk first (lsblk $disk)" >&2
    exit 1
fi
if blkid -L "$label" 2>/dev/null | grep -q "^$disk"; then
    echo "add-data-partition: $disk already has a $label partition"
    exit 0
fi
count=$(sfdisk --list --output Device "$disk" | grep -c "^$disk")
if [ "$count" -ne 2 ]; then
    echo "add-data-partition: expected a fresh Raspberry Pi OS card with 2 partitions, $disk has $count" >&2
    exit 1
fi
root=$(part "$disk" 2)
[ "$(blkid -o value -s TYPE "$root")" = ext4 ] || { echo "add-data-partition: $root is not ext4" >&2; exit 1; }

sector=512
total=$(( $(blockdev --getsz "$disk") ))
start2=$(sfdisk --dump "$disk" | sed -n "s|^$root : start= *\([0-9]*\),.*|\1|p")
data_sectors=$(( gib * 1024 * 1024 * 1024 / sector ))
# Leave the last MiB alone (backup GPT / alignment), align partition 3 to 4 MiB.
start3=$(( (total - 2048 - data_sectors) / 8192 * 8192 ))
size2=$(( start3 - start2 ))
if [ "$size2" -le $(( $(blockdev --getsize64 "$root") / sector )) ]; then
    echo "add-data-partition: the card is too small for ${gib} GiB of data" >&2
    exit 1
fi

echo "==> root: grow $root to $(( size2 * sector / 1024 / 1024 )) MiB"
echo "$start2,$size2" | sfdisk --quiet --no-reread -N 2 "$disk"
echo "==> data: $(part "$disk" 3), ${gib} GiB, label $label"
echo "$start3,,L" | sfdisk --quiet --no-reread --append "$disk"
partx -u "$disk" 2>/dev/null || partprobe "$disk" || true
udevadm settle 2>/dev/null || true
e2fsck -fy "$root" >/dev/null || [ $? -le 1 ]
resize2fs "$root"
mkfs.ext4 -q -F -L "$label" "$(part "$disk" 3)"
sfdisk --list "$disk"
echo "==> done: boot the card; install.sh mounts $label at /srv/samoobsluha"

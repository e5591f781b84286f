#!/bin/bash
# Samoobsluha first-boot installer. Runs as root on the Raspberry Pi, from the boot partition
# (/boot/firmware/samoobsluha/), with no internet: everything it installs is in this folder.
#
#   cloud-init images (Raspberry Pi OS Trixie): user-data's runcmd runs it once;
#   firstrun.sh images (Bookworm): samoobsluha-firstboot.service runs it once.
#
# It reads setup.env (written by "hub provision"), then:
#   0. moves the secrets off the card into /etc (root only); whatever happens next, at exit
#      files/wipe-secrets overwrites and deletes them on the card (FAT: no permissions),
#   1. installs the Debian packages it lacks from debs/ (a local apt repository, offline),
#   2. creates the samoobsluha user, a virtualenv in /opt/samoobsluha and installs the
#      samoobsluha wheel from wheelhouse/ (pip --no-index),
#   3. writes the station/hub configuration, keyboard, console font, chrony, watchdog, units,
#   4. mounts the data partition (found by its label SAMODATA, mounted by its PARTUUID) at
#      /srv/samoobsluha,
#   5. turns on the read-only root overlay (only when the data partition is there),
#   6. writes STATUS.txt next to itself and reboots.
# Safe to run again: every step checks before it changes anything.
#
# SAMOOBSLUHA_DRY_RUN=1 (provisioning/dry-run.sh, in a chroot): skip the data partition, the
# overlay and the reboot. SAMOOBSLUHA_NO_REBOOT=1: do everything but the reboot.
set -euo pipefail

HERE=$(dirname "$(readlink -f "$0")")
DRY_RUN=${SAMOOBSLUHA_DRY_RUN:-0}
LIB=/usr/local/lib/samoobsluha
VENV=/opt/samoobsluha
DATA=/srv/samoobsluha
ETC=/etc/samoobsluha
STATUS=$HERE/STATUS.txt
BOOT=$(dirname "$HERE")

log() { printf 'samoobsluha-install: %s\n' "$*" | tee -a "$HERE/install.log" >&2; }
# The card's secrets go whether the install succeeds or fails (step 0 copied them first).
wipe_secrets() {
    if [ -x "$HERE/files/wipe-secrets" ]; then
        "$HERE/files/wipe-secrets" "$BOOT" >> "$HERE/install.log" 2>&1 \
            || printf 'samoobsluha-install: WARNING: wipe-secrets failed\n' >> "$HERE/install.log"
    fi
}
trap wipe_secrets EXIT
fail() {
    log "FAILED: $*"
    printf 'FAILED %s\n%s\n' "$(date -Is)" "$*" > "$STATUS"
    exit 1
}
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR

# setup.env is generated: ROLE, HOSTNAME_, KEYBOARD, KIOSK_DISPLAY, KIOSK_COLS, KIOSK_ROWS,
# HEADLESS, LEXICON_LANG, LEXICON_FILE, DATA_LABEL, OVERLAY, TOURNAMENT_ID, STANDBY_OF,
# APT_PACKAGES.
# shellcheck source=/dev/null
. "$HERE/setup.env"

log "start $(date -Is) role=$ROLE host=$HOSTNAME_ dry_run=$DRY_RUN"

# --- 0. secrets off the card -------------------------------------------------------------
# Root-only copies in /etc before anything can fail, so a second run (after a failure, the
# card already wiped) still has them. Other secret files a newer "hub provision" writes
# (samoobsluha/*.key, samoobsluha/secrets/) are staged here the same way.
install -d -m 0755 "$ETC"
install -d -m 0700 "$ETC/staged"
for f in "$HERE"/*.key "$HERE"/secrets/*; do
    if [ -f "$f" ]; then
        install -m 0600 "$f" "$ETC/staged/$(basename "$f")"
    fi
done
# station.toml holds the referee PIN's hash, which wipe-secrets removes from the card's copy:
# the full file is staged (a second run must not install the copy without it).
if [ -f "$HERE/station.toml" ] && ! grep -q '^# referee PIN removed from the card' "$HERE/station.toml"; then
    install -m 0600 "$HERE/station.toml" "$ETC/staged/station.toml"
fi

# --- 1. Debian packages -----------------------------------------------------------------
missing=()
for pkg in $APT_PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    log "missing Debian packages: ${missing[*]}"
    if [ -f "$HERE/debs/Packages" ]; then
        # The card's debs/ folder is a local apt repository (Packages written by
        # "hub provision"): apt resolves from it and the installed system only, never the
        # network, and installs just what this role needs.
        apt_tmp=$(mktemp -d)
        mkdir -p "$apt_tmp/lists/partial"
        echo "deb [trusted=yes] file:$HERE/debs ./" > "$apt_tmp/sources.list"
        apt_opts=(-o Dir::Etc::SourceList="$apt_tmp/sources.list"
                  -o Dir::Etc::SourceParts="$apt_tmp/none"
                  -o Dir::State::Lists="$apt_tmp/lists")
        apt-get "${apt_opts[@]}" update -qq
        DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y --no-install-recommends \
            -o Dpkg::Options::=--force-confold "${missing[@]}"
        rm -rf "$apt_tmp"
    else
        log "no debs/ folder: trying the network"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    fi
fi

# --- 2. user, virtualenv, package --------------------------------------------------------
if ! getent passwd samoobsluha >/dev/null; then
    useradd --system --create-home --home-dir /var/lib/samoobsluha --shell /usr/sbin/nologin \
        --comment "Samoobsluha" samoobsluha
fi
# No "input" group: cage gets the keyboard from its logind session (the kiosk unit's PAM
# session on tty1), the console path reads tty1; with "input" the kiosk user could read
# every keyboard on the station, whichever session had it. A card installed before keeps
# no stale membership either.
for group in gpio video render audio; do
    getent group "$group" >/dev/null && usermod -aG "$group" samoobsluha
done
gpasswd -d samoobsluha input >/dev/null 2>&1 || true

if [ ! -x "$VENV/bin/python" ]; then
    # System site packages: python3-lgpio / python3-rpi-lgpio come from Debian (no aarch64
    # wheels on PyPI; they would need a compiler and liblgpio).
    python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --no-index --find-links "$HERE/wheelhouse" \
    --upgrade samoobsluha
# --- hook: bytecode. Compile the venv here (into the image, before the read-only root) ---
if [ "$ROLE" = station ] && ! "$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
    # On Raspberry Pi OS Lite python3-lgpio is preinstalled (Raspberry Pi's archive only).
    log "WARNING: python3-lgpio is missing (not a stock Raspberry Pi OS image?): the bell," \
        "button and lamp are simulated until it is installed"
fi
for cmd in station hub; do
    ln -sfn "$VENV/bin/$cmd" "/usr/local/bin/$cmd"
done

# --- 2b. bytecode, compiled into the image ------------------------------------------
# The root becomes a read-only overlay: __pycache__ written at run time would live in RAM
# and be lost at every boot, so every boot (and every kiosk restart) would compile the whole
# program again (start -> idle 2.5 s instead of 0.7 s on the development machine, ~3x that
# on a Pi). pip compiles what it installs, but not always (PYTHONDONTWRITEBYTECODE,
# --no-compile, a partly upgraded venv): compile the venv and our Debian-provided site
# packages here, every run (only stale or missing files are written).
"$VENV/bin/python" -m compileall -q -j 0 "$VENV/lib" >/dev/null \
    || echo "compileall: some files did not compile (they compile at run time instead)" >&2
# The services run as samoobsluha and own the data; an administrator's interactive "hub" /
# "station" runs as that user too, so "hub stations" or "hub gong" reach the running hub.
cat > /etc/profile.d/samoobsluha.sh <<'PROFILE'
# Samoobsluha (written by install.sh): run the tools as the service user, on its data.
alias hub='sudo -u samoobsluha env SAMOOBSLUHA_DATA=/srv/samoobsluha /usr/local/bin/hub'
alias station='sudo -u samoobsluha env SAMOOBSLUHA_DATA=/srv/samoobsluha SAMOOBSLUHA_CONFIG=/etc/samoobsluha/station.toml /usr/local/bin/station'
PROFILE

# --- 3. configuration -------------------------------------------------------------------
install -d -m 0755 "$ETC" "$LIB"
install -d -m 0755 "$DATA"
for f in kiosk-session kiosk-inner kiosk-lockdown no-xwayland; do
    install -m 0755 "$HERE/files/$f" "$LIB/$f"
done
install -m 0644 "$HERE/files/kiosk-lockdown.kmap" "$LIB/kiosk-lockdown.kmap"
# foot's configuration in the kiosk: every key and mouse binding off (kiosk-session).
install -m 0644 "$HERE/files/foot.ini" "$LIB/foot.ini"
install -d -m 0755 /usr/local/share/doc/samoobsluha
[ -f "$HERE/files/hall-setup.md" ] && install -m 0644 "$HERE/files/hall-setup.md" /usr/local/share/doc/samoobsluha/

# The referee PIN's hash is in it: readable by root and the service user only (0640
# root:samoobsluha), not by every account on the station; an older card's 0644 is put right.
if [ -f "$ETC/staged/station.toml" ]; then
    install -o root -g samoobsluha -m 0640 "$ETC/staged/station.toml" "$ETC/station.toml"
    rm -f "$ETC/staged/station.toml"
elif [ -f "$HERE/station.toml" ] && [ ! -f "$ETC/station.toml" ]; then
    install -o root -g samoobsluha -m 0640 "$HERE/station.toml" "$ETC/station.toml"
fi
[ -f "$ETC/station.toml" ] && chown root:samoobsluha "$ETC/station.toml" && chmod 0640 "$ETC/station.toml"
if [ "$ROLE" = station ] && [ -f "$ETC/staged/tournament.key" ]; then
    install -m 0640 -g samoobsluha "$ETC/staged/tournament.key" "$ETC/tournament.key"
    rm -f "$ETC/staged/tournament.key"
fi
[ "$ROLE" = hub ] || [ -f "$ETC/tournament.key" ] || log "WARNING: no tournament key in $ETC"
[ -f "$HERE/kiosk.env" ] && install -m 0644 "$HERE/kiosk.env" "$ETC/kiosk.env"

# Keyboard (XKB for cage and console-setup) and the console font: Lat2 has every Czech
# and Slovak letter; Terminus 16x32 is the largest console font there is.
cat > /etc/default/keyboard <<KBD
XKBMODEL="pc105"
XKBLAYOUT="$KEYBOARD"
XKBVARIANT=""
XKBOPTIONS=""
BACKSPACE="guess"
KBD
cat > /etc/default/console-setup <<CON
ACTIVE_CONSOLES="/dev/tty[1-6]"
CHARMAP="UTF-8"
CODESET="Lat2"
FONTFACE="TerminusBold"
FONTSIZE="16x32"
VIDEOMODE=
CON

# console-setup's cache, rebuilt from the files above: under the read-only root a stale
# cache made setupcon rebuild and load the full keymap (Alt+Fn switching included) at every
# boot; the kiosk's lock-down keymap is loaded after console-setup.service.
if command -v setupcon >/dev/null; then
    setupcon --force --save-only || log "WARNING: setupcon --save-only failed"
fi

install -m 0644 "$HERE/files/chrony.conf" /etc/chrony/chrony.conf
install -m 0755 "$HERE/files/samoobsluha-time" "$LIB/samoobsluha-time"
install -m 0755 "$HERE/files/samoobsluha-admin" /usr/local/sbin/samoobsluha-admin
# No hall-check here: it runs on the organiser's laptop (provisioning/hall-check.sh --hub),
# the one machine whose SSH key the Pis accept.
install -D -m 0644 "$HERE/files/system-samoobsluha.conf" /etc/systemd/system.conf.d/samoobsluha.conf
install -D -m 0644 "$HERE/files/journald-samoobsluha.conf" /etc/systemd/journald.conf.d/samoobsluha.conf
install -D -m 0644 "$HERE/files/sysctl-samoobsluha.conf" /etc/sysctl.d/90-samoobsluha.conf
if [ -f "$BOOT/config.txt" ]; then
    if [ "$ROLE" = station ] && [ -f "$ETC/station.toml" ]; then
        # The watchdog and the bell pin's level from power-on (gpio=5=op,dh for the default
        # active-low relay): the relay must not click on while the Pi boots.
        log "config.txt: $("$VENV/bin/python" -m samoobsluha.station.bootconfig \
            "$ETC/station.toml" "$BOOT/config.txt")"
    elif ! grep -q '^dtparam=watchdog=on' "$BOOT/config.txt"; then
        printf '\n# Samoobsluha: hardware watchdog\ndtparam=watchdog=on\n' >> "$BOOT/config.txt"
    fi
fi

for unit in samoobsluha-kiosk.service samoobsluha-station.service samoobsluha-hub.service \
    samoobsluha-standby.service samoobsluha-firstboot.service samoobsluha-time.service samoobsluha-time-save.service \
    samoobsluha-time-save.timer samoobsluha-time-serve.path samoobsluha-time-serve.service; do
    install -m 0644 "$HERE/files/$unit" "/etc/systemd/system/$unit"
done
systemctl mask ctrl-alt-del.target
systemctl enable chrony.service
# The clock survives reboots on the data partition (fake-hwclock's file would be in RAM
# under the read-only root, and Trixie has no fake-hwclock).
systemctl enable samoobsluha-time.service samoobsluha-time-save.timer
systemctl disable fake-hwclock.service 2>/dev/null || true
if [ "$ROLE" = station ]; then
    install -m 0644 "$HERE/files/samoobsluha-kiosk.pam" /etc/pam.d/samoobsluha-kiosk
    install -D -m 0644 "$HERE/files/logind-kiosk.conf" /etc/systemd/logind.conf.d/samoobsluha.conf
    if [ "$HEADLESS" = 1 ]; then
        systemctl enable samoobsluha-station.service
        systemctl disable samoobsluha-kiosk.service
    else
        systemctl enable samoobsluha-kiosk.service
        systemctl disable samoobsluha-station.service
        # tty1 belongs to the kiosk; no other console gets a login prompt.
        systemctl disable getty@tty1.service
        systemctl mask getty@tty1.service autovt@.service
    fi
else
    # Both: each unit's ExecCondition asks hub.toml which one this card runs (a standby
    # card runs hub standby until hub takeover, then hub serve).
    systemctl enable samoobsluha-hub.service samoobsluha-standby.service
    # The hub's seat (hub/seat.py): which machine the hub runs on, outside the data
    # partition and its backups; made here, before the read-only root, so it survives
    # reboots (a card copied onto another Pi differs by the board's serial number).
    install -d -o samoobsluha -g samoobsluha -m 0755 /var/lib/samoobsluha-seat
    if [ ! -s /var/lib/samoobsluha-seat/seat ]; then
        od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > /var/lib/samoobsluha-seat/seat
        echo >> /var/lib/samoobsluha-seat/seat
        chown samoobsluha:samoobsluha /var/lib/samoobsluha-seat/seat
    fi
    # chrony serves the hub's clock only once the operator has confirmed it (hub.hubtime).
    systemctl enable samoobsluha-time-serve.path
fi
systemctl disable samoobsluha-firstboot.service

# Swap: Bookworm's dphys-swapfile is disabled with the overlay (step 5); Trixie's rpi-swap
# defaults to zram + a writeback file /var/swap on the root, which under the overlay is RAM
# again: compressed RAM only (swap.conf(5) drop-in; harmless where rpi-swap is absent).
install -d -m 0755 /etc/rpi/swap.conf.d
printf '# Samoobsluha: no swap file on the read-only root\n[Main]\nMechanism=zram\n' \
    > /etc/rpi/swap.conf.d/90-samoobsluha.conf

# --- 4. data partition -------------------------------------------------------------------
# >>> data partition identity (tests/provisioning/test_provision_partuuid.py sources this)
# The data partition: the one labelled SAMODATA on the card itself (the root's disk), else
# the only one (the organiser's USB stick). Several elsewhere: none (which is the card's?).
data_device() {
    local devs dev root_disk="" n
    devs=$(blkid -t "LABEL=$DATA_LABEL" -o device 2>/dev/null || true)
    [ -n "$devs" ] || return 0
    root_disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE / 2>/dev/null)" 2>/dev/null || true)
    for dev in $devs; do
        if [ -n "$root_disk" ] && [ "$(lsblk -no PKNAME "$dev" 2>/dev/null)" = "$root_disk" ]; then
            echo "$dev"
            return 0
        fi
    done
    n=$(wc -w <<<"$devs")
    if [ "$n" -eq 1 ]; then echo "$devs"; return 0; fi
    log "WARNING: $n partitions labelled $DATA_LABEL and none on this card: $(tr '\n' ' ' <<<"$devs")" >&2
}
# What fstab mounts: the partition's own id (PARTUUID, from the partition table), never
# the label: any USB stick can be named SAMODATA, and one plugged in before a reboot would
# be mounted instead (the label is the first match). A device without a partition table
# (a stick formatted whole) has no PARTUUID: its file system's UUID, which only a copy of
# that very file system shares.
data_spec() {  # data_spec DEVICE
    local id
    id=$(blkid -p -s PART_ENTRY_UUID -o value "$1" 2>/dev/null || true)
    if [ -n "$id" ]; then echo "PARTUUID=$id"; return 0; fi
    id=$(blkid -p -s UUID -o value "$1" 2>/dev/null || true)
    [ -n "$id" ] && echo "UUID=$id"
}
# fstab with exactly one line for the data directory (an older card's LABEL= line replaced).
write_data_fstab() {  # write_data_fstab SPEC [FSTAB]
    local fstab=${2:-/etc/fstab}
    touch "$fstab"
    awk -v d="$DATA" '$2 != d' "$fstab" > "$fstab.new"
    printf '%s %s ext4 defaults,noatime,nofail,x-systemd.device-timeout=20s 0 2\n' "$1" "$DATA" >> "$fstab.new"
    mv -f "$fstab.new" "$fstab"
}
# <<< data partition identity

# Appends a SAMODATA partition in the free space after the last partition, when there is
# room (provisioning/add-data-partition.sh leaves it; the image's first boot does not).
make_data_partition() {
    local root_dev disk last start free
    root_dev=$(findmnt -no SOURCE /)
    disk=/dev/$(lsblk -no PKNAME "$root_dev")
    last=$(lsblk -nro NAME "$disk" | tail -n1)
    start=$(( $(cat "/sys/class/block/$last/start") + $(cat "/sys/class/block/$last/size") ))
    free=$(( $(cat "/sys/class/block/${disk#/dev/}/size") - start ))
    if [ "$free" -lt $((1024 * 1024 * 2)) ]; then
        log "no free space for a data partition on $disk (root fills the card)"
        return 1
    fi
    log "creating the data partition on $disk"
    echo "$((start + 8192)),,L" | sfdisk --append --no-reread "$disk"
    partprobe "$disk" || partx -u "$disk"
    udevadm settle
    mkfs.ext4 -q -L "$DATA_LABEL" "$(lsblk -nrpo NAME "$disk" | tail -n1)"
}

# A USB stick the organiser formatted on any computer (FAT32 or exFAT, named SAMODATA:
# Windows and macOS cannot write ext4) becomes the data partition: formatted as ext4 here,
# once, keeping its name. Only a FAT/exFAT volume with exactly that name, not mounted.
convert_data_stick() {
    local dev=$1 fstype
    fstype=$(blkid -o value -s TYPE "$dev" 2>/dev/null || true)
    case "$fstype" in
        vfat|exfat)
            if findmnt -rno TARGET "$dev" >/dev/null 2>&1; then
                log "WARNING: $dev ($DATA_LABEL, $fstype) is mounted: not formatted"
                return 1
            fi
            log "formatting $dev ($fstype, named $DATA_LABEL) as the ext4 data partition"
            mkfs.ext4 -F -q -L "$DATA_LABEL" "$dev"
            udevadm settle 2>/dev/null || true
            ;;
    esac
}

if [ "$DRY_RUN" = 1 ]; then
    log "dry run: data partition, overlay and reboot skipped"
else
    dev=$(data_device)
    [ -z "$dev" ] || convert_data_stick "$dev" || true
    dev=$(data_device)
    if [ -z "$dev" ]; then
        make_data_partition || true
        dev=$(data_device)
    fi
    spec=""
    [ -z "$dev" ] || spec=$(data_spec "$dev")
    if [ -n "$spec" ]; then
        log "data partition $dev mounted by $spec"
        write_data_fstab "$spec"
        systemctl daemon-reload
        mountpoint -q "$DATA" || mount "$DATA"
        touch "$ETC/require-data-mount"
    else
        log "WARNING: no partition labelled $DATA_LABEL: data stays on the root file system"
    fi
fi
install -d -o samoobsluha -g samoobsluha -m 0750 "$DATA" "$DATA/run" "$DATA/lexicons"

# The hub keeps its key and tournament id on the data partition (hub serve reads
# <data>/tournament.key and names its tournament in hub.db on the first run): give it the
# ones the station cards carry.
if [ "$ROLE" = hub ]; then
    if [ -f "$ETC/staged/tournament.key" ] && [ ! -f "$DATA/tournament.key" ]; then
        install -o samoobsluha -g samoobsluha -m 0600 "$ETC/staged/tournament.key" "$DATA/tournament.key"
    fi
    rm -f "$ETC/staged/tournament.key"
    # The hub's configuration ([standby] from "hub provision hub --standby-port/-of"):
    # only onto a data partition that has none (the director's own is kept).
    if [ -f "$HERE/hub.toml" ] && [ ! -f "$DATA/hub.toml" ]; then
        install -o samoobsluha -g samoobsluha -m 0644 "$HERE/hub.toml" "$DATA/hub.toml"
    fi
    # A standby card has no hub database until hub takeover makes one from its copy.
    if [ -n "$TOURNAMENT_ID" ] && [ -z "${STANDBY_OF:-}" ]; then
        runuser -u samoobsluha -- env SAMOOBSLUHA_DATA="$DATA" TOURNAMENT_ID="$TOURNAMENT_ID" \
            "$VENV/bin/python" - <<'PY' || log "WARNING: tournament id not recorded in hub.db"
import os
import sys

try:
    from samoobsluha.hub import store
    from samoobsluha.shared.storage import open_db
except ImportError as exc:
    sys.exit(f"this hub has no hub.store ({exc})")
want = os.environ["TOURNAMENT_ID"]
db = open_db(store.db_path(), store.migrations)
have = store.get_meta(db, "tournament_id")
if have is None:
    with db.conn:
        db["hub_meta"].insert({"key": "tournament_id", "value": want})
elif have != want:
    sys.exit(f"hub.db already belongs to tournament {have}, not {want}")
print(f"tournament {want}")
PY
    fi
fi

# Lexicon: the one carried on the card, else built from Debian's hunspell dictionary.
if compgen -G "$HERE/lexicons/*.lex" >/dev/null; then
    install -o samoobsluha -g samoobsluha -m 0644 "$HERE"/lexicons/*.lex "$DATA/lexicons/"
    # the hub's signature beside each (a station judges only with a lexicon its hub signed)
    if compgen -G "$HERE/lexicons/*.lex.sig" >/dev/null; then
        install -o samoobsluha -g samoobsluha -m 0644 "$HERE"/lexicons/*.lex.sig "$DATA/lexicons/"
    fi
fi
lex=$DATA/lexicons/$LEXICON_FILE
case "$LEXICON_LANG" in  # Debian's dictionary of the station's language (hunspell-cs/-sk/-pl)
    sk) hunspell=/usr/share/hunspell/sk_SK ;;
    pl) hunspell=/usr/share/hunspell/pl_PL ;;
    *) hunspell=/usr/share/hunspell/cs_CZ ;;
esac
if [ ! -f "$lex" ] && [ -f "$hunspell.dic" ]; then
    log "building $lex from $hunspell (a few minutes)"
    runuser -u samoobsluha -- env SAMOOBSLUHA_DATA="$DATA" /usr/local/bin/hub lexicon build \
        --hunspell "$hunspell" --lang "$LEXICON_LANG" --variant HUNSPELL -o "$lex"
fi
if [ -f "$lex" ]; then
    /usr/local/bin/hub lexicon info "$lex" > "$HERE/lexicon-info.txt"
else
    log "WARNING: no lexicon at $lex"
fi

# --- 5. read-only root -------------------------------------------------------------------
overlay_state="off"
if [ "$DRY_RUN" != 1 ] && [ "$OVERLAY" = 1 ]; then
    if mountpoint -q "$DATA"; then
        # A swap file on an overlay root would live in RAM: no swap file (zram is fine).
        systemctl disable dphys-swapfile.service 2>/dev/null || true
        # raspi-config's enable_overlayfs (initramfs) and then overlayroot=tmpfs:recurse=0
        # (the default recurse=1 would put /srv/samoobsluha in RAM too); the same command
        # switches it off and on again later: samoobsluha-admin rw|ro.
        /usr/local/sbin/samoobsluha-admin ro \
            || fail "overlayroot=tmpfs:recurse=0 is not in $BOOT/cmdline.txt"
        overlay_state="on (next boot)"
    else
        log "WARNING: read-only root NOT enabled: the data partition is not mounted"
    fi
fi

# --- 6. done -----------------------------------------------------------------------------
# cloud-init must never run again (it would rewrite the network, and its files on the card
# are stubs now: wipe-secrets).
mkdir -p /etc/cloud && touch /etc/cloud/cloud-init.disabled
rmdir "$ETC/staged" 2>/dev/null || true
mkdir -p /var/lib/samoobsluha
date -Is > /var/lib/samoobsluha/installed
{
    echo "OK $(date -Is)"
    echo "role: $ROLE"
    echo "hostname: $HOSTNAME_"
    echo "version: $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("samoobsluha"))')"
    echo "data partition: $(findmnt -no SOURCE "$DATA" 2>/dev/null || echo 'MISSING')"
    echo "read-only root: $overlay_state"
    [ -f "$HERE/lexicon-info.txt" ] && sed 's/^/lexicon /' "$HERE/lexicon-info.txt"
} > "$STATUS"
log "done"
# cloud-init reboots through power_state itself (SAMOOBSLUHA_NO_REBOOT=1 in user-data).
if [ "$DRY_RUN" != 1 ] && [ "${SAMOOBSLUHA_NO_REBOOT:-0}" != 1 ]; then
    systemctl --no-block reboot
fi

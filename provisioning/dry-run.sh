#!/bin/bash
# End-to-end dry run of provisioning, as far as a machine without a Pi allows (root needed):
#
#   sudo provisioning/dry-run.sh [WORKDIR]     (default /tmp/samoobsluha-dry-run)
#
# 1. debootstrap a minimal Debian Bookworm root (cached in WORKDIR/base);
# 2. build the offline bundle (wheelhouse for this machine, Debian packages fetched the way
#    build-bundle.sh --debs does on a Pi, but for this architecture);
# 3. "hub provision hub" and "hub provision station" into each root's /boot/firmware;
# 4. run install.sh in each root inside a network namespace with no interfaces
#    (unshare --net): the install really has no network;
# 5. check: packages installed, the samoobsluha console scripts run from the venv, config
#    loads, units present/enabled/masked as intended, chrony.conf parses, systemd-analyze
#    verify passes inside the root.
# What it cannot do: boot the root (no kernel, no cloud-init run, no data partition, no
# overlay, no display); see docs/hall-setup.md for the checks on a real Pi.
set -euo pipefail
REPO=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
WORK=${1:-/tmp/samoobsluha-dry-run}
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
HUB=${HUB:-$REPO/.venv/bin/hub}
[ "$(id -u)" -eq 0 ] || { echo "dry-run: run as root (debootstrap, chroot)" >&2; exit 1; }
for tool in debootstrap unshare; do
    command -v "$tool" >/dev/null || { echo "dry-run: needs $tool" >&2; exit 1; }
done
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
started=$(date +%s)
mkdir -p "$WORK"

mounted=()
cleanup() {
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
mount_api() {  # proc/sys/dev for apt and dpkg inside the root
    local root=$1 d
    for d in proc sys dev; do
        mkdir -p "$root/$d"
        mount --rbind "/$d" "$root/$d"
        mounted=("$root/$d" "${mounted[@]}")
    done
}
unmount_api() {
    local root=$1 d
    for d in dev sys proc; do umount -l "$root/$d" 2>/dev/null || true; done
}

# 1. base root: roughly what Raspberry Pi OS Lite has (python3, systemd, sudo, NetworkManager
#    is left out: the installer does not need it).
if [ ! -x "$WORK/base/usr/bin/python3" ]; then
    say "debootstrap $SUITE into $WORK/base"
    rm -rf "$WORK/base"
    debootstrap --variant=minbase --include=python3,systemd,systemd-sysv,sudo,ca-certificates,util-linux \
        "$SUITE" "$WORK/base" "$MIRROR" > "$WORK/debootstrap.log"
fi

# 2. bundle
say "wheelhouse for this machine"
bundle=$WORK/bundle
rm -rf "$bundle"
"$REPO/provisioning/build-bundle.sh" -o "$bundle" --python "$("$WORK/base/usr/bin/python3" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
    > "$WORK/bundle.log" 2>&1
key=$WORK/tournament.key
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDryRun0000000000000000000000000000000000000 dry@run\n' > "$WORK/id.pub"

run_role() {
    local role=$1 root=$WORK/$1 boot
    boot=$root/boot/firmware
    say "$role: fresh root"
    rm -rf "$root"
    cp -a "$WORK/base" "$root"
    mkdir -p "$boot"
    echo "console=tty1 root=PARTUUID=00000000-02 rootfstype=ext4 rootwait" > "$boot/cmdline.txt"
    : > "$boot/config.txt"

    say "$role: hub provision $role"
    if [ "$role" = hub ]; then
        "$HUB" provision hub --target "$boot" --psk-file "$key" --ssh-key "$WORK/id.pub" \
            --tournament dry-run --address 192.168.50.2/24 --bundle "$bundle"
    else
        "$HUB" provision station --name station-01 --target "$boot" --psk-file "$key" \
            --ssh-key "$WORK/id.pub" --tournament dry-run --hub 192.168.50.2:7310 \
            --bundle "$bundle" ${LEXICON:+--lexicon "$LEXICON"}
    fi
    local env_file=$boot/samoobsluha/setup.env packages
    # python3-lgpio is in the Raspberry Pi archive only, not in Debian.
    sed -i 's/ python3-lgpio//' "$env_file"
    packages=$(sed -n "s/^APT_PACKAGES='\(.*\)'$/\1/p" "$env_file")

    say "$role: Debian packages for the bundle (network on, download only): $packages"
    mount_api "$root"
    mkdir -p "$boot/samoobsluha/debs/partial"
    # shellcheck disable=SC2086
    chroot "$root" apt-get install --download-only -y -qq --no-install-recommends \
        -o Dir::Cache::archives=/boot/firmware/samoobsluha/debs $packages > "$WORK/$role-debs.log"
    rm -rf "$boot/samoobsluha/debs/partial" "$boot/samoobsluha/debs/lock"
    "$REPO/.venv/bin/python" -c 'import sys; from hub.provision.debindex import main; sys.exit(main())' "$boot/samoobsluha/debs"
    chroot "$root" apt-get clean

    say "$role: install.sh with NO network (unshare --net)"
    if ! unshare --net chroot "$root" /usr/bin/env SAMOOBSLUHA_DRY_RUN=1 \
        /bin/bash /boot/firmware/samoobsluha/install.sh > "$WORK/$role-install.log" 2>&1; then
        tail -n 30 "$WORK/$role-install.log" >&2
        echo "dry-run: install.sh failed for $role" >&2
        exit 1
    fi
    check_role "$role" "$root"
    unmount_api "$root"
}

fails=0
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@" > /dev/null 2>&1; then
        printf '  ok    %s\n' "$what"
    else
        printf '  FAIL  %s\n' "$what"
        fails=$((fails + 1))
    fi
}

no_network() {  # succeeds when a namespace like install.sh's cannot open a TCP connection
    unshare --net chroot "$1" /usr/bin/python3 -c '
import socket, sys
try:
    socket.create_connection(("deb.debian.org", 80), timeout=3)
except OSError:
    sys.exit(0)
sys.exit(1)'
}

state() {  # state ROOT UNIT WANTED: systemctl is-enabled inside the root says WANTED
    [ "$(chroot "$1" systemctl is-enabled "$2" 2>/dev/null)" = "$3" ]
}

check_role() {
    local role=$1 root=$2
    say "$role: checks"
    check "install.sh's namespace cannot reach the Debian mirror" no_network "$root"
    check "chrony installed from the bundle" chroot "$root" dpkg-query -W chrony
    check "venv has samoobsluha" chroot "$root" /opt/samoobsluha/bin/python -c 'import station, hub, shared'
    check "station --help runs" chroot "$root" /usr/local/bin/station --help
    check "hub --help runs" chroot "$root" /usr/local/bin/hub --help
    if [ "$role" = station ]; then
        check "tournament key 0640 root:samoobsluha in /etc" \
            test "$(chroot "$root" stat -c '%a %U:%G' /etc/samoobsluha/tournament.key)" = "640 root:samoobsluha"
    else
        check "tournament key 0600 samoobsluha in the data dir (where hub serve reads it)" \
            test "$(chroot "$root" stat -c '%a %U' /srv/samoobsluha/tournament.key)" = "600 samoobsluha"
        check "key on the card is the key installed" cmp -s "$WORK/tournament.key" "$root/srv/samoobsluha/tournament.key"
    fi
    check "key removed from the boot partition" test ! -e "$root/boot/firmware/samoobsluha/tournament.key"
    check "keyboard cz" grep -q 'XKBLAYOUT="cz"' "$root/etc/default/keyboard"
    check "console font Lat2 Terminus 16x32" grep -q 'FONTSIZE="16x32"' "$root/etc/default/console-setup"
    check "chrony.conf parses" chroot "$root" chronyd -p -f /etc/chrony/chrony.conf
    check "watchdog configured" grep -q RuntimeWatchdogSec "$root/etc/systemd/system.conf.d/samoobsluha.conf"
    check "dtparam=watchdog=on" grep -q '^dtparam=watchdog=on' "$root/boot/firmware/config.txt"
    check "ctrl-alt-del masked" state "$root" ctrl-alt-del.target masked
    check "chrony enabled" state "$root" chrony.service enabled
    check "STATUS.txt says OK" grep -q '^OK' "$root/boot/firmware/samoobsluha/STATUS.txt"
    if [ "$role" = station ]; then
        check "kiosk enabled" state "$root" samoobsluha-kiosk.service enabled
        check "headless station service not enabled" state "$root" samoobsluha-station.service disabled
        check "getty@tty1 masked" state "$root" getty@tty1.service masked
        check "autovt masked" state "$root" autovt@.service masked
        check "logind: no spare VTs" grep -q NAutoVTs=0 "$root/etc/systemd/logind.conf.d/samoobsluha.conf"
        check "cage and foot installed" chroot "$root" dpkg-query -W cage foot
        check "station.toml loads" chroot "$root" /opt/samoobsluha/bin/python -c \
            'from station.config import load; c = load("/etc/samoobsluha/station.toml"); assert c.name == "station-01", c.name'
        check "kiosk scripts installed" test -x "$root/usr/local/lib/samoobsluha/kiosk-session"
        check "systemd-analyze verify (kiosk)" chroot "$root" systemd-analyze verify --man=no samoobsluha-kiosk.service
        if [ -n "${LEXICON:-}" ]; then
            check "lexicon copied and readable" chroot "$root" /usr/local/bin/hub lexicon info "/srv/samoobsluha/lexicons/$(basename "$LEXICON")"
        fi
    else
        check "hub service enabled" state "$root" samoobsluha-hub.service enabled
        check "kiosk not enabled on the hub" state "$root" samoobsluha-kiosk.service disabled
        check "hub's lexicon built from hunspell-cs" chroot "$root" /usr/local/bin/hub lexicon info /srv/samoobsluha/lexicons/cs.lex
        check "systemd-analyze verify (hub)" chroot "$root" systemd-analyze verify --man=no samoobsluha-hub.service
    fi
}

for role in ${ROLES:-station hub}; do
    run_role "$role"
done
say "dry run finished in $(( $(date +%s) - started )) s with $fails failed checks (logs in $WORK)"
[ "$fails" -eq 0 ]

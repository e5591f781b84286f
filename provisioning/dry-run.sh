#!/bin/bash
# End-to-end dry run of provisioning in the Pi's architecture, as far as a machine without a
# Pi allows (root needed):
#
#   provisioning/dry-run.sh [--arch arm64|amd64] [--release bookworm|trixie] [WORKDIR]
#
#   --arch arm64 (default): an aarch64 root run under qemu-user emulation (binfmt_misc with
#     qemu-user-static's "F" flag, so chroot and every program started inside work as on
#     the Pi). Slow (see provisioning/README.md for the figures), nothing skipped.
#   --arch amd64: the same on this machine's architecture, for speed.
#   WORKDIR (default /tmp/samoobsluha-dry-run-ARCH-RELEASE): debootstrap's base root is
#     cached there and reused; the installed roots are removed at the end unless
#     KEEP_ROOTS=1 (they need ~2 GB free while the run lasts).
#
# 1. debootstrap a minimal Debian root of the release (+ systemd-timesyncd, which Raspberry
#    Pi OS Lite has and chrony must replace offline);
# 2. provisioning/build-bundle.sh for that release and architecture (wheelhouse and the
#    Debian packages' whole dependency closure, from Debian's archive only);
# 3. "hub provision hub" (it creates the tournament key), then "hub provision station",
#    into each root's /boot/firmware (a stock-like cmdline.txt and config.txt);
# 4. install.sh in each root inside a network namespace with no interfaces (unshare --net):
#    the install really has no network;
# 5. checks: packages, venv, units, config.txt's bell line, logind, secrets wiped from the
#    card, samoobsluha-admin rw/ro, then the programs themselves, emulated: "station check
#    kůň" (exit 0), "station run --headless" for 20 s, "hub serve" answering on loopback,
#    the hub-time rule (hub time status/confirm, round start refused before) and
#    hall-check.sh run on the hub against the station (its ssh replaced by a chroot).
# What it cannot do: boot the root (no kernel, firmware, cloud-init run, data partition,
# overlay, display, GPIO); see docs/hall-setup.md for the checks on a real Pi.
set -euo pipefail
REPO=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
ARCH=""
SUITE=${SUITE:-bookworm}
WORK=""
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH=$2; shift 2 ;;
        --release) SUITE=$2; shift 2 ;;
        -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "dry-run: unknown option $1" >&2; exit 2 ;;
        *) WORK=$1; shift ;;
    esac
done
HOST_ARCH=$(dpkg --print-architecture)
ARCH=${ARCH:-arm64}
MODE=$([ "$ARCH" = "$HOST_ARCH" ] && echo native || echo "emulated $ARCH")
WORK=${WORK:-/tmp/samoobsluha-dry-run-$ARCH-$SUITE}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
HUB=${HUB:-$REPO/.venv/bin/hub}
LEXICON=${LEXICON:-$(find "$REPO/.cache/lexicons" -name 'cs-*.lex' 2>/dev/null | head -n1)}
# The hub builds its lexicon from hunspell-cs at install; under emulation that takes long,
# so by default the arm64 run gives the hub the station's lexicon file (HUB_LEXICON=build
# to measure the build too).
HUB_LEXICON=${HUB_LEXICON:-$([ "$ARCH" = "$HOST_ARCH" ] && echo build || echo copy)}
[ "$(id -u)" -eq 0 ] || { echo "dry-run: run as root (debootstrap, chroot, unshare)" >&2; exit 1; }
for tool in debootstrap unshare ip; do
    command -v "$tool" >/dev/null || { echo "dry-run: needs $tool" >&2; exit 1; }
done
if [ -z "$LEXICON" ] || [ ! -f "$LEXICON" ]; then
    echo "dry-run: needs a lexicon file (LEXICON=...; ./dev setup builds one into .cache/lexicons)" >&2
    exit 1
fi

# Emulation: the kernel must hand aarch64 programs to qemu itself (binfmt_misc), because
# install.sh, apt, dpkg and pip start hundreds of programs inside the root.
if [ "$ARCH" != "$HOST_ARCH" ]; then
    qemu=qemu-$( [ "$ARCH" = arm64 ] && echo aarch64 || echo "$ARCH")
    if [ ! -d /proc/sys/fs/binfmt_misc ] || [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    fi
    if ! grep -qs enabled "/proc/sys/fs/binfmt_misc/$qemu"; then
        if command -v update-binfmts >/dev/null; then
            update-binfmts --enable "$qemu" 2>/dev/null || true
        fi
    fi
    grep -qs enabled "/proc/sys/fs/binfmt_misc/$qemu" || {
        echo "dry-run: $ARCH programs cannot run here: no binfmt_misc entry $qemu." >&2
        echo "  apt-get install qemu-user-static binfmt-support  (and binfmt_misc must be" >&2
        echo "  mountable: in a container, register it on the host; see provisioning/README.md)" >&2
        exit 1
    }
    grep -qs '^flags:.*F' "/proc/sys/fs/binfmt_misc/$qemu" || {
        echo "dry-run: binfmt entry $qemu lacks the F flag (needed inside a chroot)" >&2
        exit 1
    }
fi

# sudo (setuid) inside the emulated root needs the entry's C flag (credentials from the
# binary, not from qemu); Debian registers it without. Re-register it with C in the running
# kernel for the dry run and put the original back at exit (nothing on disk changes).
binfmt_restore=""
with_setuid_emulation() {
    [ "$ARCH" != "$HOST_ARCH" ] || return 0
    local entry=/proc/sys/fs/binfmt_misc/$qemu magic mask interp flags
    grep -qs '^flags:.*C' "$entry" && return 0
    magic=$(sed -n 's/^magic //p' "$entry" | sed 's/../\\x&/g')
    mask=$(sed -n 's/^mask //p' "$entry" | sed 's/../\\x&/g')
    interp=$(sed -n 's/^interpreter //p' "$entry")
    flags=$(sed -n 's/^flags: //p' "$entry")
    [ "$(sed -n 's/^offset //p' "$entry")" = 0 ] || return 1
    echo -1 > "$entry"
    echo ":$qemu:M:0:$magic:$mask:$interp:${flags}C" > /proc/sys/fs/binfmt_misc/register
    binfmt_restore=":$qemu:M:0:$magic:$mask:$interp:$flags"
}
restore_binfmt() {
    [ -n "$binfmt_restore" ] || return 0
    echo -1 > "/proc/sys/fs/binfmt_misc/$qemu" 2>/dev/null || true
    echo "$binfmt_restore" > /proc/sys/fs/binfmt_misc/register || true
    binfmt_restore=""
}

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
started=$(date +%s)
stamp() { echo "$(( $(date +%s) - started )) s"; }
mkdir -p "$WORK"
timings=()
lap() { timings+=("$1: $(( $(date +%s) - $2 )) s"); }

mounted=()
cleanup() {
    local m
    for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done
    restore_binfmt
}
trap cleanup EXIT
mount_api() {  # proc/sys/dev for apt and dpkg inside the root
    local root=$1 d
    for d in proc sys dev; do
        mkdir -p "$root/$d"
        mount --rbind "/$d" "$root/$d"
        mount --make-rslave "$root/$d"
        mounted=("$root/$d" "${mounted[@]}")
    done
}
unmount_api() {
    local root=$1 d
    for d in dev sys proc; do umount -l "$root/$d" 2>/dev/null || true; done
}
# The environment a Pi's services start with: nothing from this machine's shell (its PIP_*
# or PYTHON* settings would leak into the root).
CLEAN_ENV=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
           HOME=/root LANG=C.UTF-8 TERM=linux)
# A command in ROOT with no network but a working loopback (hub serve, station run).
offline() {  # offline ROOT COMMAND...
    local root=$1
    shift
    unshare --net "${CLEAN_ENV[@]}" bash -c 'ip link set lo up && exec chroot "$@"' _ "$root" "$@"
}

# 1. base root: roughly what Raspberry Pi OS Lite has that matters here (python3, systemd,
#    sudo, systemd-timesyncd).
t0=$(date +%s)
if [ ! -x "$WORK/base/usr/bin/python3" ]; then
    say "debootstrap $SUITE $ARCH into $WORK/base"
    rm -rf "$WORK/base"
    debootstrap --arch="$ARCH" --variant=minbase \
        --include=python3,systemd,systemd-sysv,systemd-timesyncd,sudo,ca-certificates,util-linux \
        "$SUITE" "$WORK/base" "$MIRROR" > "$WORK/debootstrap.log"
    lap "debootstrap" "$t0"
fi
[ "$(chroot "$WORK/base" dpkg --print-architecture)" = "$ARCH" ] \
    || { echo "dry-run: $WORK/base is not $ARCH" >&2; exit 1; }

# 2. bundle
say "bundle for $SUITE $ARCH (build-bundle.sh)"
t0=$(date +%s)
bundle=$WORK/bundle
"$REPO/provisioning/build-bundle.sh" -o "$bundle" --release "$SUITE" --arch "$ARCH" \
    > "$WORK/bundle.log" 2>&1 || { tail -n 30 "$WORK/bundle.log" >&2; exit 1; }
lap "build-bundle" "$t0"
key=$WORK/tournament.key
rm -f "$key" "$WORK/tournament.id"
printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDryRun0000000000000000000000000000000000000 dry@run\n' > "$WORK/id.pub"
printf '%s\n' 'dry-run-password' > "$WORK/password"

run_role() {
    local role=$1 root=$WORK/$1 boot t0
    boot=$root/boot/firmware
    say "$role: fresh root"
    rm -rf "$root"
    cp -a "$WORK/base" "$root"
    mkdir -p "$boot"
    # What a stock Raspberry Pi OS boot partition starts with (the parts that matter here).
    echo "console=serial0,115200 console=tty1 root=PARTUUID=00000000-02 rootfstype=ext4 fsck.repair=yes rootwait quiet splash" \
        > "$boot/cmdline.txt"
    printf '%s\n' '# For more options and information see' 'dtparam=audio=on' 'camera_auto_detect=1' \
        'display_auto_detect=1' 'auto_initramfs=1' 'dtoverlay=vc4-kms-v3d' 'max_framebuffers=2' \
        'disable_fw_kms_setup=1' 'arm_64bit=1' 'disable_overscan=1' 'arm_boost=1' '' '[cm4]' \
        'otg_mode=1' '' '[cm5]' 'dtoverlay=dwc2,dr_mode=host' '' '[all]' > "$boot/config.txt"

    say "$role: hub provision $role --image $SUITE"
    if [ "$role" = hub ]; then
        # The hub card creates the tournament key and id that the station cards then carry.
        "$HUB" provision hub --image "$SUITE" --target "$boot" --psk-file "$key" \
            --ssh-key "$WORK/id.pub" --password-file "$WORK/password" --tournament dry-run \
            --address 192.168.50.2/24 --bundle "$bundle" > "$WORK/$role-provision.log"
        if [ "$HUB_LEXICON" = copy ]; then
            install -D -m 0644 "$LEXICON" "$root/srv/samoobsluha/lexicons/cs.lex"
            install -D -m 0644 "$LEXICON" "$root/srv/samoobsluha/lexicons/$(basename "$LEXICON")"
        fi
    else
        "$HUB" provision station --image "$SUITE" --name station-01 --target "$boot" \
            --psk-file "$key" --ssh-key "$WORK/id.pub" --password-file "$WORK/password" \
            --tournament dry-run --hub 192.168.50.2:7310 --bundle "$bundle" \
            --lexicon "$LEXICON" > "$WORK/$role-provision.log"
    fi
    cp "$key" "$WORK/$role.key-on-card"

    mount_api "$root"
    say "$role: install.sh with NO network (unshare --net), $ARCH"
    t0=$(date +%s)
    if ! unshare --net "${CLEAN_ENV[@]}" chroot "$root" /usr/bin/env SAMOOBSLUHA_DRY_RUN=1 \
        /bin/bash /boot/firmware/samoobsluha/install.sh > "$WORK/$role-install.log" 2>&1; then
        tail -n 30 "$WORK/$role-install.log" >&2
        echo "dry-run: install.sh failed for $role" >&2
        exit 1
    fi
    lap "$role install.sh" "$t0"
    # The card's copy of the bundle has done its job (disk: ~70-120 MB per role).
    rm -rf "$boot/samoobsluha/debs" "$boot/samoobsluha/wheelhouse"
    t0=$(date +%s)
    check_role "$role" "$root"
    lap "$role checks" "$t0"
}

fails=0
check() {  # check DESCRIPTION COMMAND...
    local what=$1
    shift
    if "$@" > "$WORK/last-check.log" 2>&1; then
        printf '  ok    %s\n' "$what"
    else
        printf '  FAIL  %s\n' "$what"
        sed 's/^/        /' "$WORK/last-check.log" | tail -n 8
        fails=$((fails + 1))
    fi
}

no_network() {  # succeeds when a namespace like install.sh's cannot open a TCP connection
    unshare --net chroot "$1" /usr/bin/python3 -c '
import socket, sys
try:
    socket.create_connection(("151.101.2.132", 80), timeout=3)
except OSError:
    sys.exit(0)
sys.exit(1)'
}
state() {  # state ROOT UNIT WANTED: systemctl is-enabled inside the root says WANTED
    [ "$(chroot "$1" systemctl is-enabled "$2" 2>/dev/null)" = "$3" ]
}
all_debs_arch() {  # every package in the bundle is ARCH or all
    local deb a
    for deb in "$bundle"/debs/*.deb; do
        a=$(dpkg-deb -f "$deb" Architecture)
        [ "$a" = "$ARCH" ] || [ "$a" = all ] || { echo "$deb: $a"; return 1; }
    done
}
elf_arch() {  # elf_arch ROOT: the venv's python (resolved inside the root) is an ARCH binary
    local real
    real=$(chroot "$1" readlink -f /opt/samoobsluha/bin/python3)
    file "$1$real" | grep -q "$( [ "$ARCH" = arm64 ] && echo 'ARM aarch64' || echo 'x86-64')"
}
as_service() {  # as_service ROOT COMMAND...: as samoobsluha, with the station's/hub's env
    local root=$1
    shift
    offline "$root" runuser -u samoobsluha -- env SAMOOBSLUHA_DATA=/srv/samoobsluha \
        SAMOOBSLUHA_CONFIG=/etc/samoobsluha/station.toml GPIOZERO_PIN_FACTORY=mock "$@"
}
not_in_boot() {  # not_in_boot ROOT TEXT: TEXT is nowhere on the card any more
    ! grep -rqF -- "$2" "$1/boot/firmware"
}
no_password_hash() {  # no crypt hash ($6$salt$..., $y$...) left in the card's text files
    # shellcheck disable=SC2016  # a regular expression, not an expansion
    ! grep -rqE --exclude-dir=debs --exclude-dir=wheelhouse -- '\$(6|y)\$[./A-Za-z0-9]+\$' \
        "$1/boot/firmware"
}
admin_cycle() {  # samoobsluha-admin ro, rw, ro on the root's cmdline.txt
    local root=$1 c=$1/boot/firmware/cmdline.txt base
    base=$(sed 's/ overlayroot=[^ ]*//g' "$c")  # the rest of the line must survive
    chroot "$root" samoobsluha-admin ro && [ "$(cat "$c")" = "$base overlayroot=tmpfs:recurse=0" ] \
        && [ "$(wc -l < "$c")" = 1 ] \
        && chroot "$root" samoobsluha-admin status | grep -q 'next boot: read-only' \
        && chroot "$root" samoobsluha-admin rw && [ "$(cat "$c")" = "$base" ] \
        && chroot "$root" samoobsluha-admin status | grep -q 'next boot: writable' \
        && chroot "$root" samoobsluha-admin ro && [ "$(cat "$c")" = "$base overlayroot=tmpfs:recurse=0" ]
}
headless_station() {  # station run keeps running for 20 s (timeout's 124), its database made
    local root=$1 rc=0
    as_service "$root" timeout 20 /usr/local/bin/station run --headless \
        --log /srv/samoobsluha/run/dry-run.log || rc=$?
    [ "$rc" = 124 ] && [ -s "$root/srv/samoobsluha/station.db" ]
}
hub_session() {  # hub serve on loopback, then the clock rule and the control socket
    local root=$1
    # A fake "date" for samoobsluha-time: the dry run must never set this machine's clock.
    cat > "$root/usr/local/lib/samoobsluha/fake-date" <<'SH'
#!/bin/bash
if [ "${1:-}" = -u ] && [ "${2:-}" = -s ]; then echo "${3#@}" > /tmp/fake-date-set; exit 0; fi
exec date "$@"
SH
    chmod +x "$root/usr/local/lib/samoobsluha/fake-date"
    # shellcheck disable=SC2016  # expands inside the root
    offline "$root" bash -ec '
        # as after a power cut: the saved time is later than the clock the Pi came back with
        echo $(( $(date +%s) + 3600 )) > /srv/samoobsluha/clock
        SAMOOBSLUHA_DATE=/usr/local/lib/samoobsluha/fake-date /usr/local/lib/samoobsluha/samoobsluha-time restore
        test -s /tmp/fake-date-set                         # the restore did set "the clock"
        run() { runuser -u samoobsluha -- env SAMOOBSLUHA_DATA=/srv/samoobsluha "$@"; }
        # its own process group, so that the kill below ends hub serve and not just runuser
        setsid runuser -u samoobsluha -- env SAMOOBSLUHA_DATA=/srv/samoobsluha \
            /usr/local/bin/hub serve --host 127.0.0.1 --port 7310 --no-mdns > /tmp/serve.log 2>&1 &
        pid=$!
        trap "kill -- -$pid 2>/dev/null" EXIT
        for i in $(seq 120); do run /usr/local/bin/hub stations > /dev/null 2>&1 && break; sleep 1; done
        run /usr/local/bin/hub stations > /dev/null
        echo "hub serve answers"
        python3 -c "import socket; socket.create_connection((\"127.0.0.1\", 7310), 5)"
        echo "port 7310 open"
        ! run /usr/local/bin/hub time status
        echo "time unconfirmed after the restore"
        ! run /usr/local/bin/hub round start 1 2> /tmp/refused.log
        grep -q "not confirmed" /tmp/refused.log
        echo "round start refused: $(cat /tmp/refused.log)"
        run /usr/local/bin/hub time confirm --yes
        run /usr/local/bin/hub time status
        run /usr/local/bin/hub round start 1 --in 60 > /dev/null
        echo "round start accepted after the confirmation"
        kill -- -$pid; wait $pid || true
        ! grep -qi "$(cat /srv/samoobsluha/tournament.key | tr -d "\n")" /tmp/serve.log
        echo "hub serve did not print the key"
    '
}
admin_user() {  # the administrator cloud-init / firstrun.sh would create (not run here)
    chroot "$1" id rozhodci >/dev/null 2>&1 \
        || chroot "$1" useradd -m -s /bin/bash -G sudo rozhodci
    echo 'rozhodci ALL=(ALL) NOPASSWD:ALL' > "$1/etc/sudoers.d/rozhodci"
    chmod 0440 "$1/etc/sudoers.d/rozhodci"
}
hall_check() {  # hall-check on the hub, as its administrator; ssh to station-01 = a chroot
    local hub=$WORK/hub
    admin_user "$hub"
    admin_user "$WORK/station"
    mkdir -p "$hub/mnt/station-01"
    mountpoint -q "$hub/mnt/station-01" || {
        mount --rbind "$WORK/station" "$hub/mnt/station-01"
        mount --make-rslave "$hub/mnt/station-01"
        mounted=("$hub/mnt/station-01" "${mounted[@]}")
    }
    cat > "$hub/usr/local/lib/samoobsluha/dry-run-ssh" <<'SH'
#!/bin/bash
# dry-run stand-in for ssh: [options] user@station-01.local COMMAND -> COMMAND in the
# station's root (bind-mounted at /mnt/station-01), as its administrator.
while [ "${1#-}" != "$1" ]; do case "$1" in -o) shift 2 ;; *) shift ;; esac; done
host=${1#*@}
shift
[ "$host" = station-01.local ] || { echo "ssh: $host: unknown host" >&2; exit 255; }
exec sudo -n chroot /mnt/station-01 runuser -u rozhodci -- bash -c "$*"
SH
    chmod 0755 "$hub/usr/local/lib/samoobsluha/dry-run-ssh"
    offline "$hub" runuser -u rozhodci -- env HALL_SSH=/usr/local/lib/samoobsluha/dry-run-ssh \
        /usr/local/bin/hall-check station-01
}
invalid_word() {  # station check says NOT VALID (exit 1) for a made-up word
    local rc=0
    as_service "$1" /usr/local/bin/station check xqzwy || rc=$?
    [ "$rc" = 1 ]
}
fallback_screen() {  # the start-up failure screen renders in Czech, emulated
    as_service "$1" bash -c 'echo "Slovník nelze použít: /x.lex: cannot read lexicon" > /tmp/e
        /opt/samoobsluha/bin/python -m samoobsluha.station.fallback --reason-file /tmp/e --print' \
        | tee /dev/stderr | grep -q 'STANICE SE NESPUSTILA'
}
logind_keys() {
    local f=$1/etc/systemd/logind.conf.d/samoobsluha.conf
    grep -q '^HandlePowerKey=ignore' "$f" && grep -q '^HandleRebootKey=ignore' "$f" \
        && grep -q '^HandleSuspendKey=ignore' "$f"
}
chrony_replaced() {
    chroot "$1" dpkg-query -W chrony \
        && ! chroot "$1" dpkg-query -W -f="\${Status}" systemd-timesyncd 2>/dev/null | grep -q 'ok installed'
}
no_local_line() { ! grep -q '^local' "$1/etc/chrony/chrony.conf"; }

check_role() {
    local role=$1 root=$2
    say "$role: checks ($(stamp) so far)"
    check "bundle: every Debian package is $ARCH or all" all_debs_arch
    check "root is $ARCH; venv python is an $ARCH binary" elf_arch "$root"
    check "install.sh's namespace cannot reach the network" no_network "$root"
    check "chrony installed from the bundle, systemd-timesyncd replaced" chrony_replaced "$root"
    check "venv has samoobsluha" chroot "$root" /opt/samoobsluha/bin/python -c 'import samoobsluha.station, samoobsluha.hub, samoobsluha.shared'
    check "station --help runs" chroot "$root" /usr/local/bin/station --help
    check "hub --help runs" chroot "$root" /usr/local/bin/hub --help
    if [ "$role" = station ]; then
        check "tournament key 0640 root:samoobsluha in /etc" \
            test "$(chroot "$root" stat -c '%a %U:%G' /etc/samoobsluha/tournament.key)" = "640 root:samoobsluha"
        check "key installed is the key on the card" cmp -s "$WORK/station.key-on-card" "$root/etc/samoobsluha/tournament.key"
    else
        check "tournament key 0600 samoobsluha in the data dir (where hub serve reads it)" \
            test "$(chroot "$root" stat -c '%a %U' /srv/samoobsluha/tournament.key)" = "600 samoobsluha"
        check "key installed is the key on the card" cmp -s "$WORK/hub.key-on-card" "$root/srv/samoobsluha/tournament.key"
    fi
    check "secrets: no key file left on the card" test ! -e "$root/boot/firmware/samoobsluha/tournament.key"
    check "secrets: the key's text is nowhere on the card" not_in_boot "$root" "$(tr -d '\n' < "$key")"
    check "secrets: no password hash on the card" no_password_hash "$root"
    check "secrets: no staged copies left in /etc" test ! -e "$root/etc/samoobsluha/staged/tournament.key"
    if [ "$SUITE" = bookworm ]; then
        check "Bookworm card: no cloud-init files written" test ! -e "$root/boot/firmware/user-data"
    else
        check "Trixie card: user-data is a stub" grep -q 'removed from the card' "$root/boot/firmware/user-data"
    fi
    check "cloud-init switched off after the install" test -e "$root/etc/cloud/cloud-init.disabled"
    check "keyboard cz" grep -q 'XKBLAYOUT="cz"' "$root/etc/default/keyboard"
    check "console font Lat2 Terminus 16x32" grep -q 'FONTSIZE="16x32"' "$root/etc/default/console-setup"
    check "chrony.conf parses" chroot "$root" chronyd -p -f /etc/chrony/chrony.conf
    check "watchdog configured" grep -q RuntimeWatchdogSec "$root/etc/systemd/system.conf.d/samoobsluha.conf"
    check "config.txt: dtparam=watchdog=on" grep -q '^dtparam=watchdog=on' "$root/boot/firmware/config.txt"
    check "ctrl-alt-del masked" state "$root" ctrl-alt-del.target masked
    check "chrony enabled" state "$root" chrony.service enabled
    check "clock restore enabled (samoobsluha-time)" state "$root" samoobsluha-time.service enabled
    check "clock saved every minute (timer)" state "$root" samoobsluha-time-save.timer enabled
    check "samoobsluha-admin ro / rw / ro edits cmdline.txt" admin_cycle "$root"
    check "STATUS.txt says OK" grep -q '^OK' "$root/boot/firmware/samoobsluha/STATUS.txt"
    if [ "$role" = station ]; then
        check "config.txt: bell pin held off from power-on (gpio=5=op,dh)" \
            grep -q '^gpio=5=op,dh$' "$root/boot/firmware/config.txt"
        check "kiosk enabled" state "$root" samoobsluha-kiosk.service enabled
        check "headless station service not enabled" state "$root" samoobsluha-station.service disabled
        check "getty@tty1 masked" state "$root" getty@tty1.service masked
        check "autovt masked" state "$root" autovt@.service masked
        check "logind: no spare VTs" grep -q NAutoVTs=0 "$root/etc/systemd/logind.conf.d/samoobsluha.conf"
        check "logind: Power/Reboot/Suspend keys ignored" logind_keys "$root"
        check "kiosk unit: LimitNOFILE" grep -q '^LimitNOFILE=' "$root/etc/systemd/system/samoobsluha-kiosk.service"
        check "cage and foot installed" chroot "$root" dpkg-query -W cage foot
        check "station.toml loads" chroot "$root" /opt/samoobsluha/bin/python -c \
            'from samoobsluha.station.config import load; c = load("/etc/samoobsluha/station.toml"); assert c.name == "station-01", c.name'
        check "kiosk scripts installed" test -x "$root/usr/local/lib/samoobsluha/kiosk-session"
        check "systemd-analyze verify (kiosk)" chroot "$root" systemd-analyze verify --man=no samoobsluha-kiosk.service
        check "lexicon copied and readable" chroot "$root" /usr/local/bin/hub lexicon info "/srv/samoobsluha/lexicons/$(basename "$LEXICON")"
        check "$MODE: station check kůň (exit 0)" as_service "$root" /usr/local/bin/station check kůň
        check "$MODE: station check xqzwy (exit 1, not valid)" invalid_word "$root"
        check "$MODE: station run --headless keeps running for 20 s, offline" headless_station "$root"
        check "$MODE: lexicon error -> the Czech start-up failure screen" fallback_screen "$root"
    else
        check "hub service enabled" state "$root" samoobsluha-hub.service enabled
        check "hub unit: LimitNOFILE" grep -q '^LimitNOFILE=' "$root/etc/systemd/system/samoobsluha-hub.service"
        check "hub serves time only once confirmed (path unit enabled)" state "$root" samoobsluha-time-serve.path enabled
        check "hub chrony.conf has no unconditional 'local'" no_local_line "$root"
        check "kiosk not enabled on the hub" state "$root" samoobsluha-kiosk.service disabled
        check "hub's lexicon ($HUB_LEXICON)" chroot "$root" /usr/local/bin/hub lexicon info /srv/samoobsluha/lexicons/cs.lex
        check "systemd-analyze verify (hub)" chroot "$root" systemd-analyze verify --man=no samoobsluha-hub.service samoobsluha-time.service samoobsluha-time-serve.path
        check "$MODE: hub serve answers; time rule; key never printed" hub_session "$root"
    fi
}

# The hub first: its card creates the tournament key the station cards carry.
for role in ${ROLES:-hub station}; do
    run_role "$role"
done
if [ -d "$WORK/hub" ] && [ -d "$WORK/station" ]; then
    say "hall-check.sh on the hub against station-01"
    t0=$(date +%s)
    with_setuid_emulation || echo "dry-run: cannot enable setuid under emulation; sudo fails" >&2
    check "hall-check on the hub passes (lexicon per station, sudo -u samoobsluha)" hall_check
    cat "$WORK/last-check.log"
    lap "hall-check" "$t0"
fi
for role in hub station; do [ -d "$WORK/$role" ] && unmount_api "$WORK/$role"; done
cleanup
mounted=()
# The installed roots take ~0.6-1 GB each: kept only with KEEP_ROOTS=1 (logs stay).
if [ "${KEEP_ROOTS:-0}" != 1 ]; then
    for role in hub station; do
        if [ -d "$WORK/$role" ] && ! findmnt -rno TARGET | grep -q "^$WORK/$role/"; then
            rm -rf "${WORK:?}/$role"
        fi
    done
    rm -rf "${bundle:?}/debs"
fi
say "dry run ($ARCH, $SUITE) finished in $(stamp) with $fails failed checks (logs in $WORK)"
printf '  %s\n' "${timings[@]}" "bundle: $(sed -n 's/^\(wheels\|debs\): /\1 /p' "$bundle/BUNDLE.txt" | tr '\n' ' ')"
[ "$fails" -eq 0 ]

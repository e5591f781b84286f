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
#   WORKDIR (default .cache/dry-run/ARCH-RELEASE in this clone): debootstrap's base root is
#     cached there and reused (the bundle's apt lists and packages are cached in
#     .cache/bundle-apt); the installed roots are removed at the end unless KEEP_ROOTS=1
#     (they need ~2 GB free while the run lasts). Every check's result is also written to
#     WORKDIR/checks.tsv ("ok"/"FAIL", tab, what); tests/provisioning/test_provision_dryrun.py
#     runs this script natively and reads it.
#
# 1. debootstrap a minimal Debian root of the release (+ systemd-timesyncd, which Raspberry
#    Pi OS Lite has and chrony must replace offline);
# 2. provisioning/build-bundle.sh for that release and architecture (wheelhouse and the
#    Debian packages' whole dependency closure, from Debian's archive only);
# 3. "hub provision hub" (it creates the tournament key), then "hub provision station",
#    into each root's /boot/firmware (a stock-like cmdline.txt and config.txt);
# 4. install.sh in each root inside a network namespace with no interfaces (unshare --net):
#    the install really has no network; the hub's and the station's run side by side (each
#    card already holds what it needs), and each step's checks say how long they took;
# 5. checks: packages, venv, units, config.txt's bell line, logind, secrets (key, password
#    hash, referee PIN hash) wiped from the card, a card/--image mismatch refused before
#    anything is written, samoobsluha-admin rw/ro, then the programs themselves: "station
#    check kůň" (exit 0), "station run --headless" for 20 s, "hub serve" answering on
#    loopback, the hub-time rule (exit codes of hub time status/confirm and round start);
# 6. the kiosk's start-up failures, each ending on the recorded red screen: data partition
#    missing, data partition full (free space, and SQLite's own "disk is full"), lexicon
#    missing, station.toml broken; then the station root BOOTED under systemd-nspawn with
#    an unmountable data partition and --display console: the kiosk unit must start, show
#    the fallback screen on the console (its tty), not only in the journal; booted again with
#    the default display (cage + foot, wlroots' headless backend for the missing HDMI) it
#    must reach the word check and keep it, and with cage removed show the display screen;
# 7. hall-check.sh from "the laptop" (this machine) with --hub, its ssh replaced by chroots
#    into overlay-mounted copies of both roots: it must fail while the station's clock is
#    unknown, off or unsynchronised, the root is not an overlay or the data partition is not
#    mounted, and pass when all is well.
# What it cannot do: boot a Pi (no kernel, firmware, cloud-init run, display, GPIO); see
# provisioning/README.md for what only a real Pi proves.
set -euo pipefail
REPO=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
ARCH=""
SUITE=${SUITE:-bookworm}
WORK=""
while [ $# -gt 0 ]; do
    case "$1" in
        --arch) ARCH=$2; shift 2 ;;
        --release) SUITE=$2; shift 2 ;;
        -h|--help) sed -n '2,45p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "dry-run: unknown option $1" >&2; exit 2 ;;
        *) WORK=$1; shift ;;
    esac
done
HOST_ARCH=$(dpkg --print-architecture)
ARCH=${ARCH:-arm64}
MODE=$([ "$ARCH" = "$HOST_ARCH" ] && echo native || echo "emulated $ARCH")
WORK=${WORK:-$REPO/.cache/dry-run/$ARCH-$SUITE}
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
WORK=$(readlink -f "$WORK")
: > "$WORK/checks.tsv"
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
#    sudo, systemd-timesyncd, dbus for logind and the kiosk's PAM session).
BASE_PACKAGES=python3,systemd,systemd-sysv,systemd-timesyncd,sudo,ca-certificates,util-linux,dbus
t0=$(date +%s)
if [ ! -x "$WORK/base/usr/bin/python3" ]; then
    say "debootstrap $SUITE $ARCH into $WORK/base"
    rm -rf "$WORK/base"
    debootstrap --arch="$ARCH" --variant=minbase --include="$BASE_PACKAGES" \
        "$SUITE" "$WORK/base" "$MIRROR" > "$WORK/debootstrap.log"
    lap "debootstrap" "$t0"
fi
# A base cached by an older version of this script may lack a package added since.
missing_base=()
for pkg in ${BASE_PACKAGES//,/ }; do
    # shellcheck disable=SC2016  # dpkg-query's format, not an expansion
    chroot "$WORK/base" dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
        || missing_base+=("$pkg")
done
if [ ${#missing_base[@]} -gt 0 ]; then
    say "adding ${missing_base[*]} to the cached base"
    mount_api "$WORK/base"
    cp /etc/resolv.conf "$WORK/base/etc/resolv.conf"
    chroot "$WORK/base" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    chroot "$WORK/base" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing_base[@]}" > "$WORK/base-add.log"
    chroot "$WORK/base" apt-get clean
    unmount_api "$WORK/base"
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
printf '%s\n' '482193' > "$WORK/referee-pin"

provision_role() {  # a fresh root for ROLE, its card provisioned, proc/sys/dev mounted
    local role=$1 root=$WORK/$1 boot
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
    if [ "$SUITE" != bookworm ]; then
        # Trixie's boot partition carries a cloud-init seed (pi-gen stage2/04-cloud-init).
        echo "instance-id: rpi-image" > "$boot/meta-data"
        echo "#cloud-config" > "$boot/user-data"
        printf 'network:\n  version: 2\n' > "$boot/network-config"
    fi
    # --image for the other release: refused before anything is written (checked below).
    local other
    other=$([ "$SUITE" = bookworm ] && echo trixie || echo bookworm)
    (cd "$boot" && find . -type f -exec sha256sum {} + | sort) > "$WORK/$role-card-before"
    local mismatch_rc=0
    "$HUB" provision "$role" --image "$other" --name "${role/station/station-01}" --target "$boot" \
        --psk-file "$([ "$role" = hub ] && echo "$WORK/mismatch/tournament.key" || echo "$key")" \
        --ssh-key "$WORK/id.pub" --password-file "$WORK/password" \
        --tournament dry-run > "$WORK/$role-mismatch.log" 2>&1 || mismatch_rc=$?
    echo "$mismatch_rc" > "$WORK/$role-mismatch.rc"
    (cd "$boot" && find . -type f -exec sha256sum {} + | sort) > "$WORK/$role-card-after"

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
            --referee-pin-file "$WORK/referee-pin" \
            --lexicon "$LEXICON" > "$WORK/$role-provision.log"
    fi
    # What the card carries before the install (the station's is its own derived key, not
    # the hall secret), and the secrets the install must leave nowhere on it.
    cp "$boot/samoobsluha/tournament.key" "$WORK/$role.key-on-card"
    {
        if grep -q '^key = ' "$boot/samoobsluha/tournament.key"; then  # a station's own key
            sed -n 's/^key = "\(.*\)"$/\1/p' "$boot/samoobsluha/tournament.key"
        else                                                            # the hall secret
            tr -d '\n' < "$boot/samoobsluha/tournament.key"; echo
        fi
        if [ -f "$boot/samoobsluha/station.toml" ]; then
            sed -n 's/^referee_pin[A-Za-z0-9_]* = "\(.*\)"$/\1/p' "$boot/samoobsluha/station.toml"
        fi
        cat "$boot/firstrun.sh" "$boot/user-data" 2>/dev/null \
            | grep -o '\$[0-9a-z]\+\$[^"'"'"' ]*' | head -n1 || true
    } > "$WORK/$role.secrets"

    mount_api "$root"
}
install_role() {  # install.sh in ROLE's root; its seconds in WORK/ROLE-install.seconds
    local role=$1 root=$WORK/$1 t0
    say "$role: install.sh with NO network (unshare --net), $ARCH"
    t0=$(date +%s)
    if ! unshare --net "${CLEAN_ENV[@]}" chroot "$root" /usr/bin/env SAMOOBSLUHA_DRY_RUN=1 \
        /bin/bash /boot/firmware/samoobsluha/install.sh > "$WORK/$role-install.log" 2>&1; then
        tail -n 30 "$WORK/$role-install.log" >&2
        echo "dry-run: install.sh failed for $role" >&2
        return 1
    fi
    echo "$(( $(date +%s) - t0 ))" > "$WORK/$role-install.seconds"
    # The card's copy of the bundle has done its job (disk: ~70-120 MB per role).
    rm -rf "$root/boot/firmware/samoobsluha/debs" "$root/boot/firmware/samoobsluha/wheelhouse"
}

fails=0
bundle_checked=0
check() {  # check DESCRIPTION COMMAND...
    local what=$1 t0=$SECONDS
    shift
    if "$@" > "$WORK/last-check.log" 2>&1; then
        printf '  ok    %s (%d s)\n' "$what" $((SECONDS - t0))
        printf 'ok\t%s\n' "$what" >> "$WORK/checks.tsv"
    else
        printf '  FAIL  %s (%d s)\n' "$what" $((SECONDS - t0))
        printf 'FAIL\t%s\n' "$what" >> "$WORK/checks.tsv"
        sed 's/^/        /' "$WORK/last-check.log" | tail -n 8
        fails=$((fails + 1))
    fi
}
no_secret_on_card() {  # none of ROLE's secrets (key, PIN hash, password hash) on its card
    local root=$1 role=$2 secret
    [ -s "$WORK/$role.secrets" ] || { echo "no secrets recorded"; return 1; }
    while read -r secret; do
        [ -n "$secret" ] || continue
        if grep -rqF --exclude-dir=debs --exclude-dir=wheelhouse -- "$secret" "$root/boot/firmware"; then
            echo "still on the card: ${secret:0:12}…"
            return 1
        fi
    done < "$WORK/$role.secrets"
}
mismatch_refused() {  # the other release's --image was refused and the card left as it was
    local role=$1
    cat "$WORK/$role-mismatch.log"
    [ "$(cat "$WORK/$role-mismatch.rc")" = 2 ] && grep -q -- "--image" "$WORK/$role-mismatch.log" \
        && cmp -s "$WORK/$role-card-before" "$WORK/$role-card-after"
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
        && grep -q 'next boot: read-only' <<<"$(chroot "$root" samoobsluha-admin status)" \
        && chroot "$root" samoobsluha-admin rw && [ "$(cat "$c")" = "$base" ] \
        && grep -q 'next boot: writable' <<<"$(chroot "$root" samoobsluha-admin status)" \
        && chroot "$root" samoobsluha-admin ro && [ "$(cat "$c")" = "$base overlayroot=tmpfs:recurse=0" ]
}
# Every action the release's own foot.ini(5) binds by default (its "Default:" is not
# "none"/"not bound") is set to "none" in the kiosk's foot.ini: a newer foot's new default
# key would otherwise reach the players.
foot_ini_covers_manual() {
    local man actions a missing=""
    man=$(find "$1/usr/share/man/man5" -name 'foot.ini.5*' 2>/dev/null | head -n1)
    [ -n "$man" ] || { echo "no foot.ini(5) in the root"; return 1; }
    actions=$(zcat -f "$man" | sed -n '/SECTION: key-bindings/,/SECTION: search-bindings/p' | awk '
        /^\\fB[a-z][a-z0-9-]*\\fR$/ { a = $0; gsub(/\\f[BR]/, "", a); d = ""; next }
        a != "" && /Default:/ { d = $0; if (d !~ /\\fI$/ && d !~ /Default: *$/) { print a "\t" d; a = "" }; next }
        a != "" && d != "" { print a "\t" d " " $0; a = "" }
    ' | awk -F'\t' '$2 !~ /not bound|\\fInone\\fR/ { print $1 }' | sort -u)
    [ -n "$actions" ] || { echo "foot's manual changed its layout"; return 1; }
    for a in $actions; do
        grep -qx "$a=none" "$1/usr/local/lib/samoobsluha/foot.ini" || missing="$missing $a"
    done
    echo "bound by default in $SUITE's foot: $(tr '\n' ' ' <<<"$actions")"
    [ -z "$missing" ] || { echo "not unbound:$missing"; return 1; }
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
        rc=0; run /usr/local/bin/hub round start 1 2> /tmp/refused.log || rc=$?
        [ "$rc" = 2 ]                                      # refused (a service error)
        echo "round start refused (exit $rc): $(cat /tmp/refused.log)"
        run /usr/local/bin/hub time confirm --yes
        run /usr/local/bin/hub time status
        run /usr/local/bin/hub round start 1 --in 60 > /dev/null
        echo "round start accepted after the confirmation"
        kill -- -$pid; wait $pid || true
        ! grep -qi "$(cat /srv/samoobsluha/tournament.key | tr -d "\n")" /tmp/serve.log
        echo "hub serve did not print the key"
    '
}
overlay_root() {  # overlay_root LOWER TARGET: TARGET = LOWER + a throw-away upper layer in RAM
    local lower=$1 target=$2 ovl
    ovl=$WORK/ovl-$(basename "$target")
    mkdir -p "$ovl" "$target"
    mount -t tmpfs -o size=512m dry-run-upper "$ovl"
    mounted=("$ovl" "${mounted[@]}")
    mkdir -p "$ovl/upper" "$ovl/work"
    mount -t overlay dry-run-root -o "lowerdir=$lower,upperdir=$ovl/upper,workdir=$ovl/work" "$target"
    mounted=("$target" "${mounted[@]}")
}
bind_data() {  # bind_data ROOT LIVE: the data directory as its own mount, as on a Pi
    mount --bind "$1/srv/samoobsluha" "$2/srv/samoobsluha"
    mounted=("$2/srv/samoobsluha" "${mounted[@]}")
}

# --- 6. the kiosk's start-up failures --------------------------------------------------------
kiosk_fails_with() {  # kiosk_fails_with ROOT KIND RC [ENV=VALUE...]: kiosk-inner, as the kiosk
                      # runs it, exits RC with the KIND screen recorded
    local root=$1 want=$2 want_rc=$3 rc=0 rt shown
    shift 3
    rt=$(mktemp -d "$root/tmp/kiosk-runtime.XXXXXX")
    chmod 0777 "$rt"
    as_service "$root" env FALLBACK_SECONDS=0 RUNTIME_DIRECTORY="${rt#"$root"}" "$@" \
        timeout 120 /usr/local/lib/samoobsluha/kiosk-inner < /dev/null > "$WORK/kiosk-inner.out" 2>&1 \
        || rc=$?
    shown=$(cat "$rt/fallback" 2>/dev/null)
    rm -rf "$rt"
    tail -n 5 "$WORK/kiosk-inner.out"
    echo "exit $rc, screen '$shown' (wanted $want_rc, '$want')"
    [ "$rc" = "$want_rc" ] && [ "$shown" = "$want" ]
}
fail_data_missing() {  # install.sh found the partition; at this boot it is not mounted
    local root=$1 rc=0
    touch "$root/etc/samoobsluha/require-data-mount"
    kiosk_fails_with "$root" data 1 || rc=1
    rm -f "$root/etc/samoobsluha/require-data-mount"
    return $rc
}
full_data() {  # full_data ROOT SIZE: a tmpfs of SIZE over the data dir, the station's files
               # in it, the rest filled up
    local root=$1 data=$1/srv/samoobsluha
    mkdir -p "$WORK/full"
    mount -t tmpfs -o "size=$2,mode=0750" dry-run-full "$WORK/full"
    mounted=("$WORK/full" "${mounted[@]}")
    cp -a "$data/lexicons" "$WORK/full/" 2>/dev/null || true
    mkdir -p "$WORK/full/run"
    dd if=/dev/zero of="$WORK/full/filler" bs=64k status=none 2>/dev/null || true
    mount --bind "$WORK/full" "$data"
    mounted=("$data" "${mounted[@]}")
    chroot "$root" chown -R samoobsluha:samoobsluha /srv/samoobsluha
}
unfull_data() {
    umount "$1/srv/samoobsluha" 2>/dev/null
    umount "$WORK/full" 2>/dev/null
    return 0
}
fail_disk_full() {  # below the free-space floor: the word check never starts
    local root=$1 rc=0
    full_data "$root" 16m
    kiosk_fails_with "$root" disk 1 || rc=1
    unfull_data "$root"
    return $rc
}
fail_disk_full_sqlite() {  # no floor: station run itself meets the full disk (a new database)
    local root=$1 rc=0
    full_data "$root" 16m
    kiosk_fails_with "$root" disk 1 MIN_FREE_KIB=0 || rc=1
    unfull_data "$root"
    return $rc
}
fail_lexicon_missing() {
    local root=$1 lex rc=0
    lex=$root/srv/samoobsluha/lexicons/$(basename "$LEXICON")
    mv "$lex" "$lex.away"
    kiosk_fails_with "$root" lexicon 2 || rc=1
    mv "$lex.away" "$lex"
    return $rc
}
fail_config_broken() {
    local root=$1 toml=$1/etc/samoobsluha/station.toml rc=0
    cp -p "$toml" "$toml.good"
    printf '[station\nname = \n' >> "$toml"
    kiosk_fails_with "$root" config 2 || rc=1
    mv -f "$toml.good" "$toml"
    return $rc
}

# Boots LIVE under systemd-nspawn with its dry-run-probe (already written into LIVE): a
# oneshot after the kiosk unit that records what it sees into RES and powers off.
boot_with_probe() {  # boot_with_probe LIVE RES
    local live=$1 res=$2
    chmod 0755 "$live/usr/local/lib/samoobsluha/dry-run-probe"
    printf '[Unit]\nAfter=samoobsluha-kiosk.service\n[Service]\nType=oneshot\nExecStart=/usr/local/lib/samoobsluha/dry-run-probe\n[Install]\nWantedBy=multi-user.target\n' \
        > "$live/etc/systemd/system/dry-run-probe.service"
    ln -sf /etc/systemd/system/dry-run-probe.service "$live/etc/systemd/system/multi-user.target.wants/"
    # script(1) gives nspawn a terminal, so the container's console is a pty we can read.
    timeout 300 script -qfec "systemd-nspawn -q --register=no --keep-unit -D $live --bind=$res:/dry-run-results -b" \
        "$res/console.log" < /dev/null > /dev/null 2>&1 || true
}

# The station booted: systemd-nspawn runs the installed root's own systemd with an
# unmountable data partition (an image file that is no file system, "nofail" as install.sh
# writes it) and the console kiosk. The kiosk unit must START (no dependency on the mount)
# and show the red screen on its terminal; a probe unit records what systemd says.
boot_fallback() {
    local root=$1 live=$WORK/boot-station res=$WORK/boot-results title
    command -v systemd-nspawn >/dev/null || { echo "systemd-nspawn missing (systemd-container)"; return 1; }
    overlay_root "$root" "$live"
    rm -rf "$res"
    mkdir -p "$res"
    head -c 1M /dev/urandom > "$live/var/lib/samodata-damaged.img"
    echo "/var/lib/samodata-damaged.img /srv/samoobsluha ext4 loop,defaults,noatime,nofail,x-systemd.device-timeout=10s 0 2" \
        >> "$live/etc/fstab"
    touch "$live/etc/samoobsluha/require-data-mount"
    sed -i 's/^KIOSK_DISPLAY=.*/KIOSK_DISPLAY=console/' "$live/etc/samoobsluha/kiosk.env"
    # A container's console is /dev/console (a pty), not a VT: the kiosk's terminal there
    # (no VT hang-up), and the container's own getty off it.
    mkdir -p "$live/etc/systemd/system/samoobsluha-kiosk.service.d"
    printf '[Service]\nTTYPath=/dev/console\nTTYVHangup=no\nTTYVTDisallocate=no\nEnvironment=FALLBACK_SECONDS=300\n' \
        > "$live/etc/systemd/system/samoobsluha-kiosk.service.d/dry-run.conf"
    ln -sf /dev/null "$live/etc/systemd/system/console-getty.service"
    cat > "$live/usr/local/lib/samoobsluha/dry-run-probe" <<'SH'
#!/bin/bash
for _ in $(seq 120); do [ -s /run/samoobsluha-kiosk/fallback ] && break; sleep 1; done
cp /run/samoobsluha-kiosk/fallback /dry-run-results/fallback 2>/dev/null
systemctl is-active samoobsluha-kiosk > /dry-run-results/kiosk-active
systemctl show -p ActiveState,SubState,Result,NRestarts samoobsluha-kiosk > /dry-run-results/kiosk-show
systemctl is-active srv-samoobsluha.mount > /dry-run-results/mount-active
journalctl -b -o cat --no-pager > /dry-run-results/journal.txt 2>&1
systemctl --no-block poweroff
SH
    boot_with_probe "$live" "$res"
    title=$(chroot "$root" /opt/samoobsluha/bin/python -c \
        'from samoobsluha.shared.i18n import t; print(t("fallback.title", "cs"))')
    echo "kiosk: $(cat "$res/kiosk-active" 2>/dev/null); screen: $(cat "$res/fallback" 2>/dev/null);" \
        "data mount: $(cat "$res/mount-active" 2>/dev/null)"
    cat "$res/kiosk-show" 2>/dev/null
    [ "$(cat "$res/kiosk-active" 2>/dev/null)" = active ] \
        && [ "$(cat "$res/fallback" 2>/dev/null)" = data ] \
        && [ "$(cat "$res/mount-active" 2>/dev/null)" != active ] \
        && grep -qF "$title" "$res/console.log" \
        && ! grep -qF "$title" "$res/journal.txt"
}

# The station booted with the display it ships by default (cage + foot), the data directory
# on the root as the dry run installed it: the kiosk unit must reach "station run" (the word
# check, i.e. the idle screen) and keep it running, no red screen recorded. A container has
# no DRM device: wlroots' headless backend stands in for the HDMI output (WLR_BACKENDS), and
# no GPIO chip: gpiozero's mock pins, as in the checks above; everything else (PAM session, cage, WLR_XWAYLAND, foot.ini, kiosk-inner) is the card's.
# BREAK_DISPLAY=1: the same with cage removed: the red screen ("display") must be recorded.
boot_display() {
    local root=$1 broken=${2:-0} live=$WORK/boot-display-$2 res=$WORK/boot-display-$2-results
    overlay_root "$root" "$live"
    rm -rf "$res"
    mkdir -p "$res"
    sed -i 's/^KIOSK_DISPLAY=.*/KIOSK_DISPLAY=cage/' "$live/etc/samoobsluha/kiosk.env"
    mkdir -p "$live/etc/systemd/system/samoobsluha-kiosk.service.d"
    printf '[Service]\nTTYPath=/dev/console\nTTYVHangup=no\nTTYVTDisallocate=no\nEnvironment=FALLBACK_SECONDS=300 WLR_BACKENDS=headless WLR_RENDERER=pixman GPIOZERO_PIN_FACTORY=mock\n' \
        > "$live/etc/systemd/system/samoobsluha-kiosk.service.d/dry-run.conf"
    ln -sf /dev/null "$live/etc/systemd/system/console-getty.service"
    [ "$broken" = 1 ] && rm -f "$live/usr/bin/cage"
    cat > "$live/usr/local/lib/samoobsluha/dry-run-probe" <<'SH'
#!/bin/bash
# Up to 150 s for the word check to run 20 s in a row inside the kiosk unit (or a red screen).
up=0
for _ in $(seq 150); do
    [ -s /run/samoobsluha-kiosk/fallback ] && break
    # the service user's "station run" (as hall-check finds it; no procps in this root)
    if for d in /proc/[0-9]*; do
            [ "$(stat -c %U "$d" 2>/dev/null)" = samoobsluha ] && tr '\0' ' ' < "$d/cmdline" 2>/dev/null && echo
        done | grep -q 'bin/station run'; then
        up=$((up + 1))
    else
        up=0
    fi
    [ "$up" -ge 20 ] && break
    sleep 1
done
echo "$up" > /dry-run-results/word-check-seconds
cp /run/samoobsluha-kiosk/fallback /dry-run-results/fallback 2>/dev/null
systemctl show -p ActiveState,SubState,Result,NRestarts samoobsluha-kiosk > /dry-run-results/kiosk-show
journalctl -b -u samoobsluha-kiosk -o cat --no-pager > /dry-run-results/journal.txt 2>&1
systemctl --no-block poweroff
SH
    boot_with_probe "$live" "$res"
    echo "word check up: $(cat "$res/word-check-seconds" 2>/dev/null) s; screen: $(cat "$res/fallback" 2>/dev/null)"
    cat "$res/kiosk-show" 2>/dev/null
    tail -n 15 "$res/journal.txt" 2>/dev/null
    if [ "$broken" = 1 ]; then
        # recorded for hall-check, and on the console (the screen) itself
        [ "$(cat "$res/fallback" 2>/dev/null)" = display ] \
            && grep -qF "$(chroot "$root" /opt/samoobsluha/bin/python -c \
                'from samoobsluha.shared.i18n import t; print(t("fallback.why.display", "cs"))' \
                | cut -c1-40)" "$res/console.log"
    else
        [ "$(cat "$res/word-check-seconds" 2>/dev/null)" -ge 20 ] && [ ! -s "$res/fallback" ] \
            && ! grep -q 'Cannot create XWayland server' "$res/journal.txt"
    fi
}

# --- 7. hall-check from the laptop -------------------------------------------------------------
admin_user() {  # the administrator cloud-init / firstrun.sh would create (not run here)
    chroot "$1" id rozhodci >/dev/null 2>&1 \
        || chroot "$1" useradd -m -s /bin/bash -G sudo rozhodci
    echo 'rozhodci ALL=(ALL) NOPASSWD:ALL' > "$1/etc/sudoers.d/rozhodci"
    chmod 0440 "$1/etc/sudoers.d/rozhodci"
}
live_roots() {  # overlay-mounted copies of both roots (read-only root, data as its own mount)
    local role
    for role in hub station; do
        overlay_root "$WORK/$role" "$WORK/live-$role"
        bind_data "$WORK/$role" "$WORK/live-$role"
        mount_api "$WORK/live-$role"
        admin_user "$WORK/live-$role"
    done
    # The station's chrony as its "chronyc tracking" would report it (state in a file).
    cat > "$WORK/live-station/usr/local/bin/chronyc" <<'SH'
#!/bin/bash
read -r leap offset < /etc/dry-run-tracking
echo "Reference ID    : C0A83202 (hub.local)"
echo "System time     : $offset seconds slow of NTP time"
echo "Leap status     : $leap"
SH
    chmod 0755 "$WORK/live-station/usr/local/bin/chronyc"
    # The kiosk unit's state as systemd would report it (no systemd runs in a chroot), and
    # a stand-in word check: a process of the service user whose command line is the
    # kiosk's "station run" (hall-check reads its age from /proc).
    cat > "$WORK/live-station/usr/local/bin/systemctl" <<'SH'
#!/bin/bash
case "$*" in
    "is-active samoobsluha-kiosk") cat /etc/dry-run-kiosk-state 2>/dev/null || echo active ;;
    *) exec /usr/bin/systemctl "$@" ;;
esac
SH
    chmod 0755 "$WORK/live-station/usr/local/bin/systemctl"
    chroot "$WORK/live-station" runuser -u samoobsluha -- \
        bash -c 'exec -a "/opt/samoobsluha/bin/python /usr/local/bin/station run" sleep 3600' \
        < /dev/null > /dev/null 2>&1 &
    word_check_pid=$!
    word_check_since=$(date +%s)
    # A third station root: the same files, but a plain (writable) root, data mounted.
    mkdir -p "$WORK/plain-station"
    mount --bind "$WORK/station" "$WORK/plain-station"
    mounted=("$WORK/plain-station" "${mounted[@]}")
    cat > "$WORK/dry-run-ssh" <<'SH'
#!/bin/bash
# dry-run stand-in for ssh: [options] rozhodci@HOST COMMAND -> COMMAND in HOST's root
while [ "${1#-}" != "$1" ]; do case "$1" in -o) shift 2 ;; *) shift ;; esac; done
host=${1#*@}
shift
case "$host" in
    hub.local) root=$WORK/live-hub ;;
    station-01.local) root=$WORK/${STATION_ROOT:-live-station} ;;
    *) echo "ssh: $host: unknown host" >&2; exit 255 ;;
esac
exec unshare --net env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/home/rozhodci LANG=C.UTF-8 chroot "$root" runuser -u rozhodci -- bash -c "$*"
SH
    chmod 0755 "$WORK/dry-run-ssh"
}
hall_check_rc() {  # hall_check_rc RC TRACKING [ENV=VALUE...]: hall-check.sh exits RC
    local want=$1 tracking=$2 rc=0
    shift 2
    echo "$tracking" > "$WORK/live-station/etc/dry-run-tracking"
    env WORK="$WORK" HALL_SSH="$WORK/dry-run-ssh" "$@" \
        "$REPO/provisioning/hall-check.sh" --hub hub station-01 || rc=$?
    echo "exit $rc (wanted $want)"
    [ "$rc" = "$want" ]
}
hall_check_no_data() {  # the station's data partition not mounted
    local rc=0
    umount "$WORK/live-station/srv/samoobsluha"
    hall_check_rc 1 "Normal 0.000012" || rc=1
    bind_data "$WORK/station" "$WORK/live-station"
    return $rc
}
hall_check_plain_root() {  # the station's root writable (no overlay), data mounted
    local rc=0
    bind_data "$WORK/station" "$WORK/plain-station"
    mount_api "$WORK/plain-station"
    admin_user "$WORK/plain-station"
    hall_check_rc 1 "Normal 0.000012" STATION_ROOT=plain-station || rc=1
    unmount_api "$WORK/plain-station"
    umount "$WORK/plain-station/srv/samoobsluha"
    return $rc
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
console_cache_fresh() {
    local cache
    cache=$(find "$1/etc/console-setup" -maxdepth 1 -name 'cached_*.kmap.gz' 2>/dev/null | head -n1)
    [ -n "$cache" ] && [ ! "$1/etc/default/keyboard" -nt "$cache" ]
}

check_role() {
    local role=$1 root=$2
    say "$role: checks ($(stamp) so far)"
    if [ "$bundle_checked" = 0 ]; then  # one bundle for both cards: read its 200 .debs once
        check "bundle: every Debian package is $ARCH or all" all_debs_arch
        bundle_checked=1
    fi
    check "root is $ARCH; venv python is an $ARCH binary" elf_arch "$root"
    check "install.sh's namespace cannot reach the network" no_network "$root"
    check "chrony installed from the bundle, systemd-timesyncd replaced" chrony_replaced "$root"
    check "venv has samoobsluha" chroot "$root" /opt/samoobsluha/bin/python -c 'import samoobsluha.station, samoobsluha.hub, samoobsluha.shared'
    check "station --help runs" chroot "$root" /usr/local/bin/station --help
    check "hub --help runs" chroot "$root" /usr/local/bin/hub --help
    if [ "$role" = station ]; then
        check "tournament key 0640 root:samoobsluha in /etc" \
            test "$(chroot "$root" stat -c '%a %U:%G' /etc/samoobsluha/tournament.key)" = "640 root:samoobsluha"
        check "key installed is the station's own key from the card" cmp -s "$WORK/station.key-on-card" "$root/etc/samoobsluha/tournament.key"
        check "referee PIN hash installed in /etc" grep -q '^referee_pin' "$root/etc/samoobsluha/station.toml"
    else
        check "tournament key 0600 samoobsluha in the data dir (where hub serve reads it)" \
            test "$(chroot "$root" stat -c '%a %U' /srv/samoobsluha/tournament.key)" = "600 samoobsluha"
        check "key installed is the key on the card" cmp -s "$WORK/hub.key-on-card" "$root/srv/samoobsluha/tournament.key"
    fi
    check "secrets: no key file left on the card" test ! -e "$root/boot/firmware/samoobsluha/tournament.key"
    check "secrets: the key's text is nowhere on the card" not_in_boot "$root" "$(tr -d '\n' < "$key")"
    check "secrets: the card's own key, PIN hash, password hash nowhere on it" no_secret_on_card "$root" "$role"
    check "--image of the other release refused, card untouched" mismatch_refused "$role"
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
    check "console-setup cache fresh (newer than the keyboard file)" console_cache_fresh "$root"
    check "rpi-swap: no swap file on the read-only root" grep -qx 'Mechanism=zram' "$root/etc/rpi/swap.conf.d/90-samoobsluha.conf"
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
        check "station.toml (PIN hash) readable by root and the service user only" \
            test "$(chroot "$root" stat -c '%a %U %G' /etc/samoobsluha/station.toml)" = "640 root samoobsluha"
        check "foot accepts the kiosk's foot.ini (no warning bar)" chroot "$root" foot --check-config --config=/usr/local/lib/samoobsluha/foot.ini
        check "foot.ini unbinds every key $SUITE's foot binds by default (its manual)" foot_ini_covers_manual "$root"
        check "station.toml loads" chroot "$root" /opt/samoobsluha/bin/python -c \
            'from samoobsluha.station.config import load; c = load("/etc/samoobsluha/station.toml"); assert c.name == "station-01", c.name'
        check "kiosk scripts installed" test -x "$root/usr/local/lib/samoobsluha/kiosk-session"
        check "systemd-analyze verify (kiosk)" chroot "$root" systemd-analyze verify --man=no samoobsluha-kiosk.service
        check "lexicon copied and readable" chroot "$root" /usr/local/bin/hub lexicon info "/srv/samoobsluha/lexicons/$(basename "$LEXICON")"
        check "$MODE: station check kůň (exit 0)" as_service "$root" /usr/local/bin/station check kůň
        check "$MODE: station check xqzwy (exit 1, not valid)" invalid_word "$root"
        check "$MODE: station run --headless keeps running for 20 s, offline" headless_station "$root"
        check "$MODE: lexicon error -> the Czech start-up failure screen" fallback_screen "$root"
        check "kiosk: data partition missing -> the data screen, no word check" fail_data_missing "$root"
        check "kiosk: data partition full -> the disk screen, no word check" fail_disk_full "$root"
        check "kiosk: SQLite meets a full disk at start -> the disk screen" fail_disk_full_sqlite "$root"
        check "kiosk: lexicon missing -> the lexicon screen (exit 2)" fail_lexicon_missing "$root"
        check "kiosk: station.toml broken -> the config screen (exit 2)" fail_config_broken "$root"
        if [ "$ARCH" != "$HOST_ARCH" ] && [ "${BOOT:-0}" != 1 ]; then
            # Booting a whole emulated systemd is slow and not what this mode measures.
            echo "dry-run: boot check skipped under emulation (BOOT=1 runs it)" >&2
            printf 'SKIP\t%s\n' "boot (nspawn)" >> "$WORK/checks.tsv"
        elif command -v systemd-nspawn >/dev/null; then
            check "boot (nspawn): unmountable data partition -> kiosk unit runs, red screen on its tty, not only in the journal" \
                boot_fallback "$root"
            check "boot (nspawn): the default display (cage + foot, $SUITE's own) reaches the word check and keeps it" \
                boot_display "$root" 0
            check "boot (nspawn): the display broken (no cage) -> the display red screen, recorded" \
                boot_display "$root" 1
        else
            echo "dry-run: SKIPPED the boot check: systemd-nspawn is missing (apt-get install systemd-container)" >&2
            printf 'SKIP\t%s\n' "boot (nspawn)" >> "$WORK/checks.tsv"
        fi
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
    provision_role "$role"
done
# The two installs need nothing from each other (the station's card got the hub's key
# when it was provisioned), so they run side by side: the hub's is mostly its lexicon
# build from hunspell-cs on one core, the station's mostly dpkg and pip.
t0=$(date +%s)
installs=()
for role in ${ROLES:-hub station}; do
    install_role "$role" &
    installs+=("$!")
done
for pid in "${installs[@]}"; do
    wait "$pid" || { echo "dry-run: an install failed (logs in $WORK)" >&2; exit 1; }
done
for role in ${ROLES:-hub station}; do
    timings+=("$role install.sh (side by side): $(cat "$WORK/$role-install.seconds") s")
done
lap "both installs" "$t0"
for role in ${ROLES:-hub station}; do
    t0=$(date +%s)
    check_role "$role" "$WORK/$role"
    lap "$role checks" "$t0"
done
if [ -d "$WORK/hub" ] && [ -d "$WORK/station" ]; then
    say "hall-check.sh from the laptop (--hub) against station-01"
    t0=$(date +%s)
    with_setuid_emulation || echo "dry-run: cannot enable setuid under emulation; sudo fails" >&2
    live_roots
    check "hall-check fails while the station's clock is not synchronised" \
        hall_check_rc 1 "Not synchronised 0.000012"
    check "hall-check fails when the station's clock is 2.5 s off" hall_check_rc 1 "Normal 2.500000"
    check "hall-check fails when the station's data partition is not mounted" hall_check_no_data
    check "hall-check fails when the station's root is not a read-only overlay" hall_check_plain_root
    echo activating > "$WORK/live-station/etc/dry-run-kiosk-state"
    check "hall-check fails when the station's kiosk unit restarts in a loop (no word check)" \
        hall_check_rc 1 "Normal 0.000012"
    rm -f "$WORK/live-station/etc/dry-run-kiosk-state"
    # hall-check wants the word check up for 10 s (a restart loop is up for 1-2 s at a time).
    while [ $(($(date +%s) - word_check_since)) -lt 11 ]; do sleep 1; done
    check "hall-check passes: overlay, data, lexicon per station, clock synchronised, word check running" \
        hall_check_rc 0 "Normal 0.000012"
    # The stand-in and whatever runuser left of it: the processes whose root is that copy.
    kill "$word_check_pid" 2>/dev/null || true
    for d in /proc/[0-9]*; do
        [ "$(readlink "$d/root" 2>/dev/null)" = "$WORK/live-station" ] && kill "${d#/proc/}" 2>/dev/null
    done || true
    cat "$WORK/last-check.log"
    for role in hub station; do unmount_api "$WORK/live-$role"; done
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

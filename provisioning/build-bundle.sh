#!/bin/bash
# Build the offline bundle a card carries, once, on any Debian or Ubuntu machine WITH internet
# (amd64 or arm64; no Raspberry Pi needed, no root needed for the default run):
#
#   provisioning/build-bundle.sh [-o DIR] [--release trixie|bookworm] [--arch arm64]
#                                [--python "3.13"] [--no-debs]
#
# DIR (default: bundle/) gets:
#   wheelhouse/  the samoobsluha wheel and every dependency as wheels for the target (aarch64
#                CPython 3.13 = Trixie, 3.11 = Bookworm); the Pi installs with
#                pip --no-index --find-links (no network).
#   debs/        the Debian packages install.sh needs (chrony, cage, foot, overlayroot,
#                hunspell-cs, ...) WITH THEIR WHOLE DEPENDENCY CLOSURE for the target release
#                and architecture, resolved against an empty package database by apt itself
#                (a private apt configuration with APT::Architecture=arm64 and its own
#                sources list; this machine's apt state is not read or changed). Only
#                Debian's archive is used: Raspberry Pi's archive is not reachable from a
#                build machine, and nothing we need lives only there (python3-lgpio comes
#                with the stock Raspberry Pi OS Lite image, see provisioning/README.md).
#   BUNDLE.txt   what was built, for which release and architecture, sizes.
#
# --arch amd64 makes a bundle for this kind of machine (provisioning/dry-run.sh --arch amd64).
# Then: hub provision station|hub --image RELEASE --bundle DIR ... (copies it onto each card).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."

out=bundle
release=trixie
arch=arm64
pythons=""
debs=1
mirror=${MIRROR:-http://deb.debian.org/debian}
security=${SECURITY_MIRROR:-http://security.debian.org/debian-security}
keyring=${KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out=$2; shift 2 ;;
        --release) release=$2; shift 2 ;;
        --arch) arch=$2; shift 2 ;;
        --python) pythons=$2; shift 2 ;;
        --no-debs) debs=0; shift ;;
        --debs) debs=1; shift ;;  # the default; kept for old notes
        -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-bundle: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$release" in
    bookworm) : "${pythons:=3.11}" ;;
    trixie) : "${pythons:=3.13}" ;;
    *) echo "build-bundle: --release bookworm or trixie, not $release" >&2; exit 2 ;;
esac
case "$arch" in
    arm64) pyarch=aarch64 ;;
    amd64) pyarch=x86_64 ;;
    *) echo "build-bundle: --arch arm64 or amd64, not $arch" >&2; exit 2 ;;
esac

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] && PY=.venv/bin/python
started=$(date +%s)
mkdir -p "$out"
out=$(readlink -f "$out")
wheels="$out/wheelhouse"
say() { printf '==> %s\n' "$*" >&2; }

# --- wheels -------------------------------------------------------------------------------
# Only the target's wheels: a wheelhouse left from an earlier run for another
# architecture would put foreign files on the card.
rm -rf "$wheels"
mkdir -p "$wheels"
say "building the samoobsluha wheel"
"$PY" -m pip wheel --quiet --no-deps --wheel-dir "$wheels" .
wheel=$(ls "$wheels"/samoobsluha-*.whl)

platforms=(--platform "manylinux_2_28_$pyarch" --platform "manylinux_2_24_$pyarch"
           --platform "manylinux_2_17_$pyarch" --platform "manylinux2014_$pyarch"
           --platform "linux_$pyarch")
for version in $pythons; do
    say "dependencies for $pyarch CPython $version"
    "$PY" -m pip download --quiet --dest "$wheels" --only-binary=:all: "${platforms[@]}" \
        --implementation cp --python-version "$version" "$wheel"
done
# Prove the wheelhouse is complete: resolve again with the network switched off for pip.
for version in $pythons; do
    "$PY" -m pip download --quiet --no-index --find-links "$wheels" --dest "$out/.check" \
        --only-binary=:all: "${platforms[@]}" --implementation cp --python-version "$version" \
        samoobsluha
done
rm -rf "$out/.check"
foreign=$(find "$wheels" -name '*.whl' ! -name '*-none-any.whl' ! -name "*$pyarch*" -printf '%f\n')
[ -z "$foreign" ] || { echo "build-bundle: wheels for another architecture: $foreign" >&2; exit 1; }
say "wheelhouse complete: $(find "$wheels" -name '*.whl' | wc -l) wheels, $(du -sh "$wheels" | cut -f1)"

# --- Debian packages ----------------------------------------------------------------------
if [ "$debs" = 1 ]; then
    [ -r "$keyring" ] || { echo "build-bundle: needs $keyring (apt install debian-archive-keyring)" >&2; exit 1; }
    packages=$("$PY" - "$release" <<'PY'
import sys

from samoobsluha.hub.provision.generator import ProvisionSpec

names: set[str] = set()
for role in ("station", "hub"):
    names.update(ProvisionSpec(role=role, hostname="x", psk="0" * 64, image=sys.argv[1]).apt_packages)
# A station that carries no lexicon builds its own from Debian's dictionary.
names.update(("hunspell-cs", "hunspell-sk", "hunspell-pl"))
print(" ".join(sorted(names)))
PY
)
    # A private apt root: its own sources, lists, cache and an EMPTY dpkg status, so apt
    # resolves the complete closure (nothing counts as installed) for the target
    # architecture. The same tree is reused as a cache by later runs.
    root=${APT_ROOT:-.cache/bundle-apt/$release-$arch}
    mkdir -p "$root"
    root=$(readlink -f "$root")
    mkdir -p "$root/etc/apt/apt.conf.d" "$root/etc/apt/preferences.d" "$root/etc/apt/sources.list.d" \
        "$root/etc/apt/trusted.gpg.d" "$root/lists/partial" "$root/archives/partial" "$root/dpkg"
    : > "$root/dpkg/status"
    suites=("$release" "$release-updates")
    {
        for suite in "${suites[@]}"; do
            echo "deb [arch=$arch signed-by=$keyring] $mirror $suite main"
        done
        echo "deb [arch=$arch signed-by=$keyring] $security $release-security main"
    } > "$root/etc/apt/sources.list"
    apt_opts=(-o "Dir=$root" -o "Dir::State=$root" -o "Dir::State::Lists=$root/lists"
              -o "Dir::State::status=$root/dpkg/status" -o "Dir::Cache=$root"
              -o "Dir::Cache::archives=$root/archives" -o "Dir::Etc=$root/etc/apt"
              -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch"
              -o "APT::Install-Recommends=false" -o "Debug::NoLocking=true"
              -o "APT::Sandbox::User=$(id -un)")
    say "apt: Debian $release $arch package lists"
    apt-get "${apt_opts[@]}" update -qq
    say "apt: $packages + dependencies"
    # shellcheck disable=SC2086  # the package list is meant to split
    apt-get "${apt_opts[@]}" install --download-only -y -qq $packages > "$out/.apt.log" \
        || { cat "$out/.apt.log" >&2; exit 1; }
    rm -rf "$out/debs"
    mkdir -p "$out/debs"
    # Exactly the packages of this resolution (the shared cache may hold older versions):
    # the names and versions apt's simulation chooses, mapped to the cached files.
    # shellcheck disable=SC2086
    apt-get "${apt_opts[@]}" install -s -y $packages 2>/dev/null \
        | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([a-z0-9]*\)\]).*/\1 \2 \3/p' \
        | sort -u > "$out/.chosen"
    while read -r name version parch; do
        file="${name}_${version//:/%3a}_${parch}.deb"
        [ -f "$root/archives/$file" ] || { echo "build-bundle: $file missing from the apt cache" >&2; exit 1; }
        cp "$root/archives/$file" "$out/debs/"
    done < "$out/.chosen"
    count=$(wc -l < "$out/.chosen")
    rm -f "$out/.chosen" "$out/.apt.log"
    [ "$count" -gt 0 ] || { echo "build-bundle: apt chose no packages" >&2; exit 1; }
    wrong=$(for deb in "$out"/debs/*.deb; do
        a=$(dpkg-deb -f "$deb" Architecture); [ "$a" = "$arch" ] || [ "$a" = all ] || echo "$(basename "$deb") ($a)"
    done)
    [ -z "$wrong" ] || { echo "build-bundle: packages for another architecture: $wrong" >&2; exit 1; }
    "$PY" -c 'import sys; from samoobsluha.hub.provision.debindex import main; sys.exit(main())' "$out/debs"
    say "debs: $count packages ($arch/all), $(du -sh "$out/debs" | cut -f1)"
else
    rm -rf "$out/debs"
fi

{
    echo "Samoobsluha offline bundle"
    echo "built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -m) in $(( $(date +%s) - started )) s"
    echo "release: $release"
    echo "arch: $arch"
    echo "python: $pythons"
    echo "wheels: $(find "$wheels" -name '*.whl' | wc -l) ($(du -sh "$wheels" | cut -f1))"
    if [ -d "$out/debs" ]; then
        echo "debs: $(find "$out/debs" -name '*.deb' | wc -l) ($(du -sh "$out/debs" | cut -f1))"
        echo "requested: $packages"
    fi
} > "$out/BUNDLE.txt"
cat "$out/BUNDLE.txt" >&2

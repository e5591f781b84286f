#!/bin/bash
# Build the offline bundle a card carries, once, on a machine WITH internet.
#
#   provisioning/build-bundle.sh [-o DIR] [--python "3.11 3.13"] [--debs]
#
# DIR (default: bundle/) gets:
#   wheelhouse/  the samoobsluha wheel and every dependency as wheels for the Raspberry Pi
#                (aarch64, CPython 3.11 = Bookworm, 3.13 = Trixie) and for this machine;
#                the Pi installs with pip --no-index --find-links (no network).
#   debs/        with --debs only: the Debian packages install.sh needs (cage, foot, chrony,
#                overlayroot, python3-lgpio, ...) that this machine does not have. Run it on
#                a Raspberry Pi freshly flashed with the SAME image as the cards (or a chroot
#                of it), so exactly the missing packages and their dependencies are fetched.
#
# Then: hub provision station|hub --bundle DIR ... (copies it onto each card).
# Every aarch64 dependency is a wheel (checked below); lgpio and RPi.GPIO are not (sdist
# only on PyPI), so they come from Debian (python3-lgpio) instead of the "pi" extra.
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")/.."

out=bundle
pythons="3.11 3.13"
debs=0
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out=$2; shift 2 ;;
        --python) pythons=$2; shift 2 ;;
        --debs) debs=1; shift ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build-bundle: unknown option $1" >&2; exit 2 ;;
    esac
done

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] && PY=.venv/bin/python
wheels="$out/wheelhouse"
mkdir -p "$wheels"
say() { printf '==> %s\n' "$*" >&2; }

say "building the samoobsluha wheel"
rm -f "$wheels"/samoobsluha-*.whl
"$PY" -m pip wheel --quiet --no-deps --wheel-dir "$wheels" .
wheel=$(ls "$wheels"/samoobsluha-*.whl)

platforms=(--platform manylinux_2_28_aarch64 --platform manylinux_2_24_aarch64
           --platform manylinux_2_17_aarch64 --platform manylinux2014_aarch64
           --platform linux_aarch64)
for version in $pythons; do
    say "dependencies for aarch64 CPython $version"
    "$PY" -m pip download --quiet --dest "$wheels" --only-binary=:all: "${platforms[@]}" \
        --implementation cp --python-version "$version" "$wheel"
done
say "dependencies for this machine ($("$PY" -c 'import platform; print(platform.machine(), platform.python_version())'))"
"$PY" -m pip download --quiet --dest "$wheels" --only-binary=:all: "$wheel"

# Prove the wheelhouse is complete: resolve again with the network switched off for pip.
for version in $pythons; do
    "$PY" -m pip download --quiet --no-index --find-links "$wheels" --dest "$out/.check" \
        --only-binary=:all: "${platforms[@]}" --implementation cp --python-version "$version" \
        samoobsluha
done
rm -rf "$out/.check"
say "wheelhouse complete: $(find "$wheels" -name '*.whl' | wc -l) wheels, $(du -sh "$wheels" | cut -f1)"

if [ "$debs" = 1 ]; then
    packages=$("$PY" - <<'PY'
from samoobsluha.hub.provision.generator import ProvisionSpec
names = set()
for role in ("station", "hub"):
    names.update(ProvisionSpec(role=role, hostname="x", psk="0" * 64).apt_packages)
print(" ".join(sorted(names)))
PY
)
    mkdir -p "$out/debs/partial"
    say "Debian packages missing here among: $packages"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    # shellcheck disable=SC2086  # the package list is meant to split
    $sudo apt-get install --download-only -y --no-install-recommends \
        -o Dir::Cache::archives="$(readlink -f "$out/debs")" $packages
    rm -rf "$out/debs/partial" "$out/debs/lock"
    "$PY" -c 'import sys; from hub.provision.debindex import main; sys.exit(main())' "$out/debs"
    say "debs: $(find "$out/debs" -name '*.deb' | wc -l) packages, $(du -sh "$out/debs" | cut -f1)"
fi

#!/usr/bin/env bash
# Installs what `make demo` and `make test` need on Debian 12, and says exactly what is missing
# when it cannot install it (no root).
#
#   scripts/install-deps.sh [build|test|board|cross]
#
# build: the Swift toolchain (not packaged by Debian 12: see README) and the C libraries the
#        drivers link (libgps through pkg-config), and the voice's: libespeak-ng with its data,
#        flite and libasound.
# test:  everything for build, plus a real gpsd and gpsfake for the GPS tests, and systemd's own
#        tools (systemd-analyze, systemd-sysusers, udevadm) for the unit and rule checks,
#        binutils (strip) and lintian for the package check, and the export files' independent
#        readers: xmllint (libxml2-utils) with the GPX/TCX schemas, python3-venv for Garmin's FIT
#        SDK (scripts/interop-venv.sh), dosfstools and mtools for the USB drive image, and
#        chromium (headless) for the offline viewer's browser test, and dbus-daemon with
#        python3-dbusmock for the Bluetooth tests (a private bus with BlueZ's object model).
# board: everything for build, plus the emulated board's host side (below).
# cross: everything for build, plus what `make cross-check` needs to check the C shims and the
#        ABI table for arm64 on this machine: Debian's aarch64 cross compiler, qemu's user-mode
#        emulator (qemu-aarch64, run with -L, no binfmt needed) and the arm64 (multiarch) -dev
#        packages of every library a shim includes. It adds arm64 as a foreign dpkg architecture
#        first (dpkg --add-architecture arm64), so apt fetches arm64's package lists too. make deb
#        SWIFT_SDK=… uses the same: aarch64's strip, and qemu-aarch64 for the binaries' --version.
set -euo pipefail

mode=${1:-build}
build_packages=(pkg-config libgps-dev libi2c-dev libgpiod-dev libsqlite3-dev zlib1g-dev libsystemd-dev
    libespeak-ng-dev espeak-ng-data flite1-dev libasound2-dev)
test_packages=(gpsd gpsd-clients systemd udev binutils lintian libxml2-utils python3-venv dosfstools mtools
    chromium fonts-dejavu-core dbus-daemon python3-dbusmock sox)
# The emulated board (make board-test): qemu, Debian's kernel for the guest with its headers and
# source (gpio-sim is built out of tree from linux-source-6.1: Tests/Board/gpio-sim/build.sh, with
# make, gcc and xz), initramfs-tools and lz4 for the guest's small initramfs, mmdebstrap for its
# root filesystem, e2fsprogs for the image and its check after the power cuts, binutils (strip)
# for the .deb, dosfstools and mtools for the USB sticks' images, and the exported files' readers:
# xmllint (libxml2-utils) and python3-venv for Garmin's FIT SDK (scripts/interop-venv.sh).
board_packages=(qemu-system-x86 qemu-utils mmdebstrap linux-image-amd64 linux-headers-amd64 linux-source-6.1
    make gcc xz-utils initramfs-tools lz4 e2fsprogs binutils dosfstools mtools libxml2-utils python3-venv)
# The C shims for arm64 (make cross-check): every -dev package the shims include, as arm64.
# On an arm64 machine itself the check is native: its own gcc and the build packages are enough.
if [ "$(dpkg --print-architecture)" = arm64 ]; then
    cross_packages=(gcc pkg-config)
else
    cross_packages=(gcc gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user pkg-config)
    for p in libgps-dev libi2c-dev libgpiod-dev libsqlite3-dev zlib1g-dev libsystemd-dev libespeak-ng-dev \
        flite1-dev libasound2-dev; do cross_packages+=("$p:arm64"); done
fi
packages=("${build_packages[@]}")
if [ "$mode" = test ]; then packages+=("${test_packages[@]}"); fi
if [ "$mode" = board ]; then packages+=("${board_packages[@]}"); fi
if [ "$mode" = cross ]; then packages+=("${cross_packages[@]}"); fi
case $mode in build | test | board | cross) ;; *) echo "usage: $0 [build|test|board|cross]" >&2; exit 2 ;; esac

if ! command -v swift >/dev/null 2>&1; then
    echo "error: no Swift toolchain on PATH. Swift 6.0 or newer is needed; Debian 12 does not" >&2
    echo "package it. Install the Linux toolchain for Debian 12 and put its usr/bin on PATH," >&2
    echo "e.g. export PATH=/opt/swift/usr/bin:\$PATH" >&2
    exit 1
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

# arm64 packages need arm64 as a foreign architecture (multiarch) before apt can see them.
add_arch=
if [ "$mode" = cross ] && [ "$(dpkg --print-architecture)" != arm64 ] \
    && ! dpkg --print-foreign-architectures | grep -qx arm64; then add_arch=arm64; fi

if [ "$(id -u)" -ne 0 ]; then
    echo "error: missing Debian packages: ${missing[*]}" >&2
    echo "Run this once, then try again:" >&2
    [ -z "$add_arch" ] || echo "  sudo dpkg --add-architecture $add_arch" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
[ -z "$add_arch" ] || { echo "Adding dpkg architecture $add_arch ..."; dpkg --add-architecture "$add_arch"; }
echo "Installing ${missing[*]} ..."
export DEBIAN_FRONTEND=noninteractive
# Another apt on this machine may hold dpkg's lock for a while: wait for it rather than fail.
apt-get -o DPkg::Lock::Timeout=600 update -qq
# For arm64 without recommends: libi2c0:arm64 recommends i2c-tools, whose arm64 build would
# replace the machine's own (amd64) i2c-tools; the -dev packages themselves are Multi-Arch: same.
recommends=()
if [ "$mode" = cross ]; then recommends=(--no-install-recommends); fi
apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${recommends[@]}" "${missing[@]}" >/dev/null

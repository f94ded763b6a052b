#!/bin/bash
# Builds runway_VERSION_ARCH.deb: runwayd and runway with the Swift runtime and Foundation linked
# statically (the board needs no toolchain; the C libraries, the voice's libespeak-ng, flite and
# libasound among them, are Debian's shared ones, named in Depends), the systemd units, sysusers file, udev rules and the
# default configuration (a conffile: an edited one survives upgrades).
#
# Usage: scripts/make-deb.sh [--swift-sdk NAME] [--plan] [OUTDIR]
#   --swift-sdk NAME (or SWIFT_SDK=NAME; make deb SWIFT_SDK=NAME): build for another architecture
#       with an installed Swift SDK (`swift sdk list` names it): `swift build --swift-sdk NAME`.
#       The package's Architecture is the target's, never this machine's: the Debian name of the
#       architecture in the SDK's name (aarch64/arm64 → arm64, x86_64/amd64 → amd64, armv7/armhf →
#       armhf, riscv64), or DEB_ARCH=… where the name holds none; the binaries' ELF header must
#       agree. They are stripped with that architecture's binutils (binutils-aarch64-linux-gnu,
#       scripts/install-deps.sh cross) and their --version is run under qemu-user where it is
#       installed (else said and skipped). Without an SDK: this machine's architecture, as before.
#   --plan: say what would be built (the swift build command, the architecture, the package's
#       name) and stop, building nothing.
#
# Reproducible: the same tree gives the same bytes (make board-test keys its image on them).
# Every time in it is the last commit's (SOURCE_DATE_EPOCH): file mtimes, the changelog's date,
# dpkg-deb's ar and tar headers; owners are root (--root-owner-group), modes are set explicitly,
# dpkg-deb sorts the tar's members, gzip -n stores no name or time, xz is run with one thread
# (its multi-threaded encoder writes other, equally valid bytes), Installed-Size counts apparent
# sizes. The package is made again only when what goes into it changed (.build/deb.key).
set -euo pipefail
cd "$(dirname "$0")/.."
sdk=${SWIFT_SDK:-}
plan=0
out=.build
while [ $# -gt 0 ]; do
    case $1 in
    --swift-sdk)
        [ $# -ge 2 ] && [ -n "$2" ] || { echo "make-deb.sh: --swift-sdk needs a Swift SDK's name" >&2; exit 2; }
        sdk=$2
        shift 2
        ;;
    --swift-sdk=*) sdk=${1#--swift-sdk=}; shift ;;
    --plan) plan=1; shift ;;
    -*) echo "make-deb.sh: unknown option $1 (usage: make-deb.sh [--swift-sdk NAME] [--plan] [OUTDIR])" >&2; exit 2 ;;
    *) out=$1; shift ;;
    esac
done
swift=${SWIFT:-swift}
host_arch=$(dpkg --print-architecture)
# The Debian architecture of a target named by a triple or an SDK's name: the first architecture
# name in it (aarch64-swift-linux-musl, 6.0.3-RELEASE_debian_bookworm_aarch64).
deb_arch_of() {
    case $(grep -oiE 'aarch64|arm64|x86_64|amd64|armv7[a-z]*|armhf|riscv64' <<<"$1" | head -n 1 | tr 'A-Z' 'a-z') in
    aarch64 | arm64) echo arm64 ;;
    x86_64 | amd64) echo amd64 ;;
    armv7* | armhf) echo armhf ;;
    riscv64) echo riscv64 ;;
    *) return 1 ;;
    esac
}
# The GNU triple Debian's cross binutils are named by, for a Debian architecture.
gnu_triple_of() {
    case $1 in
    arm64) echo aarch64-linux-gnu ;;
    amd64) echo x86_64-linux-gnu ;;
    armhf) echo arm-linux-gnueabihf ;;
    riscv64) echo riscv64-linux-gnu ;;
    esac
}
sdk_args=()
arch=$host_arch
if [ -n "$sdk" ]; then
    if ! installed=$("$swift" sdk list 2>&1); then
        echo "make-deb.sh: \`$swift sdk list\` failed ($installed): Swift 6.0 or newer is needed for --swift-sdk" >&2
        exit 2
    fi
    if ! grep -qxF -- "$sdk" <<<"$installed"; then
        echo "make-deb.sh: no Swift SDK named \"$sdk\" is installed (\`swift sdk list\`: $(tr '\n' ' ' <<<"$installed"| sed 's/ *$//'))." >&2
        echo "  Install one first: swift sdk install <the SDK bundle's URL or .artifactbundle path>; for a" >&2
        echo "  Raspberry Pi, an aarch64 Debian 12 (glibc) SDK holding this project's arm64 -dev packages," >&2
        echo "  made with swift-sdk-generator (README, \"Building for arm64\"). Or build on an arm64 machine" >&2
        echo "  with swift.org's aarch64 toolchain and no SWIFT_SDK." >&2
        exit 2
    fi
    if [ -n "${DEB_ARCH:-}" ]; then
        arch=$DEB_ARCH
    elif ! arch=$(deb_arch_of "$sdk"); then
        echo "make-deb.sh: cannot tell the target architecture from the SDK's name \"$sdk\": set DEB_ARCH (e.g. DEB_ARCH=arm64)" >&2
        exit 2
    fi
    sdk_args=(--swift-sdk "$sdk")
fi
umask 022
export LC_ALL=C TZ=UTC
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
# One version for the package and its binaries: the release (RunWayRelease.version); the commit
# it was built from is in the changelog.
version=$(scripts/version.sh)
scratch=.build/deb
build=("$swift" build -c release --scratch-path "$scratch" --static-swift-stdlib "${sdk_args[@]}")
if [ "$plan" = 1 ]; then
    echo "build: ${build[*]} --product runwayd (then runway)"
    echo "Architecture: $arch${sdk:+ (the target of Swift SDK $sdk)}"
    echo "package: $out/runway_${version}_${arch}.deb"
    exit 0
fi
strip=strip
if [ "$arch" != "$host_arch" ]; then
    strip=$(gnu_triple_of "$arch")-strip
    command -v "$strip" >/dev/null || {
        echo "make-deb.sh: no $strip for the $arch binaries: install binutils-$(gnu_triple_of "$arch") (scripts/install-deps.sh cross for arm64)" >&2
        exit 2
    }
fi
"${build[@]}" --product runwayd
"${build[@]}" --product runway
bin=$("${build[@]}" --show-bin-path)
# The binaries are the package's architecture: an SDK whose name misled deb_arch_of is caught here.
for binary in runway runwayd; do
    machine=$(LC_ALL=C readelf -h "$bin/$binary" | sed -n 's/^ *Machine: *//p')
    case $machine in
    AArch64) elf_arch=arm64 ;; *X86-64) elf_arch=amd64 ;; ARM) elf_arch=armhf ;; RISC-V) elf_arch=riscv64 ;; *) elf_arch="$machine" ;;
    esac
    [ "$elf_arch" = "$arch" ] || {
        echo "make-deb.sh: $bin/$binary is built for $machine ($elf_arch), the package would be $arch: set DEB_ARCH" >&2
        exit 1
    }
done
# Runs a binary of the package's architecture: here, or under qemu-user with the target's loader
# (Debian's cross libc in /usr/TRIPLE, the multiarch libraries in /usr/lib/TRIPLE).
qemu=
if [ "$arch" != "$host_arch" ]; then
    case $arch in arm64) qemu=qemu-aarch64 ;; armhf) qemu=qemu-arm ;; riscv64) qemu=qemu-riscv64 ;; amd64) qemu=qemu-x86_64 ;; esac
fi
run_target() {
    if [ -z "$qemu" ]; then "$@"; else "$qemu" -L "/usr/$(gnu_triple_of "$arch")" "$@"; fi
}
for binary in runway runwayd; do
    if [ -n "$qemu" ] && ! command -v "$qemu" >/dev/null; then
        echo "make-deb.sh: $binary --version not checked: no $qemu here to run $arch (scripts/install-deps.sh cross)" >&2
        continue
    fi
    if ! said=$(run_target "$bin/$binary" --version); then
        echo "make-deb.sh: $bin/$binary --version failed${sdk:+ under qemu-user (are the target libraries installed? scripts/install-deps.sh cross)}" >&2
        exit 1
    fi
    case "$said" in
    "$binary $version" | "$binary $version "*) ;;
    *) echo "make-deb.sh: $binary --version says \"$said\", the package would be $version" >&2; exit 1 ;;
    esac
done
# What the package is made from: the binaries, every file install-files copies, this script and
# the commit (version, changelog). Unchanged: the .deb already made is this one.
key=$( {
    echo "$version $arch $SOURCE_DATE_EPOCH $(git rev-parse HEAD 2>/dev/null)"
    sha256sum "$bin/runwayd" "$bin/runway" scripts/make-deb.sh scripts/version.sh Makefile README.md
    find systemd udev board -type f -print0 | sort -z | xargs -0 sha256sum
} | sha256sum | cut -c1-32)
deb="$out/runway_${version}_${arch}.deb"
if [ -e "$deb" ] && [ "$(cat "$out/deb.key" 2>/dev/null)" = "$key" ]; then
    echo "$deb"
    exit 0
fi
rm -f "$out/deb.key"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"
make --no-print-directory install-files DESTDIR="$root" PREFIX=/usr BINDIR="$bin" >/dev/null
"$strip" "$root/usr/bin/runwayd" "$root/usr/bin/runway"
install -d "$root/DEBIAN"
size=$(du -s --apparent-size --block-size=1024 --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: runway
Version: $version
Architecture: $arch
Maintainer: RunWay Core developers <runway-core@example.org>
Installed-Size: $size
Depends: libc6 (>= 2.36), libstdc++6, libgcc-s1, gpsd, libgps28, libi2c0, libgpiod2, libsqlite3-0, zlib1g, libsystemd0, systemd, dosfstools, mtools, libespeak-ng1, espeak-ng-data, libflite1, libasound2
Recommends: bluez
Section: misc
Priority: optional
Description: running tracker firmware for a Raspberry Pi-class board
 Reads GPS from gpsd, a BMP280 barometer over I2C, three buttons and a buzzer
 over GPIO; flies each run through an aviation-style engine and records it
 crash-safely in an SQLite logbook. runwayd is the daemon; runway is the
 runner's command (status, start, pause, resume, stop, the logbook). Speaks
 its callouts through ALSA (libespeak-ng, flite) when configured to, and reads
 Bluetooth LE heart-rate straps and footpods through BlueZ (recommended: a
 board without a strap runs without it).
CONTROL
echo /etc/runway/runway.json > "$root/DEBIAN/conffiles"
cat > "$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
# DPKG_ROOT is set when dpkg installs into another root without chrooting (--root with
# --force-script-chrootless, as the package check does): only that root is touched then.
if [ "$1" = configure ]; then
    systemd-sysusers --root="${DPKG_ROOT:-/}" runway.conf || true
    if [ -z "${DPKG_ROOT:-}" ]; then chown runway:runway /var/lib/runway 2>/dev/null || true; fi
    [ -z "${DPKG_ROOT:-}" ] || exit 0
    if [ -d /run/udev ]; then udevadm control --reload || true; udevadm trigger --subsystem-match=gpio --subsystem-match=i2c-dev || true; fi
    # Enabled also where systemd is not running (an image being built in a chroot, as
    # make board-test does): enable only makes the symlinks, and the first boot starts runwayd.
    systemctl enable runwayd.socket runwayd.service runway-gadget.service runway-drive.path || true
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload || true
        systemctl restart runwayd.socket runwayd.service || true
    fi
fi
SCRIPT
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
# The logbook in /var/lib/runway is the runner's: it is never removed, not even on purge.
if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl disable --now runway-drive.path runway-gadget.service runwayd.service runwayd.socket || true
fi
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
# The state directory: runwayd.service's StateDirectoryMode= makes it 0750 at start.
install -d -m 0755 "$root/var/lib/runway"
doc="$root/usr/share/doc/runway"
cat > "$doc/copyright" <<'COPYRIGHT'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: runway
Comment: The project has not chosen a licence yet; until it does, all rights are
 reserved. The binaries link the Swift runtime and Foundation statically
 (Apache-2.0 with the Runtime Library Exception, swift.org), which carry ICU's
 data (Unicode licence).

Files: *
Copyright: RunWay Core developers
License: all-rights-reserved
 No licence has been granted yet.
COPYRIGHT
printf 'runway (%s) unstable; urgency=low\n\n  * Built from commit %s.\n\n -- RunWay Core developers <runway-core@example.org>  %s\n' \
    "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$(date -R -u -d "@$SOURCE_DATE_EPOCH")" | gzip -9n > "$doc/changelog.gz"
size=$(du -s --apparent-size --block-size=1024 --exclude=DEBIAN "$root" | cut -f1)
sed -i "s/^Installed-Size: .*/Installed-Size: $size/" "$root/DEBIAN/control"
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --threads-max=1 --build "$root" "$deb" >/dev/null
echo "$key" > "$out/deb.key"
echo "$deb"

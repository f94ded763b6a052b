#!/bin/bash
# Builds runway_VERSION_ARCH.deb: runwayd and runway with the Swift runtime and Foundation linked
# statically (the board needs no toolchain), the systemd units, sysusers file, udev rules and the
# default configuration (a conffile: an edited one survives upgrades). Usage: scripts/make-deb.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build}
swift=${SWIFT:-swift}
# No release tags yet: 0.0~git<commit time>.<hash> orders builds by their commits.
version=$(git log -1 --format='0.0~git%cd.%h' --date=format:%Y%m%d%H%M%S 2>/dev/null || echo 0.0~dev)
arch=$(dpkg --print-architecture)
scratch=.build/deb
"$swift" build -c release --scratch-path "$scratch" --static-swift-stdlib --product runwayd
"$swift" build -c release --scratch-path "$scratch" --static-swift-stdlib --product runway
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
make --no-print-directory install-files DESTDIR="$root" PREFIX=/usr BINDIR="$scratch/release" >/dev/null
strip "$root/usr/bin/runwayd" "$root/usr/bin/runway"
install -d "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: runway
Version: $version
Architecture: $arch
Maintainer: RunWay Core developers <runway@localhost>
Installed-Size: $size
Depends: gpsd, libgps28, libi2c0, libgpiod2, libsqlite3-0, zlib1g, libsystemd0, systemd
Section: misc
Priority: optional
Description: RunWay running tracker firmware (runwayd) and its command (runway)
 Reads GPS from gpsd, a BMP280 barometer over I2C, three buttons and a buzzer
 over GPIO; flies each run through an aviation-style engine and records it
 crash-safely in an SQLite logbook.
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
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload || true
        systemctl enable runwayd.socket runwayd.service || true
        systemctl restart runwayd.socket runwayd.service || true
    fi
fi
SCRIPT
cat > "$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
# The logbook in /var/lib/runway is the runner's: it is never removed, not even on purge.
if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl disable --now runwayd.service runwayd.socket || true
fi
SCRIPT
cat > "$root/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -z "${DPKG_ROOT:-}" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
SCRIPT
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
install -d -m 0750 "$root/var/lib/runway"
mkdir -p "$out"
dpkg-deb --root-owner-group --build "$root" "$out/runway_${version}_${arch}.deb" >/dev/null
echo "$out/runway_${version}_${arch}.deb"

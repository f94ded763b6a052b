#!/bin/bash
# Builds runway_VERSION_ARCH.deb: runwayd and runway with the Swift runtime and Foundation linked
# statically (the board needs no toolchain; the C libraries, the voice's libespeak-ng, flite and
# libasound among them, are Debian's shared ones, named in Depends), the systemd units, sysusers file, udev rules and the
# default configuration (a conffile: an edited one survives upgrades). Usage: scripts/make-deb.sh [OUTDIR]
#
# Reproducible: the same tree gives the same bytes (make board-test keys its image on them).
# Every time in it is the last commit's (SOURCE_DATE_EPOCH): file mtimes, the changelog's date,
# dpkg-deb's ar and tar headers; owners are root (--root-owner-group), modes are set explicitly,
# dpkg-deb sorts the tar's members, gzip -n stores no name or time, xz is run with one thread
# (its multi-threaded encoder writes other, equally valid bytes), Installed-Size counts apparent
# sizes. The package is made again only when what goes into it changed (.build/deb.key).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build}
swift=${SWIFT:-swift}
umask 022
export LC_ALL=C TZ=UTC
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH
# One version for the package and its binaries: the release (RunWayRelease.version); the commit
# it was built from is in the changelog.
version=$(scripts/version.sh)
arch=$(dpkg --print-architecture)
scratch=.build/deb
"$swift" build -c release --scratch-path "$scratch" --static-swift-stdlib --product runwayd
"$swift" build -c release --scratch-path "$scratch" --static-swift-stdlib --product runway
for binary in runway runwayd; do
    said=$("$scratch/release/$binary" --version)
    case "$said" in
    "$binary $version" | "$binary $version "*) ;;
    *) echo "make-deb.sh: $binary --version says \"$said\", the package would be $version" >&2; exit 1 ;;
    esac
done
# What the package is made from: the binaries, every file install-files copies, this script and
# the commit (version, changelog). Unchanged: the .deb already made is this one.
key=$( {
    echo "$version $arch $SOURCE_DATE_EPOCH $(git rev-parse HEAD 2>/dev/null)"
    sha256sum "$scratch/release/runwayd" "$scratch/release/runway" scripts/make-deb.sh scripts/version.sh Makefile README.md
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
make --no-print-directory install-files DESTDIR="$root" PREFIX=/usr BINDIR="$scratch/release" >/dev/null
strip "$root/usr/bin/runwayd" "$root/usr/bin/runway"
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

#!/bin/bash
# Checks a runway .deb without installing it on this machine: its control fields and conffiles,
# every file in place with its owner and mode, the maintainer scripts parse, and the binaries run
# from the extracted tree with no Swift runtime beside them. Usage: scripts/check-deb.sh DEB
set -euo pipefail
deb=$1
fail() { echo "check-deb: $*" >&2; exit 1; }
info=$(dpkg-deb --info "$deb")
for field in "Package: runway" "Architecture: $(dpkg --print-architecture)" "Depends: gpsd"; do
    grep -q "$field" <<<"$info" || fail "control lacks '$field'"
done
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" = /etc/runway/runway.json ] || fail "conffiles"
listing=$(dpkg-deb --contents "$deb")
for entry in "-rwxr-xr-x root/root .* ./usr/bin/runwayd" "-rwxr-xr-x root/root .* ./usr/bin/runway" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runwayd.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runwayd.socket" \
    "-rw-r--r-- root/root .* ./usr/lib/sysusers.d/runway.conf" \
    "-rw-r--r-- root/root .* ./lib/udev/rules.d/60-runway.rules" \
    "-rw-r--r-- root/root .* ./etc/runway/runway.json"; do
    grep -Eq -- "^$entry\$" <<<"$listing" || fail "no '$entry' in the package"
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb --extract "$deb" "$root"
dpkg-deb --control "$deb" "$root/DEBIAN"
for script in postinst prerm postrm; do sh -n "$root/DEBIAN/$script" || fail "$script does not parse"; done
if ldd "$root/usr/bin/runwayd" | grep -q libswift; then fail "runwayd needs the Swift runtime"; fi
"$root/usr/bin/runwayd" --check-config --config "$root/etc/runway/runway.json" | grep -q valid \
    || fail "runwayd does not accept the packaged configuration"
"$root/usr/bin/runway" help >/dev/null || fail "runway does not run"
echo "check-deb: $(basename "$deb") ok ($(du -k "$deb" | cut -f1) KiB)"

#!/bin/bash
# Checks a runway .deb without installing it on this machine: its control fields and conffiles,
# every file in place with its owner and mode, the maintainer scripts parse, the binaries run
# from the extracted tree with no Swift runtime beside them, and it installs into and is removed
# from a scratch root. Usage: scripts/check-deb.sh DEB
set -euo pipefail
deb=$1
fail() { echo "check-deb: $*" >&2; exit 1; }
info=$(dpkg-deb --info "$deb")
for field in "Package: runway" "Architecture: $(dpkg --print-architecture)" "Depends: .*gpsd, libgps28" \
    "Depends: .*libespeak-ng1, espeak-ng-data, libflite1, libasound2" "Recommends: bluez"; do
    grep -q "$field" <<<"$info" || fail "control lacks '$field'"
done
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" = /etc/runway/runway.json ] || fail "conffiles"
listing=$(dpkg-deb --contents "$deb")
for entry in "-rwxr-xr-x root/root .* ./usr/bin/runwayd" "-rwxr-xr-x root/root .* ./usr/bin/runway" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runwayd.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runwayd.socket" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runway-export@.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runway-stick@.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runway-gadget.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runway-drive.service" \
    "-rw-r--r-- root/root .* ./lib/systemd/system/runway-drive.path" \
    "-rwxr-xr-x root/root .* ./usr/lib/runway/runway-gadget" \
    "-rw-r--r-- root/root .* ./usr/lib/sysusers.d/runway.conf" \
    "-rw-r--r-- root/root .* ./lib/udev/rules.d/60-runway.rules" \
    "-rw-r--r-- root/root .* ./lib/udev/rules.d/61-runway-export.rules" \
    "-rw-r--r-- root/root .* ./etc/runway/runway.json"; do
    grep -Eq -- "^$entry\$" <<<"$listing" || fail "no '$entry' in the package"
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb --extract "$deb" "$root"
dpkg-deb --control "$deb" "$root/DEBIAN"
for script in postinst prerm postrm; do sh -n "$root/DEBIAN/$script" || fail "$script does not parse"; done
if ldd "$root/usr/bin/runwayd" | grep -q libswift; then fail "runwayd needs the Swift runtime"; fi
# Every shared library the binaries name (DT_NEEDED: the voice's libespeak-ng, libflite*,
# libasound among them) loads from the extracted tree's binaries and belongs to a package
# Depends names: a library linked in but not depended on would be missing on the board.
depends=$(sed -n 's/^ Depends: //p' <<<"$info" | tr -d ' ' | tr ',' '\n' | sed 's/(.*//')
for binary in runwayd runway; do
    resolved=$(ldd "$root/usr/bin/$binary")
    ! grep -q "not found" <<<"$resolved" || fail "$binary: $(grep 'not found' <<<"$resolved" | tr -s '\t\n' ' ')"
    for soname in $(objdump -p "$root/usr/bin/$binary" | awk '$1 == "NEEDED" { print $2 }'); do
        path=$(awk -v n="$soname" '$1 == n && $2 == "=>" { print $3 }' <<<"$resolved")
        [ -n "$path" ] || path=$(awk -v n="$soname" 'index($1, n) { print $1 }' <<<"$resolved")  # ld-linux
        owner=
        for candidate in "$path" "${path#/usr}" "/usr${path}" "$(readlink -f "$path")"; do
            owner=$(dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1) && [ -n "$owner" ] && break
        done
        [ -n "$owner" ] || fail "$binary needs $soname ($path), which no installed package owns"
        grep -qx "$owner" <<<"$depends" || fail "$binary needs $soname from $owner, which Depends does not name"
    done
done
"$root/usr/bin/runwayd" --check-config --config "$root/etc/runway/runway.json" | grep -q valid \
    || fail "runwayd does not accept the packaged configuration"
"$root/usr/bin/runway" help >/dev/null || fail "runway does not run"
# The speech engines are not linked (no DT_NEEDED above): libflite, its voice and libespeak-ng are
# opened when a voice first speaks (RunWayVoice's SharedLibrary; the control fields checked above
# name their packages, libflite1 and libespeak-ng1). Both engines speak from the extracted
# binaries: English with the default flite voice, Korean with espeak-ng.
for lang in en ko; do
    said=$("$root/usr/bin/runway" say split --lang $lang --config "$root/etc/runway/runway.json" \
        --to "$root/say-$lang.wav" 2>&1) || fail "runway say --lang $lang: $said"
    [ "$(stat -c %s "$root/say-$lang.wav")" -gt 10000 ] || fail "runway say --lang $lang wrote no speech"
done
# Installed into a scratch root (dpkg's chrootless mode: the maintainer scripts honour DPKG_ROOT
# and touch nothing outside it), then removed.
scratch=$(mktemp -d)
trap 'rm -rf "$root" "$scratch"' EXIT
mkdir -p "$scratch/var/lib/dpkg/info" "$scratch/var/lib/dpkg/updates"
touch "$scratch/var/lib/dpkg/status"
as_user=(); [ "$(id -u)" -eq 0 ] || as_user=(--force-not-root)
# (The scratch root has none of the dependencies: dpkg's complaints about them are expected.)
installed=$(dpkg --root="$scratch" "${as_user[@]}" --force-script-chrootless --force-depends -i "$deb" 2>&1) \
    || { echo "$installed" >&2; fail "dpkg could not install it into a scratch root"; }
! grep -q "Failed\|ignoring" <<<"$installed" || { echo "$installed" >&2; fail "a maintainer script failed"; }
for file in usr/bin/runwayd usr/bin/runway lib/systemd/system/runwayd.service etc/runway/runway.json; do
    [ -e "$scratch/$file" ] || fail "installed, but /$file is missing"
done
grep -q '^runway:' "$scratch/etc/passwd" || fail "postinst did not create the user runway"
grep -Eq '^gpio:.*runway' "$scratch/etc/group" && grep -Eq '^i2c:.*runway' "$scratch/etc/group" \
    || fail "runway is not in the gpio and i2c groups"
dpkg --root="$scratch" "${as_user[@]}" --force-script-chrootless -r runway >/dev/null || fail "dpkg could not remove it"
[ ! -e "$scratch/usr/bin/runwayd" ] || fail "removed, but runwayd is still there"
[ -e "$scratch/etc/runway/runway.json" ] || fail "removal took the configuration (a conffile stays until purge)"
# lintian: no errors (warnings are listed for a maintainer to read).
report=$(lintian --tag-display-limit 0 "$deb" 2>/dev/null || true)
if grep -q '^E: ' <<<"$report"; then echo "$report" >&2; fail "lintian reports errors"; fi
grep '^W: ' <<<"$report" | sed 's/^/check-deb: lintian /' || true
echo "check-deb: $(basename "$deb") ok ($(du -k "$deb" | cut -f1) KiB)"

#!/usr/bin/env bash
# Runs `udevadm test` for one synthetic device against the project's rule files only, and prints
# what udev decided. Nothing on this machine changes: everything happens in a private mount
# namespace where /sys is a fake sysfs holding only the device, /etc/group holds the groups the
# rules name, and /dev, /run/udev are empty scratch.
#
#   scripts/udev-dry-run.sh RULES_FILE[,RULES_FILE...] SUBSYSTEM DEVPATH [UEVENT_LINE ...]
#
# e.g. scripts/udev-dry-run.sh udev/60-runway.rules gpio /devices/platform/gpio-sim.0/gpiochip0 \
#        MAJOR=254 MINOR=0 DEVNAME=gpiochip0
#
# udev 252 has no `udevadm verify`, and `udevadm test` reads only the system's rule directories
# from the real sysfs; SYSTEMD_DEVICE_VERIFY_SYSFS=0 lets it read a sysfs built here. Needs root
# (for unshare); exits 77 when it cannot make the namespace.
set -euo pipefail

if [ "${1:-}" != --inside ]; then
    [ $# -ge 3 ] || { echo "usage: $0 RULES[,RULES...] SUBSYSTEM DEVPATH [UEVENT_LINE ...]" >&2; exit 2; }
    command -v udevadm >/dev/null || { echo "udevadm is missing (apt-get install udev)" >&2; exit 77; }
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    if ! unshare --mount --propagation private true 2>/dev/null; then
        echo "cannot make a private mount namespace here (needs root)" >&2
        exit 77
    fi
    unshare --mount --propagation private "$0" --inside "$scratch" "$@"
    exit $?
fi

shift
scratch=$1 rules=$2 subsystem=$3 devpath=$4
shift 4

sys=$scratch/sys
mkdir -p "$sys$devpath" "$sys/bus/$subsystem/devices" "$scratch/rules" "$scratch/dev" "$scratch/udev"
printf '%s\n' "$@" >"$sys$devpath/uevent"
major= minor=
for line in "$@"; do
    case $line in MAJOR=*) major=${line#MAJOR=} ;; MINOR=*) minor=${line#MINOR=} ;; esac
done
[ -n "$major" ] && printf '%s:%s\n' "$major" "${minor:-0}" >"$sys$devpath/dev"
# The device's subsystem link, relative as the kernel makes it.
up=$(printf '%s' "$devpath" | sed 's|/[^/]*|../|g')
ln -s "${up}bus/$subsystem" "$sys$devpath/subsystem"

IFS=, read -r -a files <<<"$rules"
for f in "${files[@]}"; do cp "$f" "$scratch/rules/"; done
# Every group a rule names exists, so a typo in a rule is the only way to get "Unknown group".
{
    echo "root:x:0:"
    { grep -ho 'GROUP="[^"]*"' "${files[@]}" || true; } | sed 's/GROUP="\(.*\)"/\1/' | sort -u | awk '{ printf "%s:x:%d:\n", $1, 900 + NR }'
} >"$scratch/group"

mount --bind "$sys" /sys
mount --bind "$scratch/dev" /dev
mount --bind "$scratch/udev" /run/udev 2>/dev/null || { mkdir -p /run/udev && mount --bind "$scratch/udev" /run/udev; }
mkdir -p /run/udev/rules.d
for d in /etc/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d /usr/local/lib/udev/rules.d; do
    [ -d "$d" ] && mount --bind "$scratch/rules" "$d"
done
mount --bind "$scratch/group" /etc/group

SYSTEMD_DEVICE_VERIFY_SYSFS=0 udevadm test --action=add "/sys$devpath" 2>&1
# udevadm prints group numbers: the table they came from.
sed 's/^\([^:]*\):x:\([0-9]*\):$/group \1 \2/' "$scratch/group"

#!/usr/bin/env bash
# Runs a command with a small real filesystem standing in for a USB stick: a tmpfs of SIZE KiB
# mounted at MOUNT in a private mount namespace (nothing outside sees it), seeded with SEED's
# contents, optionally read-only; afterwards the stick's contents are copied to OUT for the test
# to look at. Exits with the command's status; 77 when no namespace can be made (not root).
#
#   on-a-stick.sh SIZE_KB rw|ro SEED MOUNT OUT -- COMMAND...
set -euo pipefail
if [ "${1:-}" != --inside ]; then
    unshare --mount --propagation private true 2>/dev/null || { echo "needs root for a mount namespace" >&2; exit 77; }
    exec unshare --mount --propagation private "$0" --inside "$@"
fi
shift
size=$1 mode=$2 seed=$3 mount=$4 out=$5
shift 6
mkdir -p "$mount" "$out"
mount -t tmpfs -o "size=${size}k,mode=0755" stick "$mount"
[ -d "$seed" ] && cp -a "$seed/." "$mount/"
[ "$mode" = ro ] && mount -o remount,ro "$mount"
status=0
"$@" || status=$?
cp -a "$mount/." "$out/"
exit $status

#!/bin/sh
# The experiment's boot script (experiment.py): the board test's own Bluetooth section
# (guest/bluetooth.sh) with checks.sh's helpers, without runwayd (its checks fail here).
out=/host-out
here=/host/guest
results=$out/results.txt
: > "$results"
eval "$(sed -n '/^pass()/,/^journal_since_boot/p' "$here/checks.sh")"
probe() { return 1; }  # no runwayd.service in this image
started=$(date +%s)
. "$here/bluetooth.sh"
echo "bluetooth section: $(($(date +%s) - started)) s" >> "$out/guest.log"
bt_collect
journalctl -b -u bluetooth --no-pager > "$out/bluetoothd.journal"
dmesg > "$out/dmesg.txt"

# Sourced by checks.sh for the power-cut boots of one disk (runway.phase=cut, and after-cut for
# the last): each boot first says what became of the flight the previous boot's cut interrupted
# (the host judges it against the GPS it had delivered when it killed qemu), then — phase cut —
# flies a new one until the host pulls the power (SIGKILL of qemu) at a moment of its choosing.
boot=$(sed -n 's/.*runway\.boot=\([0-9]*\).*/\1/p' /proc/cmdline)
echo "boot $boot: checks began $(cut -d" " -f1 /proc/uptime) s after the kernel started" >> "$out/guest.log"
modprobe i2c-dev && modprobe i2c-stub chip_addr=0x76
bus=$(i2cdetect -l | awk '/SMBus stub/ { sub("i2c-", "", $1); print $1 }')
"$here/bmp280-registers.sh" "$bus"
if grep -q '"bus": 1,' /etc/runway/runway.json && [ "$bus" != 1 ]; then
    sed -i "s/\"bus\": 1,/\"bus\": $bus,/" /etc/runway/runway.json
    systemctl restart runwayd
fi
await runwayd-active 30 systemctl is-active -q runwayd
if [ "$boot" -gt 0 ]; then
    # The last cut: ext4's journal replayed, the logbook readable as the cut left it, the flight
    # still open in it; then, at the first fix, runwayd closes it from its raw log (this boot's
    # journal says so: an earlier boot's line never counts).
    check ext4-journal-replayed "the root filesystem came back from cut $boot through its journal" \
        sh -c 'dmesg | grep -q "EXT4-fs (vda): recovery complete" && ! dmesg | grep -q "EXT4-fs error"'
    runway logbook --json > "$out/before-recovery.json" 2>&1
    check logbook-readable "runway logbook reads the logbook cut $boot left" test $? -eq 0
    cut_id=$(sed -n 's/.*"id":\([0-9]*\),"status":"flying".*/\1/p' "$out/before-recovery.json" | head -n 1)
    check flight-open-after-cut "the flight in the air at cut $boot is open in the logbook (flight ${cut_id:-none})" \
        test -n "$cut_id"
fi
touch "$out/feed-gps"
if [ -n "${cut_id:-}" ]; then
    check recovery-said "runwayd, this boot: flight $cut_id recovered from its raw log" \
        wait_for 120 sh -c "journalctl -b 0 -u runwayd -o cat | grep -q 'flight $cut_id, interrupted, recovered from its raw log'"
    runway logbook --flight "$cut_id" --json > "$out/recovered.json" 2> "$out/recovered.err"
    check recovered-flight-reads "runway logbook --flight $cut_id after the recovery" test $? -eq 0
    journal_since_boot runwayd > "$out/runwayd.journal"
fi
if [ "$phase" = cut ]; then
    await gps-fix 90 sh -c 'runway status --json | grep -q "\"gps_signal\":\"\(STRONG\|GOOD\)\""' &&
        runway start >> "$out/guest.log" 2>&1 &&
        await cruise 60 sh -c 'runway status --json | grep -q "\"phase\":\"cruise\""' &&
        status_field flight_id > "$out/flying.tmp" && mv "$out/flying.tmp" "$out/flying"
    # The host cuts the power now, at a moment of its choosing; a board that did not take off
    # says so and powers off.
    [ -e "$out/flying" ] || { fail takeoff "boot $boot did not take off"; exit 0; }
    sleep 600
fi

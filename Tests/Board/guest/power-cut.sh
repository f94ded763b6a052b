# Sourced by checks.sh for the power-cut boots (runway.phase=cut, then after-cut on the same
# disk): a flight in the air when qemu is killed (-9), and what the next boot finds.
start_stub() {
    modprobe i2c-dev && modprobe i2c-stub chip_addr=0x76
    bus=$(i2cdetect -l | awk '/SMBus stub/ { sub("i2c-", "", $1); print $1 }')
    "$here/bmp280-registers.sh" "$bus"
}
distance() { runway status --json 2>/dev/null | sed -n 's/.*"distance_m":\([0-9.]*\).*/\1/p'; }
case $phase in
cut)
    start_stub
    sed -i "s/\"bus\": 1/\"bus\": $bus/" /etc/runway/runway.json
    systemctl restart gpsd.socket runwayd
    wait_for 30 systemctl is-active -q runwayd
    touch "$out/feed-gps"
    wait_for 90 sh -c 'runway status --json | grep -q "\"gps_signal\":\"\(STRONG\|GOOD\)\""'
    runway start >> "$out/guest.log" 2>&1
    wait_for 90 sh -c '[ "$(runway status --json | sed -n "s/.*\"distance_m\":\([0-9]*\).*/\1/p")" -ge 1500 ]'
    runway status --json > "$out/before-cut.json"
    touch "$out/cut-now"  # the host kills qemu now, mid-flight, mid-write
    sleep 600
    ;;
after-cut)
    check ext4-journal-replayed "the root filesystem came back from the cut through its journal" \
        sh -c 'dmesg | grep -q "EXT4-fs (vda): recovery complete"'
    start_stub
    check logbook-readable-after-cut "runway logbook reads the logbook the cut left, flight 1 in it" \
        sh -c 'runway logbook --json > "$out/after-cut-list.json" 2>&1 && grep -q "\"id\":1," "$out/after-cut-list.json"'
    wait_for 30 systemctl is-active -q runwayd
    touch "$out/feed-gps"
    # At the first fix runwayd decides: continue the flight or close it from its raw log.
    wait_for 120 sh -c 'journalctl -u runwayd | grep -q -E "continues after the restart|recovered|closed"'
    journalctl -u runwayd --no-pager > "$out/runwayd-after-cut.journal" 2>&1
    runway stop >> "$out/guest.log" 2>&1
    wait_for 20 sh -c 'runway logbook --json | grep -q -E "\"id\":1,\"status\":\"(finished|recovered)\""'
    runway logbook --flight 1 --json > "$out/after-cut-flight.json" 2>&1
    runway logbook --flight 1 >> "$out/guest.log" 2>&1
    ;;
esac

# Bluetooth LE (issue 25), sourced by checks.sh before runwayd flies: two virtual LE controllers
# (btvirt -L -l2 over hci_vhci: hci0 the board's, runwayd's central; hci1 the strap's), one
# bluetoothd managing both, the heart-rate strap (strap.py: GATT Heart Rate and Battery services
# and an LE advertisement on hci1), and the stack proven from hci0 without runwayd: seen, paired,
# connected, its battery read and its beats notified, as an unprivileged user through D-Bus.
# Then (bt_runwayd_*, called from checks.sh once runwayd runs) runwayd's own: scan, pair, list,
# the strap dropped mid-flight and back (bt_strap_off / bt_strap_on), and its journal.
# Times the host needs (takeoff, landing, the drop) go to $out/bt-times as "WHAT REALTIME".
bt_modules="hci_vhci af_alg algif_hash algif_skcipher cmac ecb"
bt_off=/run/strap-off
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"  # as a user of no group: $nobody COMMAND
bt_address() {  # bt_address hciN: the adapter's address as bluetoothd has it, or nothing
    busctl get-property org.bluez "/org/bluez/$1" org.bluez.Adapter1 Address 2>/dev/null | cut -d'"' -f2
}
bt_prop() {  # bt_prop PATH INTERFACE PROPERTY: busctl's value ("b true", "y 87")
    busctl get-property org.bluez "$1" "org.bluez.$2" "$3" 2>/dev/null
}
bt_time() { echo "$1 $(date +%s.%N)" >> "$out/bt-times"; }
bt_collect() { cp /run/strap-sent.txt /run/strap.log "$out/" 2>/dev/null; }

# The kernel's side: the virtual controllers' driver and the crypto bluetoothd's LE security
# (SMP) uses through AF_ALG. Loaded before btvirt: once, with only hci_vhci loaded, the kernel
# autoloaded them on the first controller's setup and its HCI Reset timed out under TCG
# ("hci0: Opcode 0x0c03 failed: -110": bluetoothd never saw hci0).
for m in $bt_modules; do modprobe "$m" 2>> "$out/guest.log"; done
bt_loaded=$(for m in $bt_modules; do test -d "/sys/module/$m" && printf '%s ' "$m"; done)
check bt-modules "loaded: ${bt_loaded:-none} (of $bt_modules)" test "${bt_loaded% }" = "$bt_modules"

# btvirt: two LE-only controllers on one emulated air (it stays running). bluetooth.service is
# skipped at boot (ConditionPathIsDirectory=/sys/class/bluetooth); the first controller starts it
# (udev: bluetooth.target), started here too in case. Never restarted: bluetoothd restarted while
# it set the controllers up left hci0 scanning and seeing nothing.
bt_up() {
    btvirt -L -l2 >> "$out/btvirt.log" 2>&1 &
    btvirt_pid=$!
    wait_for 20 test -e /sys/class/bluetooth/hci1
    systemctl start bluetooth.service
    wait_for 30 sh -c 'for a in hci0 hci1; do busctl get-property org.bluez /org/bluez/$a org.bluez.Adapter1 Address || exit 1; done'
}
if ! bt_up; then  # once more: a controller whose setup timed out is not retried by the kernel
    echo "bluetooth: $(ls /sys/class/bluetooth | tr '\n' ' ')seen, bluetoothd has: $(bt_address hci0) $(bt_address hci1); btvirt again" >> "$out/guest.log"
    dmesg | grep -i -E 'bluetooth|hci' | tail -n 5 >> "$out/guest.log"
    kill "$btvirt_pid" 2>/dev/null; wait "$btvirt_pid" 2>/dev/null
    wait_for 10 sh -c '! test -e /sys/class/bluetooth/hci0'
    bt_up
fi
busctl set-property org.bluez /org/bluez/hci0 org.bluez.Adapter1 Powered b true 2>> "$out/guest.log"
board_address=$(bt_address hci0)
rm -f "$bt_off" /run/strap-sent.txt
# Seen from hci0 by bluetoothctl's scan, as a user in no group (Debian's D-Bus policy for org.bluez,
# /etc/dbus-1/system.d/bluetooth.conf, lets any user call it): scanning from before the strap
# starts to advertise.
timeout 60 $nobody bluetoothctl --timeout 25 scan on > /run/bt-scan.raw 2>&1 &
scanner=$!
sleep 3
setsid "$here/strap.py" --adapter hci1 --sent /run/strap-sent.txt --off "$bt_off" > /run/strap.log 2>&1 &
strap_pid=$!
await strap-advertising 30 grep -q "advertising as" /run/strap.log
strap=$(bt_address hci1)
powered=$(for a in hci0 hci1; do printf '%s %s %s; ' "$a" "$(bt_address $a)" "$(bt_prop /org/bluez/$a Adapter1 Powered)"; done)
check bt-controllers "bluetoothd ($(systemctl is-active bluetooth.service)) on btvirt's two LE controllers: $powered" \
    sh -c "test -n '$board_address' -a -n '$strap' && test \"\$(busctl get-property org.bluez /org/bluez/hci0 org.bluez.Adapter1 Powered)\" = 'b true' && test \"\$(busctl get-property org.bluez /org/bluez/hci1 org.bluez.Adapter1 Powered)\" = 'b true'"
wait "$scanner"
sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\r//g; s/\x01\|\x02//g' /run/bt-scan.raw > "$out/bt-scan.txt"
seen=$(grep "NEW.* Device $strap " "$out/bt-scan.txt" | head -n 1 | sed 's/.*Device //')
check bt-strap-advertising "bluetoothctl scan on hci0 (as nobody, 25 s): ${seen:-not seen: $(grep -c . "$out/bt-scan.txt") lines, $(grep Device "$out/bt-scan.txt" | head -n 3 | tr '\n' ';')}" \
    test "$seen" = "$strap RunWay Strap"

# runwayd.service's sandbox (as installed, a oneshot running busctl instead of runwayd: probe in
# checks.sh) reaches org.bluez on the system bus: AF_UNIX is in RestrictAddressFamilies, the bus
# socket in /run is connectable under ProtectSystem=strict, the policy needs no group.
probe bluez 's|^ExecStart=.*|ExecStart=/usr/bin/busctl --system call org.bluez / org.freedesktop.DBus.ObjectManager GetManagedObjects|'
bluez_seen=$(journalctl -u runway-alsa-bluez.service -o cat --no-pager | grep -o '"/org/bluez/hci[01]"' | sort -u | tr '\n' ' ')
check bt-runwayd-sandbox-dbus "busctl GetManagedObjects on org.bluez as runway in runwayd.service's sandbox: $(systemctl show -p Result --value runway-alsa-bluez.service), adapters ${bluez_seen:-none}" \
    test "$(systemctl show -p Result --value runway-alsa-bluez.service)" = success -a -n "$bluez_seen"
rm -f /run/systemd/system/runway-alsa-bluez.service
systemctl daemon-reload

# bt_notify SECONDS FILE: bluetoothctl (as nobody) subscribed to the strap's Heart Rate
# Measurement under hci0 for SECONDS; each notified value (hex, no spaces) a line of FILE.
bt_notify() {
    rm -f /run/bt-notify; mkfifo /run/bt-notify
    timeout $(($1 + 20)) $nobody bluetoothctl < /run/bt-notify > "$2.raw" 2>&1 &
    shell=$!
    exec 8> /run/bt-notify
    echo "menu gatt" >&8; sleep 1; echo "select-attribute $hrm" >&8; sleep 1; echo "notify on" >&8
    sleep "$1"
    echo "notify off" >&8; sleep 1; echo quit >&8
    exec 8>&-
    wait "$shell"
    # "[CHG] Attribute …/char0016 Value:" then the bytes: "[prompt]#   06 94    .."
    sed 's/\x1b\[[0-9;]*[A-Za-z]//g; s/\r//g' "$2.raw" | awk '
        /Value:/ { take = 1; next }
        take && /#   [0-9a-f][0-9a-f] / { sub(/.*#   /, ""); v = ""; for (i = 1; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) v = v $i; print v; take = 0 }' > "$2"
}
# sent_ok FILE: every value in FILE is one the strap logged sending, and there are some.
sent_ok() { test -s "$1" && ! awk 'NR == FNR { sent[$3] = 1; next } !($1 in sent) { bad = 1 } END { exit !bad }' /run/strap-sent.txt "$1"; }
dev=/org/bluez/hci0/dev_$(echo "$strap" | tr : _)
$nobody busctl --timeout=60 call org.bluez "$dev" org.bluez.Device1 Pair > "$out/bt-pair.out" 2>&1
paired=$?
$nobody busctl --timeout=60 call org.bluez "$dev" org.bluez.Device1 Connect >> "$out/bt-pair.out" 2>&1
connected=$?
await bt-services-resolved 30 sh -c "busctl get-property org.bluez $dev org.bluez.Device1 ServicesResolved | grep -q true"
hrm=$(busctl tree --list org.bluez 2>/dev/null | grep "^$dev/service[0-9a-f]*/char[0-9a-f]*$" | while read -r p; do
    case $(bt_prop "$p" GattCharacteristic1 UUID) in *00002a37-*) echo "$p" ;; esac; done | head -n 1)
wait_for 20 sh -c "busctl get-property org.bluez $dev org.bluez.Battery1 Percentage"  # BlueZ's battery plugin reads it
battery=$(bt_prop "$dev" Battery1 Percentage)
bt_notify 10 "$out/bt-notified.txt"
sent_ok "$out/bt-notified.txt"
values=$?
check bt-central-pair-notify "from hci0 as nobody: Pair exit $paired, Connect exit $connected, $(bt_prop "$dev" Device1 Paired | sed 's/b /paired /'), $(bt_prop "$dev" Device1 ServicesResolved | sed 's/b /services resolved /'), Battery1 ${battery:-none}, Heart Rate Measurement ${hrm#$dev/}: $(grep -c . "$out/bt-notified.txt") notifications in 10 s ($(head -n 4 "$out/bt-notified.txt" | tr '\n' ' ')…), $([ $values = 0 ] && echo "each one" || echo "NOT each one") the strap logged sending ($(grep -c . /run/strap-sent.txt) logged)" \
    sh -c "test $paired = 0 -a $connected = 0 -a $values = 0 && test '$battery' = 'y 87' && test \$(grep -c . '$out/bt-notified.txt') -ge 5"
# The strap out of range and back: the link drops, bluetoothd (BlueZ 5.66) does not reconnect by
# itself, a Connect once it advertises again does, and its beats resume.
t0=$(date +%s)
touch "$bt_off"
wait_for 20 sh -c "busctl get-property org.bluez $dev org.bluez.Device1 Connected | grep -q false"
dropped=$?
t1=$(date +%s)
sleep 5
rm -f "$bt_off"
t2=$(date +%s)
wait_for 40 $nobody busctl --timeout=10 call org.bluez "$dev" org.bluez.Device1 Connect
back=$?
t3=$(date +%s)
await bt-services-resolved-again 30 sh -c "busctl get-property org.bluez $dev org.bluez.Device1 ServicesResolved | grep -q true"
bt_notify 5 "$out/bt-notified-again.txt"
check bt-strap-drop "strap off: link down after $((t1 - t0)) s (exit $dropped); back on: Connect from hci0 succeeded after $((t3 - t2)) s (exit $back), then $(grep -c . "$out/bt-notified-again.txt") notifications in 5 s" \
    sh -c "test $dropped = 0 -a $back = 0 && test \$(grep -c . '$out/bt-notified-again.txt') -ge 2"
# Forgotten on both sides: runwayd pairs from scratch (a bond kept on hci1 alone would make
# bluetoothd refuse the new Just Works pairing: JustWorksRepairing=never).
busctl call org.bluez "$dev" org.bluez.Device1 Disconnect 2>> "$out/guest.log"
busctl call org.bluez /org/bluez/hci0 org.bluez.Adapter1 RemoveDevice o "$dev" 2>> "$out/guest.log"
busctl call org.bluez /org/bluez/hci1 org.bluez.Adapter1 RemoveDevice o "/org/bluez/hci1/dev_$(echo "$board_address" | tr : _)" 2>> "$out/guest.log"
echo "bluetooth: stack checks done at $(date +%s), strap $strap, board $board_address" >> "$out/guest.log"

# runwayd's own, once it runs (checks.sh section 3): the strap found, paired and connected.
# (runway sensors: scan [--seconds N] [--json], pair ADDRESS|NAME, forget, list [--json].)
json_has() {  # json_has FILE PYTHON-EXPRESSION-ON-j: true when it holds
    python3 -c "import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1" 2>/dev/null
}
bt_runwayd_pair() {
    runway sensors scan --seconds 10 --json > "$out/sensors-scan.json" 2> "$out/sensors-scan.err"
    code=$?
    check bt-runway-sensors-scan "runway sensors scan --seconds 10 --json: exit $code, $(head -c 300 "$out/sensors-scan.json" "$out/sensors-scan.err" | tr '\n' ' ')" \
        json_has "$out/sensors-scan.json" "any(s.get('address') == '$strap' and 'heart_rate' in (s.get('kinds') or []) and s.get('name') == 'RunWay Strap' for s in j)"
    runway sensors pair "$strap" --json > "$out/sensors-pair.json" 2>&1
    code=$?
    check bt-runway-sensors-pair "runway sensors pair $strap --json: exit $code, $(head -c 300 "$out/sensors-pair.json" | tr '\n' ' ')" test "$code" = 0
    if [ "$code" = 0 ]; then
        wait_for 60 sh -c "runway sensors list --json > /tmp/sensors.json && python3 -c \"import json, sys; j = json.load(open('/tmp/sensors.json')); sys.exit(0 if any(s.get('address') == '$strap' and s.get('connected') is True and s.get('battery_percent') == 87 and 140 <= (s.get('heart_rate') or 0) <= 160 for s in j) else 1)\""
    fi
    runway sensors list --json > "$out/sensors-list.json" 2>&1
    check bt-runway-sensors-list "runway sensors list --json: $(head -c 300 "$out/sensors-list.json" | tr '\n' ' ')" \
        json_has "$out/sensors-list.json" "any(s.get('address') == '$strap' and s.get('connected') is True and s.get('battery_percent') == 87 and 140 <= (s.get('heart_rate') or 0) <= 160 and 'heart_rate' in (s.get('kinds') or []) for s in j)"
}
bt_strap_off() { bt_time strap-off; touch "$bt_off"; }
bt_strap_on() { rm -f "$bt_off"; bt_time strap-on; }
# After the landing: runwayd said the strap lost once in the drop, and connected again after it,
# before the restart (the flight flew on: runwayd-continues and the rest).
bt_runwayd_journal() {
    since=$(sed -n 's/^strap-off \([0-9]*\).*/\1/p' "$out/bt-times")
    until=$(sed -n 's/^restart \([0-9]*\).*/\1/p' "$out/bt-times")
    journalctl -b 0 -u runwayd -o short-unix --no-pager --since "@$since" --until "@$((until + 1))" > "$out/bt-drop.journal" 2>&1
    lost=$(grep -c 'sensor lost: RunWay Strap' "$out/bt-drop.journal")
    again=$(sed -n '/sensor lost: RunWay Strap/,$p' "$out/bt-drop.journal" | grep -c 'sensor connected: RunWay Strap')
    check bt-runway-sensor-reconnect "the strap off 20 s mid-flight: runwayd's journal from the drop to the restart says 'sensor lost: RunWay Strap' $lost times, then 'sensor connected: RunWay Strap' $again times: $(grep -E 'sensor (lost|connected)' "$out/bt-drop.journal" | cut -c1-120 | head -n 4 | tr '\n' ';')" \
        test "$lost" = 1 -a "$again" -ge 1
}

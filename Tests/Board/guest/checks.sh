#!/bin/sh
# Runs inside the emulated board, as root, from runway-board-test.service once the board has
# booted: each check against the real kernel device, its result a line in $out/results.txt
# ("PASS name: detail" or "FAIL name: detail"). Host and guest meet through files in $out:
# the guest asks (feed-gps), the host answers (gps-done).
set -u
here=$(dirname "$0")
out=${RUNWAY_BOARD_OUT:-/host-out}
results=$out/results.txt
: > "$results"
pass() { echo "PASS $1: $2" >> "$results"; }
fail() { echo "FAIL $1: $2" >> "$results"; }
# check NAME DETAIL-ON-FAILURE COMMAND...: PASS when COMMAND succeeds.
check() {
    name=$1 detail=$2
    shift 2
    if "$@"; then pass "$name" "$detail"; else fail "$name" "$detail"; fi
}
wait_for() {  # wait_for SECONDS COMMAND...: true once COMMAND succeeds within SECONDS
    deadline=$(($(date +%s) + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -ge "$deadline" ] && return 1
        sleep 0.5
    done
}
# await NAME SECONDS COMMAND...: a wait that is not a check of its own still has a result: a
# timeout is a failed check "wait-NAME" (what was waited for), and the return status says it.
await() {
    what=$1 seconds=$2
    shift 2
    wait_for "$seconds" "$@" && return 0
    fail "wait-$what" "timed out after $seconds s waiting for: $*"
    return 1
}
# journal_since_boot UNIT: this boot's journal of UNIT only (never a line an earlier boot wrote).
journal_since_boot() { journalctl -b 0 -u "$1" -o cat --no-pager 2>/dev/null; }
# gpsd and runwayd afresh. Whoever closes a TCP connection first keeps its end in TIME_WAIT for
# 60 s, and systemd binds gpsd.socket without SO_REUSEADDR: had gpsd stopped first and closed
# runwayd's connection, 127.0.0.1:2947 could not be bound again for a minute ("Job failed", and
# runwayd's "nothing accepts connections at 127.0.0.1:2947": the runner's boot waited 90 s for a
# fix that could not come, at 56e610d and c526f64). So runwayd (the client) stops first and alone,
# then gpsd and its socket; the socket's start is retried while a TIME_WAIT on 2947 (state 06,
# port 0B83 in /proc/net/tcp) is still there, and a start that never comes fails a check of its
# own with the socket's journal.
tcp_2947_time_wait() { awk '$2 ~ /:0B83$/ && $4 == "06"' /proc/net/tcp | wc -l; }
restart_gpsd_runwayd() {
    systemctl stop runwayd
    systemctl stop gpsd.service gpsd.socket
    tries=0
    until systemctl start gpsd.socket 2>> "$out/guest.log"; do
        tries=$((tries + 1))
        echo "gpsd.socket start $tries failed, $(tcp_2947_time_wait) TIME_WAIT on 2947:" \
            "$(journal_since_boot gpsd.socket | tail -n 3 | tr '\n' ' ')" >> "$out/guest.log"
        if [ "$tries" -ge 45 ]; then
            fail gpsd-socket-start "gpsd.socket did not start in 45 tries 2 s apart: $(journal_since_boot gpsd.socket | tail -n 5 | tr '\n' ' ')"
            break
        fi
        systemctl reset-failed gpsd.socket
        sleep 2
    done
    systemctl start runwayd
}
# Kernel timestamps of the buzzer line: the gpio_value trace event (every value gpiolib sets) in
# the ftrace ring buffer, with markers (trace_marker) written by these checks on the same clock.
tracing=/sys/kernel/tracing
mark() { echo "runway-mark $*" > "$tracing/trace_marker" 2>/dev/null || true; }
# press LINE SECONDS [NAME]: holds a button down SECONDS (a marker in the trace before and after);
# the hold as the shell made it is kept in $out/holds.txt.
press() {
    mark "press ${3:-$1} $2"
    t0=$(date +%s%N)
    pull "$1" down; sleep "$2"; pull "$1" up
    t1=$(date +%s%N)
    mark "release ${3:-$1}"
    echo "${3:-$1} asked $2 s, held $(((t1 - t0) / 1000000)) ms" >> "$out/holds.txt"
}
status_field() {  # the number or word runway status --json says for $1
    runway status --json 2>/dev/null | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"
}
echo "kernel $(uname -r), $(systemctl is-system-running)" >> "$out/guest.log"
# The power-cut boots and the runner's boot (issue 27) run their own scripts (board_test.py
# passes runway.phase= to the kernel).
phase=$(sed -n 's/.*runway\.phase=\([a-z-]*\).*/\1/p' /proc/cmdline)
case $phase in
    runner) . "$here/runner.sh"; exit 0 ;;
    ?*) . "$here/power-cut.sh"; exit 0 ;;
esac

# 0. The .deb was installed into the image in a chroot: runwayd must still start at boot.
check runwayd-enabled-at-boot "runwayd.service and runwayd.socket enabled by the package, runwayd running after boot" \
    sh -c 'systemctl is-enabled -q runwayd.service runwayd.socket && systemctl is-active -q runwayd.service'

# 1. The BMP280 driver on i2c-stub.
modprobe i2c-dev && modprobe i2c-stub chip_addr=0x76
bus=$(i2cdetect -l | awk '/SMBus stub/ { sub("i2c-", "", $1); print $1 }')
if [ -z "$bus" ]; then
    fail bmp280-datasheet-vector "no i2c-stub adapter"
else
    "$here/bmp280-registers.sh" "$bus"
    json=$(runway baro --bus "$bus" --count 1 --json 2>&1)
    case $json in
        *'"chip_id":"0x58"'*'"temperature_c":25.08'*'"pressure_pa":100653.25'*)
            pass bmp280-datasheet-vector "i2c-$bus: 25.08 °C, 100653.25 Pa (T = 2508, P = 25767233 Q24.8)" ;;
        *) fail bmp280-datasheet-vector "i2c-$bus: $json" ;;
    esac
    "$here/bmp280-registers.sh" "$bus" 415988  # 840 ADC counts more: about 145 Pa less
    json=$(runway baro --bus "$bus" --count 1 --json 2>&1)
    case $json in
        *'"pressure_pa":10050'*) pass bmp280-follows-pressure "the chip's new ADC value read: $json" ;;
        *) fail bmp280-follows-pressure "$json" ;;
    esac
    "$here/bmp280-registers.sh" "$bus"
    # No chip at the address: the kernel's own errno, said with it, exit 1, no crash.
    err=$(runway baro --bus "$bus" --address 0x77 --count 1 2>&1)
    code=$?
    case "$code $err" in
        "1 "*"failed: "*"(errno "*) pass bmp280-no-chip-errno "exit $code: $err" ;;
        *) fail bmp280-no-chip-errno "exit $code: $err" ;;
    esac
    # A chip stuck measuring mid-run: each reading says so, the command goes on.
    # (Removing the adapter mid-read cannot be done here: the kernel refuses to unload i2c-stub
    # while runway holds /dev/i2c-N open.)
    runway baro --bus "$bus" --count 6 > "$out/baro-stuck.out" 2> "$out/baro-stuck.err" &
    reader=$!
    sleep 1.2
    i2cset -y "$bus" 0x76 0xF3 0x08 b
    wait $reader
    code=$?
    i2cset -y "$bus" 0x76 0xF3 0x00 b
    if [ $code -eq 0 ] && grep -q "measuring for too long" "$out/baro-stuck.err"; then
        pass bmp280-stuck-mid-run "exit 0; $(grep -c . "$out/baro-stuck.out") readings before, then: $(head -n 1 "$out/baro-stuck.err")"
    else
        fail bmp280-stuck-mid-run "exit $code; $(cat "$out/baro-stuck.err")"
    fi
fi

# 2. Buttons and the buzzer through libgpiod on gpio-sim (lines 17 START, 27 PAUSE, 22 END,
# 23 buzzer, as board/runway.json wires them).
. "$here/board-lines.sh"
check buzzer-trace-ready "gpio_value events of line 23 (gpio $buzzer_gpio) traced by the kernel" \
    sh -c "test -n '$base' && test \"\$(cat $tracing/events/gpio/gpio_value/enable)\" = 1"
check udev-gpio-group "/dev/$chip is root:gpio 0660 (udev/60-runway.rules)" \
    test "$(stat -c '%G %a' "/dev/$chip")" = "gpio 660"
runway buttons --chip "$chip" > "$out/buttons.out" 2>&1 &
watcher=$!
sleep 2
pull 17 down; sleep 0.2; pull 17 up; sleep 0.3
# A bounce train on PAUSE: six edges as fast as the shell's own echo writes them (no process
# started between them: under TCG a `sleep` alone takes longer than a contact bounces), then held.
pause_pull=$sim/sim_gpio27/pull
for i in 1 2 3; do echo pull-down > "$pause_pull"; echo pull-up > "$pause_pull"; done
echo pull-down > "$pause_pull"; sleep 0.3; pull 27 up; sleep 0.3
# END: 1.8 s is under the 2 s threshold (a brief press, never the end), 2.2 s over it.
press 22 1.8 buttons-end-1.8; sleep 0.3
press 22 2.2 buttons-end-2.2; sleep 0.3
pull 17 down; sleep 0.2; pull 17 up; sleep 1
kill $watcher 2>/dev/null
wait $watcher 2>/dev/null
cat "$out/buttons.out" >> "$out/guest.log"
# The kernel's event timestamps, as libgpiod hands them on (seconds and nanoseconds).
gpiomon --num-events=6 --format="%s %n %e" "$chip" 17 > "$out/gpiomon.out" 2>&1 &
monitor=$!
sleep 1
for i in 1 2 3; do pull 17 down; sleep 0.05; pull 17 up; sleep 0.05; done
sleep 0.5
kill $monitor 2>/dev/null
wait $monitor 2>/dev/null
check buttons-short-press "START pressed twice: two short presses" \
    test "$(grep -c '^short start' "$out/buttons.out")" = 2
check buttons-bounce-train "a bounce train and a press on PAUSE: one short press" \
    test "$(grep -c '^short pause' "$out/buttons.out")" = 1
check buttons-end-threshold "END held 1.8 s: a short press, not the end; held 2.2 s: one long press ($(grep buttons-end- "$out/holds.txt" | tr '\n' ';'))" \
    sh -c "test \"\$(grep -c '^long end' '$out/buttons.out')\" = 1 && test \"\$(grep -c '^short end' '$out/buttons.out')\" = 1 && sed -n '/^short end/,\$p' '$out/buttons.out' | grep -q '^long end'"
check gpio-timestamps-monotonic "gpiomon's kernel timestamps for START's six edges increase" \
    sh -c "test \$(grep -c . '$out/gpiomon.out') = 6 && awk '{ t = \$1 * 1000000000 + \$2 } NR > 1 && t <= last { exit 1 } { last = t }' '$out/gpiomon.out'"
# Every callout's pattern on the buzzer line, one at a time: the host times each edge from the
# trace (buzzer-trace.txt) against runway buzz NAME --simulated.
for name in $(runway buzz no-such-pattern 2>&1 | sed -n 's/.*(\(countdown, .*\))$/\1/p' | tr -d ','); do
    mark "buzz $name"
    runway buzz "$name" --chip "$chip" --line 23 > /dev/null 2>> "$out/guest.log" || fail "buzz-$name" "runway buzz $name failed"
done
mark "buzz end"
check buzzer-ends-off "after the patterns the line is off (gpio-sim's value)" test "$(cat "$sim/sim_gpio23/value")" = 0
sed -i "s/\"gpiochip\": \"gpiochip0\"/\"gpiochip\": \"$chip\"/" /etc/runway/runway.json
# The takeoff checklist's interactive part, on these lines: press each button when asked, answer
# that the buzzer was heard. runwayd holds the lines while it runs, so it is stopped first.
systemctl stop runwayd.service runwayd.socket
# The answer to "Did you hear …?" is given only once the trace shows the line toggled while
# the checklist played them: "y" when it did, "n" when it stayed silent.
rm -f /tmp/answer; mkfifo /tmp/answer
runway checklist --interactive --wait 2 < /tmp/answer > "$out/checklist.out" 2>&1 &
checklist=$!
exec 7> /tmp/answer
for pair in START:17 PAUSE:27 END:22; do
    await "checklist-asks-${pair%%:*}" 60 grep -q "Press ${pair%%:*}" "$out/checklist.out" && sleep 0.5
    [ "${pair%%:*}" = END ] && mark "checklist buzzer"  # the patterns follow the last press
    pull "${pair#*:}" down; sleep 0.2; pull "${pair#*:}" up
done
await checklist-asks-heard 120 grep -q "Did you hear" "$out/checklist.out"
mark "checklist answer"
toggles=$(sed -n '/runway-mark checklist buzzer/,/runway-mark checklist answer/p' "$tracing/trace" \
    | awk '/gpio_value:/ { v = $NF; if (v != last) n++; last = v } END { print n + 0 }')
echo "checklist: the line changed $toggles times while the patterns played" >> "$out/guest.log"
if [ "$toggles" -ge 24 ]; then echo y >&7; else echo n >&7; fi
exec 7>&-
wait $checklist
cat "$out/checklist.out" >> "$out/guest.log"
check checklist-interactive "runway checklist --interactive: each button pressed when asked, the buzzer's patterns played" \
    sh -c "grep -q '^  BUTTONS     OK      START, PAUSE, END pressed' '$out/checklist.out' && grep -q '^  BUZZER      OK' '$out/checklist.out'"

# 2b. ALSA, the voice's path, first without runwayd: snd-aloop's loopback card (what is played
# on Loopback,0,0 is captured on Loopback,1,0), its nodes root:audio 0660, and runwayd.service's
# own sandbox playing on it. The host compares each capture with the sound (alsa-test.wav).
alsa_major=$(awk '$2 == "alsa" { print $1 }' /proc/devices)
check alsa-core-at-boot "snd loaded before runwayd started (modprobe@snd: char major ${alsa_major:-none} 'alsa' in /proc/devices, which DeviceAllow=char-alsa is resolved through at the start)" \
    test -n "$alsa_major"
modprobe snd-aloop
await alsa-loopback-card 20 grep -q Loopback /proc/asound/cards
udevadm settle
card=$(awk '/Loopback/ { print $1; exit }' /proc/asound/cards)
echo "$card" > "$out/alsa-card"
alsa_nodes=$(ls /dev/snd/controlC"$card" /dev/snd/pcmC"$card"D* 2>/dev/null | tr '\n' ' ')
check alsa-nodes-audio "snd-aloop card $card: $(stat -c '%n %U:%G %a' $alsa_nodes 2>&1 | tr '\n' ';')" \
    sh -c "test -n '$alsa_nodes' && test \"\$(stat -c '%U %G %a' $alsa_nodes | sort -u)\" = 'root audio 660'"
# loop_capture FILE: the loopback's other end, as the voice plays (22050 Hz, mono, S16), in the
# background ($recorder) until loop_stop (after what played has ended: TCG's pace varies).
loop_capture() {
    arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 22050 -c 1 "$1" 2>> "$out/guest.log" &
    recorder=$!
    sleep 1
}
loop_stop() { sleep 0.5; kill -INT "$recorder"; wait "$recorder"; }
loop_capture "$out/alsa-capture-root.wav"
aplay -q -D plughw:Loopback,0,0 "$out/alsa-test.wav" 2>> "$out/guest.log"
played=$?
loop_stop
check alsa-aplay-arecord "as root: aplay on plughw:Loopback,0,0 exit $played, arecord on plughw:Loopback,1,0 exit $? (the capture is judged on the host)" \
    test "$played" = 0 -a -s "$out/alsa-capture-root.wav"
# probe NAME [SED]: runwayd.service as installed, with aplay for runwayd (a oneshot; the lines that
# make it a notify daemon with the socket and state directories dropped), SED changing it; the
# exit status of systemctl start, what aplay said in $out/alsa-NAME.err.
mkdir -p -m 0755 /run/runway-probe && cp "$out/alsa-test.wav" /run/runway-probe/ && chmod 0644 /run/runway-probe/alsa-test.wav
probe() {
    sed -e '/^\(Type\|NotifyAccess\|WatchdogSec\|Restart\|RestartSec\|TimeoutStopSec\|Requires\|After\|Wants\|StateDirectory\|StateDirectoryMode\|RuntimeDirectory\|RuntimeDirectoryMode\|RuntimeDirectoryPreserve\|ConfigurationDirectory\)=/d' \
        -e 's|^ExecStart=.*|ExecStart=/usr/bin/aplay -q -D plughw:Loopback,0,0 /run/runway-probe/alsa-test.wav|' \
        -e '/^\[Service\]/a Type=oneshot' -e "${2:-}" /lib/systemd/system/runwayd.service > "/run/systemd/system/runway-alsa-$1.service"
    systemctl daemon-reload
    systemctl start "runway-alsa-$1.service" 2> /dev/null
    code=$?
    journalctl -u "runway-alsa-$1.service" -o cat --no-pager | grep -i aplay | tail -n 2 | tr '\n' ' ' > "$out/alsa-$1.err"
    return $code
}
loop_capture "$out/alsa-capture-runwayd.wav"
probe runwayd
check alsa-runwayd-sandbox "aplay as runway in runwayd.service's sandbox (DevicePolicy=closed, DeviceAllow=char-alsa rw, SupplementaryGroups=… audio, ProcSubset=pid) plays on the loopback: exit $? $(cat "$out/alsa-runwayd.err")" \
    test "$(systemctl show -p Result --value runway-alsa-runwayd.service)" = success
loop_stop
probe no-device-allow 's/^DeviceAllow=char-alsa rw$//'
check alsa-needs-device-allow "the same sandbox without DeviceAllow=char-alsa is refused: exit $? $(cat "$out/alsa-no-device-allow.err")" \
    test "$(systemctl show -p Result --value runway-alsa-no-device-allow.service)" != success
probe no-audio-group '/^SupplementaryGroups=/s/ audio\( \|$\)/\1/'
check alsa-needs-audio-group "the same sandbox without the group audio is refused: exit $? $(cat "$out/alsa-no-audio-group.err")" \
    test "$(systemctl show -p Result --value runway-alsa-no-audio-group.service)" != success
rm -f /run/systemd/system/runway-alsa-*.service
systemctl daemon-reload

# 2c. Bluetooth LE (issue 25): virtual controllers, bluetoothd and the heart-rate strap, before
# runwayd flies with it (guest/bluetooth.sh; it uses probe, above).
bt_began=$(date +%s)
. "$here/bluetooth.sh"
echo "bluetooth: the section took $(($(date +%s) - bt_began)) s" >> "$out/guest.log"

# 3. runwayd under the board's systemd, as the .deb installed it.
sed -i "s/\"bus\": 1/\"bus\": ${bus:-1}/" /etc/runway/runway.json
ls -l "/dev/i2c-${bus:-1}" >> "$out/guest.log" 2>&1
check udev-i2c-group "/dev/i2c-$bus is root:i2c 0660 (udev/60-runway.rules)" \
    test "$(stat -c '%G %a' "/dev/i2c-${bus:-1}")" = "i2c 660"
# The voice (issue 24), output "both": runwayd flies the first half of this flight with a device
# that does not exist (it flies on, buzzer and all, and says the fault once), the second half,
# after the restart mid-flight, speaking on the loopback while it is captured (the host's
# voice_checks judge the capture against runwayd's journal).
voice_conf() {  # voice_conf DEVICE: the package's "voice" object (one line) made this one
    voice="\"voice\": {\"output\": \"both\", \"language\": \"en\", \"device\": \"$1\"}"
    if grep -q '"voice": {[^}]*}' /etc/runway/runway.json; then
        sed -i "s|\"voice\": {[^}]*}|$voice|" /etc/runway/runway.json
    else
        sed -i "1a\\  $voice," /etc/runway/runway.json
    fi
    runwayd --check-config --config /etc/runway/runway.json > "$out/voice-config.check" 2>&1
}
voice_conf plughw:NoSuchCard,0,0
check voice-config-accepted "runwayd --check-config: $(grep '"voice"' /etc/runway/runway.json || echo 'no voice'): $(head -c 300 "$out/voice-config.check")" \
    sh -c "grep -q valid '$out/voice-config.check' && grep -q '\"device\": \"plughw:NoSuchCard,0,0\"' /etc/runway/runway.json"
restart_gpsd_runwayd
check runwayd-ready "Type=notify: active only after READY=1" wait_for 30 systemctl is-active -q runwayd
bt_runwayd_pair  # the strap found, paired and connected by runwayd before the flight
touch "$out/feed-gps"
check runwayd-gps-fix "runway status shows a fix from gpsd on /dev/ttyS1" \
    wait_for 90 sh -c 'runway status --json | grep -q "\"gps_signal\":\"\(STRONG\|GOOD\)\""'
press 17 0.3 start
bt_time takeoff
check runwayd-flying "START pressed on gpio-sim: the flight takes off" \
    wait_for 30 sh -c 'runway status --json | grep -q "\"phase\":\"cruise\""'
id=$(status_field flight_id)
# The countdown and ROTATE are still playing (at 20 epochs a second they come within 0.2 s): PAUSE
# waits until the line is quiet, so its callout is timed alone.
sleep 3
# PAUSE on gpio-sim pauses the flight (its callout played, timed by the host), PAUSE again resumes.
# Each callout plays out before status is asked: a runway started under TCG takes both vCPUs for a
# moment, which would delay the buzzer's thread and be measured as the pattern's error.
press 27 0.3 pause; sleep 1.5
check runwayd-pause-button "PAUSE pressed on gpio-sim: runway status says paused (manual)" \
    wait_for 15 sh -c 'runway status --json > /tmp/s.json && grep -q "\"paused\":true" /tmp/s.json && grep -q "\"pause_reason\":\"manual\"" /tmp/s.json'
cp /tmp/s.json "$out/paused.json"
sleep 1
press 27 0.3 resume; sleep 1.5
check runwayd-resume-button "PAUSE pressed again: runway status says not paused" \
    wait_for 15 sh -c 'runway status --json > /tmp/s.json && grep -q "\"paused\":false" /tmp/s.json'
cp /tmp/s.json "$out/resumed.json"
# (runway status --json writes its keys in sorted order: each field is matched alone.)
# END's 2 s threshold from runwayd's side: a bump and a 1.8 s hold are brief presses (said in
# this boot's journal), the flight flies on.
press 22 0.3 end-bump
check runwayd-end-bump "a short END bump: said as brief, flight $id still flying" \
    wait_for 10 sh -c "test \"\$(journalctl -b 0 -u runwayd -o cat | grep -c 'END pressed briefly')\" -ge 1 && runway status --json > /tmp/s.json && grep -q '\"phase\":\"cruise\"' /tmp/s.json && grep -q '\"flight_id\":$id,' /tmp/s.json"
press 22 1.8 end-1.8
check runwayd-end-1.8s "END held 1.8 s: said as brief, flight $id still flying ($(tail -n 1 "$out/holds.txt"))" \
    wait_for 10 sh -c "test \"\$(journalctl -b 0 -u runwayd -o cat | grep -c 'END pressed briefly')\" -ge 2 && runway status --json > /tmp/s.json && grep -q '\"phase\":\"cruise\"' /tmp/s.json && grep -q '\"flight_id\":$id,' /tmp/s.json"
# A 12 m climb on the barometer, then back down; meanwhile the strap is out of range for 20 s.
sleep 3
"$here/bmp280-registers.sh" "$bus" 415988
bt_strap_off
sleep 20
bt_strap_on
"$here/bmp280-registers.sh" "$bus"
await distance-2000m 60 sh -c '[ "$(runway status --json | sed -n "s/.*\"distance_m\":\([0-9]*\).*/\1/p")" -ge 2000 ]'
before=$(status_field distance_m)
# The second half speaks on the loopback: captured from before the restart to after the landing.
# The capture's first sample is the moment ALSA triggered it (the stream's status file). Made
# ready before the stop: each second runwayd is down is 60 m of flat5k it does not count.
voice_conf plughw:Loopback,0,0
capture_status=/proc/asound/card${card:-0}/pcm1c/sub0/status
echo "began $(date +%s.%N)" > "$out/voice-capture-times"
arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 22050 -c 1 /var/tmp/voice-capture.wav 2>> "$out/guest.log" &
voice_recorder=$!
wait_for 10 grep -q 'state: RUNNING' "$capture_status"
echo "trigger $(sed -n 's/^trigger_time: *//p' "$capture_status")" >> "$out/voice-capture-times"
first_half=$(systemctl show -p MainPID --value runwayd)
bt_time restart
systemctl stop runwayd
check runwayd-stopped-mid-flight "the flight stays open (flying) in the logbook after systemctl stop" \
    sh -c "runway logbook --json | grep -q '\"id\":$id,\"status\":\"flying\"'"
systemctl start runwayd
check runwayd-continues "flight $id goes on after the restart (from $before m)" \
    wait_for 60 sh -c "[ \"\$(runway status --json | sed -n 's/.*\"flight_id\":\([0-9]*\).*/\1/p')\" = $id ]"
# The first half's voice: its device did not exist; the fault said once however many callouts.
journalctl -b 0 _PID="$first_half" -o cat --no-pager > "$out/runwayd-first-half.journal" 2>&1
# (runwayd's audio fault: "audio device missing or failing: …", said once, the device retried
# every 30 s without a word; nothing is said to be spoken.)
voice_faults=$(grep -c 'audio device missing or failing' "$out/runwayd-first-half.journal")
first_spoken=$(grep -c 'voice: speaking' "$out/runwayd-first-half.journal")
first_callouts=$(grep -c 'callout: ' "$out/runwayd-first-half.journal")
check voice-fault-said-once "device plughw:NoSuchCard,0,0: flight $id flew on to $before m through $first_callouts callouts ($(grep 'callout: ' "$out/runwayd-first-half.journal" | sed 's/.*callout: //' | tr '\n' ',' | head -c 200)), none spoken, the fault logged $voice_faults times: $(grep 'audio device missing' "$out/runwayd-first-half.journal" | head -n 2 | tr '\n' ' ')" \
    test "$voice_faults" = 1 -a "$first_callouts" -ge 3 -a "$first_spoken" = 0
await gps-done 300 test -e "$out/gps-done"
# SIGNAL LOST comes 8 s after the last fix: said (about 1 s of words), then its 1.7 s pattern
# (longer than a lead-in: after the words), before END lands the flight.
sleep 14
press 22 2.2 end-land; sleep 2.5  # END, held over the threshold
bt_time landing
check runwayd-long-press-lands "END held 2.2 s on gpio-sim: TOUCHDOWN, flight $id finished in the logbook ($(tail -n 1 "$out/holds.txt"))" \
    wait_for 20 sh -c "runway logbook --json | grep -q '\"id\":$id,\"status\":\"finished\"'"
mark "flight end"
sleep 15  # the last split's words (~4 s), TOUCHDOWN's (~7 s), then its 1.45 s pattern
kill -INT "$voice_recorder" 2>/dev/null
wait "$voice_recorder"
echo "ended $(date +%s.%N)" >> "$out/voice-capture-times"
cp /var/tmp/voice-capture.wav "$out/voice-capture.wav"
journalctl -b 0 -u runwayd -o json --no-pager > "$out/runwayd-journal.json" 2>&1
runway logbook --json > "$out/logbook.json" 2>&1
runway logbook --flight "$id" --json > "$out/flight.json" 2>&1
runway logbook --flight "$id" >> "$out/guest.log" 2>&1
bt_runwayd_journal
runway sensors list --json > "$out/sensors-list-after.json" 2>&1
bt_collect
# 4. USB sticks, plugged and pulled by the host (QMP); udev starts runway-export@ for each.
usb_n=0
usb() {  # usb plug|unplug NAME [slow]: asks the host and waits for it
    usb_n=$((usb_n + 1))
    echo "$*" > "$out/usb-request-$usb_n"
    await "usb-host-answers-$usb_n" 30 test -e "$out/usb-done-$usb_n"
}
export_ended() {  # true once an export unit started after $1 finished or failed
    journalctl -u 'runway-export@*' --since "$1" | grep -q -E "Finished runway-export|Failed to start runway-export"
}
mark=$(date '+%Y-%m-%d %H:%M:%S')
usb plug stick
await usb-stick-export-ends 120 export_ended "$mark"
journalctl -u 'runway-export@*' --since "$mark" --no-pager > "$out/export.journal" 2>&1
check usb-stick-export "udev saw the RUNWAY stick and runway-export@ ran to success" \
    grep -q "Finished runway-export@" "$out/export.journal"
sync
usb unplug stick
await usb-stick-gone 30 sh -c '! test -e /dev/sda'
sleep 2
# A stick pulled mid-export (it writes 20 kB/s), then plugged in again.
mark=$(date '+%Y-%m-%d %H:%M:%S')
usb plug slowstick slow
# runway-stick@ mounts it in the system's namespace: the files show as each one is renamed in.
await usb-slowstick-first-file 120 sh -c 'ls /run/runway-export/*/RUNWAY/ 2>/dev/null | grep -q "\.fit$"'
ls -l /run/runway-export/*/RUNWAY/ >> "$out/guest.log" 2>&1
usb unplug slowstick
await usb-pulled-export-ends 60 sh -c "journalctl -u 'runway-export@*' --since '$mark' | grep -q -E 'export (done|failed)'"
journalctl -u 'runway-export@*' --since "$mark" --no-pager > "$out/export-pulled.journal" 2>&1
check usb-stick-pulled-mid-export "pulled while writing: the export stops and the buzzer says failed" \
    sh -c "grep -q 'export failed' '$out/export-pulled.journal' && ! grep -q 'export done' '$out/export-pulled.journal'"
sleep 2
mark=$(date '+%Y-%m-%d %H:%M:%S')
usb plug slowstick
await usb-replugged-export-ends 120 export_ended "$mark"
journalctl -u 'runway-export@*' --since "$mark" --no-pager > "$out/export-replugged.journal" 2>&1
journalctl -u 'runway-stick@*' --since "$mark" --no-pager > "$out/stick-replugged.journal" 2>&1
check usb-stick-replugged "plugged in again, the export completes the set" \
    grep -q "Finished runway-export@" "$out/export-replugged.journal"
sync
usb unplug slowstick
sleep 2

# 5. The gadget: the drive the wearable shows a computer. dummy_hcd gives this machine a USB
# device controller and, on its host side, stands in for the laptop.
modprobe dummy_hcd
systemctl start runway-gadget.service
await gadget-drive-appears 60 sh -c 'lsblk -rno NAME,LABEL | grep -q " RUNWAY$"'
systemctl status runway-gadget.service --no-pager > "$out/gadget.status" 2>&1
drive=$(lsblk -rno NAME,LABEL | awk '$2 == "RUNWAY" { print $1; exit }')
mkdir -p /mnt/laptop "$out/gadget"
if [ -n "$drive" ] && mount -o ro "/dev/$drive" /mnt/laptop; then
    cp /mnt/laptop/RUNWAY/* "$out/gadget/" 2>> "$out/guest.log"
    check gadget-drive "the gadget's drive /dev/$drive (label RUNWAY) holds RUNWAY/" test -e "$out/gadget/index.html"
    umount /mnt/laptop
    # Read-only as the gadget serves it, not as this side mounts it: the LUN's own ro attribute,
    # and a sector written back by the computer fails — its kernel sees the write-protect the LUN
    # reports and keeps the disk read-only even after blockdev --setrw — the image unchanged.
    ro=$(cat /sys/kernel/config/usb_gadget/*/functions/mass_storage.*/lun.0/ro 2>/dev/null | head -n 1)
    image=$(cat /sys/kernel/config/usb_gadget/*/functions/mass_storage.*/lun.0/file 2>/dev/null | head -n 1)
    [ -f "$image" ] || image=/var/lib/runway/usb-drive.img
    before=$(sha256sum "$image" 2>/dev/null | cut -c1-16)
    dd if="/dev/$drive" of=/tmp/sector bs=512 count=1 2>/dev/null
    blockdev --setrw "/dev/$drive" 2>> "$out/guest.log"
    if dd if=/tmp/sector of="/dev/$drive" bs=512 count=1 oflag=direct conv=fsync 2>> "$out/gadget-write.err"; then
        wrote="the write went through"
    else
        wrote="the write failed: $(tail -n 1 "$out/gadget-write.err")"
    fi
    after=$(sha256sum "$image" 2>/dev/null | cut -c1-16)
    check gadget-read-only "LUN ro=$ro; the computer writing sector 0 of /dev/$drive: $wrote; image $before → $after" \
        sh -c "test '$ro' = 1 && test -n '$before' && test '$before' = '$after' && case '$wrote' in 'the write failed'*) true;; *) false;; esac"
else
    fail gadget-drive "no RUNWAY drive appeared ($(cat "$out/gadget.status" | tail -n 3))"
fi
check runwayd-watchdog "WatchdogSec=30 and no restart by the watchdog" \
    test "$(systemctl show -p NRestarts --value runwayd)" = 0
journalctl -b 0 -u runwayd --no-pager > "$out/runwayd.journal" 2>&1
kill "$stall_probe" 2>/dev/null
echo 0 > "$tracing/tracing_on"
cp "$tracing/trace" "$out/buzzer-trace.txt"
bt_collect
echo done >> "$out/guest.log"

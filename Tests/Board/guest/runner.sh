# Sourced by checks.sh for the runner's boot (runway.phase=runner, issue 27): runwayd as the .deb
# installed it, on gpio-sim's buttons and buzzer, with the serial GPS fed in real time (one epoch
# a second: the GPS's seconds are the wall clock's, so the documented times hold as they are).
# In preflight PAUSE pressed briefly steps through the runs (a free run, the configured mission —
# none here — then `runs`, round again after the last); START flies the one chosen; a bump on
# PAUSE while running is reminded (STILL PAUSED after 15 s of running); START resumes. The host
# times each pattern on the buzzer line from the kernel's trace (board_test.py runner_checks)
# and reads the flight's pauses and decisions.
echo "runner: checks began $(cut -d" " -f1 /proc/uptime) s after the kernel started" >> "$out/guest.log"
modprobe i2c-dev && modprobe i2c-stub chip_addr=0x76
bus=$(i2cdetect -l | awk '/SMBus stub/ { sub("i2c-", "", $1); print $1 }')
"$here/bmp280-registers.sh" "$bus"
. "$here/board-lines.sh"
# The board's lines and bus; the buzzer alone (no sound card on this boot: "both" would wait for
# a device that is not there); two configured runs after the free run.
conf=/etc/runway/runway.json
sed -i -e "s/\"gpiochip\": \"gpiochip0\"/\"gpiochip\": \"$chip\"/" -e "s/\"bus\": 1,/\"bus\": ${bus:-1},/" \
    -e 's|"voice": {[^}]*}|"voice": {"output": "buzzer"}|' "$conf"
sed -i '1a\  "runs": [{"name": "tempo", "mission": {"pace": "4:30", "distance": 6000}}, {"name": "long easy"}],' "$conf"
runwayd --check-config --config "$conf" > "$out/runner-config.check" 2>&1
check runner-config "runwayd --check-config with two runs and the buzzer alone: $(head -c 300 "$out/runner-config.check")" \
    sh -c "grep -q valid '$out/runner-config.check' && grep -q '\"name\": \"long easy\"' '$conf'"
cp "$conf" "$out/runway.json"
restart_gpsd_runwayd
await runwayd-active 30 systemctl is-active -q runwayd
touch "$out/feed-gps"
await gps-fix 90 sh -c 'runway status --json | grep -q "\"gps_signal\":\"\(STRONG\|GOOD\)\""'
sleep 3  # GPS ready's pattern plays out first
first=$(status_field run)
# The gesture that chooses the run: PAUSE pressed briefly, five times. Each pattern plays out
# before status is asked (a runway started under TCG takes both vCPUs for a moment, which would
# delay the buzzer's thread and be measured as the pattern's error).
chosen=""
n=0
for want in tempo "long easy" "free run" tempo "long easy"; do
    n=$((n + 1))
    press 27 0.3 "choose-$n"; sleep 3
    got=$(status_field run)
    echo "choose-$n: $got (the README's order: $want)" >> "$out/run-choices.txt"
    chosen="$chosen${chosen:+, }$got"
done
check runner-run-choice "PAUSE pressed briefly five times in preflight: runway status said '$first' before, then $chosen" \
    test "$first, $chosen" = "free run, tempo, long easy, free run, tempo, long easy"
said=$(journal_since_boot runwayd | grep -v 'callout: ' | sed -n 's/.*run chosen: //p' | tr '\n' ';')
check runner-run-choice-journal "runwayd's journal: run chosen: $said" \
    test "$said" = "tempo (2);long easy (3);free run (1);tempo (2);long easy (3);"
press 17 0.3 start
check runner-takeoff "START pressed on gpio-sim after the choice: the flight takes off" \
    wait_for 30 sh -c 'runway status --json | grep -q "\"phase\":\"cruise\""'
id=$(status_field flight_id)
check runner-run-flying "runway status in flight: run '$(status_field run)', flight ${id:-none}" \
    test "$(status_field run)" = "long easy" -a -n "$id"
sleep 30
# A bump on PAUSE while running: paused (manual); the feed runs on, so does the runner. Nothing
# runs `runway` from a few seconds after the press until the reminder has played out (STILL
# PAUSED after 15 s of running, its pattern 3.25 s).
press 27 0.3 slip; sleep 1.5
check runner-slip-paused "a bump on PAUSE while running: runway status says paused (manual)" \
    wait_for 5 sh -c 'runway status --json > /tmp/s.json && grep -q "\"paused\":true" /tmp/s.json && grep -q "\"pause_reason\":\"manual\"" /tmp/s.json'
cp /tmp/s.json "$out/slip-paused.json"
sleep 22
reminders=$(journal_since_boot runwayd | grep -c 'callout: STILL PAUSED')
check runner-slip-reminded "running while paused: runwayd said STILL PAUSED $reminders times within 22 s of the bump" \
    test "$reminders" = 1
press 17 0.3 start-resume; sleep 1.5
check runner-start-resumes "START pressed while paused: runway status says not paused, flight $id flies on" \
    wait_for 15 sh -c "runway status --json > /tmp/s.json && grep -q '\"paused\":false' /tmp/s.json && grep -q '\"flight_id\":$id,' /tmp/s.json"
cp /tmp/s.json "$out/slip-resumed.json"
sleep 40
press 22 2.2 end-land; sleep 2.5
check runner-lands "END held 2.2 s: flight $id finished in the logbook ($(tail -n 1 "$out/holds.txt"))" \
    wait_for 20 sh -c "runway logbook --json | grep -q '\"id\":$id,\"status\":\"finished\"'"
sleep 3  # TOUCHDOWN's pattern
runway logbook --flight "$id" --json > "$out/runner-flight.json" 2>&1
runway logbook --flight "$id" >> "$out/guest.log" 2>&1
journal_since_boot runwayd > "$out/runwayd.journal"
kill "$stall_probe" 2>/dev/null
echo 0 > "$tracing/tracing_on"
cp "$tracing/trace" "$out/buzzer-trace.txt"
echo done >> "$out/guest.log"

#!/usr/bin/env bash
# Records a gpsd JSON trace (what `gpspipe -w` prints) of a built-in scenario, replayed through a
# real gpsd by gpsfake on a free loopback port — the way the fixtures in Tests/Fixtures were made.
#
#   scripts/record-trace.sh SCENARIO OUT_PREFIX
#
# writes OUT_PREFIX.nmea, OUT_PREFIX.gpsd.json and OUT_PREFIX.pressure.csv.
# Needs gpsd and gpsd-clients (apt-get install gpsd gpsd-clients).
set -euo pipefail
scenario=$1
out=$2
runway=${RUNWAY:-.build/release/runway}
for tool in gpsfake gpspipe; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found: apt-get install gpsd gpsd-clients" >&2; exit 1; }
done
"$runway" simulate --scenario "$scenario" --format nmea --lead-in 300 > "$out.nmea"
"$runway" simulate --scenario "$scenario" --format pressure > "$out.pressure.csv"
# A free port on loopback, never gpsd's own 2947.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
gpsfake -1 -q -c "${CYCLE:-0.002}" -P "$port" "$out.nmea" 2>/dev/null &
fake=$!
trap 'kill $fake 2>/dev/null || true' EXIT
# gpsfake feeds gpsd only once a client is watching, so the first connection sees every sentence;
# until gpsd listens, gpspipe fails at once and is tried again.
for _ in $(seq 100); do
    if timeout 600 gpspipe -w "127.0.0.1:$port" > "$out.gpsd.json" 2>/dev/null; then break; fi
    [ -s "$out.gpsd.json" ] && break
    sleep 0.1
done
wait $fake 2>/dev/null || true
echo "$(grep -c '"class":"TPV"' "$out.gpsd.json") TPVs in $out.gpsd.json"

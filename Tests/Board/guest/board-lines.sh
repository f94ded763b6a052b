# Sourced by checks.sh and runner.sh: the board's lines on gpio-sim (17 START, 27 PAUSE, 22 END,
# 23 buzzer, as board/runway.json wires them), the buttons let go, and the kernel's trace of the
# buzzer line (the gpio_value event) on. Sets chip, sim, base, buzzer_gpio, stall_probe and pull().
modprobe gpio-sim-board
sim_config=/sys/kernel/config/gpio-sim/board
mkdir -p "$sim_config/bank0"
echo 32 > "$sim_config/bank0/num_lines"
for pair in 17:start 27:pause 22:end 23:buzzer; do
    mkdir "$sim_config/bank0/line${pair%%:*}"
    echo "${pair#*:}" > "$sim_config/bank0/line${pair%%:*}/name"
done
echo 1 > "$sim_config/live"
chip=$(cat "$sim_config/bank0/chip_name")
sim=$(ls -d /sys/devices/platform/gpio-sim.*/"$chip")
pull() { echo "pull-$2" > "$sim/sim_gpio$1/pull"; }  # a button is active low: down is pressed
for line in 17 27 22; do pull $line up; done
# The buzzer line's number in gpiolib's global space (the trace event names lines by it).
[ -e "$tracing/trace_marker" ] || mount -t tracefs tracefs "$tracing"
base=$(sed -n "s/^$chip: GPIOs \([0-9]*\)-.*/\1/p" /sys/kernel/debug/gpio 2>/dev/null)
if [ -z "$base" ]; then
    mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
    base=$(sed -n "s/^$chip: GPIOs \([0-9]*\)-.*/\1/p" /sys/kernel/debug/gpio)
fi
buzzer_gpio=$((base + 23))
echo "$buzzer_gpio" > "$out/buzzer-gpio"
echo 0 > "$tracing/tracing_on"
echo 4096 > "$tracing/buffer_size_kb"
echo mono > "$tracing/trace_clock"
echo > "$tracing/trace"
echo "gpio == $buzzer_gpio && get == 0" > "$tracing/events/gpio/gpio_value/filter"
echo 1 > "$tracing/events/gpio/gpio_value/enable"
echo 1 > "$tracing/tracing_on"
# How late the machine itself wakes a real-time thread, into the same trace (guest/stall_probe.py):
# the host excuses a buzzer step only by a stall seen there. Stopped before the trace is taken.
python3 "$here/stall_probe.py" &
stall_probe=$!

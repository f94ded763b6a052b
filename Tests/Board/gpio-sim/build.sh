#!/bin/sh
# Builds gpio-sim for Debian's 6.1 kernel, which does not ship it (CONFIG_GPIO_SIM is not set,
# nor CONFIG_IRQ_SIM): drivers/gpio/gpio-sim.c and kernel/irq/irq_sim.c from linux-source-6.1,
# built out of tree against the matching headers as one module, gpio-sim-board.ko. irq_sim
# calls irq_to_desc(), which modules cannot; generic_handle_irq() does the same for a simple
# IRQ. Usage: build.sh KERNEL-VERSION OUTDIR
set -eu
version=$1
out=$2
src=/usr/src/linux-source-6.1.tar.xz
[ -e "$src" ] || { echo "gpio-sim: $src missing (apt install linux-source-6.1)" >&2; exit 1; }
[ -d "/lib/modules/$version/build" ] || {
    echo "gpio-sim: no headers for $version (apt install linux-headers-$version)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xJf "$src" -C "$work" --wildcards '*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' \
    '*/kernel/irq/irq_sim.c'
mkdir "$work/m"
cp "$work"/linux-source-6.1/drivers/gpio/gpio-sim.c "$work"/linux-source-6.1/drivers/gpio/gpiolib.h \
    "$work"/linux-source-6.1/kernel/irq/irq_sim.c "$work/m/"
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/m/irq_sim.c"
grep -q 'generic_handle_irq(irqnum);' "$work/m/irq_sim.c" || { echo "gpio-sim: irq_sim.c changed" >&2; exit 1; }
printf 'obj-m := gpio-sim-board.o\ngpio-sim-board-objs := gpio-sim.o irq_sim.o\n' > "$work/m/Kbuild"
make -s -C "/lib/modules/$version/build" M="$work/m" modules >/dev/null
mkdir -p "$out"
cp "$work/m/gpio-sim-board.ko" "$out/"

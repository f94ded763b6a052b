#!/usr/bin/env bash
# What can be checked of RunWay for arm64 (a Raspberry Pi) on a machine that cannot build its Swift
# for arm64 (issue 29). For this machine's architecture and, with Debian's aarch64-linux-gnu-gcc
# against the arm64 (multiarch) -dev packages, for aarch64:
#
#  1. every C shim (Sources/C*/shim.h) compiles with -Wall -Werror, as Swift's importer sees it
#     (no _GNU_SOURCE), with every rw_* function it defines emitted, and links against the
#     libraries its module.modulemap names (and pkg-config's flags where Package.swift gives a
#     pkg-config name); the program then runs — the arm64 one under qemu-aarch64 — so each
#     library's arm64 build is there and loads; a library the shim's module opens at run time
#     instead (its shim.h's "opened at run time:" line: the speech engines) opens likewise;
#  2. the ABI table, Tests/Fixtures/abi/abi.tsv: a probe that includes every shim prints each
#     row's C expression (struct sizes, field offsets, ioctl numbers, O_* flags, errno values…),
#     and each value must equal the row's column for that architecture.
#
# Usage: scripts/cross-check.sh          check both; exit 1 on any difference
#        scripts/cross-check.sh --table  print the table with the values measured here (to fill
#                                        in a new row's "?" — check them before committing)
# Needs: scripts/install-deps.sh cross (make cross-check runs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
table=Tests/Fixtures/abi/abi.tsv
mode=${1:-check}
case $mode in check | --table) ;; *) echo "usage: $0 [--table]" >&2; exit 2 ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

native=$(uname -m)
case $native in
x86_64 | aarch64) ;;
*) echo "cross-check: no column for this machine's architecture ($native) in $table" >&2; exit 1 ;;
esac
# The targets: this machine's own compiler, and aarch64 through Debian's cross compiler unless
# this machine is arm64 itself.
arches=("$native")
[ "$native" = aarch64 ] || arches+=(aarch64)

compiler() { if [ "$1" = "$native" ]; then echo gcc; else echo "$1-linux-gnu-gcc"; fi; }
# Runs a program built for $1: natively, or under qemu's user-mode emulator with the cross
# toolchain's dynamic loader (the multiarch libraries are in /usr/lib/aarch64-linux-gnu).
run_for() {
    local arch=$1
    shift
    if [ "$arch" = "$native" ]; then "$@"; else "qemu-$arch" -L "/usr/$arch-linux-gnu" "$@"; fi
}
# pkg-config for $1: the target's multiarch .pc files for a cross target.
pkgconf_for() {
    local arch=$1
    shift
    if [ "$arch" = "$native" ]; then
        pkg-config "$@"
    else
        PKG_CONFIG_LIBDIR="/usr/lib/$arch-linux-gnu/pkgconfig:/usr/share/pkgconfig" PKG_CONFIG_PATH= pkg-config "$@"
    fi
}

for arch in "${arches[@]}"; do
    cc=$(compiler "$arch")
    if ! command -v "$cc" >/dev/null; then
        echo "cross-check: no $cc — run scripts/install-deps.sh cross (make cross-check does)" >&2
        exit 1
    fi
    if [ "$arch" != "$native" ] && ! command -v "qemu-$arch" >/dev/null; then
        echo "cross-check: no qemu-$arch — run scripts/install-deps.sh cross (package qemu-user)" >&2
        exit 1
    fi
done

failed=0
# 1. Each shim, for each architecture.
shims=()
for dir in Sources/C*/; do
    name=$(basename "$dir")
    shims+=("$name")
    functions=$( (grep -oE '\brw_[a-z0-9_]+\(' "$dir/shim.h" || true) | tr -d '(' | sort -u)
    libs=$(sed -n 's/^ *link "\([^"]*\)".*/-l\1/p' "$dir/module.modulemap" | tr '\n' ' ')
    pc=$(grep -oE "name: \"$name\", pkgConfig: \"[^\"]+\"" Package.swift | sed 's/.*pkgConfig: "\([^"]*\)"/\1/' || true)
    {
        echo "#include \"$root/${dir}shim.h\""
        echo "typedef void (*any_function)(void);"
        echo "static const any_function used[] = {"
        for f in $functions; do echo "    (any_function)$f,"; done
        echo "    0 };"
        echo "int main(void) { return used[sizeof used / sizeof used[0] - 1] != 0; }"
    } > "$work/$name.c"
    for arch in "${arches[@]}"; do
        flags=() pclibs=()
        if [ -n "$pc" ]; then
            read -ra flags <<< "$(pkgconf_for "$arch" --cflags "$pc")"
            read -ra pclibs <<< "$(pkgconf_for "$arch" --libs "$pc")"
        fi
        out="$work/$name-$arch"
        # --no-as-needed: every library the modulemap names is loaded when the program runs.
        # shellcheck disable=SC2086
        if ! "$(compiler "$arch")" -std=gnu11 -O2 -Wall -Werror "${flags[@]}" "$work/$name.c" -o "$out" \
            -Wl,--no-as-needed $libs "${pclibs[@]}" 2> "$out.log"; then
            echo "FAIL $name for $arch: does not compile or link" >&2
            sed 's/^/    /' "$out.log" >&2
            failed=1
            continue
        fi
        if ! run_for "$arch" "$out" 2> "$out.log"; then
            echo "FAIL $name for $arch: the program does not load its libraries" >&2
            sed 's/^/    /' "$out.log" >&2
            failed=1
            continue
        fi
        [ "$mode" = --table ] || echo "ok   $name for $arch ($(echo "$functions" | wc -w) functions; links $libs${pc:+pkg-config $pc})"
    done
    # The libraries the shim's module opens at run time instead of linking (its "opened at run
    # time:" line): each one opens (dlopen, every symbol resolved) for each architecture.
    opened=$(sed -n 's/^ \* opened at run time: *//p' "$dir/shim.h")
    [ -n "$opened" ] || continue
    {
        echo "#include <dlfcn.h>"
        echo "#include <stdio.h>"
        echo "int main(void) {"
        echo "    const char *names[] = {"
        for library in $opened; do echo "        \"$library\","; done
        echo "        0 };"
        echo "    int failed = 0;"
        echo "    for (int i = 0; names[i]; i++)"
        echo "        if (!dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) { fprintf(stderr, \"%s\\n\", dlerror()); failed = 1; }"
        echo "    return failed;"
        echo "}"
    } > "$work/$name-opened.c"
    for arch in "${arches[@]}"; do
        out="$work/$name-opened-$arch"
        if ! "$(compiler "$arch")" -std=gnu11 -O2 -Wall -Werror "$work/$name-opened.c" -o "$out" 2> "$out.log" \
            || ! run_for "$arch" "$out" 2> "$out.log"; then
            echo "FAIL $name for $arch: a library it opens at run time does not open" >&2
            sed 's/^/    /' "$out.log" >&2
            failed=1
            continue
        fi
        [ "$mode" = --table ] || echo "ok   $name for $arch (opens at run time: $opened)"
    done
done

# 2. The ABI table: one probe prints every row's expression.
{
    for name in "${shims[@]}"; do echo "#include \"$root/Sources/$name/shim.h\""; done
    cat <<'HEADERS'
#include <linux/fs.h>
#include <linux/gpio.h>
#include <linux/i2c.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
int main(void) {
HEADERS
    while IFS=$'\t' read -r name expression _; do
        case $name in '' | '#'* | name) continue ;; esac
        printf '    printf("%%s\\t%%lld\\n", "%s", (long long)(%s));\n' "$name" "$expression"
    done < "$table"
    echo "    return 0;"
    echo "}"
} > "$work/probe.c"
for arch in "${arches[@]}"; do
    flags=()
    read -ra flags <<< "$(pkgconf_for "$arch" --cflags libgps libgpiod sqlite3 zlib libsystemd espeak-ng alsa)"
    if ! "$(compiler "$arch")" -std=gnu11 -O0 -Wall -Werror -Wno-unused-function "${flags[@]}" "$work/probe.c" \
        -o "$work/probe-$arch" 2> "$work/probe-$arch.log"; then
        echo "FAIL the ABI probe for $arch does not compile:" >&2
        sed 's/^/    /' "$work/probe-$arch.log" >&2
        exit 1
    fi
    run_for "$arch" "$work/probe-$arch" > "$work/measured-$arch.tsv"
done

if [ "$mode" = --table ]; then
    # The table as it is, with every architecture's column replaced by what was measured here.
    awk -F'\t' -v OFS='\t' -v native="$native" \
        'FILENAME ~ /measured-x86_64/ { x[$1] = $2; next }
         FILENAME ~ /measured-aarch64/ { a[$1] = $2; next }
         /^#/ || $1 == "name" { print; next }
         { if ($1 in x) $3 = x[$1]; if ($1 in a) $4 = a[$1]; print }' \
        "$work"/measured-*.tsv "$table"
    exit $failed
fi

rows=0
for arch in "${arches[@]}"; do
    column=3
    [ "$arch" = aarch64 ] && column=4
    differences=$(awk -F'\t' -v column=$column -v arch="$arch" \
        'FNR == NR { measured[$1] = $2; next }
         /^#/ || $1 == "name" || $1 == "" { next }
         { rows++
           if (!($1 in measured)) { print "    " $1 ": not printed by the probe"; next }
           if (measured[$1] != $column) print "    " $1 ": the table says " $column ", " arch " has " measured[$1] }
         END { print rows > "/dev/stderr" }' \
        "$work/measured-$arch.tsv" "$table" 2> "$work/rows")
    rows=$(cat "$work/rows")
    if [ -n "$differences" ]; then
        echo "FAIL the ABI table for $arch ($table):" >&2
        echo "$differences" >&2
        failed=1
    else
        echo "ok   the ABI table for $arch: $rows rows as $table says"
    fi
done
[ $failed -eq 0 ] || { echo "cross-check: FAILED (above)" >&2; exit 1; }
echo "cross-check: the C shims and the ABI table hold for ${arches[*]}"

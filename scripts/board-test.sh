#!/usr/bin/env bash
# make board-test: the firmware as installed, on Debian's own kernel under qemu (Tests/Board).
# Installs its host packages (scripts/install-deps.sh board) and the FIT SDK's venv, builds the
# release binaries, then the root filesystem (cached in .build/board, rebuilt only when what the
# .deb is built from or the image's recipe changed: the .deb itself is made only then), boots,
# and reports each check, the power-cut table, its time and 'N passed, N failed'.
# BOARD_TEST=skip is the only way to skip it; anything else that stops it fails loudly.
# BOARD_CUTS=N (default 20) power cuts; BOARD_SEED=S repeats a run's cut moments.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${BOARD_TEST:-}" = skip ]; then
    echo "board-test: skipped (BOARD_TEST=skip)"
    exit 0
fi
scripts/install-deps.sh board
scripts/interop-venv.sh >/dev/null
swift=${SWIFT:-swift}
# The host's runway (the scenario's NMEA, the buzzer's patterns) is the .deb's own build.
"$swift" build -c release --scratch-path .build/deb --static-swift-stdlib --product runway >/dev/null
# What the .deb is made from: every file it is built or copied from, as the work tree has it
# (committed, changed or new), and the compiler.
inputs=(Sources Package.swift systemd udev board Makefile README.md scripts/make-deb.sh)
deb_key=$( {
    "$swift" --version 2>&1
    git ls-files -z --cached --others --exclude-standard -- "${inputs[@]}" | sort -z | xargs -0 sha256sum 2>/dev/null || true
} | sha256sum | cut -c1-32)
mkdir -p .build/board
exec python3 Tests/Board/board_test.py --deb-dir .build --deb-key "$deb_key" --runway .build/deb/release/runway \
    --work .build/board

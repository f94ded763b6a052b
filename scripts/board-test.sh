#!/usr/bin/env bash
# make board-test: the firmware as installed, on Debian's own kernel under qemu (Tests/Board).
# Installs its host packages, builds the project's .deb, then the root filesystem (cached in
# .build/board, rebuilt when the .deb or the image's recipe changes), boots, and reports each
# check. BOARD_TEST=skip is the only way to skip it; anything else that stops it fails loudly.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${BOARD_TEST:-}" = skip ]; then
    echo "board-test: skipped (BOARD_TEST=skip)"
    exit 0
fi
scripts/install-deps.sh board
swift=${SWIFT:-swift}
"$swift" build --product runway >/dev/null
rm -f .build/runway_*.deb
deb=$(SWIFT="$swift" scripts/make-deb.sh .build | tail -n 1)
mkdir -p .build/board
exec python3 Tests/Board/board_test.py --deb "$deb" --runway .build/debug/runway --work .build/board

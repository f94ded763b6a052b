#!/usr/bin/env bash
# The Python virtual environment of the independent readers the tests run: Garmin's official FIT
# SDK for Python, fitdecode (a second FIT reader, written apart from Garmin's) and gpxpy (the
# bench's GPX baseline) for the exports, and pocketsphinx with its default en-us model for the
# voice (an offline speech recogniser whose acoustic model was trained on recorded human speech:
# it shares no code or data with the synthesisers it listens to). Made once under
# .build/interop-venv from PyPI with pinned versions; prints the venv's python.
#
#   scripts/interop-venv.sh [VENV_DIR]
set -euo pipefail
venv=${1:-.build/interop-venv}
want="garmin-fit-sdk==21.218.0 fitdecode==0.11.0 gpxpy==1.6.2 pocketsphinx==5.1.1"
stamp="$venv/.runway-packages"
# Tests run in parallel and may all ask at once: one makes it, the others wait for it.
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    echo "$venv/bin/python"
    exit 0
fi
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
rm -rf "$venv"
"$python" -m venv "$venv" >&2 || {
    echo "error: cannot make a Python venv (apt-get install python3-venv)" >&2
    exit 1
}
# shellcheck disable=SC2086
"$venv/bin/pip" install --quiet --disable-pip-version-check $want >&2
echo "$want" >"$stamp"
echo "$venv/bin/python"

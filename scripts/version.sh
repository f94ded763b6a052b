#!/bin/sh
# The release: RunWayRelease.version, the one version runway --version, runwayd --version and
# the Debian package carry (make-deb.sh).
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' Sources/RunWayControl/RunWayRelease.swift)
[ -n "$version" ] || { echo "version.sh: no version in Sources/RunWayControl/RunWayRelease.swift" >&2; exit 1; }
echo "$version"

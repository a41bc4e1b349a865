#!/usr/bin/env bash
# Prints the absolute path of the robots-conformance binary a CI step script uses:
#   bash .ci/binary.sh [BIN]   (default: target/release/robots-conformance, built when missing)
# A relative BIN (as .ci/run passes it) is relative to the caller's folder; the step scripts
# change folders, so it is made absolute here. Cargo's output goes to stderr.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/target/release/robots-conformance}
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
[ -x "$bin" ] || cargo build --release --locked -p robots-conformance \
  --manifest-path "$root/Cargo.toml" >&2
echo "$bin"

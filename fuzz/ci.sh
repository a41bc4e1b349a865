#!/bin/sh
# CI for the cargo-fuzz targets: installs cargo-fuzz 0.13.2 if missing,
# builds every target on stable (`-s none`: no sanitizer, no nightly),
# seeds a fresh corpus from spec-cases/ and runs each target briefly.
# Exits non-zero when a target crashes (panic, failed assertion, timeout,
# out of memory); the input is then in fuzz/artifacts/<target>/.
#
# Runs are deterministic (-seed, -runs, a fresh corpus each time), so a
# failure reproduces and only a code change can make one appear. The
# local corpus in fuzz/corpus/ is neither read nor written.
#
# Usage: fuzz/ci.sh            (from anywhere)
#        FUZZ_CI_SCALE=10 fuzz/ci.sh   (ten times the runs)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

command -v cargo-fuzz >/dev/null 2>&1 ||
  cargo install cargo-fuzz --locked --version 0.13.2

cargo fuzz build -s none

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
fuzz/seed.sh --out "$corpus" >/dev/null

scale=${FUZZ_CI_SCALE:-1}
# target:runs, sized for about 10-20 s each on this 2-core machine.
for spec in parse:100000 decide:20000 differential:3000 case_loader:20000 \
  serve_reader:50000; do
  target=${spec%%:*}
  runs=$(( ${spec#*:} * scale ))
  case $target in
    case_loader) extra="-dict=fuzz/case.dict" ;;
    serve_reader) extra="-dict=fuzz/serve.dict -max_len=8192" ;;
    *) extra="-dict=fuzz/robots.dict" ;;
  esac
  echo "fuzz/ci.sh: $target, $runs runs"
  log="$corpus/$target.log"
  # shellcheck disable=SC2086
  if cargo fuzz run -s none "$target" "$corpus/$target" -- \
    -seed=1 -runs="$runs" -max_total_time=$((120 * scale)) \
    -timeout=10 $extra -print_final_stats=1 \
    >"$log" 2>&1; then
    grep -E '^Done|^stat::(number_of_executed_units|average_exec_per_sec)' "$log"
  else
    # Progress lines dropped, long lines (whole bodies) cut.
    grep -Ev '^#[0-9]+ +(NEW|REDUCE|pulse|INITED)' "$log" | cut -c1-1000 | tail -60
    echo "fuzz/ci.sh: $target FAILED; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
done

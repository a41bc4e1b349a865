#!/bin/sh
# The long fuzz campaign (not CI): runs one target niced for SECONDS on
# the grown local corpus fuzz/corpus/<target>/ (seed it first with
# fuzz/seed.sh) and appends one line to fuzz/campaign.log: UTC date,
# target, executions, seconds it ran, exec/s, crashes (0 or 1: libFuzzer stops at
# the first), and the commit. Cumulative counts per target are
# `fuzz/campaign.sh --total`. Run targets one at a time; the machine is
# shared. The binaries are built once by `cargo fuzz build -s none`.
# ROBOTS_FUZZ_NICE sets the niceness (default 19: the fuzzer only takes
# idle CPU; 5 lets it keep a fair share while builds run beside it).
# ROBOTS_FUZZ_RUNS=N also stops the run after N executions (libFuzzer's
# -runs), e.g. what a target still lacks of a total.
#
# Usage: fuzz/campaign.sh TARGET SECONDS     (from anywhere)
#        fuzz/campaign.sh --total
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
log=fuzz/campaign.log

if [ "${1:-}" = "--total" ]; then
  awk '!/^#/ { n[$2] += $3; c[$2] += $6; s[$2] += $4 }
       END { for (t in n) printf "%-13s %12d execs %8d s %d crashes\n", t, n[t], s[t], c[t] }' "$log" | sort
  exit 0
fi
target=$1
seconds=$2
case $target in
  case_loader) extra="-dict=fuzz/case.dict" ;;
  serve_reader) extra="-dict=fuzz/serve.dict -max_len=8192" ;;
  parse | decide | differential) extra="-dict=fuzz/robots.dict" ;;
  *) echo "campaign.sh: unknown target $target" >&2; exit 2 ;;
esac
bin=fuzz/target/x86_64-unknown-linux-gnu/release/$target
[ -x "$bin" ] || cargo fuzz build -s none "$target"
mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target" fuzz/logs
out=fuzz/logs/$target-$(date -u +%Y%m%dT%H%M%S).log
[ -f "$log" ] || echo "# date target execs seconds exec/s crashes commit" >"$log"
start=$(date +%s)
set +e
# -timeout is wall time: niced on a busy machine a 100 ms call can wait
# seconds for a core, so it is generous (a real hang still trips it).
# shellcheck disable=SC2086
nice -n "${ROBOTS_FUZZ_NICE:-19}" "$bin" "fuzz/corpus/$target" -max_total_time="$seconds" $extra -timeout=120 \
  ${ROBOTS_FUZZ_RUNS:+-runs="$ROBOTS_FUZZ_RUNS"} -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$target/" \
  >"$out" 2>&1
rc=$?
set -e
seconds=$(($(date +%s) - start))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out")
crash=0
note=""
# 72 is libFuzzer's -interrupted_exitcode: stopped by SIGINT/SIGTERM,
# not a crash; its executions still count.
case $rc in
  0) ;;
  72) note=" interrupted" ;;
  *) crash=1 ;;
esac
echo "$(date -u +%Y-%m-%dT%H:%MZ) $target ${execs:-0} $seconds ${rate:-0} $crash $(git rev-parse --short HEAD)$note" >>"$log"
tail -1 "$log"
if [ "$crash" -ne 0 ]; then
  grep -Ev '^#[0-9]+ +(NEW|REDUCE|pulse|INITED)' "$out" | cut -c1-1000 | tail -40
  echo "campaign.sh: $target crashed (rc $rc); see $out and fuzz/artifacts/$target/" >&2
  exit 1
fi

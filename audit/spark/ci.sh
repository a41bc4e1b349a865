#!/usr/bin/env bash
# CI check for the Spark job: builds WARC.gz files from a corpus (into
# target/spark-ci/, git-ignored), audits them on one machine and with Spark in
# local[2] mode, and checks that the two audit.json files are equal exactly. Every
# third file carries synthetic AI preference lines (make-warc --ai-lines 3), so the
# AI aggregates are compared too.
#   audit/spark/ci.sh [CORPUS]   (default: the embedded sample corpus)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${1:-}
bin=${ROBOTS_CONFORMANCE:-$root/target/release/robots-conformance}
[ -x "$bin" ] || cargo build --release --locked -p robots-conformance --manifest-path "$root/Cargo.toml"
work=$root/target/spark-ci
rm -rf "$work"
mkdir -p "$work"
# No CORPUS: `make-warc` writes the embedded sample; a CORPUS that does not
# exist is its error (exit 2).
"$bin" audit make-warc ${corpus:+"$corpus"} --out "$work/warc/corpus.warc.gz" --split 4 --ai-lines 3
"$bin" audit "$work"/warc/*.warc.gz --out "$work/single" --no-progress
ROBOTS_CONFORMANCE=$bin "$here/run-local.sh" "$work/warc" "$work/spark" > "$work/spark.log" 2>&1 \
  || { tail -n 50 "$work/spark.log"; exit 1; }
test -d "$work/spark/hosts.parquet"
python3 "$here/compare.py" "$work/single/audit.json" "$work/spark/audit.json"
# Quiet: Spark logs nothing below WARN, and the job's result is the last line.
if grep -q " INFO " "$work/spark.log"; then
  echo "Spark logged INFO lines (audit/spark/log4j2.properties not in effect):"
  grep -m 5 " INFO " "$work/spark.log"
  exit 1
fi
tail -n 1 "$work/spark.log" | grep -E "^[0-9]+ inputs, [0-9]+ records, [0-9]+ hosts, [0-9]+ errors -> " \
  || { echo "the last line of the Spark run is not its result:"; tail -n 5 "$work/spark.log"; exit 1; }

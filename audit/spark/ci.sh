#!/usr/bin/env bash
# CI check for the Spark job: builds WARC.gz files from the shared corpus (into
# target/spark-ci/, git-ignored), audits them on one machine and with Spark in
# local[2] mode, and checks that the two audit.json files are equal exactly. Every
# third file carries synthetic AI preference lines (make-warc --ai-lines 3), so the
# AI aggregates are compared too.
#   audit/spark/ci.sh [CORPUS]   (default: ../shared/corpus/real-robots.tar.gz)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${1:-$root/../shared/corpus/real-robots.tar.gz}
if [ ! -f "$corpus" ]; then
  echo "no corpus at $corpus (see shared/corpus/README.md): Spark check skipped"
  exit 0
fi
bin=${ROBOTS_CONFORMANCE:-$root/target/release/robots-conformance}
[ -x "$bin" ] || cargo build --release --locked -p robots-conformance --manifest-path "$root/Cargo.toml"
work=$root/target/spark-ci
rm -rf "$work"
mkdir -p "$work"
"$bin" audit make-warc "$corpus" --out "$work/warc/corpus.warc.gz" --split 4 --ai-lines 3
"$bin" audit "$work"/warc/*.warc.gz --out "$work/single" --no-progress
ROBOTS_CONFORMANCE=$bin "$here/run-local.sh" "$work/warc" "$work/spark" > "$work/spark.log" 2>&1 \
  || { tail -n 50 "$work/spark.log"; exit 1; }
test -d "$work/spark/hosts.parquet"
python3 "$here/compare.py" "$work/single/audit.json" "$work/spark/audit.json"

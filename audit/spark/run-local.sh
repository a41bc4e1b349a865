#!/usr/bin/env bash
# The Spark audit in local mode (local[2]) on this machine:
#   audit/spark/run-local.sh INPUT_DIR OUT_DIR [audit options...]
# Installs the pinned PySpark into target/spark-venv (git-ignored) on first use,
# builds the release binary if it is missing, and runs audit_job.py on the WARC
# files under INPUT_DIR. Needs Java 17 (java on PATH). Spark logs warnings and
# errors only (log4j2.properties beside this script); the last line is the
# job's result: `N inputs, R records, H hosts, E errors -> OUT_DIR`.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 INPUT_DIR OUT_DIR [--agents A,B] [--adapters LIST] ..." >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${SPARK_VENV:-$root/target/spark-venv}
if ! "$venv/bin/python" -c 'import pyspark' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
bin=${ROBOTS_CONFORMANCE:-$root/target/release/robots-conformance}
if [ ! -x "$bin" ]; then
  cargo build --release --locked -p robots-conformance --manifest-path "$root/Cargo.toml"
fi
input=$1 out=$2
shift 2
export PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
export SPARK_LOCAL_IP=127.0.0.1
if [ ! -e "$input" ]; then
  echo "$0: no input at $input (make one: robots-conformance audit make-warc --out $input/corpus.warc.gz --split 4)" >&2
  exit 2
fi
"$venv/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false \
  --driver-java-options "-Dlog4j.configurationFile=file:$here/log4j2.properties" \
  "$here/audit_job.py" --binary "$bin" --out "$out" "$@" "$input"

#!/usr/bin/env bash
# Runs one shard of a mutation sample (written by mutation/sample.py):
#   bash mutation/run.sh SAMPLE_DIR K/N
# e.g. `bash mutation/run.sh mutation/s1 0/2`, and `1/2` on another machine.
# Shards are round-robin over the sample, so each is itself a spread of it, and
# each runs its mutants in random order, so a shard stopped early has still run
# a random part of it (say so when counting a partial run).
# Further arguments go to cargo-mutants, and SHARD_NAME names the output folder
# (default shard-K). cargo-mutants 27.1.0 runs every struct-field deletion of
# the package whatever the name filter (42 here: 34 of them in
# src/space/profile.rs, 7 in src/fetch/profile.rs, 1 in src/reading/pattern.rs),
# so a sample's mutants outside those files run without them:
#   X="-e src/space/profile.rs -e src/fetch/profile.rs -e src/reading/pattern.rs"
#   bash mutation/run.sh DIR 0/2 $X        # and 1/2
# and the drawn mutants of those files in a run of their own, where the
# undrawn deletions come along (summary.py counts them apart):
#   SHARD_NAME=shard-fields bash mutation/run.sh DIR 0/1 -f src/space/profile.rs \
#     -f src/fetch/profile.rs -f src/reading/pattern.rs
# Writes SAMPLE_DIR/shard-K/mutants.out (cargo-mutants' outcomes.json, logs
# and diffs; commit only outcomes.json) and mutates src/ IN PLACE: run it in
# a worktree of its own, never in one you are editing.
#
# The unmutated tree is checked here, by the judge itself, and cargo-mutants'
# own baseline is skipped: cargo-mutants 27.1.0 runs its baseline on the
# mutated package's tests (robots-oracle's), not on --test-package's, so it
# would judge the baseline by the oracle's unit tests. The timeout is fixed
# (90 s against a judge that takes 5-18 s) for the same reason: without a
# baseline, cargo-mutants cannot scale one.
set -euo pipefail
dir=${1:?usage: mutation/run.sh SAMPLE_DIR K/N [cargo-mutants args...]}
shard=${2:?usage: mutation/run.sh SAMPLE_DIR K/N [cargo-mutants args...]}
shift 2
cd "$(dirname "$0")/.."
command -v cargo-mutants >/dev/null || cargo install cargo-mutants --version 27.1.0 --locked
[ "$(cargo mutants --version)" = "cargo-mutants 27.1.0" ] || {
  echo "mutation/run.sh: cargo-mutants 27.1.0 is pinned; found $(cargo mutants --version)" >&2
  exit 2
}
cargo test -q --profile mutants -p robots-runner --test spec >/dev/null
k=${shard%/*}
cargo mutants --config "$dir/mutants.toml" -p robots-oracle --test-package robots-runner \
  --baseline skip --timeout 90 --build-timeout 600 --in-place \
  --shard "$shard" --sharding round-robin --shuffle -o "$dir/${SHARD_NAME:-shard-$k}" "$@"

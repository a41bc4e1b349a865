#!/usr/bin/env bash
# CI check for the WebAssembly build and the playground, called by .ci/run:
#   bindings/wasm/ci.sh [BIN]   (BIN: the robots-conformance binary, default target/release)
# 1. builds pkg/ (build.sh: rustup target, wasm-bindgen-cli pinned) and prints its size;
# 2. runs the Node tests of the module (node:test);
# 3. writes the playground with `robots-conformance playground` (with two parsers' fits from
#    `matrix --fingerprint`), and opens it from fragment
#    links in Debian's chromium (headless, playwright-core from package-lock.json, no browser
#    download), including that the page handles input while its worker decides a large file;
#    the screenshot is kept as target/playground/playground.png.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The binary, made absolute (the steps below change folders), built when missing.
bin=$(bash "$root/.ci/binary.sh" "${1:-}")
"$here/build.sh"
(cd "$here" && node --test test/)
# Fitted readings for "How other parsers read it": two parsers fitted on the precedence
# checks (a bounded run; python-urllib reads rules in file order, which the browser test uses).
"$bin" matrix --adapters python-urllib,rust-robotstxt --fingerprint --out "$root/target/ci-fits" precedence
"$bin" playground --out "$root/target/playground" --fits "$root/target/ci-fits/fits.json"
(cd "$here/playground/test" && npm ci --no-audit --no-fund --loglevel=error \
  && PLAYGROUND="$root/target/playground/index.html" SCREENSHOT="$root/target/playground/playground.png" \
     node --test browser.test.mjs)
test -s "$root/target/playground/playground.png"

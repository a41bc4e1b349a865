#!/usr/bin/env bash
# CI check for the results site, called by .ci/run:
#   site/ci.sh [BIN]   (BIN: the robots-conformance binary, default target/release)
# 1. a small matrix (the two reference readings, rust-robotstxt, python-urllib, with fits) is
#    the site's input, with the bug register of bugs/ and the committed histories of
#    results/history/;
# 2. `site` builds the site (certify's badge is checked by cli/tests/site.rs and the README's
#    certify command);
# 3. Debian's chromium (headless, playwright-core from package-lock.json, no browser
#    download) opens the index and the top parser's page from file://: they render, every
#    link resolves, badges render. Screenshots: target/site/*.png.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# The binary, made absolute (the steps below change folders), built when missing.
bin=$(bash "$root/.ci/binary.sh" "${1:-}")
command -v npm >/dev/null 2>&1 || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
}
[ -x /usr/bin/chromium ] || {
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}
in="$root/target/site-in"
rm -rf "$in"
"$bin" matrix --adapters reference,reference-google,rust-robotstxt,python-urllib --fingerprint \
  --out "$in/matrix" >/dev/null
"$bin" site --out "$root/target/site" "$in" "$root/results/history"
test -s "$root/target/site/badges/python-urllib.svg"
(cd "$here/test" && npm ci --no-audit --no-fund --loglevel=error \
  && SITE="$root/target/site" SHOTS="$root/target/site" node --test browser.test.mjs)
test -s "$root/target/site/index.png"
test -s "$root/target/site/parser.png"

#!/usr/bin/env bash
# Builds the WebAssembly package of the oracle into bindings/wasm/pkg/ (git-ignored):
#   pkg/robots_oracle_wasm.js + .d.ts   ES module glue (--target web): browsers, and Node
#                                       with initSync({ module: bytes })
#   pkg/robots_oracle_wasm_bg.wasm      the oracle
#   pkg/inline/robots_oracle_wasm.js    classic-script glue (--target no-modules) for pages
#                                       that inline everything (the playground)
# Installs what it needs: the wasm32-unknown-unknown target (rustup) and wasm-bindgen-cli at
# exactly the version Cargo.toml pins wasm-bindgen to (cargo install --locked).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' "$here/Cargo.toml")
[ -n "$version" ] || { echo "no exact wasm-bindgen version in $here/Cargo.toml"; exit 1; }
rustup target list --installed | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
  cargo install wasm-bindgen-cli --version "$version" --locked
fi
cargo build --release --locked --target wasm32-unknown-unknown --manifest-path "$here/Cargo.toml"
wasm=$here/target/wasm32-unknown-unknown/release/robots_oracle_wasm.wasm
tmp=$(mktemp -d "$here/pkg.tmp.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
wasm-bindgen --target web --out-dir "$tmp" "$wasm"
wasm-bindgen --target no-modules --no-typescript --out-dir "$tmp/inline" "$wasm"
rm -rf "$here/pkg"
mv "$tmp" "$here/pkg"
trap - EXIT
raw=$(stat -c %s "$here/pkg/robots_oracle_wasm_bg.wasm")
gz=$(gzip -9 -c "$here/pkg/robots_oracle_wasm_bg.wasm" | wc -c)
echo "pkg/robots_oracle_wasm_bg.wasm: $raw bytes, $gz bytes gzip -9 (wasm-bindgen $version)"

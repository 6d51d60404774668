#!/usr/bin/env bash
# Builds pkg/: the release wasm of crate/wasm, post-processed by wasm-bindgen for ES-module use
# (`import init, { decode } from "../pkg/eoslab.js"`), plus a package.json.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-tools.sh

echo "pkg: cargo build -p eoslab-wasm --release --target wasm32-unknown-unknown"
cargo build --quiet -p eoslab-wasm --release --target wasm32-unknown-unknown

target_dir=${CARGO_TARGET_DIR:-target}
wasm="$target_dir/wasm32-unknown-unknown/release/eoslab_wasm.wasm"
[ -f "$wasm" ] || { echo "pkg: $wasm not found after the build" >&2; exit 1; }

rm -rf pkg
# No name/producers sections: ~8% smaller gzipped; panics still print their message.
wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir pkg --out-name eoslab "$wasm"

# wasm-bindgen's CLI (unlike wasm-pack) writes no package.json; node and bundlers want one.
version=$(awk '/^\[workspace\.package\]/{f=1; next} /^\[/{f=0} f && $1=="version" {gsub(/"/, "", $3); print $3; exit}' Cargo.toml)
cat > pkg/package.json <<JSON
{
  "name": "eoslab",
  "version": "${version:-0.0.0}",
  "description": "Kafka Record Batch codec (eoslab-core) compiled to WebAssembly",
  "license": "Apache-2.0",
  "type": "module",
  "main": "eoslab.js",
  "module": "eoslab.js",
  "types": "eoslab.d.ts",
  "files": ["eoslab.js", "eoslab.d.ts", "eoslab_bg.wasm", "eoslab_bg.wasm.d.ts"],
  "sideEffects": false
}
JSON
echo "pkg: $(du -k pkg/eoslab_bg.wasm | cut -f1) KiB wasm -> pkg/eoslab.js"

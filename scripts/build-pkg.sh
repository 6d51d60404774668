#!/usr/bin/env bash
# Builds pkg/: the release wasm of crate/wasm, post-processed by wasm-bindgen for ES-module use,
# twice: the full package (`import init, { decode, encodeBatch, runScenario } from "../pkg/eoslab.js"`)
# and the decode-only one without the models and the encoders (`--no-default-features`: decode,
# crc32c, version), pkg/eoslab-decode.js + eoslab-decode_bg.wasm, which the Batch Inspector, the
# embeds and the decode worker load (www/ imports pkg/eoslab.js lazily when it must encode); plus a
# package.json; and pkg/eoslab-files.js (decode + the broker artifacts: loadPartition, dumpLog,
# decodeMessages, readCapture; `--features files,envelope,capture`), which only the partition directory view and the
# inspector's requests-and-responses panel load, on first use. The target dir is $CARGO_TARGET_DIR, else target/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-tools.sh

target_dir=${CARGO_TARGET_DIR:-target}
wasm="$target_dir/wasm32-unknown-unknown/release/eoslab_wasm.wasm"

# build_one OUT_NAME [cargo flags]: one cargo build + wasm-bindgen into $stage. Both builds write the
# same eoslab_wasm.wasm (a cdylib's name has no hash), so each is bound before the next build;
# switching features only relinks eoslab-wasm (seconds).
build_one() {
  local out=$1
  shift
  echo "pkg: cargo build -p eoslab-wasm --release --target wasm32-unknown-unknown${*:+ $*} -> pkg/$out.js"
  cargo build --quiet -p eoslab-wasm --release --target wasm32-unknown-unknown "$@"
  [ -f "$wasm" ] || { echo "pkg: $wasm not found after the build" >&2; exit 1; }
  # No name/producers sections: ~8% smaller gzipped; panics still print their message.
  wasm-bindgen --target web --remove-name-section --remove-producers-section --out-dir "$stage" --out-name "$out" "$wasm"
}

# Both packages are bound into a staging folder and replace pkg/ together, once both built.
stage="$target_dir/eoslab-pkg"
rm -rf "$stage"
build_one eoslab
build_one eoslab-decode --no-default-features
build_one eoslab-files --no-default-features --features files,envelope,capture
# The split must be real: the models and the encoders only in the full package.
for f in runScenario encodeBatch encodeSegment judgeReplay; do
  grep -q "export function $f" "$stage/eoslab.js" || { echo "pkg: eoslab.js lacks $f" >&2; exit 1; }
  if grep -q "$f" "$stage/eoslab-decode.js"; then echo "pkg: eoslab-decode.js exports $f" >&2; exit 1; fi
done
for f in loadPartition dumpLog decodeMessages readCapture captureReplay; do
  grep -q "export function $f" "$stage/eoslab-files.js" || { echo "pkg: eoslab-files.js lacks $f" >&2; exit 1; }
  for other in eoslab eoslab-decode; do
    if grep -q "$f" "$stage/$other.js"; then echo "pkg: $other.js exports $f" >&2; exit 1; fi
  done
done
rm -rf pkg
mv "$stage" pkg

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
  "files": ["eoslab.js", "eoslab.d.ts", "eoslab_bg.wasm", "eoslab_bg.wasm.d.ts",
            "eoslab-decode.js", "eoslab-decode.d.ts", "eoslab-decode_bg.wasm", "eoslab-decode_bg.wasm.d.ts",
            "eoslab-files.js", "eoslab-files.d.ts", "eoslab-files_bg.wasm", "eoslab-files_bg.wasm.d.ts"],
  "sideEffects": false
}
JSON
for w in eoslab eoslab-decode eoslab-files; do
  echo "pkg: pkg/${w}_bg.wasm $(( $(wc -c < "pkg/${w}_bg.wasm") / 1000 )) KB, $(( $(gzip -9c "pkg/${w}_bg.wasm" | wc -c) / 1000 )) KB gzipped -> pkg/$w.js"
done

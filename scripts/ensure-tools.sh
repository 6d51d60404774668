#!/usr/bin/env bash
# Build tools for pkg/: the wasm32 target and wasm-bindgen-cli at exactly the version that
# crate/wasm/Cargo.toml pins (the CLI must match the wasm-bindgen macro version byte for byte).
# Idempotent and silent when everything is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "ensure-tools: adding rustup target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

want=$(sed -nE 's/^wasm-bindgen[[:space:]]*=[[:space:]]*"=?([0-9][0-9.]*)".*/\1/p' crate/wasm/Cargo.toml | head -n1)
if [ -z "$want" ]; then
  echo "ensure-tools: cannot find the wasm-bindgen pin in crate/wasm/Cargo.toml" >&2
  exit 1
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "ensure-tools: installing wasm-bindgen-cli $want (found: ${have:-none}); this takes a few minutes"
  cargo install --quiet --force wasm-bindgen-cli --version "$want"
  have=$(wasm-bindgen --version | awk '{print $2}')
  [ "$have" = "$want" ] || { echo "ensure-tools: wasm-bindgen is $have after install, want $want (PATH?)" >&2; exit 1; }
fi

#!/usr/bin/env bash
# `make dist`: a fresh pkg/ (scripts/build-pkg.sh; skipped with --no-pkg when pkg/ was just built,
# as in scripts/test.sh), then dist/eoslab/ by scripts/build-dist.mjs: the elements, the wasm
# modules and the built-in scenarios, relocatable (every path relative to the modules' own URLs),
# with an npm-shaped package.json (cd dist/eoslab && npm pack).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-pkg" ]; then bash scripts/build-pkg.sh; fi
[ -f pkg/eoslab.js ] && [ -f pkg/eoslab-decode.js ] || { echo "dist: pkg/ is not built (make pkg)" >&2; exit 1; }
bash scripts/scenario-index.sh --check
# esbuild (the per-file minifier build-dist.mjs uses) is pinned in tests/package.json.
if [ "${EOSLAB_DIST_MINIFY:-1}" != 0 ] && [ ! -d tests/node_modules/esbuild ]; then
  (cd tests && npm ci --no-audit --no-fund --loglevel=error)
fi
node scripts/build-dist.mjs

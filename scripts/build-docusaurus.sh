#!/usr/bin/env bash
# examples/docusaurus built into OUT (default examples/docusaurus/build) with the docusaurus-eoslab
# plugin (plugins/docusaurus-eoslab, a file: dependency of the site): the fences become elements and
# the scenario players' runs are made at build time from dist/eoslab (node scripts/build-dist.mjs),
# which the plugin copies into the build as eoslab/. npm ci from the committed package-lock.json
# (Docusaurus 3.10.2 pinned in examples/docusaurus/package.json; needs the npm registry the first
# time), then `docusaurus build`. EOSLAB_BASE_URL sets the path the site is served under.
# tests/browser/embed-docusaurus.test.mjs runs it (and skips, saying why, when npm cannot install
# the site's packages). A fence whose script is wrong fails the build: "<file>:<line>: <message>".
#   bash scripts/build-docusaurus.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
site=examples/docusaurus
out=$(realpath -m "${1:-$site/build}")
[ -f dist/eoslab/prebuild.mjs ] || { echo "docusaurus: dist/eoslab is not built, or too old to hold prebuild.mjs (node scripts/build-dist.mjs, or make dist)" >&2; exit 1; }
lock_sum=$(sha256sum "$site/package-lock.json" | cut -d' ' -f1)
if [ ! -d "$site/node_modules/@docusaurus/core" ] || [ "$(cat "$site/node_modules/.eoslab-lock.sha256" 2>/dev/null)" != "$lock_sum" ]; then
  echo "docusaurus: npm ci in $site"
  (cd "$site" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > "$site/node_modules/.eoslab-lock.sha256"
fi
export EOSLAB_DIST="$PWD/dist/eoslab"
# The site no longer carries eoslab in static/ (the plugin copies dist/eoslab); a copy left there by
# an older build script would be served instead.
rm -rf "$site/static/eoslab"
(cd "$site" && DOCUSAURUS_TELEMETRY_DISABLED=1 npx --no-install docusaurus build --out-dir "$out" >/dev/null)
echo "docusaurus: built $out"

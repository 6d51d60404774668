#!/usr/bin/env bash
# `make bench`: decode throughput of eoslab (native core, wasm in Node and in Chromium) against
# kafka-protocol (Rust), kafkajs (Node) and kafka-python (CPython) over one corpus, plus the
# idempotence model's decisions/s; prints the results table and the ratios, all measured in this
# one run. A benchmark, not a test: it fails only when something cannot be built or a decoder
# returns wrong data. See benches/README.md.
#
#   BENCH_REPS=5          timed runs per measurement (median reported), after one checked warm-up
#   BENCH_MODEL_N=100000  the model scenario: `repeat N: send a p x; flush; flush`
#   BENCH_SKIP=chromium,python   passes to leave out (native, node, chromium, python, extra, page-ready, embed)
#   BENCH_REGEN=1         write the corpus again
#
# Set-up, each step skipped when already in place: the build tools and Chromium/playwright-core/
# .venv (scripts/ensure-tools.sh, scripts/ensure-test-tools.sh); kafkajs + codecs in
# tests/diff/node_modules (as tests/diff/run.sh installs them); the crc32c extension for
# kafka-python into benches/target/pylib (benches/requirements.txt); pkg/; the bench binary.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
T=benches/target
R=$T/results
REPS=${BENCH_REPS:-5}
export BENCH_MODEL_N=${BENCH_MODEL_N:-100000}
SKIP=",${BENCH_SKIP:-},"
skip() { [[ $SKIP == *",$1,"* ]]; }
step() { printf '\n== %s\n' "$*"; }
mkdir -p "$R"

step "set-up"
bash scripts/ensure-tools.sh
if ! skip chromium || ! skip python; then
  bash scripts/ensure-test-tools.sh
fi

# kafkajs and its codec plugins, exactly as tests/diff/package-lock.json pins them; lz4's native
# addon (kafkajs-lz4's backend) is compiled against the local Node headers, nothing is downloaded.
node_peers_ok() {
  (cd tests/diff && node -e '
    for (const [name, want] of Object.entries(require("./package.json").dependencies)) {
      const have = require(`${name}/package.json`).version
      if (have !== want) throw new Error(`${name} ${have} != ${want}`)
    }
    require("lz4").encode(Buffer.from("probe"))
  ' 2>/dev/null)
}
if ! skip node && ! node_peers_ok; then
  echo "bench: npm ci --prefix tests/diff (kafkajs and codecs)"
  npm ci --prefix tests/diff --ignore-scripts --no-audit --no-fund --loglevel=error
  nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  gyp_args=()
  [ -f "$nodedir/include/node/node.h" ] && gyp_args=(--nodedir="$nodedir")
  (cd tests/diff && npm rebuild lz4 "${gyp_args[@]}" --loglevel=error >/dev/null)
  node_peers_ok || { echo "bench: kafkajs peer modules do not load" >&2; exit 1; }
fi

# kafka-python: .venv from tests/diff/requirements.txt (ensure-test-tools.sh above), plus the
# crc32c extension kafka-python uses when present, kept outside the shared venv.
if ! skip python; then
  if ! .venv/bin/python -c 'import kafka, lz4, zstandard' 2>/dev/null; then
    .venv/bin/pip install -q --disable-pip-version-check -r tests/diff/requirements.txt
  fi
  if ! PYTHONPATH=$T/pylib .venv/bin/python -c 'import crc32c' 2>/dev/null; then
    echo "bench: pip install --target $T/pylib -r benches/requirements.txt"
    .venv/bin/pip install -q --disable-pip-version-check --target "$T/pylib" -r benches/requirements.txt
  fi
fi

step "build: pkg/ (scripts/build-pkg.sh) and the bench binary (benches/Cargo.toml)"
bash scripts/build-pkg.sh
cargo build --quiet --release --locked --manifest-path benches/Cargo.toml
BIN=$T/release/eoslab-bench

want_version=$(sed -nE 's/^const CORPUS_VERSION: u32 = ([0-9]+);/\1/p' benches/src/main.rs)
have_version=$(sed -nE 's/^\{"version":([0-9]+),.*/\1/p' "$T/corpus.json" 2>/dev/null || true)
if [ -n "${BENCH_REGEN:-}" ] || [ "$have_version" != "$want_version" ] || ! ls "$T"/corpus-{none,lz4,zstd}.bin >/dev/null 2>&1; then
  step "corpus: $T/corpus-{none,lz4,zstd}.bin (eoslab encode_segment)"
  "$BIN" corpus "$T" 64
fi

rm -f "$R"/*.json
failed=()
run_pass() { # name command...
  local name=$1
  shift
  if skip "$name"; then
    echo "bench: $name skipped (BENCH_SKIP)"
    return
  fi
  step "$name"
  if ! "$@"; then
    echo "bench: the $name pass failed" >&2
    failed+=("$name")
  fi
}
run_pass native sh -c "'$BIN' run '$T' '$REPS' > '$R/native.json'"
run_pass node node benches/js/node.bench.mjs --reps "$REPS" --out "$R/node.json"
run_pass chromium node benches/js/browser.bench.mjs --reps "$REPS" --out "$R/chromium.json"
run_pass python .venv/bin/python benches/py/kafka_python_bench.py --reps "$REPS" --out "$R/python.json"

# The inspector, the ladder and the transactions timeline: browser render benches, written separately; run when present.
for extra in benches/inspector.bench.mjs benches/ladder.bench.mjs benches/timeline.bench.mjs benches/txn.bench.mjs; do
  if [ -f "$extra" ]; then
    run_pass extra node "$extra"
  fi
done

# The lab pages' page-ready time: navigation to the first drawn step, with and without pre-built runs.
run_pass page-ready node benches/page-ready.bench.mjs

# What an embedding page downloads from dist/eoslab, and its first render, against the targets.
if ! skip embed; then
  step "embed: dist/eoslab sizes and first render per example page (scripts/embed-sizes.mjs)"
  if bash scripts/build-dist.sh --no-pkg && node scripts/embed-sizes.mjs | tee "$T/embed-sizes.md"; then :; else failed+=(embed); fi
fi

step "results (also in $T/results.md)"
node benches/js/report.mjs "$R"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: failed passes: ${failed[*]}" >&2
  exit 1
fi

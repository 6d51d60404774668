#!/usr/bin/env bash
# Instructions, not seconds: the decoders of HEAD against those of an earlier commit, counted by
# valgrind (callgrind), which does not move with the shared VM's load as its clock does (2x between
# identical `make bench` runs on this machine). The codec's refactor was to keep the
# same-run ratios against the peers within 5 %; the peers' code is the same in both builds, so the
# ratio moves exactly as eoslab's own count does, and that is what this prints.
#
#   bash benches/instructions.sh [BASE_REV] [MIB]      (default: 286cdd3, the commit before the
#                                                        codec's move into wire/ read/ input/; 8 MiB)
#
# Native: `eoslab-bench once` (view, the decode_bytes report, and kafka-protocol as a control that
# must not move) over the three codecs. Wasm: benches/js/once.mjs in Node with TurboFan only (no
# Liftoff, no tier-up, one thread), less a pass that only loads the package and the corpus.
# Takes ~10 minutes; not part of `make bench` or `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-286cdd3}
MIB=${2:-8}
ROOT=$PWD
WORK=$ROOT/benches/target/instructions
BASE_BIN_DIR=$WORK/base-target
BASE_TREE=$WORK/base
mkdir -p "$WORK"

command -v valgrind >/dev/null || { echo "instructions: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }

echo "instructions: building HEAD's bench and pkg" >&2
(cd benches && cargo build --release --bin eoslab-bench --bin eoslab-bench-txn --bin eoslab-bench-writer -q)
bash scripts/build-pkg.sh >/dev/null
echo "instructions: building $BASE in $BASE_TREE" >&2
rm -rf "$BASE_TREE"; git worktree prune
git worktree add -f --detach "$BASE_TREE" "$BASE" -q
trap 'git worktree remove --force "$BASE_TREE" 2>/dev/null || true' EXIT
(cd "$BASE_TREE/benches" && CARGO_TARGET_DIR="$BASE_BIN_DIR" cargo build --release --bin eoslab-bench --bin eoslab-bench-txn -q)
(cd "$BASE_TREE" && bash scripts/build-pkg.sh >/dev/null)

CORPUS=$WORK/corpus
[ -f "$CORPUS/corpus-none.bin" ] || benches/target/release/eoslab-bench corpus "$CORPUS" "$MIB" 2>/dev/null

# ir [--toggle-collect=FN] CMD...: the instructions CMD runs (within FN only, when given).
ir() {
  local opt=()
  if [[ $1 == --toggle-collect=* ]]; then opt=("$1"); shift; fi
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --smc-check=all-non-file "${opt[@]}" "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
node_ir() { ir node --no-liftoff --no-wasm-tier-up --single-threaded benches/js/once.mjs "$1" "$CORPUS" "$2" "$3"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2f %%", (b - a) * 100 / a }'; }

printf '| pass | codec | %s | HEAD | change |\n| --- | --- | ---: | ---: | ---: |\n' "$BASE"
for engine in eoslab-view eoslab-core kafka-protocol; do
  for codec in none lz4 zstd; do
    a=$(ir "$BASE_BIN_DIR/release/eoslab-bench" once "$CORPUS" "$engine" "$codec")
    b=$(ir benches/target/release/eoslab-bench once "$CORPUS" "$engine" "$codec")
    echo "| native $engine | $codec | $a | $b | $(pct "$a" "$b") |"
  done
done
# The idempotence model (one writer must not cost the models their speed): a
# 20,000-send script, parsed and run (`once DIR model N`).
a=$(ir "$BASE_BIN_DIR/release/eoslab-bench" once "$CORPUS" model 20000)
b=$(ir benches/target/release/eoslab-bench once "$CORPUS" model 20000)
echo "| native idempotence model, 20,000 sends | - | $a | $b | $(pct "$a" "$b") |"
# The writer alone: the codec's one writer against the hand-written writers it replaced
# (benches/src/writer.rs, copied from 286cdd3; same bytes checked first), 20,000 rounds of four
# batches, less the checks it runs before counting.
w0=$(ir benches/target/release/eoslab-bench-writer 0 hand)
a=$(( $(ir benches/target/release/eoslab-bench-writer 20000 hand) - w0 ))
b=$(( $(ir benches/target/release/eoslab-bench-writer 20000 writer) - w0 ))
echo "| native writer, 20,000 x 4 batches (left: hand-written, as at 286cdd3) | - | $a | $b | $(pct "$a" "$b") |"
# The transactions model: benches/src/txn.rs's script, 2,000 cycles, untraced, one run.
a=$(ir --toggle-collect='*run_with*' "$BASE_BIN_DIR/release/eoslab-bench-txn" 2000 1 quiet)
b=$(ir --toggle-collect='*run_with*' benches/target/release/eoslab-bench-txn 2000 1 quiet)
echo "| native transactions model, 2,000 cycles (run_with only) | - | $a | $b | $(pct "$a" "$b") |"
for codec in none lz4 zstd; do
  base_load=$(node_ir "$BASE_TREE/pkg" "$codec" load)
  head_load=$(node_ir "$ROOT/pkg" "$codec" load)
  for api in columns decode; do
    a=$(( $(node_ir "$BASE_TREE/pkg" "$codec" "$api") - base_load ))
    b=$(( $(node_ir "$ROOT/pkg" "$codec" "$api") - head_load ))
    echo "| wasm $api (Node) | $codec | $a | $b | $(pct "$a" "$b") |"
  done
done

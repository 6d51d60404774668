#!/usr/bin/env bash
# The transactions model in wasm against the same model natively, counted in instructions
# (valgrind callgrind) instead of seconds: the target is wasm ≥ 0.3× native, and this VM's clock
# moves by 2× between identical runs (benches/txn.bench.mjs gave 0.25×–0.46× on one day).
#
#   bash benches/wasm-ratio.sh [CYCLES]        (default 2000: 12,001 steps; ~3 minutes)
#
# Both sides parse the same generated script and run it untraced, without per-step snapshots
# (native: benches/src/txn.rs `quiet`; wasm: runTxnScenarioSummary in Node with TurboFan only —
# no Liftoff, no tier-up, one thread — benches/js/once-txn.mjs). Native: the pass less a pass
# that only builds the script. Wasm: two runs less one, so that TurboFan's compiling of the
# model's functions at their first call is left out as the native build's compiling is. What is
# compared is the parse and the run. The ratio native / wasm is the speed ratio at equal
# instructions per cycle; it is printed with both counts as a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
CYCLES=${1:-2000}
command -v valgrind >/dev/null || { echo "wasm-ratio: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
(cd benches && cargo build --release --bin eoslab-bench-txn -q)
[ -f pkg/eoslab_bg.wasm ] || bash scripts/build-pkg.sh >/dev/null

ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --smc-check=all-non-file "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
node_ir() { ir node --no-liftoff --no-wasm-tier-up --single-threaded benches/js/once-txn.mjs "$ROOT/pkg" "$CYCLES" "$1"; }
ROOT=$PWD

native=$(( $(ir benches/target/release/eoslab-bench-txn "$CYCLES" 1 quiet) - $(ir benches/target/release/eoslab-bench-txn "$CYCLES" 1 script) ))
wasm=$(( $(node_ir run2) - $(node_ir run) ))
steps=$(( 1 + 6 * CYCLES ))
printf '| transactions model, %s steps (parse + untraced run) | instructions | per step |\n| --- | ---: | ---: |\n' "$steps"
echo "| native | $native | $(( native / steps )) |"
echo "| wasm (Node, TurboFan) | $wasm | $(( wasm / steps )) |"
awk -v n="$native" -v w="$wasm" 'BEGIN { printf "| wasm / native speed at equal IPC | %.2f× | |\n", n / w }'

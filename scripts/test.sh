#!/usr/bin/env bash
# The test pipeline behind `make test` (and the single-step make targets).
#
#   scripts/test.sh                 every step, in order
#   scripts/test.sh wasm browser    only those steps (tools are ensured either way)
#
# Steps: rust (cargo test --workspace), nostd (core without std on wasm32), pkg (build pkg/),
# dist (dist/eoslab from pkg/ and www/: make dist without rebuilding pkg/), docs (the docs site,
# scripts/build-docs.sh --no-dist: MkDocs --strict with the generated rule and CLI pages), wasm (node tests of
# pkg/), diff (tests/diff/run.sh), browser (Chromium tests of the pages, and of dist/eoslab and
# examples/ embedded: tests/browser/embed*.test.mjs, which rebuild dist/eoslab themselves),
# fuzz (tests/fuzz-smoke.sh), kafka (the simulator against real Kafka 4.3.1 and 4.1.2 brokers:
# scripts/ensure-kafka.sh, then tests/kafka/run.py). A failing step does not stop the later ones (so one run reports
# everything), except that steps needing pkg/ are skipped when it failed to build. Each step runs
# under a time limit (seconds, override with e.g. TIMEOUT_BROWSER=600). The run ends with one
# summary line per step and a closing "steps: N passed, N failed, N skipped" line, and exits
# non-zero when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

ALL_STEPS=(rust nostd pkg dist docs wasm diff browser fuzz kafka)
if [ $# -gt 0 ]; then STEPS=("$@"); else STEPS=("${ALL_STEPS[@]}"); fi
for s in "${STEPS[@]}"; do
  case " ${ALL_STEPS[*]} " in *" $s "*) ;; *) echo "test.sh: unknown step '$s' (known: ${ALL_STEPS[*]})" >&2; exit 2 ;; esac
done

declare -A TIMEOUT=(
  [rust]=${TIMEOUT_RUST:-3600} [nostd]=${TIMEOUT_NOSTD:-1200} [pkg]=${TIMEOUT_PKG:-1800}
  [dist]=${TIMEOUT_DIST:-120} [docs]=${TIMEOUT_DOCS:-900} [wasm]=${TIMEOUT_WASM:-300} [diff]=${TIMEOUT_DIFF:-1800} [browser]=${TIMEOUT_BROWSER:-1500}
  [fuzz]=${TIMEOUT_FUZZ:-1800} [kafka]=${TIMEOUT_KAFKA:-2400}
)

step_cmd() {
  case $1 in
    rust) echo "cargo test --workspace --no-fail-fast && cargo test --release -p eoslab-core --test txn_schedules && PROPTEST_CASES=20000 cargo test --release -p eoslab-core --test idempotence_props" ;;
    nostd) echo "cargo build -p eoslab-core --no-default-features --target wasm32-unknown-unknown" ;;
    pkg) echo "scripts/build-pkg.sh" ;;
    dist) echo "scripts/build-dist.sh --no-pkg" ;;
    docs) echo "scripts/build-docs.sh --no-dist" ;;
    wasm) echo "node --test tests/wasm/" ;;
    diff) echo "tests/diff/run.sh" ;;
    browser) echo "node --test --test-concurrency=1 tests/browser/" ;;
    fuzz) echo "tests/fuzz-smoke.sh" ;;
    kafka) echo "scripts/ensure-kafka.sh && tests/kafka/run.py" ;;
  esac
}

run_step() {
  case $1 in
    rust) cargo test --workspace --no-fail-fast && cargo test --release -p eoslab-core --test txn_schedules && PROPTEST_CASES=20000 cargo test --release -p eoslab-core --test idempotence_props ;;
    nostd) cargo build -p eoslab-core --no-default-features --target wasm32-unknown-unknown ;;
    pkg) bash scripts/build-pkg.sh ;;
    dist) bash scripts/build-dist.sh --no-pkg ;;
    docs) bash scripts/build-docs.sh --no-dist ;;
    wasm) node --test tests/wasm/ ;;
    diff) PATH="$ROOT/.venv/bin:$PATH" VIRTUAL_ENV="$ROOT/.venv" bash tests/diff/run.sh ;;
    browser) node --test --test-concurrency=1 tests/browser/ ;;
    fuzz) bash tests/fuzz-smoke.sh ;;
    kafka) bash scripts/ensure-kafka.sh && python3 tests/kafka/run.py ;;
  esac
}

# Why a step cannot run, or nothing.
skip_reason() {
  case $1 in
    dist | docs | wasm | browser)
      if [ "${STATUS[pkg]:-}" = FAIL ]; then echo "pkg/ failed to build"
      elif [ ! -f pkg/eoslab.js ]; then echo "pkg/ is not built (make pkg)"; fi ;;
    diff) [ -f tests/diff/run.sh ] || echo "tests/diff/run.sh not present" ;;
    fuzz) [ -f tests/fuzz-smoke.sh ] || echo "tests/fuzz-smoke.sh not present" ;;
  esac
}

declare -A STATUS=() NOTE=()
passed=0 failed=0 skipped=0

banner() { printf '\n==> %s\n' "$*"; }

banner "tools: scripts/ensure-tools.sh && scripts/ensure-test-tools.sh"
if ! bash scripts/ensure-tools.sh || ! bash scripts/ensure-test-tools.sh; then
  echo "FAIL  tools: could not install the build/test tools (see above)"
  echo "steps: 0 passed, 1 failed"
  exit 1
fi

for s in "${STEPS[@]}"; do
  reason=$(skip_reason "$s")
  if [ -n "$reason" ]; then
    banner "[$s] skipped: $reason"
    STATUS[$s]=SKIP NOTE[$s]=$reason skipped=$((skipped + 1))
    continue
  fi
  banner "[$s] $(step_cmd "$s")"
  t0=$SECONDS
  # The step runs in a subshell under `timeout` (which signals the step's whole process group).
  export -f run_step
  ROOT=$ROOT timeout -k 30 "${TIMEOUT[$s]}" bash -c 'run_step "$0"' "$s"
  rc=$?
  dt=$((SECONDS - t0))
  if [ $rc -eq 0 ]; then
    STATUS[$s]=PASS NOTE[$s]="${dt}s" passed=$((passed + 1))
  else
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then why="timed out after ${TIMEOUT[$s]}s"; else why="exit $rc"; fi
    STATUS[$s]=FAIL NOTE[$s]="$why, ${dt}s" failed=$((failed + 1))
  fi
done

banner "test summary"
for s in "${STEPS[@]}"; do
  printf '  %-4s  %-8s %-78s (%s)\n' "${STATUS[$s]}" "$s" "$(step_cmd "$s")" "${NOTE[$s]}"
done
echo
if [ $failed -eq 0 ]; then echo "ALL STEPS PASSED"; else echo "SOME STEPS FAILED"; fi
echo "steps: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

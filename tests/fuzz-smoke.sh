#!/usr/bin/env bash
# Bounded fuzz smoke run: the `fuzz` step of `make test` (scripts/test.sh).
#
# With the nightly toolchain and cargo-fuzz: every fuzz target in fuzz/ runs for a short fixed
# budget (-max_total_time, default 20 s each, -seed=1), its corpus seeded with fuzz/seeds/ and
# the regression fixtures (crate/core/tests/fixtures/fuzz/*.bin). Any crash fails the run; the crashing input is
# left in fuzz/artifacts/<target>/ with the command that turns it into a regression fixture.
#
# Without them: says why, and runs the property tests (props, envelopes, files_props: the
# partition-file decoders, dump-log and partition load; fuzz_props: the bodies of dump_files,
# scripts and capture, with the core's capture feature) and the fuzz regressions with a higher
# PROPTEST_CASES instead, so the step still hunts for panics.
#
# cargo-fuzz is installed when missing (`cargo install cargo-fuzz`: measured 46 s on this kind of
# machine, 2 cores, cold). FUZZ_INSTALL=0 skips the install and takes the fallback instead.
# A nightly toolchain is never installed (it would be a toolchain download): without one, fallback.
#
# dump_files, scripts and capture run under a memory budget: -max_len=65536, and any single
# allocation above 3x that plus 64 MiB (-malloc_limit_mb=65) or a resident size above 2 GiB
# (-rss_limit_mb=2048, libFuzzer and the sanitizer included) is a crash, so a length field that
# makes a reader allocate what the input does not hold is caught. Their corpora are also seeded
# with what they read: scenarios/*.eos for scripts, the Java client's capture.pcapng for capture.
#
# Environment: FUZZ_SECONDS (20), FUZZ_TARGETS ("decode decode_bytes roundtrip partition_dir messages
# dump_files scripts capture"),
# FUZZ_INSTALL (1), FALLBACK_PROPTEST_CASES (3000), FUZZ_FALLBACK=1 (take the fallback anyway).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SECONDS_EACH=${FUZZ_SECONDS:-20}
read -r -a TARGETS <<<"${FUZZ_TARGETS:-decode decode_bytes roundtrip partition_dir messages dump_files scripts capture}"
FALLBACK_CASES=${FALLBACK_PROPTEST_CASES:-3000}
FIXTURES=crate/core/tests/fixtures/fuzz

fallback() {
  echo "fuzz-smoke: SKIPPED the libFuzzer run: $1"
  echo "fuzz-smoke: fallback: property tests and fuzz regressions with PROPTEST_CASES=$FALLBACK_CASES"
  PROPTEST_CASES=$FALLBACK_CASES cargo test -p eoslab-core --features capture \
    --test props --test fuzz_regressions --test envelopes --test files_props --test fuzz_props
  exit $?
}

if [ "${FUZZ_FALLBACK:-0}" = 1 ]; then
  fallback "FUZZ_FALLBACK=1"
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
  fallback "no nightly toolchain (cargo-fuzz needs -Zsanitizer; installing a toolchain is not done here)"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  if [ "${FUZZ_INSTALL:-1}" = 1 ]; then
    echo "fuzz-smoke: installing cargo-fuzz (cargo install cargo-fuzz, about a minute)"
    cargo install cargo-fuzz || fallback "cargo install cargo-fuzz failed"
  else
    fallback "cargo-fuzz is not installed (FUZZ_INSTALL=0)"
  fi
fi
echo "fuzz-smoke: $(cargo fuzz --version), $(rustup run nightly rustc --version)"

cd fuzz
# Build every target first: a build failure is a failure, not a reason to skip.
if ! cargo +nightly fuzz build; then
  echo "fuzz-smoke: FAIL: the fuzz targets do not build" >&2
  exit 1
fi

failed=()
for t in "${TARGETS[@]}"; do
  mkdir -p "corpus/$t" "artifacts/$t"
  log="artifacts/$t-smoke.log"
  marker=$(mktemp)
  echo
  echo "==> fuzz-smoke: $t for ${SECONDS_EACH}s (-seed=1), full log in fuzz/$log"
  # Corpus: fuzz/corpus/<t> (written, gitignored), then read-only seeds: fuzz/seeds (valid
  # batches of every codec and magic, text renderings) and the regression fixtures.
  seeds=("$ROOT/$FIXTURES")
  [ "$t" = roundtrip ] || seeds=(seeds "${seeds[@]}")
  budget=()
  case "$t" in
    dump_files) budget=(-max_len=65536 -malloc_limit_mb=65 -rss_limit_mb=2048) ;;
    scripts) budget=(-max_len=65536 -malloc_limit_mb=65 -rss_limit_mb=2048); seeds+=("$ROOT/scenarios") ;;
    capture) budget=(-max_len=65536 -malloc_limit_mb=65 -rss_limit_mb=2048); seeds+=("$ROOT/tests/fixtures/capture-4.3.1") ;;
  esac
  cargo +nightly fuzz run "$t" "corpus/$t" "${seeds[@]}" -- \
    -max_total_time="$SECONDS_EACH" -seed=1 -print_final_stats=1 "${budget[@]}" >"$log" 2>&1
  rc=$?
  grep -E '^(#[0-9]+ +DONE|Done [0-9]+ runs)|^stat::number_of_executed_units|panicked at|^(==[0-9]+== )?ERROR' "$log" | head -n 20
  if [ "$rc" -ne 0 ]; then
    failed+=("$t")
    tail -n 40 "$log"
    echo "fuzz-smoke: FAIL: $t crashed (exit $rc). Keep the input as a regression fixture:" >&2
    find "artifacts/$t" -type f -newer "$marker" | while read -r a; do
      if [ "$t" = roundtrip ]; then
        # Keep the encoded batch the crash decoded, not the `arbitrary` bytes (fuzz/README.md).
        echo "  (cd fuzz && EOSLAB_FUZZ_DUMP=/tmp/batch.bin cargo +nightly fuzz run roundtrip $a)" >&2
        echo "  cp /tmp/batch.bin $FIXTURES/roundtrip-\$(sha1sum /tmp/batch.bin | cut -c1-8).bin" >&2
      else
        echo "  cp fuzz/$a $FIXTURES/$t-$(sha1sum "$a" | cut -c1-8).bin" >&2
      fi
    done
  fi
  rm -f "$marker"
done

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz-smoke: FAIL: crashes in: ${failed[*]}"
  exit 1
fi
echo "fuzz-smoke: OK: ${TARGETS[*]} ran ${SECONDS_EACH}s each without a crash"

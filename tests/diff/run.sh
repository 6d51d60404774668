#!/usr/bin/env bash
# Differential tests: eoslab against kafka-python (PyPI) and kafkajs (npm), both directions.
# Idempotent set-up, then tests/diff/diff.py; the last line is `diff: N passed, M failed` and the
# exit status is non-zero on any failure.
#
#   tests/diff/run.sh                     the default run (seed 20240611, 250 batches per peer/direction)
#   DIFF_SEED=7 tests/diff/run.sh         another seed (the run prints how to reproduce it)
#   DIFF_N=1000 DIFF_CODECS=none,zstd …   more batches / fewer codecs; DIFF_VERBOSE=1 prints every failure
#
# Set-up, each step skipped when already in place:
#   .venv (repo root) with tests/diff/requirements.txt (pinned kafka-python and its codecs);
#   tests/diff/node_modules from tests/diff/package-lock.json (kafkajs + codec plugins), installed
#   with --ignore-scripts, then only lz4's native addon (kafkajs-lz4's backend) compiled against
#   the local Node headers (its package ships no Linux binary; nothing is downloaded);
#   the eoslab CLI in release mode.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DIFF=tests/diff

fail_setup() {
  echo "run.sh: set-up failed: $*" >&2
  echo "diff: 0 passed, 1 failed"
  exit 1
}

# --- Python: kafka-python and its codecs in .venv
req=$DIFF/requirements.txt
[ -x .venv/bin/python ] || python3 -m venv .venv || fail_setup "python3 -m venv .venv"
if ! .venv/bin/python - "$req" <<'EOF'
import re, sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    m = re.match(r"\s*([A-Za-z0-9_.\-]+)==([^\s#;]+)", line)
    if not m:
        continue
    try:
        if version(m.group(1)) != m.group(2):
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
then
  echo "run.sh: installing $req into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check -r "$req" || fail_setup "pip install -r $req"
  # the same marker scripts/ensure-test-tools.sh keeps, so it does not reinstall
  sha256sum "$req" | cut -d' ' -f1 > .venv/.requirements.sha256
fi

# --- Node: kafkajs and the codec plugins, exactly as locked
node_ok() {
  (cd "$DIFF" && node -e '
    const pkg = require("./package.json").dependencies
    for (const [name, want] of Object.entries(pkg)) {
      const have = require(`${name}/package.json`).version
      if (have !== want) throw new Error(`${name} ${have} != ${want}`)
    }
    require("lz4").encode(Buffer.from("probe"))  // the native addon loads
  ' 2>/dev/null)
}
if ! node_ok; then
  echo "run.sh: npm ci in $DIFF"
  (cd "$DIFF" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) || fail_setup "npm ci"
  nodedir=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  gyp_args=()
  [ -f "$nodedir/include/node/node.h" ] && gyp_args=(--nodedir="$nodedir")
  (cd "$DIFF" && npm rebuild lz4 "${gyp_args[@]}" --loglevel=error >/dev/null) || fail_setup "building lz4's addon (node-gyp)"
  node_ok || fail_setup "kafkajs peer modules do not load"
fi

# --- eoslab
cargo build --release -q -p eoslab-cli || fail_setup "cargo build --release -p eoslab-cli"

EOSLAB="$ROOT/target/release/eoslab" exec .venv/bin/python "$DIFF/diff.py"

#!/usr/bin/env bash
# `make serve`: tools, a fresh pkg/, then the static server on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-pkg.sh
exec python3 scripts/serve.py "${PORT:-8080}"

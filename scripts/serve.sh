#!/usr/bin/env bash
# `make serve`: tools, a fresh pkg/, then the static server on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-pkg.sh
# The docs site at /docs/ (make docs); the lab is served without it when it cannot be built (no PyPI).
bash scripts/build-docs.sh || echo "serve: the docs site could not be built (above); serving the lab without /docs/" >&2
exec python3 scripts/serve.py "${PORT:-8080}"

#!/usr/bin/env bash
# MkDocs + Material for examples/mkdocs (its test, tests/browser/embed-mkdocs.test.mjs): a venv
# .venv-docs built from the pinned examples/mkdocs/requirements.txt, rebuilt only when that file
# changes. Idempotent and silent when in place. Needs PyPI the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
req=examples/mkdocs/requirements.txt
sum=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -x .venv-docs/bin/mkdocs ] || [ "$(cat .venv-docs/.requirements.sha256 2>/dev/null)" != "$sum" ]; then
  echo "ensure-docs-tools: installing $req into .venv-docs"
  [ -x .venv-docs/bin/python ] || python3 -m venv .venv-docs
  .venv-docs/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$sum" > .venv-docs/.requirements.sha256
fi

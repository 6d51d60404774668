#!/usr/bin/env bash
# MkDocs + Material and eoslab's MkDocs plugin (plugins/mkdocs-eoslab) for examples/mkdocs and the
# docs site (their tests, tests/browser/embed-mkdocs.test.mjs and docs.test.mjs): a venv .venv-docs
# built from the pinned examples/mkdocs/requirements.txt, which installs the plugin from its folder.
# Reinstalled only when that file or the plugin's files change. Idempotent and silent when in place.
# Needs PyPI the first time (and flit_core, the plugin's pinned build backend, on a plugin change).
set -euo pipefail
cd "$(dirname "$0")/.."
req=examples/mkdocs/requirements.txt
plugin=plugins/mkdocs-eoslab
sum=$( { sha256sum "$req"; find "$plugin" -type f \( -name '*.py' -o -name '*.toml' -o -name '*.md' \) -not -path '*/build/*' | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -d' ' -f1)
if [ ! -x .venv-docs/bin/mkdocs ] || [ "$(cat .venv-docs/.requirements.sha256 2>/dev/null)" != "$sum" ]; then
  echo "ensure-docs-tools: installing $req (and $plugin) into .venv-docs"
  [ -x .venv-docs/bin/python ] || python3 -m venv .venv-docs
  .venv-docs/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  # A changed plugin of the same version: pip keeps what it has unless told.
  .venv-docs/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "./$plugin"
  echo "$sum" > .venv-docs/.requirements.sha256
fi

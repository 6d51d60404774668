#!/usr/bin/env bash
# Test-only tools: Debian's Chromium (never a downloaded browser), Debian's tshark, playwright-core from
# tests/package-lock.json, and the Python venv for the differential tests.
# Idempotent and silent when everything is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-test-tools: installing Debian chromium (apt-get; a few minutes)"
  log=$(mktemp)
  if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
         as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "ensure-test-tools: apt-get install chromium failed" >&2
    exit 1
  fi
  rm -f "$log"
fi

# tshark and text2pcap (Debian's tshark, which pulls wireshark-common): Wireshark's Kafka dissector
# is a peer of the request/response differential (tests/diff/tshark.py).
if ! command -v tshark >/dev/null || ! command -v text2pcap >/dev/null; then
  echo "ensure-test-tools: installing Debian tshark (apt-get)"
  log=$(mktemp)
  if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
         as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q tshark; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "ensure-test-tools: apt-get install tshark failed" >&2
    exit 1
  fi
  rm -f "$log"
fi

# playwright-core ships no browser and downloads none; the variable only guards against a future
# dependency that would try.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
want=$(node -p 'require("./tests/package.json").devDependencies["playwright-core"]')
have=$(node -p 'try { require("./tests/node_modules/playwright-core/package.json").version } catch { "" }')
if [ "$have" != "$want" ]; then
  echo "ensure-test-tools: npm ci in tests/ (playwright-core $want)"
  (cd tests && npm ci --no-audit --no-fund --loglevel=error)
fi

# The differential tests' Python side: a venv rebuilt only when requirements.txt changes.
req=tests/diff/requirements.txt
if [ -f "$req" ]; then
  sum=$(sha256sum "$req" | cut -d' ' -f1)
  if [ ! -x .venv/bin/python ] || [ "$(cat .venv/.requirements.sha256 2>/dev/null)" != "$sum" ]; then
    echo "ensure-test-tools: installing $req into .venv"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
    echo "$sum" > .venv/.requirements.sha256
  fi
fi

#!/usr/bin/env bash
# Writes scenarios/index.json: every scenarios/*.eos as {"name", "title", "model"} (name = file
# name without .eos, title = its `title` line, model = "transactions" for scripts that start
# with `model transactions`, else "idempotence"), sorted by name. The pages read it to list the
# built-in scenarios; tests/browser/ladder.test.mjs checks that it lists every .eos file.
#   bash scripts/scenario-index.sh           rewrite scenarios/index.json
#   bash scripts/scenario-index.sh --check   exit 1 when scenarios/index.json is out of date
set -euo pipefail
cd "$(dirname "$0")/.."

json_string() { # escape backslashes, quotes and tabs; titles are one line
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/\\t}
  printf '"%s"' "$s"
}

render() {
  local first=1 f name title model
  printf '[\n'
  for f in $(LC_ALL=C ls scenarios/*.eos); do
    name=$(basename "$f" .eos)
    title=$(sed -n 's/^title[[:space:]]\{1,\}//p' "$f" | head -n 1 | sed 's/[[:space:]]*$//')
    [ -n "$title" ] || title=$name
    if sed 's/#.*//' "$f" | grep -v '^[[:space:]]*$' | head -n 1 | grep -q '^[[:space:]]*model[[:space:]]\{1,\}transactions[[:space:]]*$'; then
      model=transactions
    else
      model=idempotence
    fi
    [ $first -eq 1 ] || printf ',\n'
    first=0
    printf '  {"name": %s, "title": %s, "model": "%s"}' "$(json_string "$name")" "$(json_string "$title")" "$model"
  done
  printf '\n]\n'
}

if [ "${1:-}" = "--check" ]; then
  if ! diff -u scenarios/index.json <(render); then
    echo "scenarios/index.json is out of date: run bash scripts/scenario-index.sh" >&2
    exit 1
  fi
  exit 0
fi
render > scenarios/index.json.tmp
mv scenarios/index.json.tmp scenarios/index.json
echo "scenarios/index.json: $(grep -c '"name"' scenarios/index.json) scenarios"

#!/usr/bin/env bash
# Re-vendors crate/core/messages/: Kafka's message schemas (common/message/*.json, built from
# clients/src/main/resources/common/message/ at the release tag) and LICENSE/NOTICE, copied verbatim
# out of the released kafka-clients jar that scripts/ensure-kafka.sh fetches from Maven Central.
# Prints the jar's SHA-1 for crate/core/messages/PROVENANCE. Not part of the build: the vendored
# files are committed, and crate/core/build.rs turns them into static tables.
set -euo pipefail
cd "$(dirname "$0")/.."
v=${KAFKA_VERSION:-4.3.1}
jar=.tools/kafka/$v/libs/kafka-clients-$v.jar
[ -f "$jar" ] || KAFKA_VERSIONS=$v bash scripts/ensure-kafka.sh
dir=crate/core/messages
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && unzip -q "$OLDPWD/$jar" 'common/message/*' LICENSE NOTICE)
for f in "$dir"/*.json; do cp "$tmp/common/message/$(basename "$f")" "$f"; done
cp "$tmp/LICENSE" "$tmp/NOTICE" "$dir/"
echo "kafka-clients-$v.jar sha1 $(sha1sum "$jar" | cut -d' ' -f1)"

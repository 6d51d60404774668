#!/usr/bin/env bash
# `make envelope-fixtures`: regenerates tests/fixtures/envelopes-4.3.1, the golden
# requests/responses written by Kafka 4.3.1's own serializers from tests/kafka/envelopes.json
# (tests/kafka/Envelopes.java; see the fixture folder's PROVENANCE.md). No broker needed: only the
# jars and the compiled harness that scripts/ensure-kafka.sh puts in .tools/kafka/4.3.1.
set -euo pipefail
cd "$(dirname "$0")/.."
KAFKA_VERSIONS=4.3.1 bash scripts/ensure-kafka.sh
java -cp ".tools/kafka/4.3.1/classes:.tools/kafka/4.3.1/libs/*" Envelopes tests/kafka/envelopes.json tests/fixtures/envelopes-4.3.1

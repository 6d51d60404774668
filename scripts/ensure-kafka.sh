#!/usr/bin/env bash
# Apache Kafka's released jars for the differential tests against a real broker (tests/kafka/):
# Java 17 and Maven (from the machine, else Debian's openjdk-17-jdk-headless and maven), the
# jars of every version in KAFKA_VERSIONS fetched from Maven Central by tests/kafka/pom.xml into
# .tools/kafka/<version>/libs (an ignored folder; Maven's own cache is ~/.m2), and the harness
# (tests/kafka/Probe.java, Clients.java) compiled against each into .tools/kafka/<version>/classes.
# Idempotent and silent when everything is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSIONS=${KAFKA_VERSIONS:-"4.3.1 4.1.2"}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

java_major() { java -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p'; }
if ! command -v java >/dev/null || ! command -v javac >/dev/null || [ "$(java_major)" -lt 17 ] 2>/dev/null || ! command -v mvn >/dev/null; then
  echo "ensure-kafka: installing Debian openjdk-17-jdk-headless and maven (apt-get)"
  log=$(mktemp)
  if ! { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
         as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jdk-headless maven; } >"$log" 2>&1; then
    tail -n 40 "$log" >&2; echo "ensure-kafka: apt-get install failed" >&2; exit 1
  fi
  rm -f "$log"
fi

pom_sum=$(sha256sum tests/kafka/pom.xml | cut -d' ' -f1)
src_sum=$(cat tests/kafka/*.java | sha256sum | cut -d' ' -f1)
for v in $VERSIONS; do
  dir=.tools/kafka/$v
  if [ "$(cat "$dir/.pom.sha256" 2>/dev/null)" != "$pom_sum" ] || [ ! -f "$dir/libs/kafka_2.13-$v.jar" ]; then
    echo "ensure-kafka: fetching Apache Kafka $v from Maven Central (mvn dependency:copy-dependencies)"
    rm -rf "$dir/libs"; mkdir -p "$dir"
    mvn -B -q -f tests/kafka/pom.xml -Dkafka.version="$v" dependency:copy-dependencies \
      -DoutputDirectory="$PWD/$dir/libs" -Dmdep.includeScope=runtime
    echo "$pom_sum" > "$dir/.pom.sha256"
    rm -f "$dir/.src.sha256"
  fi
  if [ "$(cat "$dir/.src.sha256" 2>/dev/null)" != "$src_sum" ]; then
    echo "ensure-kafka: compiling the harness against Kafka $v"
    rm -rf "$dir/classes"; mkdir -p "$dir/classes"
    javac -nowarn -encoding UTF-8 -cp "$dir/libs/*" -d "$dir/classes" tests/kafka/*.java
    echo "$src_sum" > "$dir/.src.sha256"
  fi
done

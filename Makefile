# eoslab: every recipe is one line; the logic lives in scripts/*.sh.
#   make serve   build pkg/ and serve the page on http://127.0.0.1:8080/ (PORT=... to change)
#   make test    the whole pipeline (cargo tests, no_std check, pkg, node, diff, browser, fuzz smoke, kafka)
#   make pkg     build pkg/ only (wasm-bindgen --target web output + package.json)
#   make dist    pkg/, then dist/eoslab/: the embeddable elements + wasm + scenarios, npm-shaped (README: Embed it in your docs)
#   make docs    the documentation site in target/docs/site (MkDocs Material, --strict; served by make serve at /docs/)
#   make bench   benches/run.sh
#   make bench-instructions  instructions, not seconds: decoders, writer and models against BASE (default 286cdd3) (benches/instructions.sh)
#   make bench-wasm-ratio  instructions, not seconds: the transactions model in wasm (Node) against native (benches/wasm-ratio.sh)
#   make kafka-fixtures  regenerate tests/fixtures/kafka-4.3.1 from a real broker (tests/kafka/make_fixtures.py)
#   make envelope-fixtures  regenerate tests/fixtures/envelopes-4.3.1 with Kafka's own serializers (scripts/envelope-fixtures.sh)
#   make capture-fixtures  regenerate tests/fixtures/capture-4.3.1: real Java-client traffic to a real broker, through a recording proxy (tests/kafka/capture.py)
#   make random-coverage  rewrite tests/kafka/random-coverage.json: the rules the kafka step's seeded random sequences reach, for the rule catalogue (no broker; tests/kafka/random_coverage.py)
.PHONY: serve pkg dist docs test test-rust nostd test-wasm diff test-browser fuzz-smoke test-kafka kafka-nightly bench bench-instructions bench-wasm-ratio tools test-tools kafka-fixtures envelope-fixtures capture-fixtures random-coverage clean

serve:
	@bash scripts/serve.sh

pkg:
	@bash scripts/build-pkg.sh

dist:
	@bash scripts/build-dist.sh

docs:
	@bash scripts/build-docs.sh

test:
	@bash scripts/test.sh

# Single steps of `make test` (tools are ensured by each).
test-rust:
	@bash scripts/test.sh rust

nostd:
	@bash scripts/test.sh nostd

test-wasm: pkg
	@bash scripts/test.sh wasm

diff:
	@bash scripts/test.sh diff

test-browser: pkg
	@bash scripts/test.sh browser

fuzz-smoke:
	@bash scripts/test.sh fuzz

# The simulator against real Kafka brokers (tests/kafka/README.md); kafka-nightly: 20,000 schedules, a new seed each day.
test-kafka:
	@bash scripts/test.sh kafka

kafka-nightly:
	@EOSLAB_KAFKA_SEED=$$(date +%Y%m%d) EOSLAB_KAFKA_SCHEDULES=20000 EOSLAB_KAFKA_TXN_SCHEDULES=50 EOSLAB_KAFKA_TXN_REQUESTS=200 EOSLAB_KAFKA_SEGMENT_CASES=0 bash scripts/test.sh kafka

bench:
	@if [ -f benches/run.sh ]; then bash benches/run.sh; else echo "bench: benches/run.sh not present"; fi

bench-instructions:
	@bash benches/instructions.sh $(BASE)

bench-wasm-ratio:
	@bash benches/wasm-ratio.sh $(CYCLES)

tools:
	@bash scripts/ensure-tools.sh

test-tools:
	@bash scripts/ensure-tools.sh && bash scripts/ensure-test-tools.sh

kafka-fixtures:
	@KAFKA_VERSIONS=4.3.1 bash scripts/ensure-kafka.sh && python3 tests/kafka/make_fixtures.py

clean:
	rm -rf pkg dist

envelope-fixtures:
	@bash scripts/envelope-fixtures.sh

capture-fixtures:
	@KAFKA_VERSIONS=4.3.1 bash scripts/ensure-kafka.sh && python3 tests/kafka/capture.py

random-coverage:
	@python3 tests/kafka/random_coverage.py --write

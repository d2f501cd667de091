# The two commands a fresh machine needs (see README):
#   make sample  — set up, then build the bundled sample exam end to end and evaluate the
#                  offline baselines on it (no network)
#   make test    — set up, then run the test suite
.PHONY: setup sample test bench

setup:
	bash scripts/setup.sh

sample: setup
	buildds jbe --years 2025 --raw buildds/sample/pdf --out build/sample
	buildds eval build/sample --task jbe --model majority --model tfidf --model random:0 \
		--shots 0 --shots 4 --out build/sample/eval

# pytest exits 5 when it collected no tests: that is a failure here, not a pass.
test: setup
	python3 -m pytest -q; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests were collected" >&2; exit 1; fi; exit $$rc

bench: setup
	python3 benchmarks/bench_jbe_extract.py
	python3 benchmarks/bench_jbe_dataset.py

# Shortcuts for the scripts the README names (scripts/sample, scripts/test); both set up
# their own virtual environment (.venv) first, so they work on stock Debian/Ubuntu.
.PHONY: setup sample test bench pristine-debian

setup:
	bash scripts/setup.sh

sample:
	./scripts/sample

test:
	./scripts/test

bench: setup
	.venv/bin/python benchmarks/bench_jbe_extract.py
	.venv/bin/python benchmarks/bench_jbe_dataset.py

# Proves the two README commands on a pristine Debian 12 root (needs root and debootstrap).
pristine-debian:
	sudo bash scripts/check_pristine_debian.sh

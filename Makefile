# The README's two commands are `make test` and `make demo`. Each installs
# what is missing (Debian packages, the pinned Python environment, ns-3.44
# from PyPI's ns3 wheel, pinned by hash, into .deps/), builds
# incrementally with CMake + Ninja, then does its job.
.PHONY: all system setup build test lint sanitize smoke demo bench clean
BUILD := build
SANITIZE_BUILD := build-sanitize
VENV := .venv

all: build

# Debian packages; a no-op (one dpkg query per package) when all are there.
system:
	@scripts/setup-system.sh

NS3 := .deps/ns3-3.44.post0

setup: system $(VENV)/.installed $(NS3)/.complete

$(VENV)/.installed: requirements.txt | system
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -r requirements.txt
	@touch $@

# ns-3's headers and libraries (C++ only): scripts/fetch-ns3.sh, pinned by version and hash.
$(NS3)/.complete: scripts/fetch-ns3.sh | $(VENV)/.installed
	scripts/fetch-ns3.sh $(VENV)/bin/pip

# Configured once; `cmake --build` re-runs CMake itself when CMakeLists change.
$(BUILD)/build.ninja: | system $(NS3)/.complete
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

build: setup $(BUILD)/build.ninja
	cmake --build $(BUILD)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j2
	PYTHONPATH=python $(VENV)/bin/python -m pytest -q tests
	scripts/fuzz.sh spec -max_total_time=30
	scripts/fuzz.sh dsr-header -max_total_time=15
	scripts/fuzz.sh aodv-messages 200000
	scripts/fuzz.sh endpoint-pairs -max_total_time=20

# Formatters and linters; any finding fails (CI runs this first): ruff's lint and format check
# and mypy (strict) on the Python, the import contract of pyproject.toml (the lab's layers, no
# cycles), clang-format on core/, sim/ and udp/ (.clang-format), clang-tidy on the core's and
# the UDP driver's sources (core/.clang-tidy, udp/.clang-tidy; needs the configured build's
# compile_commands.json and the generated mantra_version.h, made first). clang-tidy skips a
# file whose last clean check had the same inputs (scripts/clang-tidy-cached.py), so a lint
# after an unchanged core takes seconds; a fresh clone checks every file.
lint: setup $(BUILD)/build.ninja
	$(VENV)/bin/ruff check python tests bench
	$(VENV)/bin/ruff format --check python tests bench
	$(VENV)/bin/mypy
	PYTHONPATH=python $(VENV)/bin/lint-imports --no-cache --no-logo
	git ls-files 'core/*.h' 'core/*.cc' 'sim/*.h' 'sim/*.cc' 'udp/*.h' 'udp/*.cc' 'emu/*.h' 'emu/*.cc' | xargs clang-format-14 --dry-run -Werror
	cmake --build $(BUILD) --target mantra_udp_version_header
	$(VENV)/bin/python scripts/clang-tidy-cached.py $(BUILD) 2

# The fuzzers (libFuzzer, ASan + UBSan), 10^6 inputs each; `make test` runs the spec reader's for
# 30 s, our DSR header decoder's for 15 s, our AODV message decoder's on 2 x 10^5 inputs and the
# endpoint pairs for 20 s (scripts/fuzz.sh).
fuzz: setup
	scripts/fuzz.sh spec 1000000
	scripts/fuzz.sh dsr-header 1000000
	scripts/fuzz.sh aodv-messages 1000000
	scripts/fuzz.sh endpoint-pairs 1000000
	for t in tfrc adtfrc latp tfwmfc knee session; do scripts/fuzz.sh $$t-wire 1000000 || exit 1; done

# ASan + UBSan build of core, sim and their tests in build-sanitize/ (Debug, -O1), configured
# once like build/; runs the C++ tests and the short simulations of tests/sanitize/ with every
# sanitizer report fatal (docs/performance.md, "Sanitizer build"). Not the Python tests.
$(SANITIZE_BUILD)/build.ninja: | system $(NS3)/.complete
	cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMANTRA_SANITIZE=ON >/dev/null

sanitize: setup $(SANITIZE_BUILD)/build.ninja
	cmake --build $(SANITIZE_BUILD)
	MANTRA_ROOT=$(CURDIR) . scripts/sanitize-env.sh && ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j2
	scripts/sanitize-runs.sh $(SANITIZE_BUILD)/sim/mantra-sim

# One run of every campaign's quick profile (python/mantra/lab/smoke.py): fails if any run
# fails, so a campaign whose runs abort is seen before a reproduction meets it. CI runs it.
smoke: build
	rm -rf results/smoke
	./mantra smoke

# A quick reproduction of what is implemented (campaigns/demo/), ending with the
# path of its report; finished runs are kept in results/demo-quick/ and skipped next time.
demo: build
	./mantra reproduce demo --quick

bench: build
	PYTHONPATH=python $(VENV)/bin/python bench/runner_overhead.py
	PYTHONPATH=python $(VENV)/bin/python bench/apps_overhead.py
	PYTHONPATH=python $(VENV)/bin/python bench/latp_agent_overhead.py
	PYTHONPATH=python $(VENV)/bin/python bench/chain_capacity.py
	PYTHONPATH=python $(VENV)/bin/python bench/fig8_cost.py
	PYTHONPATH=python $(VENV)/bin/python bench/core_datagram_rate.py
	PYTHONPATH=python $(VENV)/bin/python bench/udp_datagram_rate.py
	PYTHONPATH=python $(VENV)/bin/python bench/dsr_cost.py

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)

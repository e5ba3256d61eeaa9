# The two entry points of the README: `make demo` and `make test`. Both install what is missing.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all setup build demo test test-slurm sanitize-asan sanitize-tsan fuzz format tidy clean \
	omp-conformance omp-llvm-conformance install package

all: build

setup:
	@scripts/setup.sh

$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

build: setup $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# DEMO_DURATION: how long `make demo` runs the demo (the readme test runs it for 1 s). The demo
# shows its verdict line and exits 0 even when this machine broke a bound (--allow-misses): the
# line says how and why (host stall, release latency not charged before `rtpar calibrate`).
DEMO_DURATION ?= 10s
demo: build
	$(BUILD)/rtpar check examples/demo.toml
	$(BUILD)/rtpar run examples/demo.toml --duration $(DEMO_DURATION) --allow-misses

# install: the command, librtpar and its headers, rtpar's OpenMP runtime (lib/rtpar/omp), the
# shell completions and the man page under PREFIX (DESTDIR= stages it elsewhere, as usual).
# package: the Debian package (CPack) in $(BUILD), installing under /usr. docs/cli.md, "Installing".
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	cd $(BUILD) && cpack -G DEB

# TEST_TIMEOUT bounds every test without a TIMEOUT of its own (the slowest, under ASan, takes
# ~80 s): a hang fails that test by name instead of stalling the whole run.
TEST_TIMEOUT ?= 600
test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT)

# test-slurm: a real single-node Slurm cluster on this machine (scripts/slurm-local.sh, as root)
# runs an array job, then a sharded smoke experiment whose merged CSV must equal a local run's
# (docs/cluster.md). Slurm and munge are an optional package group: only this target installs them.
test-slurm: build
	scripts/setup.sh slurm
	tests/slurm/slurm_test.sh $(BUILD)/rtpar $(CURDIR) $(BUILD)/slurm-test

# omp-conformance: GCC 12.2's libgomp testsuite against rtpar's libgomp.so.1 (docs/openmp.md,
# "Conformance"); fetches the tests into ~/.cache/rtpar once. OMP_CONFORMANCE_FLAGS passes
# options through (--suite DIR, --json FILE, --filter REGEX).
OMP_CONFORMANCE_FLAGS ?=
omp-conformance: build
	python3 tools/omp_conformance.py --lib $(BUILD)/lib/rtpar/omp -j $(JOBS) $(OMP_CONFORMANCE_FLAGS)

# omp-llvm-conformance: LLVM 14's OpenMP runtime tests against rtpar's libomp.so.5 (docs/openmp.md,
# "LLVM's runtime tests"), fetched from Debian's llvm-toolchain-14 source into the build tree; it
# passes when every failure is listed in tests/omp/llvm_known_failures.txt. ~8 minutes on 2 cores,
# so it is a target of its own, like the GCC suite, not part of `make test`.
omp-llvm-conformance: build
	python3 tools/omp_llvm_conformance.py --lib $(BUILD)/lib/rtpar/omp \
	  --cache $(BUILD)/omp-llvm-suite -j $(JOBS) \
	  --known-failures tests/omp/llvm_known_failures.txt $(OMP_CONFORMANCE_FLAGS)

# The sanitizer builds leave out bench/ (peer programs, covered by the normal build's smoke tests)
# to keep CI under 30 minutes on a 2-core runner.
sanitize-asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DRTPAR_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug -DRTPAR_BUILD_BENCH=OFF"

sanitize-tsan:
	$(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DRTPAR_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRTPAR_BUILD_BENCH=OFF"

# fuzz: the libFuzzer targets of fuzz/ (docs/reliability.md), built with clang under ASan and
# UBSan in $(FUZZ_BUILD). ctest there runs each target over its seeds and saved findings once;
# then each target fuzzes for FUZZ_SECONDS. Fails on any finding.
$(FUZZ_BUILD)/build.ninja: | setup
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DRTPAR_FUZZ=ON -DRTPAR_BUILD_TESTS=OFF -DRTPAR_BUILD_BENCH=OFF -DRTPAR_BUILD_EXAMPLES=OFF \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo

fuzz: setup $(FUZZ_BUILD)/build.ninja
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_all
	ctest --test-dir $(FUZZ_BUILD) --output-on-failure -j $(JOBS)
	fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h')

# tidy reads compile commands file by file: the default build compiles in unity batches
# (RTPAR_UNITY_BUILD), whose compile database names the batches, so it configures its own.
TIDY_BUILD ?= build-tidy
tidy: setup
	cmake -S . -B $(TIDY_BUILD) -G Ninja -DRTPAR_UNITY_BUILD=OFF
	clang-tidy -p $(TIDY_BUILD) $$(git ls-files 'src/*.cpp' 'bench/driver/*.cpp')

clean:
	rm -rf build build-asan build-tsan build-fuzz build-tidy

# The two entry points of the README: `make demo` and `make test`. Both install what is missing.
BUILD ?= build
JOBS  ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all setup build demo test sanitize-asan sanitize-tsan format tidy clean

all: build

setup:
	@scripts/setup.sh

$(BUILD)/build.ninja: | setup
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS)

build: setup $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/rtpar check examples/demo.toml
	$(BUILD)/rtpar run examples/demo.toml --duration 10s

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

sanitize-asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DRTPAR_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=Debug"

sanitize-tsan:
	$(MAKE) test BUILD=build-tsan CMAKE_FLAGS="-DRTPAR_SANITIZE=thread -DCMAKE_BUILD_TYPE=RelWithDebInfo"

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h')

tidy: build
	clang-tidy -p $(BUILD) $$(git ls-files 'src/*.cpp' 'bench/driver/*.cpp')

clean:
	rm -rf build build-asan build-tsan

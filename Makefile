# Two commands for a new user: `make run` and `make test`. Everything else is a helper.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all deps configure build run test bench format clean asan fuzz translations package

all: build

deps:
	@bash packaging/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/bin/sandbox-console $(ARGS)

test: build
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS) --timeout 600

bench: build
	bash bench/run-all.sh $(BUILD_DIR)

asan:
	$(MAKE) test BUILD_DIR=build-asan BUILD_TYPE=Debug CMAKE_FLAGS=-DSBX_SANITIZE=ON

# libFuzzer targets (tests/fuzz) with ASan and UBSan in their own clang build folder, each run
# for FUZZ_SECONDS on a copy of its seeds; fails when any target finds something. Once this
# folder exists, `make test` also runs each target briefly.
fuzz: deps
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_CXX_COMPILER=clang++-14 -DSBX_FUZZ=ON -DSBX_BUILD_TESTS=OFF -DSBX_BUILD_BENCH=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target sbx_fuzz
	bash tests/fuzz/run.sh all $(FUZZ_DIR) $(FUZZ_SECONDS)

# The Debian package, $(BUILD_DIR)/sandbox-console_VERSION-1_ARCH.deb (cmake/Packaging.cmake).
# CMake runs again first so that it finds the packaging tools deps may just have installed.
package: build
	cmake $(BUILD_DIR)
	cmake --build $(BUILD_DIR) --target package

# resources/translations/*.ts from the sources' tr() strings.
translations: configure
	cmake --build $(BUILD_DIR) --target translations

format:
	git ls-files '*.cpp' '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)

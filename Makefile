# The two commands: `make run` and `make test`. Both install what is missing (apt), configure and
# build into build/, then start the program or run the whole test suite.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

SHELL := /bin/bash
.PHONY: run test build deps configure clean

deps:
	@scripts/install-deps

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/run-demo $(BUILD)/bin/physarum

test: build
	@set -o pipefail; cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 900 2>&1 | tee ctest-output.log; \
	  rc=$$?; $(CURDIR)/scripts/test-summary .; exit $$rc

clean:
	rm -rf $(BUILD)

# The two commands: `make run` and `make test`. Both install what is missing (apt), configure and
# build into build/, then start the program or run the whole test suite.
# Also: `make install` (PREFIX=/usr/local), `make uninstall`, `make package` (a .deb in build/).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

SHELL := /bin/bash
.PHONY: run test build deps configure clean fuzz install uninstall package

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
	  rc=$$?; $(CURDIR)/scripts/test-summary . || rc=1; exit $$rc

# The record of what `make install` put where (files, and the folders it made) is ours: cmake
# --install rewrites install_manifest.txt on every install (the tests install too) and lists no folders.
install: build
	@scripts/install $(BUILD) $(PREFIX) $(BUILD)/installed-files.txt
	@echo "Installed under $(PREFIX): run 'physarum', 'man physarum'; 'make uninstall' removes it."

uninstall:
	@scripts/uninstall $(BUILD)/installed-files.txt

package: build
	cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/physarum_*.deb

# `make fuzz`: the libFuzzer targets of tests/fuzz, built with clang, ASan and UBSan into their own
# directory, each run for FUZZ_SECONDS on a corpus that starts from seeds made here and the
# regression inputs under tests/fuzz/regressions (every crasher ever found). A finding stops it and
# leaves the input in $(FUZZ_BUILD)/artifacts/: add it to tests/fuzz/regressions/TARGET/ and fix.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= image preset set npy keyframe csv ensemble points

fuzz:
	@scripts/install-deps fuzz
	cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPHYSARUM_FUZZ=ON \
	  -DPHYSARUM_CUDA=OFF -DBUILD_TESTING=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@set -e; f=$(FUZZ_BUILD); mkdir -p $$f/seeds/image $$f/artifacts; \
	  $$f/bin/make_image_seeds $$f/seeds/image; tests/fuzz/make-text-seeds $$f/seeds; \
	  for t in $(FUZZ_TARGETS); do \
	    mkdir -p $$f/corpus/$$t; \
	    echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    $$f/bin/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=3072 -timeout=20 \
	      -print_final_stats=1 -artifact_prefix=$$f/artifacts/$$t- \
	      $$f/corpus/$$t $$f/seeds/$$t $$([ -d tests/fuzz/regressions/$$t ] && echo tests/fuzz/regressions/$$t); \
	  done

clean:
	rm -rf $(BUILD)

# The two commands: `make run` and `make test`. Both install what is missing (apt), configure and
# build into build/, then start the program or run the whole test suite.
# Also: `make install` (PREFIX=/usr/local), `make uninstall`, `make package` (a .deb in build/).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
PREFIX ?= /usr/local

SHELL := /bin/bash
.PHONY: run test build deps configure clean install uninstall package

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

# cmake --install rewrites install_manifest.txt on every install (the tests install too), so keep
# our own list of what `make install` put where, for `make uninstall`.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	cp $(BUILD)/install_manifest.txt $(BUILD)/installed-files.txt
	@echo "Installed under $(PREFIX): run 'physarum', 'man physarum'; 'make uninstall' removes it."

uninstall:
	@scripts/uninstall $(BUILD)/installed-files.txt

package: build
	cd $(BUILD) && cpack -G DEB
	@ls $(BUILD)/physarum_*.deb

clean:
	rm -rf $(BUILD)

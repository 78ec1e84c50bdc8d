# Thin wrapper: the real build is CMake. `make run` and `make test` are the two set-up commands.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
# The WebAssembly module and the playground page (web/, docs/web.md), built with Debian's Emscripten.
WEB_BUILD  ?= build-web
JOBS       ?= $(shell nproc)
EXAMPLE    ?= testdata/configs/qwen/qwen3-8b.json
FUZZ_SECONDS ?= 60
PREFIX     ?= /usr/local
# The Python package: `make python` installs it into the venv VENV, made from PYTHON (any python3: the first on PATH by
# default, Debian's, pyenv's or conda's) with --system-site-packages. The install needs no build tools in that
# interpreter: pyproject.toml's backend builds with CMake, reusing $(BUILD).
PYTHON     ?= python3
VENV       ?= .venv
# format-check looks at every tracked C++ file, or with FORMAT_BASE=<revision> at those changed since then.
FORMAT_BASE ?=

.PHONY: deps deps-browser deps-web build binary python python-test run test web test-web bench-web coverage test-sanitize golden fuzz bench docs install deb format format-check clean

deps:
	@bash cmake/install-deps.sh build

# Headless Chromium for the report's browser test (ctest -L browser); `make run` does not need it.
deps-browser:
	@bash cmake/install-deps.sh browser

# Configured as pip's build backend configures it (CMakePresets.json), so `pip install .` reuses it.
$(BUILD)/CMakeCache.txt: | deps
	cmake --preset default -S . -B $(BUILD)

# Emscripten (clang 14, binaryen, node) for `make web`; `make run` does not need it.
deps-web:
	@bash cmake/install-deps.sh web

$(WEB_BUILD)/CMakeCache.txt: | deps-web
	emcmake cmake -S web -B $(WEB_BUILD) -DCMAKE_BUILD_TYPE=Release -DROPELENS_WERROR=ON

# The playground page: web/index.html, one file holding the page and the WebAssembly module; open it from disk or
# serve it from any static host.
web: deps-web $(WEB_BUILD)/CMakeCache.txt
	cmake --build $(WEB_BUILD) -j $(JOBS)
	@echo "ropelens: the page is web/index.html"

# The module's own tests in node (each document against the CLI's, every config in testdata/configs), then the page
# in headless Chromium (tests/browser/web_in_chromium.py).
test-web: web binary deps-browser
	ROPELENS_WEB_BUILD=$(WEB_BUILD) ROPELENS_BIN=$(BUILD)/ropelens node --test web/tests/
	python3 tests/browser/web_in_chromium.py --ropelens $(BUILD)/ropelens --source . --artefacts $(WEB_BUILD)/artefacts

# Figures: the module's size compressed, the page's weight, load and first-result times, one check in Chromium.
bench-web: web
	python3 bench/web.py --page web/index.html --module $(WEB_BUILD)/ropelens.wasm

# Everything: the binary, its man page and completions, and the test suite.
build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Only the binary, none of the tests.
binary: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target ropelens -j $(JOBS)

# `pip install .` offline into $(VENV), reusing $(BUILD) (after `make run`, only the module is compiled): then
# $(VENV)/bin/python -c 'import ropelens'. A venv made earlier is reused whatever python3 made it, unless its
# interpreter no longer runs. pytest for the package's tests: the venv's, else Debian's linked in (python/backend/venv_pytest.py).
python: deps
	@if [ -e $(VENV) ] && ! $(VENV)/bin/python -c '' 2>/dev/null; then \
	  echo "ropelens: $(VENV) is a venv whose interpreter no longer runs ($$(readlink $(VENV)/bin/python)): remove it, or give VENV=..." >&2; exit 2; fi
	@[ -e $(VENV) ] || $(PYTHON) -m venv --system-site-packages $(VENV)
	@echo "ropelens: installing into $(VENV), whose python is $$($(VENV)/bin/python -c 'import sys; print(sys.executable, sys.version.split()[0])') ($$(readlink -f $(VENV)/bin/python))"
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) ROPELENS_BUILD=$(abspath $(BUILD)) $(VENV)/bin/python -m pip install --no-build-isolation --no-index .
	$(VENV)/bin/python python/backend/venv_pytest.py

# The package's tests in $(VENV), against the command in $(BUILD).
python-test: python
	ROPELENS_BIN=$(abspath $(BUILD))/ropelens $(VENV)/bin/python -m pytest -q python/tests

run: binary
	./$(BUILD)/ropelens check $(EXAMPLE) --target 131072 --exit-zero

test: build deps-browser
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The Python module, when the build has it (ROPELENS_PYTHON): install and deb ship it for Debian's python3.
PYTHON_MODULE = $(shell grep -qs '^ROPELENS_PYTHON:BOOL=ON' $(BUILD)/CMakeCache.txt && echo _ropelens)

# The binary, man page, completions and docs under $(PREFIX); DESTDIR=/tmp/stage stages them.
install: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target ropelens ropelens_docs $(PYTHON_MODULE) -j $(JOBS)
	cmake --install $(BUILD) --prefix $(PREFIX)

# A Debian package of the same files, installed under /usr: $(BUILD)/ropelens_<version>_<arch>.deb.
deb: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) --target ropelens ropelens_docs $(PYTHON_MODULE) -j $(JOBS)
	cd $(BUILD) && cpack -G DEB

# -g1: line tables only, which is all a sanitizer report needs (file:line in every frame); full -g costs a third more
# compile time under the sanitizers. No Python module here: a sanitized extension cannot load into Debian's
# unsanitized python3 (the ASan runtime must come first), and the core it wraps is what this suite runs.
test-sanitize: deps deps-browser
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DROPELENS_WERROR=ON \
	  -DROPELENS_SANITIZE=ON -DROPELENS_PYTHON=OFF
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS)

# The hub sample (testdata/hub/MANIFEST.tsv) config by config: how it was read, engines that refuse it, findings.
coverage: binary
	python3 tools/coverage --bin $(BUILD)/ropelens

golden: build
	python3 ../shared/checks/golden-compare --bin $(BUILD)/ropelens

fuzz:
	@bash cmake/install-deps.sh build fuzz
	CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DROPELENS_FUZZ=ON -DROPELENS_BUILD_TESTS=OFF \
	  -DROPELENS_PYTHON=OFF
	cmake --build $(FUZZ_BUILD) --target ropelens_fuzzers -j $(JOBS)
	bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

bench: binary
	cmake --build $(BUILD) --target ropelens_bench
	./$(BUILD)/ropelens_bench
	bash bench/startup.sh $(BUILD)/ropelens
	bash bench/scan.sh $(BUILD)/ropelens 10000

docs: binary
	./$(BUILD)/ropelens rules --format markdown > docs/rules.md

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

format-check:
	@bash cmake/format-check.sh $(FORMAT_BASE)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD) $(WEB_BUILD) web/index.html

# Thin wrapper: the real build is CMake. `make run` and `make test` are the two set-up commands.
BUILD      ?= build
SAN_BUILD  ?= build-sanitize
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc)
EXAMPLE    ?= testdata/configs/qwen/qwen3-8b.json
FUZZ_SECONDS ?= 60

.PHONY: deps deps-browser build run test test-sanitize golden fuzz bench docs format clean

deps:
	@bash cmake/install-deps.sh build

# Headless Chromium for the report's browser test (ctest -L browser); `make run` does not need it.
deps-browser:
	@bash cmake/install-deps.sh browser

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DROPELENS_WERROR=ON

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/ropelens check $(EXAMPLE) --target 131072 --exit-zero

test: build deps-browser
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-sanitize: deps deps-browser
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DROPELENS_WERROR=ON -DROPELENS_SANITIZE=ON
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS)

golden: build
	python3 ../shared/checks/golden-compare --bin $(BUILD)/ropelens

fuzz: deps
	CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Release -DROPELENS_FUZZ=ON -DROPELENS_BUILD_TESTS=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	bash fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

bench: build
	cmake --build $(BUILD) --target ropelens_bench
	./$(BUILD)/ropelens_bench
	bash bench/scan.sh $(BUILD)/ropelens 10000

docs: build
	./$(BUILD)/ropelens rules --format markdown > docs/rules.md

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)

# Thin driver over CMake. `make demo` and `make test` work on a fresh Debian
# machine: both install what is missing first (scripts/install-deps.sh).
JOBS ?= 2
CMAKE_FLAGS ?=
GCC_DIR := build/gcc
CLANG_DIR := build/clang
SAN_DIR := build/asan
TSAN_DIR := build/tsan
LANES := $(GCC_DIR)/lanes

.PHONY: all deps build demo test test-gcc test-clang test-san test-tsan fuzz bench bench-opensm bench-scaling clean

all: build

deps:
	bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(GCC_DIR) -DCMAKE_C_COMPILER=gcc -DLANES_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(GCC_DIR) -j $(JOBS)

DEMO_FABRIC := dragonfly a=4 p=2 h=2
DEMO_SIM_ENGINES := dla,d3r,dfsssp,updn
DEMO_SIM_OPTS := --pattern uniform --load 0.1:1.0:0.3 --warmup 1000000 --time 2000000

# The default fabric is the 72-node dragonfly of seed 000. The demo compares
# every engine on it (the verifier judges each: minhop and sssp have credit
# loops there, the others do not), then routes it with dfsssp, writes OpenSM's
# tables and verifies them. It ends with a short simulated sweep of uniform
# traffic (`lanes sim`: 1 ms warm-up, 2 ms measured per load) for four
# engines: the table on stdout, the plot in build/demo-sim.svg.
demo: build
	@echo "== lanes topo info $(DEMO_FABRIC)"
	$(LANES) topo info $(DEMO_FABRIC)
	@echo; echo "== lanes compare $(DEMO_FABRIC)"
	$(LANES) compare $(DEMO_FABRIC)
	@echo; echo "== lanes route -e dfsssp $(DEMO_FABRIC) -o build/demo"
	$(LANES) route -e dfsssp $(DEMO_FABRIC) -o build/demo
	@echo; echo "== lanes verify $(DEMO_FABRIC) build/demo"
	$(LANES) verify $(DEMO_FABRIC) build/demo
	@echo; echo "== lanes sim -e $(DEMO_SIM_ENGINES) $(DEMO_FABRIC) $(DEMO_SIM_OPTS) --plot build/demo-sim.svg"
	$(LANES) sim -e $(DEMO_SIM_ENGINES) $(DEMO_FABRIC) $(DEMO_SIM_OPTS) --plot build/demo-sim.svg

# The whole suite with gcc, a warnings-as-errors build with clang, the
# whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer (clang,
# which also builds the libFuzzer targets and fuzzes each one briefly), and
# the unit tests (which route and verify with several thread counts) under
# ThreadSanitizer.
test: build test-gcc test-clang test-san test-tsan

test-gcc:
	cd $(GCC_DIR) && ctest --output-on-failure -j $(JOBS)

test-clang:
	cmake -S . -B $(CLANG_DIR) -DCMAKE_C_COMPILER=clang -DLANES_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(CLANG_DIR) -j $(JOBS)

test-san:
	cmake -S . -B $(SAN_DIR) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DLANES_WERROR=ON \
	  -DLANES_SANITIZE=ON -DLANES_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(SAN_DIR) -j $(JOBS)
	bash scripts/fuzz-smoke.sh $(SAN_DIR) 20
	cd $(SAN_DIR) && ctest --output-on-failure -j $(JOBS)

test-tsan:
	cmake -S . -B $(TSAN_DIR) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLANES_WERROR=ON \
	  -DLANES_TSAN=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(TSAN_DIR) -j $(JOBS)
	cd $(TSAN_DIR) && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -j $(JOBS) -R '^unit\.'

fuzz: deps
	cmake -S . -B $(SAN_DIR) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	  -DLANES_SANITIZE=ON -DLANES_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(SAN_DIR) -j $(JOBS)
	bash scripts/fuzz-smoke.sh $(SAN_DIR) $${FUZZ_SECONDS:-300}

bench: build
	bash bench/run.sh $(LANES)

# Issue 4: lanes' engines against the real OpenSM on ibsim, and each engine's
# routing time and memory against fabric size (tens of minutes each).
bench-opensm: build
	bash bench/opensm_compare.sh $(LANES)

bench-scaling: build
	bash bench/engine_scaling.sh $(GCC_DIR)/bench/bench_route_verify

clean:
	rm -rf build

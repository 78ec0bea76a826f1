# Sluice build entry points. CMake + Ninja underneath; every target first makes sure the
# machine has what it needs (scripts/setup.sh, quick when already done).
.PHONY: all release setup debug asan tsan fuzz test run bench format format-check clean

JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

all: release

setup:
	@bash scripts/setup.sh

define build
	@cmake -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=$(2) $(3) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(1) -j $(JOBS) $(4)
endef

release: setup
	$(call build,build,Release,,)

debug: setup
	$(call build,build-debug,Debug,,)

asan: setup
	$(call build,build-asan,Debug,-DSLUICE_SANITIZER=address -DSLUICE_BUILD_BENCH=OFF,)

tsan: setup
	$(call build,build-tsan,RelWithDebInfo,-DSLUICE_SANITIZER=thread -DSLUICE_BUILD_BENCH=OFF,--target unit_tests)

# libFuzzer (clang) on the Parquet file reader and page decoder, seeded from the Parquet corpus
# when ../shared is present, for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 30
FUZZ_SEEDS ?= ../shared/corpus/parquet-testing
fuzz: setup
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DSLUICE_SANITIZER=fuzzer -DSLUICE_BUILD_FUZZERS=ON -DSLUICE_BUILD_TESTS=OFF -DSLUICE_BUILD_BENCH=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target parquet_file_fuzzer parquet_page_fuzzer
	@bash scripts/run_fuzzers.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_SEEDS)

# Every test: the release build's suite (unit, sqllogictest, shell, DuckDB oracle, example),
# the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the scheduler and
# executor tests under ThreadSanitizer.
test: release asan tsan
	cd build && ctest --output-on-failure -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS)
	$(MAKE) fuzz FUZZ_SECONDS=20
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  build-tsan/tests/unit_tests --gtest_filter='TaskScheduler*:Executor*:ParallelOperators*:Memory*'

# Sluice's main job on a built-in default. Until the scan and the TPC-H generator land this is
# a demonstration of the engine's SQL, types, settings and scheduler.
run: release
	@build/sluice -f scripts/demo.sql
	@build/bench/scheduler_bench --quick

bench: release
	build/bench/scheduler_bench

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build build-debug build-asan build-tsan build-fuzz

# Thin driver over meson: installs what is missing (Debian, as root), configures once,
# builds, and runs every test suite. The real build is meson.build.
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 120
# what the fuzzers start from: every sample, rule program, regression and corpus module,
# plus fuzz/corpus (inputs fuzzing found; `make test` replays them all), and the programs of
# the CLI, --jobs and hardware-probe tests (mma shapes, .b128, special registers)
FUZZ_SEEDS = ptx_samples tests/rules tests/regress tests/corpus fuzz/corpus tests/programs \
  tests/cli tests/jobs tests/hw_tc tests/hw_b128 tests/hw_sreg
PKGS = meson ninja-build re2c bison libcmocka-dev pkg-config gcc g++ perl python3 libedit-dev libzstd-dev
# The tests also drive a browser (--timeline) and validate SARIF with Microsoft's multitool
# (npm; Debian has none), installed under .tools/
TEST_PKGS = chromium npm
SARIF_TOOL = .tools/node_modules/.bin/sarif-multitool
SARIF_PKG = @microsoft/sarif-multitool@5.7.0
DEMO = ptx_samples/mbarrier/producer_consumer.ptx

.PHONY: all deps test-deps build docs demo test check check-asan check-tsan conformance bench fuzz clean

all: build

# Install only what is missing; never reinstall.
deps:
	@missing=""; \
	for c in meson ninja re2c bison pkg-config cc c++ perl python3; do \
	  command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	pkg-config --exists cmocka 2>/dev/null || missing="$$missing cmocka"; \
	pkg-config --exists libedit 2>/dev/null || missing="$$missing libedit"; \
	pkg-config --exists libzstd 2>/dev/null || missing="$$missing libzstd"; \
	if [ -n "$$missing" ]; then \
	  echo "ptxi: installing missing tools:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "ptxi: run as root (or install: $(PKGS))"; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PKGS) >/dev/null; \
	fi

test-deps: deps
	@missing=""; \
	for c in chromium npm; do command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
	  echo "ptxi: installing missing test tools:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || \
	    echo "ptxi: could not install$$missing: the browser and SARIF checks will be skipped"; \
	fi
	@[ -x $(SARIF_TOOL) ] || ! command -v npm >/dev/null || { \
	  echo "ptxi: installing $(SARIF_PKG) (npm) under .tools/"; \
	  npm install --prefix .tools --no-audit --no-fund --silent $(SARIF_PKG) >/dev/null && \
	  chmod u+x .tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool || \
	  echo "ptxi: could not install $(SARIF_PKG): SARIF validation will be skipped"; }

$(BUILD)/build.ninja: | deps
	meson setup $(BUILD)

# -O1: AddressSanitizer finds the same bugs at -O1 and runs the suites much faster
# as at -O0, which keeps make test within its time
$(ASAN_BUILD)/build.ninja: | deps
	meson setup $(ASAN_BUILD) -Dsanitize=true -Doptimization=1 -Ddebug=true

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# Regenerate the documents made from the tables (tests/explain.sh fails when one is stale).
docs: build
	tests/update_docs.sh $(BUILD)/ptxi

demo: build
	@echo "== ptxi run $(DEMO) (a producer/consumer pipeline on two mbarriers)"
	$(BUILD)/ptxi run $(DEMO) --block 64 --arg buf:64 --dump 0 --trace mbarrier

check: build test-deps
	meson test -C $(BUILD) --print-errorlogs || { tests/failed_logs.py $(BUILD); exit 1; }

check-asan: test-deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  PTXI_EXEC_PROGRAMS=$(CURDIR)/$(BUILD)/tests/exec-programs \
	  meson test -C $(ASAN_BUILD) --print-errorlogs --no-suite slow || \
	  { tests/failed_logs.py $(ASAN_BUILD); exit 1; }

# --jobs under ThreadSanitizer: the jobs suite on its own build (not part of `make test`)
check-tsan: deps $(TSAN_BUILD)/build.ninja
	ninja -C $(TSAN_BUILD)
	TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  meson test -C $(TSAN_BUILD) --print-errorlogs --suite jobs

$(TSAN_BUILD)/build.ninja: | deps
	meson setup $(TSAN_BUILD) -Db_sanitize=thread

test: check check-asan

conformance: build
	tests/conformance.sh $(BUILD)/ptxi

# libFuzzer (clang): each harness runs FUZZ_SECONDS with the generated PTX dictionary; new
# inputs go to $(FUZZ_BUILD)/corpus-*, findings to $(FUZZ_BUILD)/crash-* (copy them to
# fuzz/corpus once fixed).
$(FUZZ_BUILD)/build.ninja: | deps
	@command -v clang >/dev/null || { echo "ptxi: make fuzz needs clang"; exit 1; }
	CC=clang CXX=clang++ meson setup $(FUZZ_BUILD) -Dfuzz=true -Dsanitize=true \
	  -Dbuildtype=debug -Dtests=false

fuzz: $(FUZZ_BUILD)/build.ninja
	ninja -C $(FUZZ_BUILD)
	python3 fuzz/gen_dict.py src > $(FUZZ_BUILD)/ptx.dict
	for h in check run; do \
	  mkdir -p $(FUZZ_BUILD)/corpus-$$h && \
	  ASAN_OPTIONS=detect_leaks=0 $(FUZZ_BUILD)/fuzz_$$h -dict=$(FUZZ_BUILD)/ptx.dict \
	    -max_total_time=$(FUZZ_SECONDS) -timeout=60 -rss_limit_mb=2048 -max_len=65536 \
	    -artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus-$$h $(FUZZ_SEEDS) || exit 1; \
	done

bench: build
	bench/run.sh $(BUILD)/ptxi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)

# Fuzzing (docs/robustness.md). Targets run one after the other with one
# worker each (-parallel=1), so the machine stays usable. A finding stops the
# run and leaves the input under the package's testdata/fuzz/<Target>/:
# commit it, and every "go test" replays it from then on.
#   make fuzz                  every target for FUZZTIME (default 1m)
#   make fuzz FUZZTIME=10m     the long run recorded in docs/robustness.md
#   make fuzz-short            the CI run (part of "make test"): the whole-input
#                              targets 10s each, the statement families 4s each
#   make fuzz FUZZ_TARGETS=./core/gelog:FuzzPool FUZZTIME=5m   one target
FUZZTIME ?= 1m
# Inputs that add coverage are minimised for at most this long; Go's default
# (1m) stalls the whole-pipeline targets for most of a short run.
FUZZFLAGS ?= -fuzzminimizetime=3s

# Targets that take a whole input: one line, one file, one HTTP request.
# The fuzzers run on the build the CLI ships ($(SIMD), see the Makefile);
# FuzzTeddy compares its vector scan with the portable byte passes.
FUZZ_ENTRY := \
	./core/plog:FuzzParse \
	./core/gelog:FuzzParse \
	./core/input:FuzzWalk \
	./core:FuzzAnalyze \
	./cmd/imas:FuzzReport \
	./core/export:FuzzWriteJSON \
	./server:FuzzHandler \
	$(if $(SIMD),./core/gelog:FuzzTeddy)
# One target per statement family (core/gelog/fuzz_families_test.go).
FUZZ_FAMILIES := $(addprefix ./core/gelog:Fuzz,Set Continuous Atomic AfterAssign VarMem Malloc Address Pool Devmm)
FUZZ_TARGETS ?= $(FUZZ_ENTRY) $(FUZZ_FAMILIES)

.PHONY: fuzz fuzz-short
TEST_DEPS += fuzz-short

# fuzz-run runs each pkg:Target of $(1) for $(2). Go's fuzzer sometimes
# fails a run with "context deadline exceeded" and no failing input when the
# time is up while a worker is still busy (seen once in CI on a 10 s run):
# such a run is repeated once; a real finding ("Failing input written")
# always fails.
define fuzz-run
	@set -e; for t in $(1); do \
		pkg=$${t%%:*}; name=$${t##*:}; log=$$(mktemp); \
		for try in 1 2; do \
			echo "== $$name ($$pkg) for $(2)"; \
			if $(SIMD) $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(2) -parallel=1 $(FUZZFLAGS) $$pkg 2>&1 | tee $$log; \
				[ $${PIPESTATUS[0]} -eq 0 ]; then break; fi; \
			if [ $$try = 2 ] || grep -q 'Failing input' $$log || ! grep -q 'context deadline exceeded' $$log; then rm -f $$log; exit 1; fi; \
			echo "== $$name: fuzzer stopped on its own deadline without a finding; once more"; \
		done; rm -f $$log; \
	done
endef

fuzz:
	$(call fuzz-run,$(FUZZ_TARGETS),$(FUZZTIME))

fuzz-short:
	$(call fuzz-run,$(FUZZ_ENTRY),10s)
	$(call fuzz-run,$(FUZZ_FAMILIES),4s)

# Performance (README "Performance"). Not part of "make test".
#   make bench        Go benchmarks (-benchmem) of the scanner, parsers, analyses and writers,
#                     then imas total vs grep -c on a generated ~560 MB plog folder (medians
#                     of 3 alternating runs, peak RSS; the result goes to bench/out/result.json),
#                     then the page's throughput in headless Chromium (200 MB, plain and .gz)
#   make bench-check  the same comparison with the baseline commit of testdata/bench/baseline.json
#                     built and run alternately too: fails when imas is >20% slower than it in
#                     the same runs (the stored imas/grep ratio is shown, for the machine)
BENCH_SIZE ?= 560M
BENCH_DIR  ?= /tmp/imas-bench-$(BENCH_SIZE)
.PHONY: bench bench-go bench-data bench-check bench-page-analyze

bench-data:
	@test -f $(BENCH_DIR)/.complete || { rm -rf $(BENCH_DIR) && \
	  $(GO) run ./cmd/imas-gen -profile large -size $(BENCH_SIZE) -o $(BENCH_DIR) && touch $(BENCH_DIR)/.complete; }

bench-go:
	$(SIMD) $(GO) test -run '^$$' -bench . -benchmem ./core/ ./core/plog ./core/gelog ./core/scan ./core/store ./core/analyze ./core/export

bench: cli bench-data bench-go
	@mkdir -p bench/out
	$(GO) run ./internal/benchcmp -dir $(BENCH_DIR) -imas bin/imas -runs 3 -o bench/out/result.json
	@if [ -x /usr/bin/chromium ]; then $(MAKE) --no-print-directory bench-page-analyze; \
	else echo "bench: /usr/bin/chromium missing, no browser throughput (apt install chromium)"; fi

# The page's end-to-end throughput alone (make bench-page has load time,
# input latency and the memory map too).
bench-page-analyze: page
	IMAS_PAGE=$(PAGE) $(GO) test -count=1 -run '^$$' -bench 'PageAnalyze' -benchtime 1x -timeout 30m ./internal/pagetest

# The baseline commit's CLI, built from git (the page is not needed to build it).
BASE_COMMIT = $(shell sed -n 's/.*"base_commit": *"\([0-9a-f]*\)".*/\1/p' testdata/bench/baseline.json)
bin/imas-base: testdata/bench/baseline.json
	@test -n "$(BASE_COMMIT)" || { echo "bench-check: no base_commit in testdata/bench/baseline.json"; exit 1; }
	rm -rf bin/base-src && mkdir -p bin/base-src
	git archive $(BASE_COMMIT) | tar -x -C bin/base-src
	cd bin/base-src && $(SIMD) $(GO) build -o $(CURDIR)/bin/imas-base ./cmd/imas
	rm -rf bin/base-src

bench-check: cli bench-data bin/imas-base
	$(GO) run ./internal/benchcmp -dir $(BENCH_DIR) -imas bin/imas -base bin/imas-base -runs 3 -baseline testdata/bench/baseline.json -check

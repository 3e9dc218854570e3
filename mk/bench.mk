# Performance (docs/performance.md). Not part of "make test".
#   make bench        Go benchmarks (-benchmem) of the scanner, parsers, analyses and writers,
#                     then imas total vs grep -c on a generated ~560 MB plog folder (medians
#                     of 3 alternating runs, peak RSS; the result goes to bench/out/large.json),
#                     then each generated mix (make bench-mixes), then the page's throughput in
#                     headless Chromium (200 MB, plain and .gz); the table of figures in
#                     docs/performance.md is rewritten from this run's bench/out/*.json and *.txt
#                     (internal/benchtable: one row per result, the CPU from /proc/cpuinfo; of the
#                     page's benchmarks, those BENCH_TABLE_PAGE names)
#   make bench-mixes  imas total vs grep -c on each generated mix (internal/gen's sized profiles)
#                     at each size of BENCH_MIX_SIZES: bench/out/MIX-SIZE.json for the figures
#                     table, and one tab-separated row per mix and size (MB/s, records/s, ratio to
#                     grep -c, CPU seconds, peak RSS, and for each size after the first the
#                     scaling: its time / (size ratio × the first size's time), e.g.
#                     5 GB / (10 × 0.5 GB); target ≤ 1.15) appended to bench/out/mixes.tsv; the
#                     hugegraph mix runs once, at its default 10^6 tensors. 5 GB mixes need 5 GB
#                     of disk each under /tmp.
#   make bench-serve  imas serve's peak RSS (VmHWM) beside its -budget: for each mix of
#                     BENCH_SERVE_MIXES, one BENCH_SERVE_SIZE upload alone (peak per byte
#                     of body: what server.DefaultChargePerByte must cover), then
#                     BENCH_SERVE_CLIENTS of them at once to a fresh server at each budget
#                     of BENCH_SERVE_BUDGETS (internal/benchserve; bench/out/serve.txt)
#   make bench-check  the same comparison with the baseline commit of testdata/bench/baseline.json
#                     built and run alternately too: fails when imas is >20% slower than it in
#                     the same runs (the stored imas/grep ratio is shown, for the machine)
BENCH_SIZE ?= 560M
BENCH_DIR  ?= /tmp/imas-bench-$(BENCH_SIZE)
BENCH_TABLE_PAGE ?= ^PageAnalyze/settled/
BENCH_MIXES      ?= large poolheavy ranks smallgraphs allkinds
BENCH_MIX_SIZES  ?= 512M 5G
BENCH_MIX_RUNS   ?= 3
BENCH_SERVE_MIXES   ?= large poolheavy smallgraphs
BENCH_SERVE_SIZE    ?= 256M
BENCH_SERVE_BUDGETS ?= 512MiB,1GiB,2GiB
BENCH_SERVE_CLIENTS ?= 8
.PHONY: bench bench-go bench-data bench-check bench-page-analyze bench-mixes bench-serve

bench-data:
	@test -f $(BENCH_DIR)/.complete || { rm -rf $(BENCH_DIR) && \
	  $(GO) run ./cmd/imas-gen -profile large -size $(BENCH_SIZE) -o $(BENCH_DIR) && touch $(BENCH_DIR)/.complete; }

bench-go:
	$(SIMD) $(GO) test -run '^$$' -bench . -benchmem ./core/ ./core/plog ./core/gelog ./core/scan ./core/store ./core/analyze ./core/export

bench: cli bench-data bench-go
	@mkdir -p bench/out && rm -f bench/out/*.json bench/out/*.txt bench/out/*.tsv
	$(GO) run ./internal/benchcmp -dir $(BENCH_DIR) -imas bin/imas -runs 3 -mix large -o bench/out/large.json
	$(MAKE) --no-print-directory bench-mixes
	@if [ -x /usr/bin/chromium ]; then $(MAKE) --no-print-directory bench-page-analyze; \
	else echo "bench: /usr/bin/chromium missing, no browser throughput (apt install chromium)"; fi
	$(GO) run ./internal/benchtable -doc docs/performance.md -bench '$(BENCH_TABLE_PAGE)' \
	  -command 'imas.html in Chromium' $$(ls bench/out/*.json bench/out/*.txt 2>/dev/null)

# The page's end-to-end throughput alone (make bench-page has load time,
# input latency and the memory map too).
# Its output is kept in bench/out/page.txt for the figures table.
bench-page-analyze: page
	@mkdir -p bench/out
	IMAS_PAGE=$(PAGE) $(GO) test -count=1 -run '^$$' -bench 'PageAnalyze' -benchtime 1x -timeout 30m ./internal/pagetest \
	  > bench/out/page.txt; s=$$?; cat bench/out/page.txt; exit $$s

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

# One directory per mix and size, generated once (.complete marks a full one).
bench-mixes: cli
	@mkdir -p bench/out
	@set -e; first=$(firstword $(BENCH_MIX_SIZES)); for size in $(BENCH_MIX_SIZES); do for mix in $(BENCH_MIXES); do \
	  dir=/tmp/imas-bench-$$mix-$$size; \
	  test -f $$dir/.complete || { rm -rf $$dir && $(GO) run ./cmd/imas-gen -profile $$mix -size $$size -o $$dir && touch $$dir/.complete; }; \
	  scale=; [ $$size = $$first ] || scale="-scale-of bench/out/$$mix-$$first.json"; \
	  $(GO) run ./internal/benchcmp -dir $$dir -imas bin/imas -runs $(BENCH_MIX_RUNS) -mix $$mix -rows bench/out/mixes.tsv $$scale -o bench/out/$$mix-$$size.json; \
	done; done
	@dir=/tmp/imas-bench-hugegraph; \
	test -f $$dir/.complete || { rm -rf $$dir && $(GO) run ./cmd/imas-gen -profile hugegraph -o $$dir && touch $$dir/.complete; }; \
	$(GO) run ./internal/benchcmp -dir $$dir -imas bin/imas -runs $(BENCH_MIX_RUNS) -mix hugegraph -rows bench/out/mixes.tsv -o bench/out/hugegraph.json

# One directory per mix (generated once), sent as one tar body per upload.
bench-serve: cli
	@mkdir -p bench/out
	@set -eo pipefail; inputs=; for mix in $(BENCH_SERVE_MIXES); do \
	  dir=/tmp/imas-bench-$$mix-$(BENCH_SERVE_SIZE); \
	  test -f $$dir/.complete || { rm -rf $$dir && $(GO) run ./cmd/imas-gen -profile $$mix -size $(BENCH_SERVE_SIZE) -o $$dir && touch $$dir/.complete; }; \
	  inputs=$$inputs$${inputs:+,}$$mix=$$dir; \
	done; \
	$(GO) run ./internal/benchserve -imas bin/imas -inputs $$inputs -budgets '$(BENCH_SERVE_BUDGETS)' -clients $(BENCH_SERVE_CLIENTS) | tee bench/out/serve.txt

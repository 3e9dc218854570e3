# The page (docs/page.md): the analyzer in the browser, one HTML file.
#   make page        ./build.sh: public/imas.html (self-contained) and public/index.html + imas.wasm.gz
#   make test-page   build, then the headless-Chromium tests of public/imas.html (part of "make test")
#   make bench-page  build, then throughput, input latency, load time and the 10^6-tensor map
#   make test-page-large   build the page and the CLI, then a PAGE_LARGE (2G) plog folder of
#                    eleven processes in the page against the CLI's report.json (~10 min; not in "make test")
#   make bench-page-folders  build, then PAGE_FOLDERS (1G,2G) folders of eleven processes
#                    through a cold page: MB/s and the tab's memory
PAGE := $(CURDIR)/public/imas.html

.PHONY: page test-page bench-page test-page-large bench-page-folders
TEST_DEPS += test-page

# "make build" is the CLI and the page; the page first, as imas embeds public/.
build: page

page:
	./build.sh

# "make vet" cannot see the js/wasm-only files; they are vetted here. The
# tests read the page named by IMAS_PAGE; without it they skip, so that
# "go test ./..." never tests a stale build.
test-page: page
	GOOS=js GOARCH=wasm $(GO) vet ./ui ./wasm/app ./wasm/engine
	IMAS_PAGE=$(PAGE) $(GO) test -count=1 -timeout 15m ./ui ./wasm/engine ./tools/mkhtml ./internal/pagetest

bench-page: page
	IMAS_PAGE=$(PAGE) $(GO) test -count=1 -run '^$$' -bench 'Page' -benchtime 1x -timeout 60m ./internal/pagetest

# The folders are generated once into $(TMPDIR or /tmp)/imas-page-ranks-<size>
# and kept for the next runs; delete them when done.
PAGE_LARGE ?= 2G
PAGE_FOLDERS ?= 1G,2G

test-page-large: page cli
	IMAS_PAGE=$(PAGE) IMAS_BIN=$(CURDIR)/bin/imas IMAS_PAGE_LARGE=$(PAGE_LARGE) \
	  $(GO) test -count=1 -run '^TestLargeFolder$$' -v -timeout 60m ./internal/pagetest

bench-page-folders: page
	IMAS_PAGE=$(PAGE) IMAS_BENCH_FOLDERS=$(PAGE_FOLDERS) \
	  $(GO) test -count=1 -run '^$$' -bench '^BenchmarkPageFolder$$' -benchtime 1x -timeout 60m ./internal/pagetest

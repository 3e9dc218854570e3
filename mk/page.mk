# The page (docs/page.md): the analyzer in the browser, one HTML file.
#   make page        ./build.sh: public/imas.html (self-contained) and public/index.html + imas.wasm.gz
#   make test-page   build, then the headless-Chromium tests of public/imas.html (part of "make test")
#   make bench-page  build, then throughput, input latency, load time and the 10^6-tensor map
PAGE := $(CURDIR)/public/imas.html

.PHONY: page test-page bench-page
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

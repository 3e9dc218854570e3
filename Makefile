# imas — see README.md. Targets:
#   make demo    run the main job (imas report + total) on a bundled sample
#   make test    every test: vet, unit, golden, browser (chromium, firefox), workerd
#   make build   the CLI into bin/imas and the page into public/
#   make bench   benchmarks (not part of test)
SHELL := /bin/bash
GO ?= go
export GOFLAGS := -buildvcs=false
# On amd64 the CLI is built with GOEXPERIMENT=simd: candidate lines are then
# found by a one-pass AVX2 filter (core/scan/teddy_simd.go). The page runs
# the same filter as a WebAssembly SIMD kernel (internal/wasmsimd). Other
# builds (other CPUs, a plain "go build", the edge worker) use the portable
# byte passes; the tests run all three.
SIMD := $(if $(filter amd64,$(shell $(GO) env GOARCH)),GOEXPERIMENT=simd)

.DEFAULT_GOAL := all
# Feature fragments (page, worker, bench, fuzz) add their targets and hook
# into "test" through TEST_DEPS; they must be read before the rules below.
-include mk/*.mk

.PHONY: all build cli demo test vet unit clean
all: build

# The commit is stamped as in release builds (mk/dist.mk): GOFLAGS has
# -buildvcs=false, so Go records none, and "imas version" would say unknown.
cli:
	$(SIMD) $(GO) build -ldflags '-X imas/internal/driver.commit=$(COMMIT)' -o bin/imas ./cmd/imas

build: cli

demo: cli
	./bin/imas total testdata/samples/mixed/*.log
	./bin/imas report -o mem_report testdata/samples/mixed/*.log

# Packages built for the page and the edge worker (GOOS=js GOARCH=wasm).
WASM_PKGS := ./core/... ./internal/driver ./internal/wasmsimd ./server ./public ./ui ./wasm/...

# go vet and staticcheck (a tool of go.mod: "go tool staticcheck"), each
# native, on the SIMD build of core/gelog, and for js/wasm. The js/wasm run
# uses the native staticcheck binary ("go tool -n" names it).
vet:
	$(GO) vet ./...
	$(if $(SIMD),$(SIMD) $(GO) vet ./core/scan)
	GOOS=js GOARCH=wasm $(GO) vet $(WASM_PKGS)
	$(GO) tool staticcheck ./...
	$(if $(SIMD),$(SIMD) $(GO) tool staticcheck ./core/scan)
	GOOS=js GOARCH=wasm $$($(GO) tool -n staticcheck) $(WASM_PKGS)

unit:
	$(GO) test -count=1 ./...
	$(if $(SIMD),$(SIMD) $(GO) test -count=1 ./core/... ./cmd/imas)

test: vet unit $(TEST_DEPS)

clean:
	rm -rf bin dist mem_report

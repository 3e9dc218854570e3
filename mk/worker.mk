# The edge worker: package server on Cloudflare Workers through
# syumai/workers, built for GOOS=js GOARCH=wasm (docs/server.md).
#   make worker       dist/worker/: build/ (app.wasm + JS shim), config.capnp, wrangler.toml
#   make run-worker   serve dist/worker/ with npm's workerd on 127.0.0.1:8787
#   make test-worker  build the worker and test it under workerd (part of "make test")
#   make serve        imas serve on 127.0.0.1:8080
WORKER_DIR := dist/worker
WORKERD := node_modules/.bin/workerd
# make dist stamps the release bundle's version, commit and date (/healthz).
WORKER_LDFLAGS ?=

.PHONY: worker run-worker test-worker serve
TEST_DEPS += test-worker

worker:
	rm -rf $(WORKER_DIR)
	mkdir -p $(WORKER_DIR)/build
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o $(WORKER_DIR)/build
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags '$(WORKER_LDFLAGS)' -o $(WORKER_DIR)/build/app.wasm ./wasm/edge
	cp wasm/edge/config.capnp wasm/edge/wrangler.toml $(WORKER_DIR)/

run-worker: worker
	$(WORKERD) serve $(WORKER_DIR)/config.capnp

# The end-to-end test uses this build instead of making its own.
test-worker: worker
	IMAS_WORKER_DIR=$(CURDIR)/$(WORKER_DIR) $(GO) test -count=1 -run '^TestWorkerd' ./wasm/edge

serve: page cli
	./bin/imas serve

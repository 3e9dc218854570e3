# The WebAssembly SIMD kernel of the page's candidate scan (internal/wasmsimd,
# docs/performance.md). Its tests run the real kernel under Node against the
# memory of a GOOS=js GOARCH=wasm test binary; part of "make test".
#   make test-wasmsimd   vet the js-only files, then the Node tests (~20 s)
#   make simd-kernel     write the kernel to $(SIMD_KERNEL), for runs of your own:
#                        IMAS_VECTOR_KERNEL=$(SIMD_KERNEL) node --stack-size=8192 \
#                          internal/wasmsimd/run_node.js prog.wasm [args]
SIMD_KERNEL ?= $(CURDIR)/bin/imas-vector.wasm
NODE ?= node

.PHONY: test-wasmsimd simd-kernel
TEST_DEPS += test-wasmsimd

simd-kernel:
	@mkdir -p $(dir $(SIMD_KERNEL))
	$(GO) run ./internal/wasmsimd/cmd/simdkernel -o $(SIMD_KERNEL)

test-wasmsimd: simd-kernel
	GOOS=js GOARCH=wasm $(GO) vet ./internal/wasmsimd/...
	GOOS=js GOARCH=wasm IMAS_VECTOR_KERNEL=$(SIMD_KERNEL) $(GO) test -count=1 \
	  -exec '$(NODE) --stack-size=8192 $(CURDIR)/internal/wasmsimd/run_node.js' ./internal/wasmsimd

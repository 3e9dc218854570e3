//go:build js && wasm

package engine

import "imas/internal/wasmsimd"

// The candidate scan runs on the WebAssembly SIMD kernel where page.js
// could instantiate it (before go.run, so before this init); elsewhere
// gelog keeps its portable scan.
func init() { wasmsimd.Register() }

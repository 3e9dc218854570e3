// Command simdkernel writes the WebAssembly SIMD kernel of the candidate
// scan (internal/wasmsimd) to a file, for runners outside the page: the
// Node tests of internal/wasmsimd and measurements of the wasm build.
package main

import (
	"flag"
	"log"
	"os"

	"imas/internal/wasmsimd"
)

func main() {
	out := flag.String("o", "", "output file")
	flag.Parse()
	if *out == "" {
		log.Fatal("simdkernel: -o is required")
	}
	if err := os.WriteFile(*out, wasmsimd.Kernel(), 0o644); err != nil {
		log.Fatal(err)
	}
}

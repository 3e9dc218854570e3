//go:build js && wasm

package wasmsimd

import (
	"runtime"
	"syscall/js"
	"unsafe"

	"imas/core/scan"
)

// Global is where page.js (or a test runner) puts the kernel's filter,
// instantiated against this program's memory; it is absent where the
// browser has no SIMD.
const Global = "imasVector"

// Register makes the candidate scan (core/scan) use the kernel on Global, if there
// is one, and reports whether there was.
func Register() bool {
	fn := js.Global().Get(Global)
	if fn.Type() != js.TypeFunction {
		return false
	}
	scan.SetVectorFilter(filterOf(fn))
	return true
}

// filterOf calls the kernel's filter: one JS call for as much data as its
// output takes.
func filterOf(fn js.Value) scan.VectorFilter {
	return func(data []byte, t *scan.VectorTables, out []scan.VectorHit) (int, int) {
		// In Go's wasm a pointer is the address in linear memory, and the
		// collector does not move objects; KeepAlive holds the slices
		// until the kernel has returned.
		r := fn.Invoke(addr(unsafe.Pointer(unsafe.SliceData(data))), len(data), addr(unsafe.Pointer(t)),
			addr(unsafe.Pointer(unsafe.SliceData(out))), len(out))
		runtime.KeepAlive(data)
		runtime.KeepAlive(t)
		runtime.KeepAlive(out)
		return r.Index(0).Int(), r.Index(1).Int()
	}
}

func addr(p unsafe.Pointer) int { return int(uintptr(p)) }

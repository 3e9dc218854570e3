// Package prefault asks the kernel to back a freshly allocated slice with
// memory in one call, before the program writes it.
//
// Touching a page for the first time costs a page fault. On VMs a fault
// is a trap to the hypervisor (several µs; a large share of the CPU time of
// "imas total", which fills hundreds of MB of fresh memory), while
// madvise(MADV_POPULATE_WRITE) backs the same pages for a fraction of that,
// with no trap per page. Only slices that are about to be written in full are
// worth it: the big per-chunk and per-graph arrays of the parse and the
// build. Elsewhere (not Linux, kernels before 5.14, wasm) it does nothing.
package prefault

import "unsafe"

// minBytes is the smallest slice worth a system call: a fault costs many
// times a populated page, so four pages already pay for the call, and the
// chunks' node-name arenas (tens of KB each) are above it.
const minBytes = 16 << 10

// Slice populates the pages that lie wholly inside s's backing array (its
// whole capacity). It never changes the contents.
func Slice[T any](s []T) {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < minBytes {
		return
	}
	populate(uintptr(unsafe.Pointer(unsafe.SliceData(s[:cap(s)]))), n)
}

// Package prefault asks the kernel to back a freshly allocated slice with
// memory in one call, before the program writes it.
//
// Touching a page for the first time costs a page fault. On the VMs the
// benchmarks run on a fault is a trap to the hypervisor (~7 µs; ~70 000 of
// them were a third of the CPU time of "imas total" on 560 MB), while
// madvise(MADV_POPULATE_WRITE) backs the same pages for ~2.7 µs each, with
// no trap per page. Only slices that are about to be written in full are
// worth it: the big per-chunk and per-graph arrays of the parse and the
// build. Elsewhere (not Linux, kernels before 5.14, wasm) it does nothing.
package prefault

import "unsafe"

// minBytes is the smallest slice worth a system call. It was 64 KiB (16
// pages, where faults and the call cost about the same on the first VM);
// on a later one a fault cost ~10 µs against ~0.5 µs a page populated, and
// 16 KiB took a fifth of the page faults off "imas total" on 560 MB (the
// chunks' node-name arenas, 30 KB each, were below the old bound).
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

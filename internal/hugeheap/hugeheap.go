// Package hugeheap asks Linux to back the Go heap with transparent huge
// pages (THP). imas builds a model of a few hundred MiB in about a second,
// and on virtual machines each first touch of a 4 KiB page can cost
// 10-15 µs: page faults can be a third of "imas total"'s CPU time. With THP
// in "madvise" mode (the common default) the heap only gets 2 MiB pages
// when asked, and Go does not ask.
package hugeheap

// Advise prepares size bytes of heap address space for huge pages and
// reports whether it did. It allocates, but never touches, one object of
// that size, so the resident set does not grow; the cost is one
// garbage collection of a nearly empty heap. Call it once at start, before
// the heap grows. It does nothing (and returns false) off Linux, when THP
// is not in madvise mode, and where mapping the range could fail (a finite
// RLIMIT_AS or RLIMIT_DATA, vm.overcommit_memory = 2).
func Advise(size int) bool { return advise(size) }

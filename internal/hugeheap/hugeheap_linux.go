//go:build linux

package hugeheap

import (
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

const (
	hugePage     = 2 << 20
	madvHugePage = 14 // MADV_HUGEPAGE
)

func advise(size int) bool {
	// 32-bit address spaces have no room to spare.
	if unsafe.Sizeof(uintptr(0)) < 8 || size < 2*hugePage || !madviseMode() || mappingMayFail() {
		return false
	}
	// The runtime maps heap memory when it first needs it and never
	// unmaps it. An untouched large object makes it map size bytes now,
	// without adding to the resident set; the advice given to that range
	// stays when the runtime later releases pages with MADV_DONTNEED, and
	// the page allocator hands out the lowest free addresses first, so the
	// heap grows into it.
	b := make([]byte, size)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + hugePage - 1) &^ (hugePage - 1)
	end := (p + uintptr(size)) &^ (hugePage - 1)
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvHugePage)
	runtime.KeepAlive(b)
	b = nil
	runtime.GC() // free it now, so it does not raise the GC's heap goal
	return errno == 0
}

// madviseMode reports whether the kernel gives huge pages on request only:
// with "always" there is nothing to do, with "never" nothing to gain.
func madviseMode() bool {
	s, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && strings.Contains(string(s), "[madvise]")
}

// mappingMayFail reports whether mapping the range could fail: a
// failed heap allocation is fatal, so the reservation is only made when
// neither RLIMIT_AS nor RLIMIT_DATA (which counts private writable
// mappings) is finite and the kernel does not refuse to overcommit
// (vm.overcommit_memory = 2 charges mapped, even untouched, memory).
func mappingMayFail() bool {
	const unlimited = ^uint64(0)
	for _, res := range []int{syscall.RLIMIT_AS, syscall.RLIMIT_DATA} {
		var r syscall.Rlimit
		if syscall.Getrlimit(res, &r) != nil || r.Cur != unlimited {
			return true
		}
	}
	s, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err != nil || strings.TrimSpace(string(s)) == "2"
}

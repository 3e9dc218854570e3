package prefault

import (
	"sync/atomic"
	"syscall"
)

const madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14

// unsupported is set once the kernel refused the advice: later calls cost
// nothing.
var unsupported atomic.Bool

func populate(p, n uintptr) {
	if unsupported.Load() {
		return
	}
	page := uintptr(syscall.Getpagesize())
	start := (p + page - 1) &^ (page - 1)
	end := (p + n) &^ (page - 1)
	if end <= start {
		return
	}
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, start, end-start, madvPopulateWrite)
	if errno == syscall.EINVAL || errno == syscall.ENOSYS || errno == syscall.EPERM {
		unsupported.Store(true)
	}
	// Other errors (ENOMEM, EFAULT, EINTR) leave the pages to fault as usual.
}

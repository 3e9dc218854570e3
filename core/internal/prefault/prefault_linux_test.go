package prefault

import (
	"syscall"
	"testing"
	"unsafe"
)

// resident counts the pages of b the kernel has backed (mincore).
func resident(t *testing.T, b []byte) (in, pages int) {
	t.Helper()
	page := uintptr(syscall.Getpagesize())
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + page - 1) &^ (page - 1)
	end := (p + uintptr(len(b))) &^ (page - 1)
	vec := make([]byte, (end-start)/page)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, start, end-start, uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Skipf("mincore: %v", errno)
	}
	for _, v := range vec {
		in += int(v & 1)
	}
	return in, len(vec)
}

func TestSliceBacksPages(t *testing.T) {
	b := make([]byte, 32<<20) // fresh from the OS: not touched by make
	before, pages := resident(t, b)
	Slice(b)
	if unsupported.Load() {
		t.Skip("this kernel has no MADV_POPULATE_WRITE")
	}
	after, _ := resident(t, b)
	t.Logf("%d of %d pages resident before, %d after", before, pages, after)
	if after != pages {
		t.Errorf("%d of %d pages resident after Slice", after, pages)
	}
	for i := 0; i < len(b); i += 4093 {
		if b[i] != 0 {
			t.Fatalf("byte %d is %d after Slice", i, b[i])
		}
	}
}

func TestSliceKeepsContents(t *testing.T) {
	type row struct{ a, b int64 }
	s := make([]row, 100_000, 200_000)
	for i := range s {
		s[i] = row{int64(i), -int64(i)}
	}
	Slice(s)
	for i := range s {
		if s[i] != (row{int64(i), -int64(i)}) {
			t.Fatalf("row %d is %v after Slice", i, s[i])
		}
	}
	Slice([]row(nil))
	Slice(make([]byte, 10))
}

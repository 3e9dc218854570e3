package hugeheap

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestAdvise checks that, when Advise says it advised, the process has a
// mapping flagged for huge pages ("hg" in smaps), and that the heap works
// and stays small afterwards.
func TestAdvise(t *testing.T) {
	ok := Advise(64 << 20)
	t.Logf("advised: %v", ok)
	if runtime.GOOS != "linux" {
		if ok {
			t.Fatal("advised off Linux")
		}
		return
	}
	if ok != hasHugeFlag(t) {
		t.Errorf("Advise returned %v, but a mapping flagged hg: %v", ok, !ok)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 32<<20 {
		t.Errorf("the reservation stayed allocated: HeapAlloc %d", ms.HeapAlloc)
	}
	b := make([][]byte, 0, 64)
	for range 64 {
		b = append(b, make([]byte, 1<<20))
	}
	for _, x := range b {
		x[len(x)-1] = 1
	}
	if Advise(1) {
		t.Error("advised a range smaller than a huge page")
	}
}

func hasHugeFlag(t *testing.T) bool {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmFlags:"); ok && strings.Contains(" "+v+" ", " hg ") {
			return true
		}
	}
	return false
}

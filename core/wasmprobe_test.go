package core_test

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
)

// TestWasmProbe measures core.Analyze on PROBE (a plog) at growing sizes; a
// tool for measuring the wasm build under Node, skipped otherwise.
func TestWasmProbe(t *testing.T) {
	p := os.Getenv("PROBE")
	if p == "" {
		t.Skip("PROBE not set")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	heap := func() uint64 { var ms runtime.MemStats; runtime.ReadMemStats(&ms); return ms.HeapSys >> 20 }
	// PRETOUCH=1 grows the heap by 256 MB and touches it first; =grow only
	// grows it (faster under Node, where growing the wasm memory is dear; in
	// Chromium the same reserve in the page's engine gains nothing, so the
	// page does not do it).
	if os.Getenv("PRETOUCH") != "" {
		b := make([]byte, 256<<20)
		if os.Getenv("PRETOUCH") != "grow" {
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
		}
		runtime.KeepAlive(b)
		b = nil
		runtime.GC()
		debug.FreeOSMemory()
	}
	t.Logf("heap sys before: %d MB", heap())
	sizes := []int{32 << 20, 64 << 20, 128 << 20, len(data), len(data)}
	if v := os.Getenv("PROBE_SIZES"); v != "" { // MB, e.g. "2,200"
		sizes = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, n<<20)
		}
	}
	for _, n := range sizes {
		part := data[:min(n, len(data))]
		var ms0 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		t0 := time.Now()
		if _, err := core.Analyze(context.Background(), []input.Source{input.BytesSource("x.log", part)}, core.Options{}); err != nil {
			t.Fatal(err)
		}
		d := time.Since(t0)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%d MB in %v: %.1f MB/s; GCs %d, pause %v, heap sys %d MB, alloc %d MB", len(part)>>20, d, float64(len(part))/1e6/d.Seconds(),
			ms.NumGC-ms0.NumGC, time.Duration(ms.PauseTotalNs-ms0.PauseTotalNs), ms.HeapSys>>20, (ms.TotalAlloc-ms0.TotalAlloc)>>20)
		runtime.GC()
	}
}

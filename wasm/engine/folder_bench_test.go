package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"imas/core/input"
)

// BenchmarkSessionFolder analyses the plogs of IMAS_ENGINE_FOLDER (skipped
// without it) in a session and reports the Go heap the session holds
// after a collection, and the part the run's encoded rows take.
func BenchmarkSessionFolder(b *testing.B) {
	dir := os.Getenv("IMAS_ENGINE_FOLDER")
	if dir == "" {
		b.Skip("IMAS_ENGINE_FOLDER not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	// The engine's soft limit in the page (serve_js.go).
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(512 << 20))
	for i := 0; i < b.N; i++ {
		var srcs []input.Source
		for _, f := range files {
			srcs = append(srcs, input.FileSource(f))
		}
		// The heap's peak while it works.
		done, peak := make(chan bool), make(chan uint64)
		go func() {
			var top uint64
			var ms runtime.MemStats
			for {
				select {
				case <-done:
					peak <- top
					return
				case <-time.After(20 * time.Millisecond):
					runtime.ReadMemStats(&ms)
					top = max(top, ms.HeapInuse)
				}
			}
		}()
		s := NewSession()
		run, err := s.Analyze(context.Background(), SlotRun, srcs, nil)
		done <- true
		b.ReportMetric(float64(<-peak)/(1<<20), "peak-inuse-MB")
		if err != nil {
			b.Fatal(err)
		}
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "held-MB")
		st := run.Rows.Stats()
		b.ReportMetric(float64(st.Bytes())/(1<<20), "rows-MB")
		b.ReportMetric(float64(st.Bytes())/float64(max(st.Rows, 1)), "B/tensor")
		b.ReportMetric(float64(st.Rows), "tensors")
		runtime.KeepAlive(s)
	}
}

// BenchmarkAnalyzeFolder analyses the plog folder IMAS_BENCH_DIR (the
// page benchmarks' /tmp/imas-page-ranks-1G, say) as the page's engine
// does, with the finished graphs shown (early) and without (plain), to
// compare their cost natively; run each alone, under GOMAXPROCS=1 as in
// wasm, and compare CPU times.
func BenchmarkAnalyzeFolder(b *testing.B) {
	dir := os.Getenv("IMAS_BENCH_DIR")
	if dir == "" {
		b.Skip("IMAS_BENCH_DIR names no folder")
	}
	srcs, diags := input.FromPaths([]string{dir})
	if len(diags) > 0 {
		b.Fatal(diags)
	}
	for _, early := range []bool{false, true} {
		name := "plain"
		if early {
			name = "early"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var e *EarlyList
				if early {
					e = &EarlyList{}
				}
				if _, err := NewSession().AnalyzeShowing(context.Background(), SlotRun, srcs, nil, e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

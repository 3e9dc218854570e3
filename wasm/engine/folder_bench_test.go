package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

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
	for i := 0; i < b.N; i++ {
		var srcs []input.Source
		for _, f := range files {
			srcs = append(srcs, input.FileSource(f))
		}
		s := NewSession()
		run, err := s.Analyze(context.Background(), SlotRun, srcs, nil)
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

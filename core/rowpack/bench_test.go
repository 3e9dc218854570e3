package rowpack

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
)

// BenchmarkFolder analyses the plogs of IMAS_ROWPACK_FOLDER into a store
// and reports what a tensor costs in it and the time to read every graph
// back (skipped without it).
func BenchmarkFolder(b *testing.B) {
	dir := os.Getenv("IMAS_ROWPACK_FOLDER")
	if dir == "" {
		b.Skip("IMAS_ROWPACK_FOLDER not set")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var srcs []input.Source
	for _, f := range files {
		srcs = append(srcs, input.FileSource(f))
	}
	for i := 0; i < b.N; i++ {
		s := New()
		rep, err := core.Analyze(context.Background(), srcs, core.Options{Spill: s})
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range rep.Graphs {
			s.Put(g)
		}
		s.Seal()
		start := time.Now()
		var rows, most int
		var slowest time.Duration
		for _, g := range rep.Graphs {
			t := time.Now()
			full, err := rep.WithRows(g)
			if err != nil {
				b.Fatal(err)
			}
			rows += len(full.Rows)
			if d := time.Since(t); len(full.Rows) > most {
				most, slowest = len(full.Rows), d
			}
		}
		load := time.Since(start)
		st := s.Stats()
		b.ReportMetric(float64(st.Bytes())/float64(st.Rows), "B/tensor")
		b.ReportMetric(float64(st.SegmentBytes)/float64(st.Rows), "segment-B/tensor")
		b.ReportMetric(float64(st.NameBytes)/float64(st.Rows), "name-B/tensor")
		b.ReportMetric(float64(st.Names), "names")
		b.ReportMetric(float64(st.Rows), "tensors")
		b.ReportMetric(float64(st.Bytes())/(1<<20), "store-MB")
		b.ReportMetric(float64(load.Nanoseconds())/float64(rows), "load-ns/tensor")
		b.ReportMetric(float64(most), "largest-graph-tensors")
		b.ReportMetric(slowest.Seconds()*1000, "largest-graph-load-ms")
	}
}

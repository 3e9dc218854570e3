package export_test

import (
	"io"
	"runtime"
	"sync"
	"testing"

	"imas/core/analyze"
	"imas/core/export"
)

// countingWriter counts the bytes of the trace.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkWritePerfetto writes the trace of one graph of 10^6 tensors.
func BenchmarkWritePerfetto(b *testing.B) {
	rep := synthReport(1_000_000)
	var cw countingWriter
	if err := export.WritePerfetto(&cw, rep); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(cw.n)
	b.ReportAllocs()
	for b.Loop() {
		if err := export.WritePerfetto(io.Discard, rep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReport10e6 is "imas report" after the parse for one graph of 10^6
// tensors: every analysis, then every output file (CSVs, report.json, the
// Perfetto trace), written concurrently as the CLI does. The target
// is 5 s.
func BenchmarkReport10e6(b *testing.B) {
	rep := synthReport(1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		analyze.All(rep)
		outs := export.Outputs()
		sizes := make([]int64, len(outs))
		errs := make([]error, len(outs))
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for i, o := range outs {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				var cw countingWriter
				errs[i] = o.Write(&cw, rep)
				sizes[i] = cw.n
			}()
		}
		wg.Wait()
		var n int64
		for i := range outs {
			if errs[i] != nil {
				b.Fatal(outs[i].Name, errs[i])
			}
			n += sizes[i]
		}
		b.ReportMetric(float64(n)/1e6, "MB-written")
	}
}

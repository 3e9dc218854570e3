package export_test

import (
	"io"
	"testing"

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

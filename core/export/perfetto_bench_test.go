package export_test

import (
	"io"
	"sync/atomic"
	"testing"

	"imas/core/analyze"
	"imas/core/export"
	"imas/core/model"
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

// BenchmarkWritePerfettoProto writes the same graph as a protobuf trace
// (every graph: the automatic scope would keep the one graph anyway).
func BenchmarkWritePerfettoProto(b *testing.B) {
	rep := synthReport(1_000_000)
	var write func(io.Writer, *model.Report) error
	for _, o := range export.OutputsWith(export.TraceOptions{Format: export.TraceProto}) {
		if o.Name == "imas_graph_perfetto.pftrace" {
			write = o.Write
		}
	}
	var cw countingWriter
	if err := write(&cw, rep); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(cw.n)
	b.ReportMetric(float64(cw.n)/1e6, "MB")
	b.ReportAllocs()
	for b.Loop() {
		if err := write(io.Discard, rep); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReport10e6 is "imas report" after the parse for one graph of 10^6
// tensors: every analysis, then every output file (CSVs, report.json, the
// Perfetto trace), written concurrently as the CLI does. It should take
// seconds, not minutes: a graph that size is a real model's.
func BenchmarkReport10e6(b *testing.B) {
	rep := synthReport(1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		analyze.All(rep)
		var n atomic.Int64
		err := export.EachOutput(func(o export.Output) error {
			var cw countingWriter
			err := o.Write(&cw, rep)
			n.Add(cw.n)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n.Load())/1e6, "MB-written")
	}
}

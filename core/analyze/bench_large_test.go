package analyze_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"imas/core"
	"imas/core/analyze"
	"imas/core/input"
	"imas/core/model"
	"imas/internal/gen"
)

// The large-input benchmarks time the analyses alone on the model of a big
// input, built once: IMAS_BENCH_INPUT (paths separated by spaces), or
// ~200 MB of the generator's "large" profile (348 graphs, ~160 000 rows).
// Run them with -cpu 1 to see CPU time: the analyses run on GOMAXPROCS
// goroutines.
var (
	largeOnce   sync.Once
	largeRep    *model.Report
	largeDiags  []model.Diagnostic
	largeCounts map[string]int64
)

func largeReport(tb testing.TB) *model.Report {
	largeOnce.Do(func() {
		var srcs []input.Source
		if p := os.Getenv("IMAS_BENCH_INPUT"); p != "" {
			srcs, _ = input.FromPaths(strings.Fields(p))
		} else {
			data, err := gen.Log("large", 200<<20)
			if err != nil {
				tb.Fatal(err)
			}
			srcs = []input.Source{input.BytesSource("large.log", data)}
		}
		// Summary: the model with what every analysis needs; the
		// benchmarks run the rest.
		rep, err := core.Analyze(context.Background(), srcs, core.Options{Summary: true})
		if err != nil {
			tb.Fatal(err)
		}
		largeRep = rep
		largeDiags = rep.Diagnostics
		largeCounts = rep.DiagSummary
	})
	if largeRep == nil {
		tb.Fatal("no large report")
	}
	return largeRep
}

// resetDiags undoes the diagnostics an analysis run added, so that every
// iteration does the same work.
func resetDiags(rep *model.Report) {
	rep.Diagnostics = largeDiags[:len(largeDiags):len(largeDiags)]
	rep.DiagSummary = map[string]int64{}
	for k, v := range largeCounts {
		rep.DiagSummary[k] = v
	}
}

func benchReport(b *testing.B, f func(rep *model.Report)) {
	rep := largeReport(b)
	rows := 0
	for _, g := range rep.Graphs {
		rows += len(g.Rows)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		resetDiags(rep)
		f(rep)
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(len(rep.Graphs)), "graphs")
	b.ReportMetric(float64(rows), "rows")
}

func BenchmarkLargeAll(b *testing.B)     { benchReport(b, analyze.All) }
func BenchmarkLargeSummary(b *testing.B) { benchReport(b, analyze.Summary) }

func BenchmarkLargeCheckAddresses(b *testing.B) {
	benchReport(b, func(rep *model.Report) { analyze.CheckAddresses(rep) })
}

// benchGraphs measures f on every graph of the large report.
func benchGraphs(b *testing.B, f func(g *model.Graph)) {
	benchReport(b, func(rep *model.Report) {
		for _, g := range rep.Graphs {
			f(g)
		}
	})
}

func BenchmarkLargeConflicts(b *testing.B) {
	benchGraphs(b, func(g *model.Graph) { g.Conflicts = analyze.Conflicts(g) })
}

func BenchmarkLargeFigures(b *testing.B) { benchGraphs(b, func(g *model.Graph) { analyze.Figures(g) }) }

func BenchmarkLargeWaste(b *testing.B) {
	benchGraphs(b, func(g *model.Graph) { g.Waste = analyze.Waste(g) })
}

func BenchmarkLargePeak(b *testing.B) {
	benchGraphs(b, func(g *model.Graph) { g.Peak = analyze.Peak(g, analyze.PeakTop) })
}

package analyze_test

import (
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"imas/core/analyze"
	"imas/core/model"
)

// TestAnalyzeProbe times the analyses on the large input of the benchmarks
// (IMAS_BENCH_INPUT or the generated 200 MB); a tool for measuring the wasm
// build under Node, where benchmarks are awkward to run:
//
//	GOOS=js GOARCH=wasm go test -c -o /tmp/analyze.wasm ./core/analyze
//	cd core/analyze && ANALYZE_PROBE=5 IMAS_BENCH_INPUT=/tmp/a200.log \
//	  node --stack-size=8192 $(go env GOROOT)/lib/wasm/wasm_exec_node.js \
//	  /tmp/analyze.wasm -test.run TestAnalyzeProbe -test.v
//
// ANALYZE_PROBE is the number of runs of each; it is skipped when unset.
// ANALYZE_PROBE_ONLY, a regular expression, picks the analyses timed (for
// a CPU profile of one).
func TestAnalyzeProbe(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("ANALYZE_PROBE"))
	if n <= 0 {
		t.Skip("ANALYZE_PROBE not set")
	}
	only, err := regexp.Compile(os.Getenv("ANALYZE_PROBE_ONLY"))
	if err != nil {
		t.Fatal(err)
	}
	rep := largeReport(t)
	each := func(f func(g *model.Graph)) func(*model.Report) {
		return func(rep *model.Report) {
			for _, g := range rep.Graphs {
				f(g)
			}
		}
	}
	for _, c := range []struct {
		name string
		f    func(*model.Report)
	}{
		{"All", analyze.All},
		{"Summary", analyze.Summary},
		{"CheckAddresses", func(rep *model.Report) { analyze.CheckAddresses(rep) }},
		{"Conflicts", each(func(g *model.Graph) { g.Conflicts = analyze.Conflicts(g) })},
		{"Waste", each(func(g *model.Graph) { g.Waste = analyze.Waste(g) })},
		{"Peak", each(func(g *model.Graph) { g.Peak = analyze.Peak(g, analyze.PeakTop) })},
		{"PeakStep", each(func(g *model.Graph) { analyze.PeakStep(g.Rows) })},
	} {
		if !only.MatchString(c.name) {
			continue
		}
		var ds []time.Duration
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		for i := 0; i < n; i++ {
			resetDiags(rep)
			t0 := time.Now()
			c.f(rep)
			ds = append(ds, time.Since(t0))
		}
		runtime.ReadMemStats(&ms1)
		slices.Sort(ds)
		t.Logf("%-15s min %7.1f ms  median %7.1f ms  max %7.1f ms  per run: %5.1f MB allocated, %4.1f GCs", c.name,
			ms(ds[0]), ms(ds[len(ds)/2]), ms(ds[len(ds)-1]),
			float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n)/1e6, float64(ms1.NumGC-ms0.NumGC)/float64(n))
	}
	resetDiags(rep)
	analyze.All(rep)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

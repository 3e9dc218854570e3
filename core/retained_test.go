package core

import (
	"runtime"
	"testing"

	"imas/core/input"
	"imas/internal/gen"
)

// maxBytesPerGraph bounds what imas total holds per finished graph once
// every record is in the model: a GraphDone, the compilation's instance
// (its name and number, for recompilations), the names interned.
const maxBytesPerGraph = 640

// TestFiguresOnlyHoldsLittlePerGraph: a figures-only build ("imas total")
// of many small graphs holds a small fixed record per finished graph, not
// its rows, regions, mallocs or logged fields: the live heap once every
// record is in the model grows by at most maxBytesPerGraph per graph from
// a log of a few hundred graphs to one of five times as many. Nothing is
// timed.
func TestFiguresOnlyHoldsLittlePerGraph(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 50 MB of logs")
	}
	type point struct {
		graphs int
		live   uint64
	}
	measure := func(size int64) point {
		p, err := gen.ProfileByName("smallgraphs", 0, size)
		if err != nil {
			t.Fatal(err)
		}
		// Files of 2 MiB: both logs are read the same way (side by side),
		// so that what the reading holds is the same.
		p.RotateBytes = 2 << 20
		dir := t.TempDir()
		if _, err := gen.Generate(p, dir); err != nil {
			t.Fatal(err)
		}
		srcs, _ := input.FromPaths([]string{dir})
		var live uint64
		rep, err := Analyze(t.Context(), srcs, Options{Summary: true, FiguresOnly: true, Workers: 1, onBuilt: func() {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			live = ms.HeapAlloc
		}})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for range rep.AllGraphs() {
			n++
		}
		return point{n, live}
	}
	small, big := measure(8<<20), measure(40<<20)
	if big.graphs < 4*small.graphs {
		t.Fatalf("%d and %d graphs: the sizes do not differ enough to measure", small.graphs, big.graphs)
	}
	per := (float64(big.live) - float64(small.live)) / float64(big.graphs-small.graphs)
	t.Logf("%d graphs: %d KiB live; %d graphs: %d KiB live; %.0f bytes per graph", small.graphs, small.live>>10, big.graphs, big.live>>10, per)
	if per > maxBytesPerGraph {
		t.Errorf("%.0f bytes held per graph, want at most %d", per, maxBytesPerGraph)
	}
}

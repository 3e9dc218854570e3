package core

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"

	"imas/core/input"
	"imas/internal/gen"
)

// maxBytesPerGraph bounds what imas total holds per finished graph once
// every record is in the model: a GraphDone, the compilation's instance
// (its name and number, for recompilations), the names interned, and the
// duplicate index of the last minutes (the whole of these logs).
const maxBytesPerGraph = 768

// TestFiguresOnlyHoldsLittlePerGraph: a figures-only build ("imas total")
// of many small graphs holds a small fixed record per finished graph, not
// its rows, regions, mallocs or logged fields: the live heap once every
// record is in the model grows by at most maxBytesPerGraph per graph from
// a log of a few hundred graphs to one of five times as many. Each log is
// measured in a process of its own, so that what other tests left in the
// package-level caches (read buffers, interned names) does not count.
// Nothing is timed.
func TestFiguresOnlyHoldsLittlePerGraph(t *testing.T) {
	if size := os.Getenv("IMAS_RETAINED_LOG_SIZE"); size != "" {
		n, _ := strconv.ParseInt(size, 10, 64)
		graphs, live := liveAfterBuild(t, n)
		fmt.Printf("retained: %d %d\n", graphs, live)
		return
	}
	if testing.Short() {
		t.Skip("generates 50 MB of logs")
	}
	measure := func(size int64) (graphs int, live uint64) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFiguresOnlyHoldsLittlePerGraph$")
		cmd.Env = append(os.Environ(), "IMAS_RETAINED_LOG_SIZE="+strconv.FormatInt(size, 10))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if _, err := fmt.Sscanf(string(out), "retained: %d %d", &graphs, &live); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return graphs, live
	}
	sg, sl := measure(8 << 20)
	bg, bl := measure(40 << 20)
	if bg < 4*sg {
		t.Fatalf("%d and %d graphs: the sizes do not differ enough to measure", sg, bg)
	}
	per := (float64(bl) - float64(sl)) / float64(bg-sg)
	t.Logf("%d graphs: %d KiB live; %d graphs: %d KiB live; %.0f bytes per graph", sg, sl>>10, bg, bl>>10, per)
	if per > maxBytesPerGraph {
		t.Errorf("%.0f bytes held per graph, want at most %d", per, maxBytesPerGraph)
	}
}

// liveAfterBuild analyses a smallgraphs log of about size bytes as imas
// total does, and returns its graphs and the live heap once every record
// was in the model.
func liveAfterBuild(t *testing.T, size int64) (graphs int, live uint64) {
	p, err := gen.ProfileByName("smallgraphs", 0, size)
	if err != nil {
		t.Fatal(err)
	}
	// Files of 2 MiB: both logs are read the same way (side by side), so
	// that what the reading holds is the same.
	p.RotateBytes = 2 << 20
	dir := t.TempDir()
	if _, err := gen.Generate(p, dir); err != nil {
		t.Fatal(err)
	}
	srcs, _ := input.FromPaths([]string{dir})
	rep, err := Analyze(t.Context(), srcs, Options{Summary: true, FiguresOnly: true, Workers: 1, onBuilt: func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		live = ms.HeapAlloc
	}})
	if err != nil {
		t.Fatal(err)
	}
	for range rep.AllGraphs() {
		graphs++
	}
	return graphs, live
}

package pagetest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"imas/core"
	"imas/core/input"
	"imas/internal/gen"
)

// TestLargeFiles reads logs of several File slices (the reader worker's
// 16 MiB reads, from one byte stream per file into buffers handed back and
// forth, with a short last slice; and by File.slice, ?read=slices): two
// files one after the other, then the first again gzipped. Every graph row
// must show the figures the core gives natively for the same files (35
// rows: more than the graph table's old page of 25).
func TestLargeFiles(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, size := range []int64{37 << 20, 20<<20 + 12345} {
		data, err := gen.Log("large", size)
		if err != nil {
			t.Fatal(err)
		}
		// One process, the second file later in time: a different pid
		// keeps the two files' graphs apart.
		if i == 1 {
			data = []byte(strings.ReplaceAll(string(data), "777001", "777002"))
		}
		p := filepath.Join(dir, "plog-"+strconv.Itoa(i)+".log")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	want := nativeGraphs(t, files...)
	if len(want) < 2 {
		t.Fatalf("the generated logs have %d graphs", len(want))
	}
	gz := gzipFile(t, files[0], files[0]+".gz")
	wantFirst := nativeGraphs(t, files[0])
	// ?read=slices: File slices, as in browsers without byte streams.
	for _, query := range []string{"", "?read=slices"} {
		t.Run("query="+query, func(t *testing.T) {
			b := newTab(t, 3*time.Minute)
			b.open(t, query)
			b.load(t, 1, files...)
			checkFigures(t, b.shownGraphs(t), want)
			b.load(t, 2, gz)
			checkFigures(t, b.shownGraphs(t), wantFirst)
			b.clean(t)
		})
	}
}

// nativeGraphs is what the core reports for files, as truth.json has it.
func nativeGraphs(t *testing.T, files ...string) []truthGraph {
	t.Helper()
	srcs, diags := input.FromPaths(files)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	rep, err := core.Analyze(context.Background(), srcs, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []truthGraph
	for _, g := range rep.Graphs {
		pid, err := strconv.ParseInt(g.PID, 10, 64)
		if err != nil {
			t.Fatalf("pid %q: %v", g.PID, err)
		}
		out = append(out, truthGraph{PID: pid, Graph: g.Graph, MemType: g.MemType, MemorySize: g.MemorySize, Tensors: g.Tensors})
	}
	return out
}

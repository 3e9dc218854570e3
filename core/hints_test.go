package core

import (
	"context"
	"testing"

	"imas/core/input"
)

// TestRowsAllocatedAtSize checks the row-count hints: in logs where every
// graph is compiled once (and summaries are printed on both channels), each
// graph's rows are allocated once, at their final size.
func TestRowsAllocatedAtSize(t *testing.T) {
	for _, dir := range []string{"../testdata/gen/basic", "../testdata/gen/mixed", "../testdata/samples/mixed"} {
		srcs, diags := input.FromPaths([]string{dir})
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		rep, err := Analyze(context.Background(), srcs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Graphs) == 0 {
			t.Fatalf("%s: no graphs", dir)
		}
		for _, g := range rep.Graphs {
			if cap(g.Rows) != len(g.Rows) {
				t.Errorf("%s %s/%d: %d rows in a slice of capacity %d", dir, g.Graph, g.MemType, len(g.Rows), cap(g.Rows))
			}
		}
	}
}

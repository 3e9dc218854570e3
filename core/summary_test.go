package core

import (
	"context"
	"reflect"
	"testing"

	"imas/core/input"
)

// TestSummaryOnlyLeavesDetailsOut checks Options.Summary: the figures and
// conflicts are those of the full analysis; waste, peak and address checks
// are left out, and so are the operator address rows (only the address
// checks read them).
func TestSummaryOnlyLeavesDetailsOut(t *testing.T) {
	addrRows := 0
	for _, dir := range []string{"../testdata/samples/conflicts", "../testdata/samples/mixed", "../testdata/samples/pool"} {
		srcs, _ := input.FromPaths([]string{dir})
		full, err := Analyze(context.Background(), srcs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Analyze(context.Background(), srcs, Options{Summary: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Graphs) != len(sum.Graphs) || len(full.Graphs)+len(full.Pools) == 0 {
			t.Fatalf("%s: %d graphs, summary %d", dir, len(full.Graphs), len(sum.Graphs))
		}
		for i, g := range full.Graphs {
			s := sum.Graphs[i]
			if g.Figures != s.Figures || !reflect.DeepEqual(g.Conflicts, s.Conflicts) {
				t.Errorf("%s %s: summary figures or conflicts differ", dir, g.Graph)
			}
			if g.Waste == nil || g.Peak == nil || s.Waste != nil || s.Peak != nil {
				t.Errorf("%s %s: waste/peak: full %v/%v, summary %v/%v", dir, g.Graph, g.Waste != nil, g.Peak != nil, s.Waste != nil, s.Peak != nil)
			}
		}
		if len(full.AddressChecks) != len(sum.AddressChecks) {
			t.Errorf("%s: %d address checks, summary %d", dir, len(full.AddressChecks), len(sum.AddressChecks))
		}
		for i := range full.AddressChecks {
			addrRows += len(full.AddressChecks[i].Rows)
			if n := len(sum.AddressChecks[i].Rows); n != 0 {
				t.Errorf("%s: summary keeps %d address rows", dir, n)
			}
		}
		if full.Inputs.Records != sum.Inputs.Records || full.Inputs.Rejected != sum.Inputs.Rejected {
			t.Errorf("%s: records %d/%d rejected, summary %d/%d", dir, full.Inputs.Records, full.Inputs.Rejected, sum.Inputs.Records, sum.Inputs.Rejected)
		}
		for i := range full.Pools {
			if full.Pools[i].PeakLive != sum.Pools[i].PeakLive || full.Pools[i].PeakLive == 0 {
				t.Errorf("%s: pool figures differ", dir)
			}
		}
	}
	if addrRows == 0 {
		t.Error("no sample has operator address rows: the check above checked nothing")
	}
}

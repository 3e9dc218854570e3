package engine

import (
	"context"
	"encoding/json"
	"testing"

	"imas/core"
	"imas/core/input"
	"imas/core/model"
)

// TestWarmUpLog checks that the warm-up log goes down the paths of a real
// one: every candidate line is a record (a rejected line would exercise the
// wrong path), it has graphs with rows, summaries, continuous and atomic
// lines and checked addresses, and it is about the size asked for.
func TestWarmUpLog(t *testing.T) {
	const size = 1 << 20
	log := warmUpLog(size)
	if len(log) < size || len(log) > size+512<<10 { // a graph is ~350 KB
		t.Errorf("%d bytes for %d", len(log), size)
	}
	rep, err := core.Analyze(context.Background(), []input.Source{input.BytesSource("w.log", log)}, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Inputs.Rejected != 0 || rep.Inputs.Records < 2000 || rep.Inputs.Candidates != rep.Inputs.Records {
		t.Errorf("inputs %+v", rep.Inputs)
	}
	if len(rep.Graphs) < 2 {
		t.Fatalf("%d graphs", len(rep.Graphs))
	}
	g := rep.Graphs[0]
	if len(g.Rows) != 800 || !g.HasSummary || len(g.Reassign) == 0 || len(g.AtomicPieces) == 0 || g.Tensors == 0 {
		t.Errorf("graph %s: %d rows, summary %v, %d continuous, %d atomic, %d tensors", g.Graph, len(g.Rows), g.HasSummary, len(g.Reassign), len(g.AtomicPieces), g.Tensors)
	}
	if len(rep.AddressChecks) == 0 || rep.AddressChecks[0].Checked == 0 {
		t.Errorf("address checks %+v", rep.AddressChecks)
	}
	sm, err := WarmUp(context.Background(), 64<<10, 50)
	if err != nil {
		t.Fatal(err)
	}
	var v View
	var pg TensorPage
	var first model.Graph
	for _, part := range []struct {
		raw []byte
		out any
	}{{sm.View, &v}, {sm.Graph, &first}, {sm.Page, &pg}} {
		if err := json.Unmarshal(part.raw, part.out); err != nil {
			t.Fatalf("sample part %.80s: %v", part.raw, err)
		}
	}
	if v.Report == nil || len(v.Report.Graphs) == 0 || first.Graph != v.Report.Graphs[0].Graph || pg.Rows != 800 || len(pg.Items) != 50 {
		t.Errorf("sample: view with %v, first graph %q, page of %d rows showing %d", v.Report, first.Graph, pg.Rows, len(pg.Items))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := WarmUp(ctx, 1<<20, 50); err == nil {
		t.Error("a cancelled warm-up ran to its end")
	}
}

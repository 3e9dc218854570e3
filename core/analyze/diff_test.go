package analyze_test

import (
	"reflect"
	"strconv"
	"testing"

	"imas/core/analyze"
	"imas/core/model"
)

// rg is a run graph with after_reuse ar and tensors given as key:realsize.
func rg(pid, name string, mt, ar int64, tensors ...any) *analyze.RunGraph {
	g := &analyze.RunGraph{PID: pid, Graph: name, MemType: mt, Figures: model.Figures{AfterReuse: ar, MemorySize: ar}}
	for i := 0; i+1 < len(tensors); i += 2 {
		n := int64(tensors[i+1].(int))
		g.Tensors = append(g.Tensors, analyze.RunTensor{Key: tensors[i].(string), Size: (n + 511) / 512 * 512, RealSize: n})
	}
	return g
}

func refs(d *analyze.DiffResult) (pairs [][2]string, onlyOld, onlyNew []string) {
	for _, g := range d.Graphs {
		pairs = append(pairs, [2]string{g.Old.PID + "/" + g.Old.Graph + "/" + strconv.FormatInt(g.Old.MemType, 10), g.New.PID + "/" + g.New.Graph + " by " + g.MatchBy})
	}
	for _, r := range d.OnlyOld {
		onlyOld = append(onlyOld, r.Graph)
	}
	for _, r := range d.OnlyNew {
		onlyNew = append(onlyNew, r.Graph)
	}
	return
}

func TestDiffMatching(t *testing.T) {
	tests := []struct {
		name             string
		old, new         []*analyze.RunGraph
		pairs            [][2]string
		onlyOld, onlyNew []string
	}{
		{"same name, any pid, per memtype",
			[]*analyze.RunGraph{rg("1", "g_0", 2, 0), rg("1", "g_0", 16, 0)},
			[]*analyze.RunGraph{rg("9", "g_0", 16, 0), rg("9", "g_0", 2, 0)},
			[][2]string{{"1/g_0/2", "9/g_0 by name"}, {"1/g_0/16", "9/g_0 by name"}}, nil, nil},
		{"repeated names pair in order",
			[]*analyze.RunGraph{rg("1", "g_0", 2, 0), rg("2", "g_0", 2, 0)},
			[]*analyze.RunGraph{rg("7", "g_0", 2, 0), rg("8", "g_0", 2, 0)},
			[][2]string{{"1/g_0/2", "7/g_0 by name"}, {"2/g_0/2", "8/g_0 by name"}}, nil, nil},
		{"graph ids differ: base name, in order",
			[]*analyze.RunGraph{rg("1", "net_graph_3", 2, 0), rg("1", "net_graph_4", 2, 0)},
			[]*analyze.RunGraph{rg("5", "net_graph_11", 2, 0), rg("5", "net_graph_12", 2, 0)},
			[][2]string{{"1/net_graph_3/2", "5/net_graph_11 by base name"}, {"1/net_graph_4/2", "5/net_graph_12 by base name"}}, nil, nil},
		{"exact names before base names",
			[]*analyze.RunGraph{rg("1", "a_1", 2, 0), rg("1", "a_2", 2, 0)},
			[]*analyze.RunGraph{rg("1", "a_2", 2, 0), rg("1", "a_3", 2, 0)},
			[][2]string{{"1/a_1/2", "1/a_3 by base name"}, {"1/a_2/2", "1/a_2 by name"}}, nil, nil},
		{"recompilation suffix",
			[]*analyze.RunGraph{rg("1", "g_0#2", 2, 0)},
			[]*analyze.RunGraph{rg("1", "g_0", 2, 0)},
			[][2]string{{"1/g_0#2/2", "1/g_0 by base name"}}, nil, nil},
		{"unmatched on both sides",
			[]*analyze.RunGraph{rg("1", "a_0", 2, 0), rg("1", "b_0", 16, 0)},
			[]*analyze.RunGraph{rg("1", "a_0", 2, 0), rg("1", "b_0", 2, 0), rg("1", "c_0", 2, 0)},
			[][2]string{{"1/a_0/2", "1/a_0 by name"}}, []string{"b_0"}, []string{"b_0", "c_0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := analyze.Diff(&analyze.Run{Name: "old", Graphs: tt.old}, &analyze.Run{Name: "new", Graphs: tt.new})
			pairs, onlyOld, onlyNew := refs(d)
			if !reflect.DeepEqual(pairs, tt.pairs) || !reflect.DeepEqual(onlyOld, tt.onlyOld) || !reflect.DeepEqual(onlyNew, tt.onlyNew) {
				t.Errorf("got %v, only old %v, only new %v\nwant %v, only old %v, only new %v", pairs, onlyOld, onlyNew, tt.pairs, tt.onlyOld, tt.onlyNew)
			}
		})
	}
}

func TestDiffTensorsAndFigures(t *testing.T) {
	old := &analyze.Run{Name: "old", Graphs: []*analyze.RunGraph{
		rg("1", "g_0", 2, 4096, "a:output:0", 1000, "b:output:0", 5000, "c:output:0", 300, "same:output:0", 64)}}
	new := &analyze.Run{Name: "new", Graphs: []*analyze.RunGraph{
		rg("2", "g_0", 2, 6144, "a:output:0", 3000, "d:output:0", 200, "same:output:0", 64, "c:output:0", 300)}}
	old.Graphs[0].Figures.ReachTheoryRate = 50
	new.Graphs[0].Figures.ReachTheoryRate = 33.33
	old.Graphs[0].Conflicts = 1
	d := analyze.Diff(old, new)
	g := d.Graphs[0]
	wantMovers := []analyze.TensorChange{
		{Key: "b:output:0", Change: "removed", OldSize: 5120, OldReal: 5000, Delta: -5000},
		{Key: "a:output:0", Change: "resized", OldSize: 1024, NewSize: 3072, OldReal: 1000, NewReal: 3000, Delta: 2000},
		{Key: "d:output:0", Change: "added", NewSize: 512, NewReal: 200, Delta: 200},
	}
	if !reflect.DeepEqual(g.Movers, wantMovers) {
		t.Errorf("movers %+v\nwant %+v", g.Movers, wantMovers)
	}
	wantCounts := analyze.ChangeCounts{Added: 1, Removed: 1, Resized: 1, AddedBytes: 200, RemovedBytes: -5000, ResizedBytes: 2000}
	if g.Counts != wantCounts {
		t.Errorf("counts %+v, want %+v", g.Counts, wantCounts)
	}
	fig := map[string]analyze.Delta{}
	for _, f := range g.Figures {
		fig[f.Name] = f
	}
	for name, want := range map[string]analyze.Delta{
		"after_reuse":       {Name: "after_reuse", Old: 4096, New: 6144, Delta: 2048},
		"reach_theory_rate": {Name: "reach_theory_rate", Old: 50, New: 33.33, Delta: -16.67},
		"conflicts":         {Name: "conflicts", Old: 1, New: 0, Delta: -1},
	} {
		if fig[name] != want {
			t.Errorf("%s: %+v, want %+v", name, fig[name], want)
		}
	}
	if len(d.Totals) == 0 || d.Totals[1] != fig["after_reuse"] {
		t.Errorf("totals %+v", d.Totals)
	}
}

func TestDiffCapsLists(t *testing.T) {
	var tensors []any
	for i := 0; i < analyze.MaxChanges+5; i++ {
		tensors = append(tensors, "t"+strconv.Itoa(i)+":output:0", 512+i)
	}
	d := analyze.Diff(&analyze.Run{Graphs: []*analyze.RunGraph{rg("1", "g", 2, 0)}},
		&analyze.Run{Graphs: []*analyze.RunGraph{rg("1", "g", 2, 0, tensors...)}})
	g := d.Graphs[0]
	if len(g.Added) != analyze.MaxChanges || g.Counts.Added != analyze.MaxChanges+5 || len(g.Movers) != analyze.MaxMovers {
		t.Errorf("added %d (count %d), movers %d", len(g.Added), g.Counts.Added, len(g.Movers))
	}
	if g.Added[0].Key != "t104:output:0" {
		t.Errorf("largest first: got %s", g.Added[0].Key)
	}
}

func TestBaseName(t *testing.T) {
	for in, want := range map[string]string{
		"allreduce_graph_0":   "allreduce_graph",
		"allreduce_graph_0#2": "allreduce_graph",
		"ge_default_20220001": "ge_default",
		"kernel_graph0_1":     "kernel_graph0",
		"plain":               "plain",
		"_1":                  "_1",
	} {
		if got := analyze.BaseName(in); got != want {
			t.Errorf("BaseName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompare(t *testing.T) {
	run := func(name string, ar int64, topo, mop string) *analyze.Run {
		g := rg("1", "g_0", 2, ar)
		g.Figures.Topo, g.Policy, g.Figures.Atomic, g.Figures.Streams = topo, mop, 512, 2
		h := rg("1", "g_0", 16, 1024)
		h.Figures.Topo, h.Policy, h.Figures.Streams = topo, mop, 3
		return &analyze.Run{Name: name, Graphs: []*analyze.RunGraph{g, h}}
	}
	c := analyze.Compare([]*analyze.Run{
		run("dfs", 9000, "DFS", ""),
		run("rdfs-mp", 4096, "RDFS", "MemoryPriority"),
		run("rdfs", 4096, "RDFS", ""),
		run("bfs", 5000, "BFS", "MemoryPriority"),
	})
	var order []string
	for _, r := range c.Runs {
		order = append(order, strconv.Itoa(r.Rank)+":"+r.Run)
	}
	if want := []string{"1:rdfs", "2:rdfs-mp", "3:bfs", "4:dfs"}; !reflect.DeepEqual(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	best := c.Runs[0]
	if best.AfterReuse != 4096+1024 || best.Atomic != 512 || best.Streams != 3 || best.Graphs != 2 || best.Policy != "default" || best.Topo != "RDFS" {
		t.Errorf("best %+v", best)
	}
	if want := []string{`ge.topoSortingMode="2"`}; !reflect.DeepEqual(c.Options, want) {
		t.Errorf("options %v, want %v", c.Options, want)
	}
	c = analyze.Compare([]*analyze.Run{run("bfs", 5000, "BFS", "MemoryPriority")})
	if want := []string{`ge.topoSortingMode="0"`, `ge.exec.memoryOptimizationPolicy="MemoryPriority"`}; !reflect.DeepEqual(c.Options, want) {
		t.Errorf("options %v, want %v", c.Options, want)
	}
	if got := analyze.TopoText("StableRDFS"); got != "3(StableRDFS)" {
		t.Errorf("TopoText: %q", got)
	}
}
